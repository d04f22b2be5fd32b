"""Writes games.json: the shared corpus of rules test vectors. Every expectation below was worked
out by hand from RULES.md (the arithmetic is in the comments), never by running our code.
Run: python tests/vectors/make_games.py"""
import json
import os

N = None
V = []


def case(name, method, start, hands, expect=None, rules=None, error=None, players=("A", "B", "C")):
    g = {"format": "knockbox-game/1", "method": method, "players": list(players), "start": start,
         "rules": rules or {"preset": "seed"}, "hands": hands}
    c = {"name": name, "game": g}
    if error:
        c["error"] = error
    else:
        c["expect"] = expect
    V.append(c)


def k(s, c):
    return {"knock": s, "counts": c}


def gin(s, c):
    return {"gin": s, "counts": c}


VOID = {"void": True}

# ---- Method 1 -------------------------------------------------------------------------------
M1 = [k(0, [4, 19, N]), gin(2, [22, N, 0]), k(1, [N, 6, 6]), VOID, k(2, [31, N, 2])]
case("m1 worked example (RULES 5)", 1, {"idle": 2, "dealer": 1}, M1, {
    "over": True, "totals": [15, 0, 101], "boxes": [1, 0, 3], "final": [40, 0, 276],
    "winners": [2], "net": [-196, -416, 612],
    # B pays A 40; A pays C 276-40 = 236; B pays C 276 + 100 (sat out the final hand).
    "payments": [[1, 0, 40], [0, 2, 236], [1, 2, 376]],
    "hands": [{"hand": 1, "kind": "knock", "winners": [0], "points": [15, 0, 0], "dealer": 1},
              {"hand": 2, "kind": "gin", "winners": [2], "points": [0, 0, 47], "dealer": 2},
              {"hand": 3, "kind": "undercut", "winners": [2], "points": [0, 0, 25], "dealer": 1},
              {"hand": 4, "kind": "void", "winners": [], "points": [0, 0, 0], "dealer": 0},
              {"hand": 5, "kind": "knock", "winners": [2], "points": [0, 0, 29], "dealer": 0}]})
# Classic: C gin 22+20=42, undercut 0+10, C knocks +29: C = 81, not over.
# Hand 5: C beat A, so A sits out and B comes in to deal.
case("m1 worked hands, classic preset, not over", 1, {"idle": 2, "dealer": 1}, M1, {
    "over": False, "totals": [15, 0, 81], "boxes": [1, 0, 3],
    "next": {"dealer": 1, "active": [1, 2], "idle": 0}}, rules={"preset": "classic"})
# A gin v B 98: 98+25 = 123 ends it. Final A 123+25+100 = 248. Pairwise A +496, B -248, C -248.
# idle rule: C sat out the final hand and pays 100 more.
ONE = [gin(0, [0, 98, N])]
case("m1 gin ends at once, idle extra", 1, {"idle": 2, "dealer": 1}, ONE, {
    "over": True, "totals": [123, 0, 0], "boxes": [1, 0, 0], "final": [248, 0, 0],
    "winners": [0], "net": [596, -248, -348]})
# shutout rule: B and C won no hand, each pays 100 more.
case("m1 gin ends at once, shutout extra", 1, {"idle": 2, "dealer": 1}, ONE, {
    "over": True, "final": [248, 0, 0], "net": [696, -348, -348]},
    rules={"preset": "seed", "m1_extra": "shutout"})
