# Knockbox rules core: three-player gin rummy scoring, shared by the device and the laptop.
# Pure Python for MicroPython and CPython alike: no I/O here; time and input come in as arguments.
FORMAT = "knockbox-game/1"
