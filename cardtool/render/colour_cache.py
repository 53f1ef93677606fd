"""The colour differences already computed, kept in cardtool's cache folder, so that `cardtool validate`
loads ColorAide only when a deck's palette holds a pair of colours not compared before.

Importing ColorAide costs about 0.05 s of CPU even without the two colour-temperature tables its package
would build on import (render/colour_science.py defers them), and comparing a palette's colours as
well; a designer edits cards far more often than colours. The file maps a pair of colours
("#53abe5|#75a867", sorted) to its ΔE00 under each way of seeing (colour_vision.VISIONS); it holds
numbers only, is rebuilt when ColorAide's version or the visions change, and is ignored, never trusted,
when it cannot be read as such. The folder is
$CARDTOOL_CACHE_DIR, else the platform's user cache folder (~/.cache/cardtool on Linux); an empty
CARDTOOL_CACHE_DIR turns the cache off. Nothing in it comes from a deck but colour codes.
"""

from __future__ import annotations

import json
import math
import os
import sys
import zlib
from pathlib import Path

FILE = "colour-differences.json"
LIMIT = 20_000  # pairs kept; beyond, the file starts again from the palette being checked
Pair = tuple[str, str]


def cache_folder() -> Path | None:
    """Where cardtool keeps what it may compute again; None when the cache is off."""
    chosen = os.environ.get("CARDTOOL_CACHE_DIR")
    if chosen is not None:
        return Path(chosen) if chosen else None
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = str(Path.home() / "Library" / "Caches")
    else:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cardtool"


def method_key(visions) -> str:
    """What the numbers depend on: the visions and ColorAide's version, read from its __meta__.py
    without importing the package."""
    import importlib.util

    spec = importlib.util.find_spec("coloraide")
    try:
        meta = Path(spec.origin).with_name("__meta__.py").read_bytes() if spec and spec.origin else b""
    except OSError:
        meta = b""
    # a checksum, not a hash: it tells versions apart (hashlib and its OpenSSL would cost validate ~10 ms)
    return f"{zlib.crc32(meta):08x}-{zlib.crc32(repr(visions).encode()):08x}"


def pair_key(pair: Pair) -> str:
    return "|".join(pair)


class DifferenceCache:
    """The cached ΔE00 of colour pairs for one method key."""

    def __init__(self, path: Path | None, key: str, visions: int):
        self.path, self.key, self.visions = path, key, visions
        self.pairs: dict[str, list[float]] = {}
        if path is not None:
            self.pairs = self._read(path)

    def _read(self, path: Path) -> dict[str, list[float]]:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            return {}
        if not isinstance(data, dict) or data.get("key") != self.key or not isinstance(data.get("pairs"), dict):
            return {}
        return {name: values for name, values in data["pairs"].items() if self._valid(values)}

    def _valid(self, values) -> bool:
        return isinstance(values, list) and len(values) == self.visions and all(
            isinstance(v, float) and math.isfinite(v) and v >= 0 for v in values)

    def known(self, pairs) -> dict[Pair, tuple[float, ...]]:
        """The differences of those pairs the cache holds."""
        return {pair: tuple(self.pairs[pair_key(pair)]) for pair in pairs if pair_key(pair) in self.pairs}

    def add(self, computed: dict[Pair, tuple[float, ...]], wanted) -> None:
        """Keep computed in the file (written whole, then renamed into place: readers never see half)."""
        if self.path is None or not computed:
            return
        import tempfile  # only when ColorAide ran: validate of a palette compared before never writes
        if len(self.pairs) + len(computed) > LIMIT:
            self.pairs = {pair_key(p): list(v) for p, v in self.known(wanted).items()}
        self.pairs.update({pair_key(pair): [float(v) for v in values] for pair, values in computed.items()})
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(prefix=".colour-", dir=self.path.parent)
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump({"key": self.key, "pairs": self.pairs}, out, sort_keys=True)
            os.replace(temporary, self.path)
        except OSError:  # a read-only or full disk: the check still ran, next time it runs again
            try:
                os.unlink(temporary)
            except (OSError, UnboundLocalError):
                pass


def open_cache(visions) -> DifferenceCache:
    folder = cache_folder()
    return DifferenceCache(folder / FILE if folder is not None else None, method_key(visions), len(visions))
