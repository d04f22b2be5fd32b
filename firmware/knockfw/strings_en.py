# The device's strings in English: one line per key of knockfw.strings (KEYS), in the same
# order: line n (the first after the opening quotes is line 0) is the text of key n. %s and %d
# are filled in by the screens (word order is free). strings_ru.py has the same lines in Russian;
# tests/test_text_strings.py checks that both have a line for every key and no more, the
# placeholders, the glyphs and the widths, and that the firmware asks for every key.
# knockfw.strings loads only the language in use: the other one takes no RAM.
TABLE = """
Cutthroat
In the box
All three
Target
Deals
Sits out
Advises
In the box
Partners
Hand %d
Boxes
Knock
Gin
Count
Confirm
Edit hand
A/B/C: who knocked · hold: gin · Up: back
▲▼: 1, held: 5 · next held: back
→ next
+10, hold −10
A: save · B: back · C: cancel
%s knocks
%s knocks %d
%s: gin
%s undercuts
%s ties
Void hand
No score; the same dealer deals again
Undo last hand
Take this hand back?
Scores after the correction:
Cannot save this hand
%s sits out this hand
Hand %d: who knocked?
No game yet
Any button: menu → New game
A/B/C: knocked · hold: gin · ▲▼: menu
A: next game · ▲▼: menu
Menu
Back
▲▼: move · A: choose · B/C: back
▲▼ hand · A: record again · B: void · C: back
▲▼: method · A: next · B/C: back
Players
A/B/C seat · ▲▼ name · again: next · hold: back
A/B/C: choose · ▲▼: back
Who cut the lowest card? (sits out)
Who cut the next lowest? (deals)
Who cut the highest? (in the box)
Who cut the second? (captain, deals)
Who cut the highest card? (deals)
Sits out
Deals
In the box
Captain
Rules
Target (1, 2)
Target (all three)
Extra payment (1)
Hand score (3)
Tie penalty (3)
Language
Sleep after
%d min
%d s
seed
classic
who sat out pays
who won nothing pays
others' sum − own
pairwise differences
on a tie
tie or undercut
▲▼: move · A/B: change · C: done
Games on this device: %d
hold A: erase · C: keep
Hold A to erase them
Erase failed: %s
New game
Next game
Game over
%s wins
%s and %s win
%s wins, pays %d
%s and %s win, pay %d each
%s pays %s %d
Net
Settings
English
Русский
Erase all games?
Syncing
Saved
Evening
New evening
Evening · games: %d
No finished games yet
games %d · wins %d
%d points
Settlement
%s pays %s
All square: nobody pays
The game so far
▲▼: page · A/B/C: back
Start a new evening?
The next games are settled apart
Nothing is erased
Knockbox version %s
Stake per point
off
Knockbox stopped on an error
Your games are saved
Press a button to start again
Restarting in 5 seconds
Details: knockbox sync
Battery low
New batteries or USB, then a button
"""
