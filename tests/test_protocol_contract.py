"""The two ends of the serial link stay in step (docs/PROTOCOL.md): the laptop's client
(knockbox.link.serialio.Connection) has one method per operation the device's link handles
(firmware/knockfw/link.py's _op_* methods, read with ast: nothing of the firmware is imported),
named as the op it sends, and both are knockcore.proto.OPS; no other laptop module names an op; the protocol document has a row
for each op; and the reply fields each method documents are in that row and in the replies the
device's handler builds. Then each method's request on the wire, through a stand-in device."""

import ast
import json
import os
import re

import pytest

from knockbox.link import serialio
from knockcore.proto import EVENTS_MAX, OPS
from kit.ptydevice import HELLO, FakeDevice, reply

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST = os.path.join(ROOT, "host", "knockbox")
FIRMWARE = os.path.join(ROOT, "firmware", "knockfw")
LINK = os.path.join(FIRMWARE, "link.py")
PROTOCOL = os.path.join(ROOT, "docs", "PROTOCOL.md")
# An events page is streamed: its op queues the start of the reply, and poll() ends it with
# _end_page once the page is done (the only reply not built from its handler).
ENDED_BY = {"events": "_end_page"}
KEY = re.compile(r'"(\w+)":')  # a field in a reply written as bytes ({"id":%d,"epoch":...)


def _tree(path):
    with open(path, encoding="utf-8") as f:
        return ast.parse(f.read(), path)


def _methods(tree, cls):
    [c] = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls]
    return {f.name: f for f in c.body if isinstance(f, ast.FunctionDef)}


def _ops_sent(node):
    """The op names a piece of laptop code sends: string literals first in .request()/.send()."""
    return [
        c.args[0].value
        for c in ast.walk(node)
        if isinstance(c, ast.Call)
        and isinstance(c.func, ast.Attribute)
        and c.func.attr in ("request", "send")
        and c.args
        and isinstance(c.args[0], ast.Constant)
        and isinstance(c.args[0].value, str)
    ]


def client_ops():
    """{op: the Connection method that sends it}."""
    out = {}
    for name, f in _methods(_tree(serialio.__file__), "Connection").items():
        for op in _ops_sent(f):
            assert op not in out, "op %r sent by both %s and %s" % (op, out[op], name)
            out[op] = name
    return out


def device_ops():
    """{op: its handler in link.py's Link}."""
    return {
        name[len("_op_") :]: f
        for name, f in _methods(_tree(LINK), "Link").items()
        if name.startswith("_op_")
    }


def documented_fields(method):
    """The reply fields a Connection method's docstring names after "Reply fields:"."""
    doc = getattr(serialio.Connection, method).__doc__
    assert "Reply fields:" in doc, "%s() does not document its reply fields" % method
    return set(re.findall(r"`(\w+)`", doc.split("Reply fields:", 1)[1]))


def protocol_rows():
    """{op: its reply cell} from the table under "## Operations" in docs/PROTOCOL.md."""
    with open(PROTOCOL, encoding="utf-8") as f:
        text = f.read()
    section = text.split("\n## Operations\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        m = re.match(r"\| `(\w+)` \|", line)
        if m:
            rows[m.group(1)] = line.split("|")[3]
    return rows


def _keys(node):
    """The reply fields a piece of firmware writes literally: dict keys, "key": in bytes."""
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Dict):
            out |= {k.value for k in n.keys if isinstance(k, ast.Constant)}
        elif isinstance(n, ast.Constant) and isinstance(n.value, bytes):
            out |= set(KEY.findall(n.value.decode()))
    return out


def device_fields(op):
    """The fields the device's reply to op can hold: those its handler writes, with the Link
    methods it uses (self._x) and the knockfw functions it calls (module.function)."""
    link = _methods(_tree(LINK), "Link")
    todo, seen, fields = ["_op_" + op] + ([ENDED_BY[op]] if op in ENDED_BY else []), set(), set()
    while todo:
        f = link[todo.pop()]
        if f.name in seen:
            continue
        seen.add(f.name)
        fields |= _keys(f)
        modules = {
            a.asname or a.name
            for n in ast.walk(f)
            if isinstance(n, ast.ImportFrom) and n.module == "knockfw"
            for a in n.names
        }
        for n in ast.walk(f):
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name):
                if n.value.id == "self" and n.attr in link:
                    todo.append(n.attr)
                elif n.value.id in modules:
                    fn = [
                        d
                        for d in _tree(os.path.join(FIRMWARE, n.value.id + ".py")).body
                        if isinstance(d, ast.FunctionDef) and d.name == n.attr
                    ]
                    fields |= _keys(fn[0]) if fn else set()
    return fields - {"id", "ok", "error"}


def test_one_client_method_per_device_op():
    client, device = client_ops(), device_ops()
    assert set(device) == set(OPS)  # the device answers the ops of knockcore.proto, each
    assert set(client) == set(device), "laptop only: %s; device only: %s" % (
        set(client) - set(device),
        set(device) - set(client),
    )
    for op, method in client.items():
        assert method == op, "Connection.%s sends %r" % (method, op)
    assert len(device) >= 6  # hello, bye, events, settings, faults, erase at least


def test_no_other_laptop_code_names_an_op():
    ops = set(device_ops())
    for folder, _, files in os.walk(HOST):
        for name in files:
            path = os.path.join(folder, name)
            if not name.endswith(".py") or path == serialio.__file__:
                continue
            sent = set(_ops_sent(_tree(path))) & ops
            assert not sent, "%s sends %s itself: use Connection's methods" % (path, sent)


def test_protocol_doc_has_a_row_per_op():
    assert set(protocol_rows()) == set(device_ops())


@pytest.mark.parametrize("op", sorted(device_ops()))
def test_reply_fields_agree(op):
    fields = documented_fields(op)
    row = protocol_rows().get(op)
    assert row is not None, "docs/PROTOCOL.md has no row for %s" % op
    undocumented = {f for f in fields if "`%s`" % f not in row}
    assert not undocumented, "docs/PROTOCOL.md's %s row lacks %s" % (op, undocumented)
    built = device_fields(op)
    assert fields <= built, "link.py's %s reply has no %s" % (op, fields - built)


def test_each_method_sends_its_request():
    """Each method's request line, as a device receives it (ids left out)."""

    def answer(req, line):
        if req["op"] == "hello":
            return reply(req, **HELLO)
        return reply(req, ok=True)

    with FakeDevice(answer) as d:
        with serialio.Connection(d.path, 2.0) as conn:
            assert conn.hello()["device"] == HELLO["device"]
            conn.events()
            conn.events(5, 10)
            conn.settings()
            conn.settings({})
            conn.settings({"lang": "ru"})
            conn.faults()
            conn.faults(clear=0)
            conn.erase()
            conn.erase(7, timeout=1.0)
            conn.bye()
    sent = [{k: v for k, v in r.items() if k != "id"} for r in d.seen]
    assert sent == [
        {"op": "hello"},
        {"op": "events", "after": 0, "limit": EVENTS_MAX},
        {"op": "events", "after": 5, "limit": 10},
        {"op": "settings"},
        {"op": "settings"},
        {"op": "settings", "set": {"lang": "ru"}},
        {"op": "faults"},
        {"op": "faults", "clear": 0},
        {"op": "erase"},
        {"op": "erase", "last_seq": 7},
        {"op": "bye"},
    ], json.dumps(sent)
