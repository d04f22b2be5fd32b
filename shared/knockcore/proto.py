# The serial protocol's numbers (docs/PROTOCOL.md), defined once for both ends: the device's link
# (firmware/knockfw/link.py) and the laptop (knockbox.serialio, knockbox.sync). No I/O here.
from micropython import const

PROTO = const(1)            # the protocol version in the hello reply; the laptop refuses others
ID_MAX = const(0x3FFFFFFF)  # request ids are integers 0..ID_MAX
EVENTS_MAX = const(200)     # events in one page at most: the events request's default limit
