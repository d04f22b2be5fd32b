# The device's strings in English, one line per key: `key|text`, where %s and %d are filled in
# by the screens (word order is free). Every key is in both knockfw/strings_en.py and
# strings_ru.py, and the firmware asks for every key (tests/test_text_strings.py checks those, the
# placeholders, the glyphs and the widths).
# knockfw.strings loads only the language in use: the other one takes no RAM.
TABLE = """
method1|Cutthroat
method2|In the box
method3|All three
target|Target
deals|Deals
sits_out|Sits out
advises|Advises
in_box|In the box
partners|Partners
hand_n|Hand %d
boxes|Boxes
knock|Knock
gin|Gin
count|Count
confirm|Confirm
edit_hand|Edit hand
hint_who|A/B/C: who knocked · hold: gin · Up: back
hint_count|▲▼ count · A/B/C player · again: next · hold: cancel
hint_confirm|A: save · B: back · C: cancel
x_knocks|%s knocks
x_knocks_n|%s knocks %d
x_gin|%s: gin
x_undercuts|%s undercuts
void_hand|Void hand
void_result|No score; the same dealer deals again
undo_last|Undo last hand
undo_q|Take this hand back?
totals_change|Scores after the correction:
cannot_save|Cannot save this hand
sits_out_x|%s sits out this hand
who_knocked_n|Hand %d: who knocked?
no_game|No game yet
hint_empty|Any button: menu → New game
hint_score|A/B/C: knocked · hold: gin · ▲▼: menu
hint_over|A: next game · ▲▼: menu
menu|Menu
back|Back
hint_menu|▲▼: move · A: choose · B/C: back
hint_pick|▲▼ hand · A: record again · B: void · C: back
hint_method|▲▼: method · A: next · B/C: back
players|Players
hint_players|A/B/C seat · ▲▼ name · again: next · hold: back
hint_roles|A/B/C: choose · ▲▼: back
cut_lowest|Who cut the lowest card? (sits out)
cut_next_lowest|Who cut the next lowest? (deals)
cut_highest_box|Who cut the highest? (in the box)
cut_second|Who cut the second? (captain, deals)
cut_highest_deals|Who cut the highest card? (deals)
role_idle|Sits out
role_dealer|Deals
role_box|In the box
role_captain|Captain
set_preset|Rules
set_target|Target (1, 2)
set_m3_target|Target (all three)
set_m1_extra|Extra payment (1)
set_m3_formula|Hand score (3)
set_m3_penalty_on|Tie penalty (3)
set_lang|Language
set_sleep_s|Sleep after
n_min|%d min
opt_seed|seed
opt_classic|classic
opt_idle|who sat out pays
opt_shutout|who won nothing pays
opt_literal|others' sum − own
opt_pairwise|pairwise differences
opt_tie|on a tie
opt_tie_or_undercut|tie or undercut
hint_settings|▲▼: move · A/B: change · C: done
erase_n|Games on this device: %d
hint_erase|hold A: erase · C: keep
hold_a|Hold A to erase them
erase_failed|Erase failed: %s
new_game|New game
next_game|Next game
game_over|Game over
x_wins|%s wins
x_win|%s and %s win
x_wins_pays|%s wins, pays %d
x_win_pay|%s and %s win, pay %d each
x_pays_y|%s pays %s %d
net|Net
settings|Settings
lang_en|English
lang_ru|Русский
erase_all|Erase all games?
syncing|Syncing
saved|Saved

evening|Evening
new_evening|New evening
ev_title|Evening · games: %d
ev_none|No finished games yet
ev_gw|games %d · wins %d
ev_pts|%d points
ev_settle|Settlement
ev_pays|%s pays %s
ev_square|All square: nobody pays
ev_so_far|The game so far
ev_hint|▲▼: page · A/B/C: back
ev_new_q|Start a new evening?
ev_new_1|The next games are settled apart
ev_new_2|Nothing is erased
about|Knockbox version %s
set_stake|Stake per point
ev_off|off
"""
