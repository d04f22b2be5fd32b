"""Stored text (players' names above all: typed on a device, or in a file someone imported) made
safe where it is shown, so that a name can neither drive the terminal nor turn the text around
it:

  visible(s)    control characters (C0, DEL, C1: ESC and its sequences, BEL, CR, ...), the
                bidirectional controls (LRM, RLM, ALM, LRE...RLO, LRI...PDI) and the line and
                paragraph separators written as visible escapes: "\\x1b", "\\u202e" (for a
                terminal, and for a chart, whose fonts draw no control character)

The pages' side of it is in knockbox.templating (a name in a <bdi>) and the CSV's in
knockbox.commands.export.
"""

import re

UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def _escape(m):
    c = ord(m.group())
    return "\\x%02x" % c if c < 0x100 else "\\u%04x" % c


def visible(s):
    """s with its unsafe characters (UNSAFE) written as visible escapes."""
    return UNSAFE.sub(_escape, s)
