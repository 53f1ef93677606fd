"""Python's cyclic garbage collector paused while a large structure is built that is kept whole until
it is done (a deck's YAML nodes and model; a report's WeasyPrint boxes). Such work makes objects by the
hundred thousand and almost no cycles, so each collection rescans a heap that only grows. Used by
deck/loader.py and sim/report_pdf.py; imports nothing of cardtool.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic collection inside. On leaving, what was made inside moves straight to the oldest
    generation (freeze then unfreeze: no scan), as surviving collections would have moved it; a later
    full collection frees its few cycles, and reference counting the rest. If a caller has paused the
    collector already, this leaves it to them."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.unfreeze()
        gc.enable()
