#!/usr/bin/env python3
"""The commit message check: a subject of at most 72 characters, `area: what`, then, if there is
a body, a blank line before it. CONTRIBUTING.md says why and lists the areas.

    tools/commitmsg.py MSGFILE        as git's commit-msg hook (pre-commit runs it so; or
                                      ln -s ../../tools/commitmsg.py .git/hooks/commit-msg)
    tools/commitmsg.py --log [REV]    every commit in BASE..REV (default HEAD) of the repository
                                      it is run in: what ./test runs (tests/test_habits.py)

Exit code 0 when every message passes; otherwise one line per problem on stderr, exit code 1.
The history before BASE, the last commit made before this check existed, is left as it was.
Standard library only, so that it runs as a hook with any Python 3.
"""

import re
import subprocess
import sys

# The last commit before the check (release 0.3.0): older subjects were written without it.
BASE = "34dec84902a555c67895bad4d701a78d07d8451b"
SUBJECT_MAX = 72
# area: the part of the repository a commit changes (CONTRIBUTING.md, "Commits")
AREAS = (
    "shared",  # the rules core, shared/knockcore
    "firmware",  # firmware/
    "host",  # the laptop tool, host/knockbox
    "tests",  # tests/
    "bench",  # bench/
    "docs",  # README.md, docs/, CONTRIBUTING.md
    "hardware",  # hardware/
    "tools",  # tools/
    "project",  # packaging, setup, CI, the test scripts, pre-commit
    "release",  # a version and its changelog
    "all",  # the whole tree at once (a formatter run)
)
SUBJECT = re.compile(r"^((?:[a-z]+)(?:, [a-z]+)*): (\S.*)$")
# git's own subjects: a merge, a revert
GIT_MADE = re.compile(
    r"^(Merge (branch|remote-tracking branch|tag|commit|pull request) |Revert \")"
)
# git commit --fixup / --squash: for a rebase, never for main (refused in --log)
AUTOSQUASH = re.compile(r"^(fixup|squash|amend)! ")


def problems(message, in_history=False):
    """What is wrong with one commit message (its text as git keeps it), as lines to print."""
    lines = message.split("\n")
    subject = lines[0]
    if not subject.strip():
        return ["the subject line is empty"]
    if GIT_MADE.match(subject):
        return []
    if AUTOSQUASH.match(subject) and not in_history:
        return []
    out = []
    if len(subject) > SUBJECT_MAX:
        out.append("the subject is %d characters, at most %d" % (len(subject), SUBJECT_MAX))
    m = SUBJECT.match(subject)
    if not m:
        out.append("the subject is not `area: what` (areas: %s)" % ", ".join(AREAS))
    else:
        unknown = [a for a in m.group(1).split(", ") if a not in AREAS]
        if unknown:
            out.append("unknown area %s (areas: %s)" % (", ".join(unknown), ", ".join(AREAS)))
    if len(lines) > 1 and lines[1].strip():
        out.append("no blank line between the subject and the body")
    return out


def cleaned(text):
    """A message file as git leaves it for the commit-msg hook: without its comment lines and
    without what follows the scissors line of `git commit -v`."""
    keep = []
    for line in text.split("\n"):
        if line.startswith("# ") and ">8" in line:
            break
        if not line.startswith("#"):
            keep.append(line)
    return "\n".join(keep).strip("\n")


def check_file(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        found = problems(cleaned(f.read()))
    for p in found:
        print("commit message: %s" % p, file=sys.stderr)
    return 1 if found else 0


def git(*args):
    r = subprocess.run(["git", *args], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("commitmsg: git %s: %s" % (" ".join(args), r.stderr.strip()))
    return r.stdout


def check_log(rev="HEAD"):
    """Every commit after BASE up to rev (merges included: their subject is git's)."""
    if subprocess.run(
        ["git", "cat-file", "-e", BASE + "^{commit}"], capture_output=True
    ).returncode:
        print(
            "commitmsg: the base commit %s is not in this clone's history "
            "(a shallow clone? git fetch --unshallow)" % BASE[:12],
            file=sys.stderr,
        )
        return 1
    bad = 0
    out = git("log", "--format=%H%x00%B%x00", "%s..%s" % (BASE, rev))
    parts = out.split("\0")
    for sha, body in zip(parts[0::2], parts[1::2]):
        sha = sha.strip()
        for p in problems(body.strip("\n"), in_history=True):
            print("%s %s: %s" % (sha[:10], body.split("\n", 1)[0][:50], p), file=sys.stderr)
            bad += 1
    return 1 if bad else 0


def main(argv):
    if argv[:1] == ["--log"] and len(argv) <= 2:
        return check_log(*argv[1:])
    if len(argv) == 1 and not argv[0].startswith("-"):
        return check_file(argv[0])
    print("usage: tools/commitmsg.py MSGFILE | --log [REV]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
