"""The numbers depend on the games alone, as a property: random sequences of what a group does to
its history through the commands (the device plays, `sync`, a second laptop syncs and exports,
backups, typed-in games imported, `import --undo`, `delete` and `delete --undo`, `player rename`
and `--merge`, `stats`, which keeps the ratings in the history as the book does) end, after a
last sync, with

  - every game the device holds in the history as the device holds it, but those deleted (and
    not brought back), and every typed-in game of an import in force, but those deleted: a
    history operation never loses what the device has, and a game is there once;
  - every figure (statistics and ratings, each evening's settlement, the history's list) that of
    a fresh history made from the same games (the history's export imported into a new file).

The device is a journal served on a pseudo-terminal (kit.devjournal), every step a command run in
this process (kit.clirun): a few milliseconds each. Hypothesis draws the sequences; the suite's
profile draws the same ones each run (tests/conftest.py)."""

import json
import os
import random
import shutil
import sqlite3
import tempfile

import pytest
from hypothesis import given, settings, strategies as st

from kit.clirun import knockbox
from kit.devjournal import QUICK, Journal
from kit.gamegen import random_game, random_hand
from knockcore.errors import GameError
from knockcore.game import from_record

NAMES = ("Ann", "Bob", "Cy", "Dee")
NEW_NAMES = ("Robert", "Deirdre", "Ann", "Bob", "Dee", "Cy")
# what is done, as often as a group does it (each with a number that says which, or how)
KINDS = (
    ["play"] * 4
    + ["sync"] * 3
    + ["laptop b", "laptop b", "backup", "paper", "import", "undo", "undo"]
    + ["delete", "undelete", "stats", "rename", "rename"]
)


def sequence(seed, n):
    """n things done, drawn from seed: [(kind, a number that says which or how)]. (Drawn here,
    not by hypothesis's lists: its examples of a list are few lists, each changed a little; a
    seed each gives as many sequences as examples. Shrinking takes ops off the end.)"""
    rnd = random.Random(seed)
    return [(rnd.choice(KINDS), rnd.randrange(2**16)) for _ in range(n)]


def run(*args):
    code, out, err = knockbox(*args)
    assert "Traceback" not in err, err
    return code, out, err


def ok(*args):
    code, out, err = run(*args)
    assert code == 0, (args, out, err)
    return out


