"""The Jinja environment of the HTML pages the laptop writes (`knockbox report`, `knockbox book`):
one set of settings and the filters their templates share, and isolate(name): a player's name as
HTML that keeps its own direction."""

from __future__ import annotations

import os

import jinja2
from markupsafe import Markup
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jinja2.environment import Environment

SHARED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")


def isolate(name: str) -> Markup:
    """A player's name as HTML, escaped and in a <bdi>: its own direction, so that a right-to-left
    mark or override in it cannot turn the text around it (Markup: words % isolate(name), and
    Markup(", ").join(...), keep it)."""
    return Markup("<bdi>%s</bdi>") % name


def isolate_text(name: str) -> str:
    """A name where no element can go (a page's <title>): between the first-strong isolate and
    the pop directional isolate characters, which end whatever the name began."""
    return "\u2068%s\u2069" % name


def environment(folder: str) -> Environment:
    """The Jinja environment of the report's and the book's pages (templates in folder, then the
    shared ones: templates/cells.html, the table cells both write), with the filters they share:
    `signed` (+12, -5, 0), `gain` (the class of a number: won, lost, or none for 0), `name`
    (isolate()) and `name_text` (isolate_text())."""
    loader = jinja2.ChoiceLoader([jinja2.FileSystemLoader(folder), jinja2.FileSystemLoader(SHARED)])
    env = jinja2.Environment(
        loader=loader,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["signed"] = lambda v: "%+d" % v
    env.filters["gain"] = lambda v: "won" if v > 0 else "lost" if v < 0 else ""
    env.filters["name"] = isolate
    env.filters["name_text"] = isolate_text
    return env
