"""Writing a report at the edge: its HTML from a template, its PDF through WeasyPrint, and every
output file atomically once all are made.

WeasyPrint and Jinja are imported only inside the functions that use them, so importing this
module (and the commands that do) stays cheap.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from cardtool.errors import UsageError


def render_html(template: str, context: dict) -> str:
    from cardtool.render.environment import render

    return render(template, **context)


def render_pdf(html: str) -> bytes:
    """The same page through WeasyPrint, its charts made quick to lay out (cardtool.sim.report_print), in
    parts laid out side by side where the template marks them (cardtool.sim.report_pdf), by the warm
    layout processes inside a `warm_report()` block (cardtool.sim.report_warm)."""
    from cardtool.sim.report_pdf import report_pdf
    from cardtool.sim.report_print import printed_page
    from cardtool.sim.report_warm import active

    page = printed_page(html)
    warm = active()
    pdf = warm.report_pdf(page) if warm is not None else None
    return pdf if pdf is not None else report_pdf(page, report_fetcher)


def report_fetcher():
    """Each report document's url_fetcher: it loads nothing but cardtool's own files and data: URLs."""
    from cardtool.render.fetcher import deck_fetcher

    return deck_fetcher(what="the simulation report")


def warm_report():
    """A block within which the report's PDF is laid out by processes started warm as the block begins:
    enter it before the games, so WeasyPrint's start-up is paid while they are played (cardtool.sim.report_warm)."""
    from cardtool.sim.report_warm import warm_layout

    return warm_layout(report_fetcher)


def preload_report(template: str = "sim/report.html.j2") -> None:
    """Import (and compile) now what writing a report will need in this process: the statistics' numpy
    and scipy.special, the page's template, pikepdf to put the PDF together. For `simulate` to call while
    its games are played (its first progress tick), so the report after the last game does not wait for them.
    A Ctrl-C meanwhile takes effect once the imports are done (it then interrupts the games as usual): a
    KeyboardInterrupt in the middle of importing numpy leaves it half made, and the report of the finished
    games would then fail on it."""
    with _ctrl_c_after():
        import numpy  # noqa: F401
        import scipy.special  # noqa: F401

        from cardtool.render.environment import environment
        from cardtool.render import shared_fonts  # noqa: F401  (imports pikepdf)
        from cardtool.sim import report_print  # noqa: F401

        environment().get_template(template)


@contextmanager
def _ctrl_c_after() -> Iterator[None]:
    """Hold a Ctrl-C that comes within the block and deliver it when the block ends. Blocking SIGINT in
    this thread's signal mask is not enough: the kernel hands a signal sent to the process to any thread
    that does not block it, and Python then raises it in the main thread all the same. So the main
    thread's handler only notes it meanwhile. The mask is blocked too, so that threads started within
    the block (numpy's BLAS threads) block it for good: Python 3.11 handles a signal another thread
    received only when the main thread next looks, which can be many seconds later."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():  # only the main thread gets KeyboardInterrupt
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # one held by the mask is delivered (and raised) here
        if caught:
            signal.raise_signal(signal.SIGINT)  # to the handler that was there before, as if it came now


def write_outputs(out: Path, files: Mapping[str, str | bytes]) -> None:
    """Write every output, each atomically, once all of them are made."""
    from cardtool.render.environment import write_atomic

    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            write_atomic(out / name, data)
    except OSError as exc:
        raise UsageError(f"cannot write the outputs to {out}: {exc.strerror or exc}") from None