# undercut_bonus 80. H1 B knocks 10 v C 10: undercut C +80; B out, A in and deals.
# H2 C knocks 9 v A 9: undercut A +80; C out, B in and deals.
# H3 B knocks 7 v A 2: undercut A +5+80 = 85 -> A 165, over; C sat out.
# Final A 165+50+100 = 315, B 0, C 80+25 = 105; sum 420; 3F-S: 525, -420, -105; C pays 100.
case("m1 ends on an undercut, custom bonus", 1, {"idle": 0, "dealer": 1},
     [k(1, [N, 10, 10]), k(2, [9, N, 9]), k(1, [2, 7, N])], {
         "over": True, "totals": [165, 0, 80], "boxes": [2, 0, 1], "final": [315, 0, 105],
         "winners": [0], "net": [625, -420, -205],
         "hands": [{"hand": 1, "kind": "undercut", "winners": [2], "points": [0, 0, 80], "dealer": 1},
                   {"hand": 2, "kind": "undercut", "winners": [0], "points": [80, 0, 0], "dealer": 0},
                   {"hand": 3, "kind": "undercut", "winners": [0], "points": [85, 0, 0], "dealer": 1}]},
     rules={"preset": "seed", "undercut_bonus": 80})
# A knock at 0 is gin (docs/RULES.md, "A knock at 0"): it cannot be undercut, not even by a 0.
# A knocks 0 v B 0: gin, A +0+25 = 25 and a box; B lost and sits out, C comes in and deals.
case("m1 knock at zero is gin, a 0 does not undercut it", 1, {"idle": 2, "dealer": 0},
     [k(0, [0, 0, N])], {
         "over": False, "totals": [25, 0, 0], "boxes": [1, 0, 0],
         "next": {"dealer": 2, "active": [0, 2], "idle": 1},
         "hands": [{"hand": 1, "kind": "gin", "winners": [0], "points": [25, 0, 0], "dealer": 0}]})
case("m1 void first: same players, same dealer", 1, {"idle": 1, "dealer": 2}, [VOID, VOID], {
    "over": False, "totals": [0, 0, 0], "boxes": [0, 0, 0],
    "next": {"dealer": 2, "active": [0, 2], "idle": 1}})
# target 20: A knocks 2 v B 21 = +19 (not over), B out, C deals; A knocks 1 v C 2 = +1 -> 20.
case("m1 reaching the target exactly ends it", 1, {"idle": 2, "dealer": 1},
     [k(0, [2, 21, N]), k(0, [1, N, 2])], {
         "over": True, "totals": [20, 0, 0], "winners": [0],
         # final A 20+50+100 = 170; net 340, -170, -170; B sat out the last hand: -100 more.
         "final": [170, 0, 0], "net": [440, -270, -170]},
     rules={"preset": "seed", "target": 20})

# ---- Method 2 -------------------------------------------------------------------------------
M2 = [k(1, [18, 3, N]), gin(0, [0, 12, N]), k(0, [7, N, 5]), k(0, [1, N, 40]), gin(0, [0, 30, N])]
case("m2 worked example (RULES 5)", 2, {"box": 0, "captain": 1}, M2, {
    "over": True, "totals": [131, 42, 42], "boxes": [3, 2, 2], "final": [306, 92, 92],
    "winners": [0], "net": [428, -214, -214], "next_game": {"box": 1, "captain": 2},
    "payments": [[1, 0, 214], [2, 0, 214]],
    "hands": [{"hand": 1, "kind": "knock", "winners": [1, 2], "points": [0, 15, 15], "dealer": 1},
              {"hand": 2, "kind": "gin", "winners": [0], "points": [37, 0, 0], "dealer": 0},
              {"hand": 3, "kind": "undercut", "winners": [1, 2], "points": [0, 27, 27], "dealer": 2},
              {"hand": 4, "kind": "knock", "winners": [0], "points": [39, 0, 0], "dealer": 0},
              {"hand": 5, "kind": "gin", "winners": [0], "points": [55, 0, 0], "dealer": 1}]})
# Classic: team 15, box gin 12+20 = 32, undercut 2+10 = 12 (team 27), box 39 (71), gin 30+20 (121).
# Final box 121+60+100 = 281, team 27+40 = 67, V = 214.
case("m2 worked hands, classic preset", 2, {"box": 0, "captain": 1}, M2, {
    "over": True, "totals": [121, 27, 27], "final": [281, 67, 67], "net": [428, -214, -214]},
    rules={"preset": "classic"})
