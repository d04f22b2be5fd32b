"""The players of the history: their names as it keeps them, and a player renamed or merged.

A rename or merge changes the name in every game and is kept as an alias (table aliases), so
that a game that arrives later with the old name (a sync from a device that still has it, an
import) is stored under the new one: named(rec) gives a record its names as the history keeps
them (knockbox.players: one Unicode form, trimmed, drawable by the device, distinct), renamed.
An alias is kept only for a name a device or an import gave (table names, seen()): renaming a
player back (Dee -> Deirdre -> Dee) leaves none, so a real "Deirdre" synced later stays herself.
A game in which an alias would give two seats one name (Bob and Bobby at one table after `rename
Bobby Bob --merge`) keeps that name as given, and clashes() says so. History.players; the device
mirror and the imports name the games they store through it.
"""

from __future__ import annotations

import json
from typing import Any, TYPE_CHECKING

from knockbox import players as P
from knockbox.usererror import UserError
from knockbox.plural import count
from knockbox.bounds import listed

if TYPE_CHECKING:
    from knockbox.history import Patient
    from knockbox.history.rows import GameRows


# The version of knockbox.players' rules a history's names follow (its meta "names"): a history
# of another is put right when opened (clean_names). 2: drawable, invisibles out, distinct.
NAMES = "2"