class Group:
    """A group's history (db), a second laptop's (b), the device (j), the files made so far, and
    what the history must hold (the model: deleted device games, typed-in games in force)."""

    def __init__(self, work):
        self.work = work
        self.db, self.b = os.path.join(work, "h.sqlite3"), os.path.join(work, "b.sqlite3")
        self.j = Journal()
        self.files = []  # [(path, its records)]
        self.dev_deleted = {}  # device game number -> the delete that took it out
        self.typed = {}  # (synced, hands) of a typed-in game -> None (in) or its delete
        self.batches = {}  # import batch number -> {"undeleted": [...], "added": [...]}
        self.deletes = 0
        self.papers = []  # typed-in records made so far (some are typed in again)

    # ---- the device

    def play(self, seed):
        rnd = random.Random(seed)
        for _ in range(rnd.randint(1, 4)):
            games = self.j.games()
            open_ = sorted(g for g, x in games.items() if not x.over and not x.closed)
            r = rnd.random()
            if not open_ or r < 0.2:
                players = rnd.sample(NAMES, 3)
                self.j.new_game(players, method=rnd.choice((1, 2, 3)), rnd=rnd)
            elif r < 0.7:
                self.j.hand(rnd.choice(open_), rnd=rnd)
            elif r < 0.83:
                self.j.undo(rnd.choice(open_))
            elif r < 0.93:
                self._edit(rnd.choice(open_), rnd)
            elif r < 0.96:
                self.j.end(rnd.choice(open_))
            else:
                self.j.evening()

    def _edit(self, gid, rnd):
        rec = self.j.games()[gid].record()
        if not rec["hands"]:
            return
        i = rnd.randrange(len(rec["hands"]))
        g = from_record(dict(rec, hands=rec["hands"][:i]))
        h = random_hand(g, rnd)
        try:
            from_record(dict(rec, hands=rec["hands"][:i] + [h] + rec["hands"][i + 1 :]))
        except GameError:
            return
        self.j.edit(gid, i, h)

    # ---- the laptops

    def save(self, db, name):
        path = os.path.join(self.work, "%s-%d.json" % (name, len(self.files)))
        text = ok("export", "--json", "--db", db)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        self.files.append((path, json.loads(text)))

    def paper(self, seed):
        rnd = random.Random(seed)
        recs = []
        for _ in range(rnd.randint(1, 2)):
            if self.papers and rnd.random() < 0.3:
                recs.append(rnd.choice(self.papers))  # a sheet typed in again
                continue
            g = random_game(rnd, rules=QUICK, until_over=True)
            rec = dict(g.record(), players=rnd.sample(NAMES, 3))
            day = "2019-%02d-%02d %02d:%02d" % (
                rnd.randint(1, 12),
                rnd.randint(1, 28),
                rnd.randint(18, 23),
                rnd.randint(0, 59),
            )
            rec["meta"] = {"synced": day}
            self.papers.append(rec)
            recs.append(rec)
        path = os.path.join(self.work, "paper-%d.json" % len(self.files))
        with open(path, "w", encoding="utf-8") as f:
            json.dump(recs, f)
        self.files.append((path, recs))

    # ---- the history operations, and what they do to the model

    def import_(self, k):
        if not self.files:
            self.paper(k)
        # half the time the file made last (what a group imports is mostly what just came)
        path, recs = self.files[-1 if k % 2 else k // 2 % len(self.files)]
        before = self._batch()
        ok("import", path, "--db", self.db)
        batch = self._batch()
        undeleted, added = [], []
        for r in recs:
            m = r.get("meta", {})
            if m.get("device") == self.j.dev and m.get("gid") and not m.get("replaced"):
                if self.dev_deleted.pop(m["gid"], None) is not None:
                    undeleted.append(("dev", m["gid"]))
            elif m.get("device") in (None, "import"):
                key = _typed_key(r)
                if key not in self.typed:
                    self.typed[key] = None
                    added.append(key)
                elif self.typed[key] is not None:
                    self.typed[key] = None
                    undeleted.append(("typed", key))
        if batch != before:
            self.batches[batch] = {"undeleted": undeleted, "added": added}
        else:
            assert not undeleted and not added, (undeleted, added)

    def _batch(self):
        con = sqlite3.connect(self.db)
        try:
            return con.execute("SELECT MAX(id) FROM imports WHERE undone IS NULL").fetchone()[0]
        finally:
            con.close()

    def undo(self):
        batch = self._batch()
        code, out, err = run("import", "--undo", "--db", self.db)
        if batch is None:
            assert code == 1
            return
        assert code == 0, err
        done = self.batches.pop(batch)
        redeleted = False
        for what, key in done["undeleted"]:
            if what == "dev" and key not in self.dev_deleted:
                self.dev_deleted[key] = self.deletes + 1
                redeleted = True
            elif what == "typed" and self.typed.get(key, 1) is None:
                self.typed[key] = self.deletes + 1
                redeleted = True
        self.deletes += redeleted
        for key in done["added"]:
            del self.typed[key]

    def delete(self, k):
        games = json.loads(ok("export", "--json", "--db", self.db))
        if not games:
            return
        r = games[k % len(games)]
        ok("delete", str(r["meta"]["id"]), "--yes", "--db", self.db)
        self.deletes += 1
        if r["meta"]["device"] == self.j.dev:
            self.dev_deleted[r["meta"]["gid"]] = self.deletes
        else:
            self.typed[_typed_key(r)] = self.deletes

    def undelete(self):
        ops = [v for v in self.dev_deleted.values()] + [v for v in self.typed.values() if v]
        code, out, err = run("delete", "--undo", "--db", self.db)
        if not ops:
            assert code == 1, out
            return
        assert code == 0, err
        last = max(ops)
        self.dev_deleted = {g: v for g, v in self.dev_deleted.items() if v != last}
        self.typed = {k: (None if v == last else v) for k, v in self.typed.items()}

    def rename(self, seed):
        """A player renamed or merged into another (refused: nothing changes)."""
        rnd = random.Random(seed)
        names = sorted(p["player"] for p in json.loads(ok("stats", "--json", "--db", self.db)))
        if not names:
            return
        old, new = rnd.choice(names), rnd.choice(NEW_NAMES)
        before = ok("export", "--json", "--db", self.db)
        code, out, err = run(
            "player", "rename", old, new, "--db", self.db, *(["--merge"] if new in names else [])
        )
        if code != 0:  # refused: nothing changed
            assert ok("export", "--json", "--db", self.db) == before


def _typed_key(rec):
    synced = rec["meta"]["synced"]
    if len(synced) == 16:
        synced += ":00"
    return synced, json.dumps(rec["hands"], sort_keys=True)


def figures(db):
    """What the commands say of a history, without its ids and evening numbers: the games,
    the statistics with the ratings, and each evening's settlement (by its evening's key)."""
    games = json.loads(ok("export", "--json", "--db", db))
    listed = json.loads(ok("history", "--json", "--db", db))
    number = {r["id"]: r["evening"] for r in listed}
    for r in listed:
        del r["id"], r["evening"]
    settles = {}
    for key, n in {(g["meta"].get("evening"), number[g["meta"]["id"]]) for g in games}:
        if n is None:
            continue
        code, out, err = run("settle", "--json", "--evening", str(n), "--db", db)
        res = json.loads(out) if code == 0 else err
        if code == 0:
            del res["games"], res["skipped"], res["evening"]
        settles[key] = res
    for g in games:
        del g["meta"]["id"]
    return {
        "history": listed,
        "export": games,
        "stats": json.loads(ok("stats", "--json", "--db", db)),
        "settle": settles,
    }


@pytest.mark.slow  # forty sequences of commands
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 24))
def test_whatever_is_done_to_a_history_its_numbers_are_its_games(seed, n):
    work = tempfile.mkdtemp(prefix="knockbox-prop-")
    try:
        check(Group(work), sequence(seed, n))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check(g, ops):
    empty = os.path.join(g.work, "empty.json")
    with open(empty, "w") as f:
        f.write("[]\n")
    ok("import", empty, "--db", g.db)  # (a history with no games yet)
    g.play(0)
    for kind, n in ops:
        if kind == "play":
            g.play(n)
        elif kind == "sync":
            assert g.j.sync(g.db)[0] == 0
        elif kind == "laptop b":  # another laptop syncs the device; its export imported here
            assert g.j.sync(g.b)[0] == 0
            g.save(g.b, "b")
            g.import_(1)
        elif kind == "backup":
            g.save(g.db, "backup")
        elif kind == "paper":
            g.paper(n)
        elif kind == "import":
            g.import_(n)
        elif kind == "undo":
            g.undo()
        elif kind == "delete":
            g.delete(n)
        elif kind == "undelete":
            g.undelete()
        elif kind == "rename":
            g.rename(n)
        elif kind == "stats":  # (the ratings kept in the history, as a book keeps them)
            ok("stats", "--json", "--db", g.db)
    code, out, err = g.j.sync(g.db)
    assert code == 0, err
    # the games: the device's as it holds them (but those deleted), the typed-in games in force
    games = json.loads(ok("export", "--json", "--db", g.db))
    device = {
        r["meta"]["gid"]: (r["hands"], r["meta"]["status"])
        for r in games
        if r["meta"]["device"] == g.j.dev
    }
    assert len(device) == len([r for r in games if r["meta"]["device"] == g.j.dev])
    want = {}
    for gid, x in g.j.games().items():
        if gid not in g.dev_deleted:
            st_ = "over" if x.over else ("abandoned" if x.closed else "playing")
            want[gid] = (x.record()["hands"], st_)
    assert device == want
    typed = sorted(_typed_key(r) for r in games if r["meta"]["device"] == "import")
    assert typed == sorted(k for k, v in g.typed.items() if v is None)
    # every figure: that of a fresh history of the same games
    dump = os.path.join(g.work, "all.json")
    with open(dump, "w", encoding="utf-8") as f:
        f.write(ok("export", "--json", "--db", g.db))
    fresh = os.path.join(g.work, "fresh.sqlite3")
    ok("import", dump, "--db", fresh)
    assert figures(g.db) == figures(fresh)