case("m2 after the box wins, the partner comes in and deals", 2, {"box": 0, "captain": 1}, M2[:2], {
    "over": False, "totals": [37, 15, 15], "boxes": [1, 1, 1],
    "next": {"dealer": 2, "active": [0, 2], "idle": 1}})
# Team shutout: B gin v A 60 = 85; B knocks 1 v A 30 = +29 -> 114. Box won nothing:
# team final 114+50+100+100 = 364, box 0, V = 364; the box pays each partner 364.
case("m2 partnership wins with the shutout extra", 2, {"box": 0, "captain": 1},
     [gin(1, [60, 0, N]), k(1, [30, 1, N])], {
         "over": True, "totals": [0, 114, 114], "boxes": [0, 2, 2], "final": [0, 364, 364],
         "winners": [1, 2], "net": [-728, 364, 364], "next_game": {"box": 1, "captain": 2},
         "hands": [{"hand": 1, "kind": "gin", "winners": [1, 2], "points": [0, 85, 85], "dealer": 1},
                   {"hand": 2, "kind": "knock", "winners": [1, 2], "points": [0, 29, 29], "dealer": 0}]})
# Box in seat 2, captain seat 0: C gin v A 90 = 115 ends it; team won nothing: shutout extra.
# Box final 115+25+100+100 = 340; V = 340; box nets +680. Next game: box 0 (captain), captain 1.
case("m2 box wins at once with the shutout extra", 2, {"box": 2, "captain": 0},
     [gin(2, [90, N, 0])], {
         "over": True, "final": [0, 0, 340], "winners": [2], "net": [-340, -340, 680],
         "next_game": {"box": 0, "captain": 1}})

# ---- Method 3 -------------------------------------------------------------------------------
M3 = [k(0, [5, 20, 30]), gin(1, [14, 0, 9]), k(1, [25, 8, 3]), k(2, [6, 17, 6]), VOID,
      gin(0, [0, 30, 35]), k(0, [2, 40, 20])]
case("m3 worked example (RULES 5)", 3, {"dealer": 2}, M3, {
    "over": True, "totals": [225, 63, 10], "boxes": [4, 1, 1], "final": [425, 88, 35],
    "winners": [0], "net": [727, -284, -443],
    "payments": [[1, 0, 337], [2, 0, 390], [2, 1, 53]],
    "hands": [{"hand": 1, "kind": "knock", "winners": [0], "points": [45, 0, 0], "dealer": 2},
              {"hand": 2, "kind": "gin", "winners": [1], "points": [0, 63, 0], "dealer": 0},
              {"hand": 3, "kind": "undercut", "winners": [2], "points": [0, 0, 30], "dealer": 1},
              {"hand": 4, "kind": "undercut", "winners": [0], "points": [17, 0, -20], "dealer": 2},
              {"hand": 5, "kind": "void", "winners": [], "points": [0, 0, 0], "dealer": 0},
              {"hand": 6, "kind": "gin", "winners": [0], "points": [105, 0, 0], "dealer": 0},
              {"hand": 7, "kind": "knock", "winners": [0], "points": [58, 0, 0], "dealer": 1}]})
# Pairwise: 15+25 = 40; gin 63; C (8-3)+(25-3) = 27; A (6-6)+(17-6) = 11, C -20; gin 105;
# A (40-2)+(20-2) = 56. A 212, B 63, C 7. Final 412, 88, 32; sum 532; net 704, -268, -436.
case("m3 worked hands, pairwise formula", 3, {"dealer": 2}, M3, {
    "over": True, "totals": [212, 63, 7], "boxes": [4, 1, 1], "final": [412, 88, 32],
    "net": [704, -268, -436]}, rules={"preset": "seed", "m3_formula": "pairwise"})
