# Runs under the MicroPython unix port: reads a game record on stdin, prints its standings as JSON.
# `knockbox replay --engine micropython` starts this with MICROPYPATH pointing at the core.
import json
import sys

from knockcore.errors import GameError
from knockcore.game import from_record


def main() -> None:
    try:
        rec = json.loads(sys.stdin.read())
    except ValueError:
        sys.stderr.write("not valid JSON\n")
        sys.exit(1)
    try:
        s = from_record(rec).standings()
    except GameError as e:
        sys.stderr.write(str(e.args[0] if e.args else e) + "\n")
        sys.exit(1)
    sys.stdout.write(json.dumps(s))
    sys.stdout.write("\n")


main()
