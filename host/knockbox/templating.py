"""The Jinja environment of the HTML pages the laptop writes (`knockbox report`, `knockbox book`):
one set of settings and the filters their templates share."""
import os

import jinja2

SHARED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")


def environment(folder):
    """The Jinja environment of the report's and the book's pages (templates in folder, then the
    shared ones: templates/cells.html, the table cells both write), with the filters they share:
    `signed` (+12, -5, 0) and `gain` (the class of a number: won, lost, or none for 0)."""
    loader = jinja2.ChoiceLoader([jinja2.FileSystemLoader(folder),
                                  jinja2.FileSystemLoader(SHARED)])
    env = jinja2.Environment(loader=loader, autoescape=True,
                             trim_blocks=True, lstrip_blocks=True,
                             undefined=jinja2.StrictUndefined)
    env.filters["signed"] = lambda v: "%+d" % v
    env.filters["gain"] = lambda v: "won" if v > 0 else "lost" if v < 0 else ""
    return env