# Double tie below the knocker: B and C each score 7-3 = 4 and a box; no penalty (not a tie).
# Then all three at 5: B knocked; A and C both win 0 and a box; B pays the tie penalty.
DT = [k(0, [7, 3, 3]), k(1, [5, 5, 5])]
case("m3 double ties", 3, {"dealer": 0}, DT, {
    "over": False, "totals": [0, -16, 4], "boxes": [1, 1, 2],  # H1 B,C; H2 A,C
    "next": {"dealer": 2, "active": [0, 1, 2], "idle": None},
    "hands": [{"hand": 1, "kind": "undercut", "winners": [1, 2], "points": [0, 4, 4], "dealer": 0},
              {"hand": 2, "kind": "undercut", "winners": [0, 2], "points": [0, -20, 0], "dealer": 1}]})
case("m3 double tie with penalty on undercut too", 3, {"dealer": 0}, DT[:1], {
    "totals": [-20, 4, 4], "boxes": [0, 1, 1]},
    rules={"preset": "seed", "m3_penalty_on": "tie_or_undercut"})
# A knocks 8, B 3, C 25: B wins (8+25)-3 = 30; with tie_or_undercut A also loses 20.
case("m3 single undercut, penalty on undercut", 3, {"dealer": 2}, [k(0, [8, 3, 25])], {
    "totals": [-20, 30, 0], "boxes": [0, 1, 0]},
    rules={"preset": "seed", "m3_penalty_on": "tie_or_undercut", "m3_tie_penalty": 20})
case("m3 single undercut, no penalty by default", 3, {"dealer": 2}, [k(0, [8, 3, 25])], {
    "totals": [0, 30, 0]})
# Custom tie penalty 35 takes the knocker below zero: B ties A at 5: (5+30)-5 = 30.
case("m3 tie penalty makes a negative total", 3, {"dealer": 1}, [k(0, [5, 5, 30])], {
    "over": False, "totals": [-35, 30, 0], "boxes": [0, 1, 0],
    "next": {"dealer": 2, "active": [0, 1, 2], "idle": None}},
    rules={"preset": "seed", "m3_tie_penalty": 35})
# m3_target 10: B and C tie at 10 (>= target but shared): play on. B knocks 1 v 2, 3: +4 -> 14.
# Final A 0, B 14+50+100 = 164, C 10+25 = 35; sum 199: -199, 293, -94; A won nothing: pays 100.
case("m3 shared top total plays on", 3, {"dealer": 0}, [k(0, [10, 0, 0]), k(1, [2, 1, 3])], {
    "over": True, "totals": [0, 14, 10], "boxes": [0, 2, 1], "winners": [1],
    "final": [0, 164, 35], "net": [-299, 393, -94]},
    rules={"preset": "seed", "m3_target": 10})
case("m3 gin against zeros, classic", 3, {"dealer": 0}, [gin(0, [0, 0, 0])], {
    "totals": [40, 0, 0], "boxes": [1, 0, 0]}, rules={"preset": "classic"})
# A knock at 0 is gin in method 3 too: A knocks 0, B 0, C 10 is not B tying the knocker (B +10,
# A -20) but A's gin: 0 + 10 + 40 = 50, a box, no penalty.
case("m3 knock at zero is gin, not a tie", 3, {"dealer": 2}, [k(0, [0, 0, 10])], {
    "over": False, "totals": [50, 0, 0], "boxes": [1, 0, 0],
    "hands": [{"hand": 1, "kind": "gin", "winners": [0], "points": [50, 0, 0], "dealer": 2}]})
case("m3 void keeps the dealer", 3, {"dealer": 1}, [VOID], {
    "over": False, "totals": [0, 0, 0], "next": {"dealer": 1, "active": [0, 1, 2], "idle": None}})
case("cyrillic names", 3, {"dealer": 0}, [k(2, [20, 30, 4])], {"totals": [0, 0, 46]},
     players=("Аня", "Борис", "Ёжик"))

