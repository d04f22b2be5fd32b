"""The book's head to head: the net between the two players (what they paid each other in the
games both played), not the player's whole net, on a history of the rules' worked examples whose
payments are worked out by hand (docs/RULES.md section 5)."""

from kit import evenings as E
from kit.clirun import knockbox
from kit.pages import rows


def test_head_to_head_net_is_between_the_two(tmp_path):
    db, out = str(tmp_path / "h.sqlite3"), tmp_path / "book"
    # method 1 as Ann, Bob, Cy: finals 40/0/276, Bob sat out the last hand (100 more to Cy):
    #   Bob pays Ann 40, Ann pays Cy 236, Bob pays Cy 376
    # method 2 as Cy (box), Ann, Bob: V = 214: Ann and Bob pay Cy 214 each
    # method 3 as Ann, Bob, Cy: finals 425/88/35: Bob pays Ann 337, Cy pays Ann 390, Cy pays
    #   Bob 53
    # a game still being played counts for nothing
    E.sync_into(
        db,
        E.journal(
            [
                E.game(E.M1, ["Ann", "Bob", "Cy"]),
                E.game(E.M2, ["Cy", "Ann", "Bob"]),
                E.game(E.M3, ["Ann", "Bob", "Cy"]),
                E.game(E.UNFINISHED, ["Ann", "Bob", "Cy"]),
            ]
        ),
    )
    code, _, err = knockbox("book", "--db", db, "-o", out, "--lang", "en")
    assert code == 0, err
    index = rows(out / "index.html", "ratings")
    want = {
        "Ann": {"Bob": 40 + 337, "Cy": -236 - 214 + 390},
        "Bob": {"Ann": -40 - 337, "Cy": -376 - 214 + 53},
        "Cy": {"Ann": 236 + 214 - 390, "Bob": 376 + 214 - 53},
    }
    for name, against in want.items():
        page = rows(out / index[name]["href"], "h2h")
        assert {o: int(page[o]["net"].replace("\u2212", "-")) for o in page} == against
        assert {o: page[o]["together"] for o in page} == {o: "3" for o in against}
        # the player's whole net (the worked examples' -196 -214 +727 for Ann) is the sum
        assert int(index[name]["net"]) == sum(against.values())
    assert int(index["Ann"]["net"]) == -196 - 214 + 727
