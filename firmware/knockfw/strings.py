# Every string the device shows, in the language of the settings.
#
#   from knockfw import strings
#   strings.set_lang("ru")          # from the settings; "en" (default) or "ru"
#   strings.t("deals")              # -> "Сдаёт"
#   strings.t("hand_n") % 12        # templates take % arguments; word order is per language
#
# The texts are in knockfw/strings_en.py and strings_ru.py, one `key|text` line per key. Only the
# language in use is loaded, kept as one bytes object (a dict of str objects costs several times
# its text on the heap); a lookup is a find() in C, and the strings a screen asks for are kept in
# a small dict, so drawing a screen does not search the table again.
#
# t() returns any key it does not know unchanged, so t(message) is safe and never raises.
import sys

LANGS = ("en", "ru")

_lang = "en"
_table = b""
_memo: dict = {}
_MEMO = 64  # strings remembered


def set_lang(code):
    """Select the language for t(): "en" or "ru" (anything else selects English)."""
    global _lang, _table
    code = code if code in LANGS else "en"
    if _table and code == _lang:
        return
    name = "knockfw.strings_" + code
    _table = b""
    _memo.clear()
    mod = __import__(name, None, None, ("TABLE",))
    _table = mod.TABLE.encode()
    del sys.modules[name]       # forget the module, so its str goes: only the bytes stay
    delattr(sys.modules["knockfw"], "strings_" + code)
    _lang = code


def lang():
    """The language code t() uses now."""
    return _lang


def t(key):
    """The string for key in the current language; an unknown key comes back as it is."""
    s = _memo.get(key)
    if s is not None:
        return s
    if not _table:
        set_lang(_lang)
    k = b"\n" + key.encode() + b"|"
    i = _table.find(k)
    if i < 0:
        return key
    i += len(k)
    s = _table[i:_table.find(b"\n", i)].decode()
    if len(_memo) >= _MEMO:
        _memo.clear()
    _memo[key] = s
    return s
