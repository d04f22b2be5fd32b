"""CPython stand-in for the `micropython` module: just enough for shared/ and firmware code."""


def const(x):
    return x


def native(f):
    return f


viper = native
