"""`knockbox show GAME`: one game from the history, hand by hand, for people (or its standings
JSON); in English or Russian (--lang, default from the locale)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from knockbox import messages
from knockbox.commands.common import (
    add_db_option,
    add_lang_option,
    game_id,
    lang_of,
    open_history,
    status_text,
    write_json,
    write_table,
)
from knockbox.history import standings
from knockbox.textsafe import visible

if TYPE_CHECKING:
    from argparse import Namespace
    from knockbox.cli import Parser

HELP = "standings of one game from the history"
DESCRIPTION = "Show a game's hands and standings (id from `knockbox history`)."


def arguments(p: Parser) -> None:
    p.add_argument("game", metavar="GAME", help="game id")
    add_db_option(p)
    p.add_argument("--json", action="store_true", help="print the standings JSON")
    add_lang_option(p, "the output and the rules core's messages")


def run(args: Namespace, out: TextIO, err: TextIO) -> int:
    from knockbox.cliwords import LANGS
    from knockbox.report.words import LANGS as HANDS
    from knockbox.report.words import hand_result

    row = open_history(args).game(game_id(args.game))
    st = standings(row)
    if args.json:
        st["meta"] = {
            "id": row["id"],
            "device": row["device_id"],
            "epoch": row["epoch"],
            "gid": None if row["replaced"] else row["gid"],
            "replaced": row["replaced"],
            "evening": row["evening"],
            "synced": row["synced"],
            "status": row["status"],
        }
        write_json(out, st)
        return 0
    lang = lang_of(args)
    w, hw = LANGS[lang], HANDS[lang]
    p = [visible(n) for n in row["players"]]  # names as the terminal must show them
    out.write(
        w["show_head"]
        % (
            row["id"],
            row["method"],
            ", ".join(p),
            status_text(row, lang),
            "" if row["evening"] is None else w["show_evening"] % row["evening"],
            row["synced"][:16],
            visible(row["device_id"]),
            row["epoch"],
            w["show_replaced"] if row["replaced"] else w["show_gid"] % row["gid"],
        )
        + "\n"
    )
    if row["error"]:
        out.write(w["refused_at"] % visible(messages.translate(row["error"], lang)) + "\n")
    rules = row["record"].get("rules") or {}
    out.write(w["rules"] % ", ".join("%s=%s" % (k, rules[k]) for k in sorted(rules)) + "\n\n")
    table = [(w["hand"], w["dealer"], w["result"]) + tuple(p)]
    for h, x in zip(row["record"]["hands"], st["hands"]):
        table.append(
            (str(x["hand"]), p[x["dealer"]], hand_result(h, x, p, hw))
            + tuple(str(v) for v in x["points"])
        )
    for key in ("totals", "boxes", "final", "net"):
        if key in st:
            table.append((w[key], "", "") + tuple(str(v) for v in st[key]))
    write_table(out, table, right=(3, 4, 5))
    if st["over"]:
        won = [p[s] for s in st["winners"]]
        out.write("\n" + w["winners" if len(won) > 1 else "winner"] % hw["and"].join(won) + "\n")
        for payer, payee, amount in st.get("payments", []):
            out.write(w["pays"] % (p[payer], p[payee], amount) + "\n")
    else:
        nx = st["next"]
        idle = nx["idle"]
        out_word = w["advises" if row["method"] == 2 else "sits_out"]
        out.write(
            "\n" + w["next"] % p[nx["dealer"]] + ("" if idle is None else out_word % p[idle]) + "\n"
        )
    return 0
