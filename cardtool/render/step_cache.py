"""Reusing a whole build step: the files it wrote and its message, kept in the build cache (render/cache.py)
under the digest of everything the step reads (cardtool's code, the deck's files, the build's options).

A reused step's files are hard links to the build folder's files when those still hold exactly the
recorded bytes (checked by digest), so render.output keeps them untouched; else they come from the
cache's blobs, each checked against its digest. Any failed check makes the step run again.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path, PurePosixPath

from cardtool.render.cache import BuildCache, Entry, file_digest

KIND = "step"


def files_below(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and not p.is_symlink()}


def _safe(name: str) -> bool:
    """A recorded file may only be a plain relative name below the build folder."""
    path = PurePosixPath(name)
    return bool(path.parts) and not path.is_absolute() and ".." not in path.parts and "\\" not in name \
        and not any(part.startswith(".") for part in path.parts)


def replay(cache: BuildCache, key: str, folder: Path, final: Path) -> Entry | None:
    """Put a cached step's files into the staging folder; the entry, or None (nothing placed) on a miss."""
    entry = cache.get(KIND, key)
    if entry is None:
        return None
    placed: list[Path] = []
    for name, blob in sorted(entry.blobs.items()):
        target = folder / name
        if not _safe(name) or target.exists() or not _place(cache, blob, target, final / name):
            for path in placed:
                path.unlink(missing_ok=True)
            cache.damaged(key)
            return None
        placed.append(target)
    return entry


def _place(cache: BuildCache, blob: str, target: Path, existing: Path) -> bool:
    target.parent.mkdir(parents=True, exist_ok=True)
    if existing.is_file() and not existing.is_symlink() and file_digest(existing) == blob:
        try:
            os.link(existing, target, follow_symlinks=False)  # the same file: render.output leaves it be
            return True
        except OSError:
            shutil.copyfile(existing, target)
            return True
    data = cache.read(blob)
    if data is None:
        return False
    target.write_bytes(data)
    return True


def record(cache: BuildCache, key: str, folder: Path, before: set[str], meta: dict) -> None:
    """Keep the files a step added to the staging folder (those not in `before`) and its meta."""
    blobs = {}
    for name in sorted(files_below(folder) - before):
        path = folder / name
        blobs[name] = cache.put(path.read_bytes(), source=path)
    cache.store(KIND, key, meta, blobs)
