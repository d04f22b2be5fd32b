"""An evening's page and sums (make_evening), made here or by worker processes (pool()), and
Ctrl-C while the book is built: the workers ignore it, the build stops them (stop()) and only
the first Ctrl-C counts (one_interrupt())."""

from __future__ import annotations

import contextlib
import datetime
import multiprocessing
import signal
from typing import Any, TYPE_CHECKING

from knockbox.book.sums import sums
from knockbox.book.words import LANGS

if TYPE_CHECKING:
    from collections.abc import Iterator
    from knockbox.history import History
    from knockbox.records import Record

_HISTORIES: dict = {}  # a worker process's history, opened once


def make_evening(
    h: History, n: int | None, ids: list[int], lang: str, page: bool = True, summ: bool = True
) -> tuple[str | None, Record | None]:
    """(page, sums) of evening n: page None if n is None or not page, sums None if not
    summ."""
    rows = h.games(ids=ids, detail=True)
    html = None
    if n is not None and page:
        from knockbox import report  # (matplotlib: only when an evening page is made)

        made = max(r["updated"] for r in rows)
        html = report.page(
            rows,
            lang=lang,
            evening=n,
            now=datetime.datetime.fromisoformat(made),
            home=("../index.html", LANGS[lang]["home"]),
            most=None,
        )
    return html, sums(rows) if summ else None


def work(args: tuple[Any, ...]) -> tuple[str | None, Record | None]:
    """make_evening in a worker process: args the history's path, then make_evening's."""
    from knockbox.history import History

    path = args[0]
    if path not in _HISTORIES:
        _HISTORIES[path] = History(path, create=False)
    return make_evening(_HISTORIES[path], *args[1:])


def pool(n: int) -> Any:
    """n worker processes that ignore Ctrl-C (SIGINT), from their start: the build stops
    them."""
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)  # (inherited where they fork)
    try:
        return multiprocessing.Pool(
            n, initializer=signal.signal, initargs=(signal.SIGINT, signal.SIG_IGN)
        )
    finally:
        signal.signal(signal.SIGINT, old)


def stop(workers: Any) -> None:
    """End the worker processes now, whatever they are doing (a second Ctrl-C meanwhile is
    not another traceback)."""
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        workers.terminate()
        workers.join()
    finally:
        signal.signal(signal.SIGINT, old)


@contextlib.contextmanager
def one_interrupt() -> Iterator[None]:
    """Ctrl-C (SIGINT) raises KeyboardInterrupt once; more are ignored from then on, while it
    unwinds and knockbox ends (a second Ctrl-C is not a second traceback from wherever it
    lands). Without a Ctrl-C the handler is restored after."""
    got = []

    def first(signum: int, frame: object) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        got.append(signum)
        raise KeyboardInterrupt

    try:
        old = signal.signal(signal.SIGINT, first)
    except ValueError:  # (not the main thread: signals are not its to handle)
        yield
        return
    try:
        yield
    finally:
        if not got:
            signal.signal(signal.SIGINT, old)