# ---- Bad input (RULES 6): refused with a message naming the hand and field ---------------------
case("count above 98", 3, {"dealer": 0}, [k(0, [5, 99, 3])], error="hand 1: counts[1]: 99 is not a count 0..98")
case("negative count", 3, {"dealer": 0}, [k(0, [5, 9, 3]), k(0, [5, -1, 3])], error="hand 2: counts[1]")
case("fractional count", 3, {"dealer": 0}, [k(0, [5, 9.5, 3])], error="counts[1]")
case("boolean count", 3, {"dealer": 0}, [k(0, [5, True, 3])], error="counts[1]")
case("knock above the limit", 3, {"dealer": 0}, [k(0, [11, 20, 30])], error="hand 1: knock: A's count 11 is above the knock limit 10")
case("knock above a custom limit", 1, {"idle": 2, "dealer": 0}, [k(0, [6, 20, N])],
     error="above the knock limit 5", rules={"preset": "seed", "knock_limit": 5})
case("gin with a count", 3, {"dealer": 0}, [gin(1, [5, 3, 30])], error="hand 1: gin: B's count must be 0")
case("count for the idle seat", 1, {"idle": 2, "dealer": 0}, [k(0, [5, 20, 7])],
     error="hand 1: counts[2]: C is sitting out")
case("missing count for an active seat", 1, {"idle": 2, "dealer": 0}, [k(0, [5, N, N])],
     error="hand 1: counts[1]: missing count for B")
case("knocker sitting out", 1, {"idle": 2, "dealer": 0}, [k(2, [5, 20, N])], error="hand 1: knock: C is sitting out")
case("gin player sitting out in method 2", 2, {"box": 0, "captain": 1}, [gin(2, [5, N, 0])],
     error="hand 1: gin: C is sitting out")
case("hand after the game is over", 1, {"idle": 2, "dealer": 1}, ONE + [k(0, [1, N, 5])],
     error="hand 2: the game is over")
case("knock and gin at once", 3, {"dealer": 0}, [{"knock": 0, "gin": 0, "counts": [0, 1, 2]}],
     error="hand 1: needs exactly one of knock, gin, void")
case("counts of the wrong length", 3, {"dealer": 0}, [k(0, [5, 20])], error="hand 1: counts")
case("void with counts", 3, {"dealer": 0}, [{"void": True, "counts": [1, 2, 3]}], error="hand 1: a void hand has no counts")
case("unknown hand field", 3, {"dealer": 0}, [{"knock": 0, "counts": [1, 2, 3], "bonus": 5}], error="hand 1: unknown field")
case("unknown method", 4, {"dealer": 0}, [], error="unknown method 4")
case("unknown preset", 3, {"dealer": 0}, [], error="unknown preset", rules={"preset": "vegas"})
case("unknown option", 3, {"dealer": 0}, [], error="unknown option 'gin_bonnus'",
     rules={"preset": "seed", "gin_bonnus": 30})
case("bad option value", 3, {"dealer": 0}, [], error="m3_formula must be one of",
     rules={"preset": "seed", "m3_formula": "sum"})
case("two players", 3, {"dealer": 0}, [], error="players: need exactly three", players=("A", "B"))
case("four players", 3, {"dealer": 0}, [], error="players: need exactly three", players=("A", "B", "C", "D"))
case("same name twice", 3, {"dealer": 0}, [], error="players: names must differ", players=("A", "B", "A"))
case("idle player dealing", 1, {"idle": 1, "dealer": 1}, [], error="start: the idle player cannot deal")
case("box player as captain", 2, {"box": 1, "captain": 1}, [], error="start: the box player cannot be captain")
case("dealer off the table", 3, {"dealer": 3}, [], error="start: dealer must be a seat")

if __name__ == "__main__":
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "games.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump(V, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print("%d vectors -> %s" % (len(V), out))
