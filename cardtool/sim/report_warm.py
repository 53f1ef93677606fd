"""The report PDF's layout processes, started warm before the games are played.

A fresh `cardtool simulate` used to pay, after its last game, for importing WeasyPrint (about 0.7 s of
CPU) and for its first layouts (font configuration, stylesheets, font subsetting) before the report's
own work. `warm_layout()` imports WeasyPrint here before the games start, then forks two processes
(before a pool forks or a Dask client starts its threads: nothing here runs in a thread), each of which
lays out and draws a small page in the report's style while the games are played, then waits. When the
report is written, `active()` gives them to outputs.render_pdf: each lays out one part of the page
(cardtool.sim.report_pdf), the first then the page numbers, and this process only puts the PDF
together. The same documents are laid out by the same functions, so the PDF is the same, byte for byte,
as when cardtool lays it out itself.

The processes ignore Ctrl-C (this process decides: it still writes a report of the games that
finished), are stopped when the `with` block ends, killed when it ends by an error, and stop by
themselves if this process dies without a word. With one worker (CARDTOOL_WORKERS=1, one core, no
fork) none is started and the report is laid out in this process as before.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from cardtool.sim.report_pdf import assemble, lay_out_parts, numbers_page, part_documents, receive

PROCESSES = 2  # the page is cut in at most two parts
PARENT_CHECK = 1.0  # seconds between a waiting process's looks at whether its parent is still there
STOP_WAIT = 0.5  # seconds a process gets to stop when asked before it is killed (it holds nothing to save)

_ACTIVE: "_Warm | None" = None


@contextmanager
def warm_layout(fetcher_for: Callable) -> Iterator[None]:
    """Start the layout processes now, each document's url_fetcher made by fetcher_for(); within the
    block, the report's PDF is laid out by them (see active)."""
    global _ACTIVE
    from cardtool.render.parallel import workers

    if _ACTIVE is not None or workers() < 2 or multiprocessing.current_process().daemon:
        yield
        return
    import weasyprint  # noqa: F401  (here, once: both processes are forked with it)

    warm = _Warm(fetcher_for)
    _ACTIVE = warm
    failed = True
    try:
        yield
        failed = False
    finally:
        _ACTIVE = None
        warm.close(kill=failed)


def active() -> "_Warm | None":
    """The warm layout processes of this process's `warm_layout` block, if it is in one."""
    return _ACTIVE if _ACTIVE is not None and _ACTIVE.owner == os.getpid() else None


class _Warm:
    """PROCESSES forked layout processes and this process's end of each one's pipe."""

    def __init__(self, fetcher_for: Callable):
        self.owner = os.getpid()
        self.processes: list = []
        self.connections: list = []
        context = multiprocessing.get_context("fork")
        try:
            for _ in range(PROCESSES):
                mine, theirs = context.Pipe()
                # Ctrl-C blocked from the fork until the process ignores it (it would otherwise stop it mid-start)
                previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
                try:
                    process = context.Process(target=_serve, args=(theirs, mine, fetcher_for, self.owner),
                                              daemon=True, name="cardtool report layout")
                    process.start()
                finally:
                    signal.pthread_sigmask(signal.SIG_SETMASK, previous)
                theirs.close()
                self.processes.append(process)
                self.connections.append(mine)
        except BaseException:
            self.close(kill=True)
            raise

    def report_pdf(self, page: str) -> bytes | None:
        """The printed page as one PDF, laid out by the warm processes; None for a page in one part."""
        head, tail, documents = part_documents(page)
        if len(documents) != PROCESSES:
            return None
        first, second = self.connections
        first.send(documents[:1])
        second.send(documents[1:])
        total = receive(first, "pages") + receive(second, "pages")
        first.send([numbers_page(head, tail, total)])  # laid out once the first has drawn its part
        made = receive(first, "done") + receive(second, "done")
        receive(first, "pages")
        numbers = receive(first, "done")[0][0]
        return assemble(made, numbers)

    def close(self, kill: bool = False) -> None:
        """Ask every process to stop (kill them, after an error) and wait for them."""
        for connection in self.connections:
            if not kill:
                try:
                    connection.send(None)
                except OSError:  # it has gone already
                    pass
            connection.close()
        for process in self.processes:
            if not kill:
                process.join(STOP_WAIT)  # an idle process stops at once; one still warming up, when it is done
            if process.is_alive():
                process.kill()
            process.join()


def _serve(connection, parents_end, fetcher_for: Callable, parent: int) -> None:
    """A layout process: warm up, then lay out what it is sent until told to stop (None), its pipe
    closes, or its parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    parents_end.close()
    _warm_up(fetcher_for)
    while True:
        while not connection.poll(PARENT_CHECK):
            if os.getppid() != parent:
                return
        try:
            documents = connection.recv()
        except EOFError:
            return
        if documents is None:
            return
        lay_out_parts(documents, fetcher_for, connection)


def _warm_up(fetcher_for: Callable) -> None:
    """Lay out and draw a small page in the report's style, so that the real parts find WeasyPrint's fonts
    configured, its stylesheets parsed and its font subsetting imported. Best effort: a
    failure here shows again, with its message, when the real part is laid out."""
    try:
        from cardtool.render.environment import render
        from cardtool.sim.report_pdf import laid_out
        from cardtool.sim.report_print import printed_page

        page = render("sim/_base.html.j2", title="Warm-up", config={"cardtool": ""})
        laid_out(printed_page(page.replace("<body>", "<body>" + WARM_UP_BODY, 1)), fetcher_for())
    except Exception:  # noqa: BLE001  (see the docstring)
        pass


#: Something of everything the report's page holds: headings, findings, a table of cards, a chart.
WARM_UP_BODY = (
    '<h1>Warm-up</h1><p class="sub">deck <b>warm-up</b> · 2 games · seed <code>1</code></p>'
    '<ul class="findings"><li>Seat 1 wins <span class="sig">50%</span></li></ul>'
    '<h2>Cards</h2><table class="cards"><tr><th class="code">card</th><th class="rate">played</th>'
    '<th class="diff">difference</th><th class="p">p</th></tr>'
    '<tr><td class="key">A</td><td class="num">50.0%</td><td class="num flag">+1.0</td><td class="num p">0.5</td></tr>'
    '</table><h3>Chart</h3><div class="chart">'
    '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="80" font-family="DejaVu Sans">'
    '<rect x="40" y="10" width="100" height="20" fill="#4c78a8"/><path d="M40 60 L600 60" stroke="#999"/>'
    '<polyline points="40,50 200,30 400,40" fill="none" stroke="#e45756"/><circle cx="300" cy="40" r="3"/>'
    '<text x="30" y="25" font-size="10" text-anchor="end">seat 1</text>'
    '<text x="12" y="50" font-size="10" text-anchor="middle" transform="rotate(-90 12 50)">wins</text>'
    '</svg></div><p class="note">warm-up</p>'
)
