"""CPython stand-in for the `micropython` module: just enough for shared/ and firmware code."""


def const(x):
    return x


def native(f):
    return f


viper = native


# viper's types, which native code may use as annotations: CPython evaluates those as it defines
# the function (knockfw.jscan), so they need a name here too
import builtins  # noqa: E402

for _name in ("ptr8", "ptr16", "ptr32", "uint"):
    if not hasattr(builtins, _name):
        setattr(builtins, _name, int)
