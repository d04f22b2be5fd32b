# MicroPython-compatible fakes for driver and board tests (run under the unix port and CPython).
