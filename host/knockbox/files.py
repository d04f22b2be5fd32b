"""Files the laptop tool writes for people (an export, a report, the book's pages): whole or not
at all, so an interrupted or failed write never leaves half a file where a good one was."""
import json
import os
import tempfile

from knockbox.errors import UserError


def write_whole(path, parts, shown=None):
    """Write the text or bytes pieces in parts to path through a temporary file in the same
    folder renamed over it (text as UTF-8, line ends as given). An OSError is a UserError naming
    shown (default: path), and the temporary file is removed."""
    path = os.path.abspath(path)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".knockbox-", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            for part in parts:
                f.write(part.encode("utf-8") if isinstance(part, str) else part)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException as e:     # (Ctrl-C too: no temporary file left behind)
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        if not isinstance(e, OSError):
            raise
        raise UserError("%s: %s" % (shown or path, e.strerror or e)) from None


def read_json(path, stdin=None):
    """The JSON value in file path ("-": stdin), or a UserError that names the file and says
    what is wrong with it (cannot be read, not UTF-8, not JSON)."""
    try:
        if path == "-":
            text = stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        raise UserError("%s: %s" % (path, e.strerror or e)) from None
    except UnicodeDecodeError:
        raise UserError("%s: not UTF-8 text" % path) from None
    try:
        return json.loads(text)
    except ValueError as e:
        raise UserError("%s: not valid JSON (%s)" % (path, e)) from None