class Players:
    """The players' names over the history's connection db; a game's names are set through rows
    (knockbox.history.rows.GameRows)."""

    def __init__(self, db: Patient, rows: GameRows) -> None:
        self.db = db
        self.rows = rows
        self._aliases: dict[str, str] | None = None  # aliases(), read once
        self._clashes: dict = {}  # named() met these: {names: [(old, new)]}

    def aliases(self) -> dict[str, str]:
        """{old name: the name it stands for now}."""
        if self._aliases is None:
            self._aliases = dict(self.db.execute("SELECT name, player FROM aliases"))
        return self._aliases

    def named(self, rec: dict[str, Any]) -> dict[str, Any]:
        """rec with its players' names as the history keeps them (knockbox.players.from_device:
        cleaned, drawable, distinct; then renamed), or rec itself when they are so already; a
        rename that would give two seats one name is not made (that name stays as given:
        clashes())."""
        rec = self.cleaned(rec)
        names = rec.get("players")
        if not isinstance(names, list):
            return rec
        al = self.aliases()
        new = [al.get(n, n) if isinstance(n, str) else n for n in names]
        if new == names:
            return rec
        kept: list = []
        while True:  # a rename that would seat one player twice: that name stays as given
            clash = [i for i, n in enumerate(new) if new.count(n) > 1 and n != names[i]]
            if not clash:
                break
            for i in clash:
                kept.append((names[i], new[i]))
                new[i] = names[i]
        if kept:
            self._clashes[tuple(names)] = kept
        return rec if new == names else dict(rec, players=new)

    @staticmethod
    def cleaned(rec: dict[str, Any]) -> dict[str, Any]:
        """rec with its players' names as knockbox.players.from_device keeps a device's names,
        not renamed: as a device or a file gave them."""
        names = rec.get("players") if isinstance(rec, dict) else None
        if not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
            return rec
        new = P.from_device(names)
        return rec if new == names else dict(rec, players=new)

    def seen(self, names: object) -> None:
        """A device or an import gave these names (an alias is kept only for such a name)."""
        if isinstance(names, list):
            self.db.executemany(
                "INSERT OR IGNORE INTO names VALUES (?)",
                [(P.clean(n),) for n in names if isinstance(n, str)],
            )

    def clashes(self) -> list[Any]:
        """The lines that say which games kept a name a rename made another player's (named()
        met them since the last call)."""
        out = [
            "a game of %s keeps %s as given (renamed %s by `knockbox player rename`): one game "
            "cannot have one player twice"
            % (
                ", ".join(map(repr, names)),
                " and ".join(repr(old) for old, _ in renamed),
                " and ".join(repr(new) for _, new in renamed),
            )
            for names, renamed in sorted(self._clashes.items())
        ]
        self._clashes = {}
        return out

    def clean_names(self) -> None:
        """The games stored before names were kept as knockbox.players keeps them now (a history
        of schema 1 or 2, or one whose meta "names" is older than NAMES), put so in place, and
        the aliases' names with them; meta "names" says it is done."""
        for row_id, names in self.db.execute("SELECT id, players FROM games").fetchall():
            names = json.loads(names)
            if P.from_device(names) == names:
                continue
            rec = json.loads(
                self.db.execute("SELECT record FROM games WHERE id = ?", (row_id,)).fetchone()[0]
            )
            new = self.named(rec)
            if new is not rec:
                self.rows.set_players(row_id, new)
        for name, player in self.db.execute("SELECT name, player FROM aliases").fetchall():
            pair = (P.clean(name), P.from_device([player])[0])
            if pair != (name, player):
                self.db.execute("DELETE FROM aliases WHERE name = ?", (name,))
                if pair[0] != pair[1]:
                    self.db.execute("INSERT OR REPLACE INTO aliases VALUES (?, ?)", pair)
        self._aliases = None
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('names', ?)", (NAMES,))

    def names_current(self) -> bool:
        """Whether the history's names are kept as knockbox.players keeps them (meta "names")."""
        row = self.db.execute("SELECT value FROM meta WHERE key = 'names'").fetchone()
        return row is not None and row[0] == NAMES

    def names(self) -> list[str]:
        """Every player's name in the history (of the games the rules core checked), sorted:
        one index step a name (a sync's cost does not grow with the games)."""
        names: list[str] = []
        while True:
            r = self.db.execute(
                "SELECT MIN(player) FROM seats WHERE player > ?", (names[-1] if names else "",)
            ).fetchone()[0]
            if r is None:
                return names
            names.append(r)

    def _games_of(self, name: str) -> list[tuple[int, str, str]]:
        """[(row id, players, record)] of the games in which name plays."""
        key = json.dumps(name, ensure_ascii=False)
        return [
            (i, json.loads(p), rec)
            for i, p, rec in self.db.execute(
                "SELECT id, players, record FROM games WHERE instr(players, ?) > 0", (key,)
            )
            if name in json.loads(p)
        ]

    def rename(self, old: str, new: str, merge: bool = False) -> int:
        """Player old becomes new in every game (and in the copies and the games taken out the
        history keeps), and stays an alias of new if a device or an import gave that name
        (seen()); merge: new is a player already (their games become one player's). Returns the
        number of games changed; UserError (nothing changed) for no such player, new a player already without merge, or
        a game in which both play."""
        try:
            old, new = P.text(P.clean(old), "the old name"), P.check(new, "the new name")
        except ValueError as e:
            raise UserError(str(e)) from None
        if old == new:
            raise UserError("%r is that name already" % old)
        games = self._games_of(old)
        if not games and old not in self.aliases().values():
            raise UserError("no player %r in the history (see `knockbox stats`)" % old)
        theirs = self._games_of(new)
        both = sorted(set(i for i, _, _ in games) & set(i for i, _, _ in theirs))
        if both:
            raise UserError(
                "%r and %r both play in game %s: one game cannot have them as one "
                "player" % (old, new, listed(map(str, both)))
            )
        if (theirs or new in self.aliases().values()) and not merge:
            raise UserError(
                "%r is a player already (%s): `knockbox player rename %s %s "
                "--merge` puts the games of %r under %r"
                % (new, count(len(theirs), "game"), P.arg(old), P.arg(new), old, new)
            )
        for row_id, names, rec in games:
            self.rows.set_players(
                row_id, dict(json.loads(rec), players=[new if n == old else n for n in names])
            )
        self._rename_kept(old, new)
        # aliases: each name a device or an import gave -> the name its player has now (one
        # step: they are kept flat); old as given, if it was given and stood for itself
        self.db.execute("UPDATE aliases SET player = ? WHERE player = ?", (new, old))
        if (
            old not in self.aliases()
            and self.db.execute("SELECT 1 FROM names WHERE name = ?", (old,)).fetchone()
        ):
            self.db.execute("INSERT INTO aliases VALUES (?, ?)", (old, new))
        self.db.execute("DELETE FROM aliases WHERE name = player")  # (renamed back)
        self._aliases = None
        return len(games)

    def _rename_kept(self, old: str, new: str) -> None:
        """old becomes new in what the history keeps besides the games: the copies of device
        games (knockbox.history.copies) and the games taken out (table gone), but where
        both play."""
        key = "%" + json.dumps(old, ensure_ascii=False)[1:-1] + "%"
        for table, cols in (
            ("versions", "device_id, epoch, gid, source"),
            ("gone", "device_id, epoch, gid"),
        ):
            for row in self.db.execute(
                "SELECT %s, record FROM %s WHERE record LIKE ?" % (cols, table), (key,)
            ).fetchall():
                rec = json.loads(row[-1])
                names = rec.get("players")
                if not isinstance(names, list) or old not in names or new in names:
                    continue
                rec = dict(rec, players=[new if n == old else n for n in names])
                self.db.execute(
                    "UPDATE %s SET record = ? WHERE %s"
                    % (table, " AND ".join("%s = ?" % c for c in cols.split(", "))),
                    (json.dumps(rec, ensure_ascii=False, sort_keys=True),) + tuple(row[:-1]),
                )
