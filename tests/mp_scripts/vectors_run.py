# Runs every rules vector under MicroPython and prints one JSON line per vector:
# {"name": ..., "standings": {...}} or {"name": ..., "error": "..."}; last line the heap peak.
import json
import sys

import micropython
from knockcore.errors import GameError
from knockcore.game import from_record

with open(sys.argv[1]) as f:
    vectors = json.load(f)
for v in vectors:
    out = {"name": v["name"]}
    try:
        out["standings"] = from_record(v["game"]).standings()
    except GameError as e:
        out["error"] = str(e)
    print(json.dumps(out))
print(json.dumps({"peak": micropython.mem_peak()}))
