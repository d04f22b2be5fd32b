# What the tests ask of a knockfw Store that the device itself never does (so it is not on the
# device): its events as a list, a game whether in RAM or on flash only, ending a game, whether a
# game is ended, notes in English.
from knockcore import events as ev
from knockfw.strings import say_notes


def events_of(st, after_seq=0, limit=100):
    """Up to `limit` journal events with seq > after_seq, as a list of (seq, event)."""
    out = []
    if limit < 1:
        return out
    it = st.journal.records(after_seq)
    try:
        for r in it:
            out.append(r)
            if len(out) >= limit:
                break
    finally:
        it.close()
    return out


def game_in(st, gid):
    """Game gid: the store's in RAM, else replayed from its journal records (as a boot that kept
    it would have; a record the rules refuse is skipped, as boot skips it). None if none."""
    g = st.game(gid)
    if g is None:
        for _seq, e in events_of(st, 0, st.last_seq):
            if ev.game_of(e) == gid:
                try:
                    g = ev.apply(g, e)
                except (ValueError, KeyError, TypeError, AttributeError):
                    pass
    return g


def end_game(st, gid):
    """Close the game on the table (gid) without finishing it (the "end" event the laptop
    knows; the device's UI never makes one)."""
    if st.current() != gid:
        raise AssertionError("game %r is not the one on the table" % (gid,))
    st.record({"t": ev.END})


def ended(st, gid):
    g = game_in(st, gid)
    return g is not None and g.closed


def note(x):
    """A Journal's or Store's notes in English ("" if none)."""
    return say_notes(x.notes)
