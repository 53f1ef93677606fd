"""Writing outputs so that a failure leaves the previous ones whole: folders are built beside their
destination and swapped in only when complete (files use environment.write_atomic)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cardtool.errors import UsageError


@contextmanager
def staged_dir(final: Path, keep_others: bool = False) -> Iterator[Path]:
    """A fresh folder to fill; on success it replaces `final`, on any error it is removed and `final` kept.

    With keep_others, entries of the old folder that the new one does not have (say build/<deck>/sim/,
    written by another command) are moved across first, so only what this run makes is replaced."""
    final = Path(final)
    if final.exists() and not final.is_dir():
        raise UsageError(f"{final} exists and is not a folder")
    final.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(dir=final.parent, prefix=f".{final.name}.new-"))
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(stage, 0o777 & ~mask)  # mkdtemp makes folders private; outputs are ordinary folders
    try:
        yield stage
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    if keep_others and final.is_dir():
        for entry in final.iterdir():
            if not (stage / entry.name).exists() and not entry.name.startswith(f".{final.name}."):
                os.rename(entry, stage / entry.name)
    swap_in(stage, final)


def swap_in(stage: Path, final: Path) -> None:
    """Put a finished folder in place of `final` with two renames; the old one is removed afterwards."""
    old = None
    if final.exists():
        old = Path(tempfile.mkdtemp(dir=final.parent, prefix=f".{final.name}.old-"))
        old.rmdir()
        os.rename(final, old)
    os.rename(stage, final)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
