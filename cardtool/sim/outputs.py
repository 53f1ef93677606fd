"""Writing a report at the edge: its HTML from a template, its PDF through WeasyPrint, and every
output file atomically once all are made.

WeasyPrint and Jinja are imported only inside the functions that use them, so importing this
module (and the commands that do) stays cheap.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from cardtool.errors import UsageError


def render_html(template: str, context: dict) -> str:
    from cardtool.render.environment import render

    return render(template, **context)


def render_pdf(html: str) -> bytes:
    """The same page through WeasyPrint, its charts made quick to lay out (cardtool.sim.report_print), in
    parts laid out side by side where the template marks them (cardtool.sim.report_pdf)."""
    import logging

    from cardtool.render.fetcher import deck_fetcher
    from cardtool.sim.report_pdf import report_pdf
    from cardtool.sim.report_print import printed_page

    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    # each document's fetcher loads nothing but cardtool's own files and data: URLs
    return report_pdf(printed_page(html), lambda: deck_fetcher(what="the simulation report"))


def write_outputs(out: Path, files: Mapping[str, str | bytes]) -> None:
    """Write every output, each atomically, once all of them are made."""
    from cardtool.render.environment import write_atomic

    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            write_atomic(out / name, data)
    except OSError as exc:
        raise UsageError(f"cannot write the outputs to {out}: {exc.strerror or exc}") from None
