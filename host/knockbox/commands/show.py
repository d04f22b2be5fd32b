"""`knockbox show GAME`: one game from the history, hand by hand, for people (or its standings
JSON)."""

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

HELP = "standings of one game from the history"
DESCRIPTION = "Show a game's hands and standings (id from `knockbox history`)."
_KIND = {"knock": "%s knocks", "gin": "%s gin", "undercut": "undercut by %s", "void": "void"}


def arguments(p):
    p.add_argument("game", metavar="GAME", help="game id")
    add_db_option(p)
    p.add_argument("--json", action="store_true", help="print the standings JSON")
    add_lang_option(p)


def run(args, out, err):
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
    p = [visible(n) for n in row["players"]]  # names as the terminal must show them
    out.write(
        "game %d: method %s, %s; %s; %ssynced %s from device %s (epoch %d, %s)\n"
        % (
            row["id"],
            row["method"],
            ", ".join(p),
            status_text(row, lang_of(args)),
            "" if row["evening"] is None else "evening %d; " % row["evening"],
            row["synced"][:16],
            visible(row["device_id"]),
            row["epoch"],
            "its game number since given to another game"
            if row["replaced"]
            else "game %d" % row["gid"],
        )
    )
    if row["error"]:
        out.write(
            "refused by the rules core at %s\n"
            % visible(messages.translate(row["error"], lang_of(args)))
        )
    rules = row["record"].get("rules") or {}
    out.write("rules: %s\n\n" % ", ".join("%s=%s" % (k, rules[k]) for k in sorted(rules)))
    table = [("hand", "dealer", "result") + tuple(p)]
    for x in st["hands"]:
        who = " & ".join(p[s] for s in x["winners"])
        what = _KIND.get(x["kind"], x["kind"])
        table.append(
            (str(x["hand"]), p[x["dealer"]], what % who if "%s" in what else what)
            + tuple(str(v) for v in x["points"])
        )
    for key in ("totals", "boxes", "final", "net"):
        if key in st:
            table.append((key, "", "") + tuple(str(v) for v in st[key]))
    write_table(out, table, right=(3, 4, 5))
    if st["over"]:
        out.write("\nwinner: %s\n" % " & ".join(p[s] for s in st["winners"]))
        for payer, payee, amount in st.get("payments", []):
            out.write("%s pays %s %d\n" % (p[payer], p[payee], amount))
    else:
        nx = st["next"]
        out.write(
            "\nnext: %s deals%s\n"
            % (p[nx["dealer"]], "" if nx["idle"] is None else ", %s sits out" % p[nx["idle"]])
        )
    return 0
