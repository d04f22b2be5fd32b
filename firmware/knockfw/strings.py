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
# t() returns any key it does not know unchanged, so t(message) is safe and never raises. The
# rules core's messages and the journal's notes are keyed by their English text (a template,
# knockcore.errors.say()); in Russian t() finds them in knockfw/messages_ru.py, loaded the first
# time one is asked for.
import sys

LANGS = ("en", "ru")

_lang = "en"
_table = b""
_messages: object = None  # the language's messages table (bytes) once asked for; b"": none
_memo: dict = {}
_MEMO = 64  # strings remembered


def set_lang(code):
    """Select the language for t(): "en" or "ru" (anything else selects English)."""
    global _lang, _table, _messages
    code = code if code in LANGS else "en"
    if _table and code == _lang:
        return
    _table = b""
    _messages = None
    _memo.clear()
    _table = _load("strings_" + code)
    _lang = code


def _load(name):
    # A table module's text as bytes; the module is forgotten, so its str goes.
    mod = __import__("knockfw." + name, None, None, ("TABLE",))
    b = ("\n" + mod.TABLE).encode()
    del sys.modules["knockfw." + name]
    delattr(sys.modules["knockfw"], name)
    return b


def _find(table, key):
    k = b"\n" + key.encode() + b"|"
    i = table.find(k)
    if i < 0:
        return None
    i += len(k)
    return table[i:table.find(b"\n", i)].decode()


def lang():
    """The language code t() uses now."""
    return _lang


def t(key):
    """The string for key in the current language; an unknown key comes back as it is."""
    global _messages
    s = _memo.get(key)
    if s is not None:
        return s
    if not _table:
        set_lang(_lang)
    s = _find(_table, key)
    if s is None:
        if _messages is None:
            try:
                _messages = _load("messages_" + _lang)
            except ImportError:
                _messages = b""
        s = _find(_messages, key) if _messages else None
        if s is None:
            return key
    if len(_memo) >= _MEMO:
        _memo.clear()
    _memo[key] = s
    return s
