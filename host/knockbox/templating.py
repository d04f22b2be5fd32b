"""The Jinja environment of the HTML pages the laptop writes (`knockbox report`, `knockbox book`):
one set of settings and the filters their templates share."""
import jinja2


def environment(folder):
    """The Jinja environment of the report's and the book's pages (templates in folder), with the
    filters they share: `signed` (+12, -5, 0) and `gain` (the class of a number: won, lost, or
    none for 0)."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(folder), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True,
                             undefined=jinja2.StrictUndefined)
    env.filters["signed"] = lambda v: "%+d" % v
    env.filters["gain"] = lambda v: "won" if v > 0 else "lost" if v < 0 else ""
    return env
