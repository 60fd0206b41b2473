"""The Jinja2 environment for evlogic's own pages (the templates of
evlogic/templates/), built once.

There are exactly two Jinja2 environments in evlogic, on purpose:

- :func:`environment` (here): evlogic's own pages, trusted templates shipped
  in evlogic/templates/.  page.html.j2 is every report page's frame (title,
  inline style, body as blocks); balance.html.j2 extends it; tune.html.j2
  extends the balance page and puts the best candidate's balance body
  (``super()``) below the Pareto front.  Autoescaped, strict about
  undefined names, built once.
- evlogic.pages.sandbox.PageEnvironment: users' rulebook templates (the
  default one, rulebook.html.j2, ships in evlogic/templates/ but is filled
  there, as a user's would be).  A user's template is a file from anywhere,
  so it runs sandboxed, immutable and restricted; evlogic's own pages need
  none of that.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import jinja2


@cache
def environment() -> jinja2.Environment:
    """The environment for evlogic's own templates (evlogic/templates/)."""
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("evlogic", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
