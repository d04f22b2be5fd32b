"""The knockbox command run in this process as from a shell: `knockbox(*args)` gives (exit code,
stdout, stderr). Quicker than a subprocess; the tests that must see a real process (exit status
on a broken pipe, an installed console script) use one instead. `db_rows(db, sql)`: what a
command left in an SQLite file (the history), read and closed again."""

import io
import sqlite3
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


def db_rows(db, sql, *args):
    con = sqlite3.connect(str(db))
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()
