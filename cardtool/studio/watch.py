"""Watching a deck's folders (its own and its bases') and refreshing the studio after every change."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from cardtool.studio.snapshot import Snapshot, Studio

DEBOUNCE_MS = 120  # an editor's save is often several writes: wait this long for the last one


def watch(studio: Studio, stop: threading.Event, told: Callable[[Snapshot, list[str]], None]) -> None:
    """Refresh the studio after each batch of changes until stop is set; told(snapshot, changed files).

    The folders watched are the deck's roots as last loaded, so an expansion that starts extending
    another deck has that deck's folder watched from its next refresh on."""
    from watchfiles import watch as changes_in

    while not stop.is_set():
        folders = studio.roots.folders
        for changes in changes_in(*folders, stop_event=stop, debounce=DEBOUNCE_MS, step=40):
            snapshot = studio.refresh()
            told(snapshot, sorted({_shown(path) for _, path in changes}))
            if studio.roots.folders != folders:
                break


def _shown(path: str) -> str:
    try:
        return str(Path(path).relative_to(Path.cwd()))
    except ValueError:
        return path
