"""The knockbox command run in this process as from a shell: `knockbox(*args)` gives (exit code,
stdout, stderr). Quicker than a subprocess; the tests that must see a real process (exit status
on a broken pipe, an installed console script) use one instead."""
import io
import sys

from knockbox import cli


def knockbox(*args):
    out, err = io.StringIO(), io.StringIO()
    so, se = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = cli.main([str(a) for a in args])
    finally:
        sys.stdout, sys.stderr = so, se
    return code, out.getvalue(), err.getvalue()
