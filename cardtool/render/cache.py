"""The build cache: work kept under the content hash of everything it was made from, so that `cardtool
build` run again makes only what changed.

It lives inside the build's own output folder, <out>/.cardtool-cache/ (a hidden name that render.output
never lists, replaces or takes for a user's file), and holds
- blobs/<sha256>: bytes, each named by its own SHA-256 digest;
- entries/<key>.json: what one piece of work made (a card face's PDF and the text that overflowed in it,
  a build step's files and message, a document's PDF), naming its blobs, under a key that is the SHA-256
  of every input of that work: cardtool's code, templates and library versions (code_fingerprint), then
  what the caller adds (the deck's files, the options, a face's HTML and every file it names).

An entry is a hint, never trusted: one whose JSON is malformed, whose key is not the one asked for, whose
blob is missing or does not match its digest, or whose content fails the caller's check counts as
damaged, and the work is done again (and the entry replaced). Names inside the cache are only ever
digests this module computes, files are opened without following links, and a cache folder that is a
link or not a folder is not used, so a cache can make a build read or write nothing outside its own
folder. After a build, what it did not use is removed (prune).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote

FOLDER = ".cardtool-cache"
FORMAT = 1
MAX_BLOB = 1 << 30  # bytes: a larger "blob" is not something cardtool wrote
_HEX = re.compile(r"[0-9a-f]{64}")
_FILE_URL = re.compile(r"file://([^\"'\s<>)]+)")
#: Libraries whose version changes what an output's bytes are.
LIBRARIES = ("weasyprint", "pydyf", "pypdf", "pypdfium2", "pillow", "fonttools", "jinja2", "markdown-it-py",
             "matplotlib")


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def key_of(*parts: str | bytes) -> str:
    """One digest of several inputs (each length-prefixed, so ("ab", "c") and ("a", "bc") differ)."""
    sha = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        sha.update(len(data).to_bytes(8, "big"))
        sha.update(data)
    return sha.hexdigest()


def _tree_files(folder: Path) -> Iterator[Path]:
    """Regular files below folder, sorted, hidden names and symbolic links left out (never followed)."""
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in sorted(files):
            path = Path(root) / name
            if not name.startswith(".") and not path.is_symlink() and path.is_file():
                yield path


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A digest of cardtool's own code, templates and schemas (names, sizes, modification times) and the
    versions of the libraries that shape its outputs: a change to any of them makes cached work stale."""
    from importlib import metadata

    import cardtool
    from cardtool.resources import schemas_dir, templates_dir

    sha = hashlib.sha256(f"cache format {FORMAT}; cardtool {cardtool.__version__}\n".encode())
    for library in LIBRARIES:
        try:
            sha.update(f"{library} {metadata.version(library)}\n".encode())
        except metadata.PackageNotFoundError:
            sha.update(f"{library} absent\n".encode())
    for folder in (Path(cardtool.__file__).parent, templates_dir(), schemas_dir()):
        for path in _tree_files(folder):  # each file's size and modification time: cheap, and any edit shows
            if path.suffix not in (".pyc", ".so"):
                info = path.stat()
                sha.update(f"{path.relative_to(folder).as_posix()}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return sha.hexdigest()


_FILE_DIGESTS: dict[tuple[str, int, int], str] = {}  # (path, size, mtime) -> digest, within one process


def file_digest(path: Path) -> str:
    """The digest of a file's content ('missing' if there is none); symbolic links are not followed."""
    try:
        info = os.stat(path, follow_symlinks=False)
    except OSError:
        return "missing"
    if not os.path.isfile(path) or os.path.islink(path):
        return "not a file"
    memo = (str(path), info.st_size, info.st_mtime_ns)
    if memo not in _FILE_DIGESTS:
        try:
            _FILE_DIGESTS[memo] = digest(Path(path).read_bytes())
        except OSError:
            return "unreadable"
    return _FILE_DIGESTS[memo]


def tree_digest(folders: Iterable[Path]) -> str:
    """A digest of every file (name and content) below the folders: a deck and its bases."""
    sha = hashlib.sha256()
    for folder in folders:
        folder = Path(folder).resolve()
        sha.update(str(folder).encode() + b"\0")
        for path in _tree_files(folder):
            sha.update(path.relative_to(folder).as_posix().encode() + b"\0" + file_digest(path).encode())
    return sha.hexdigest()


def named_files_digest(*texts: str) -> str:
    """A digest of the content of every file:// URL the texts name (a face's art and icons, fonts a
    stylesheet loads), and of files an SVG among them names relative to itself."""
    sha = hashlib.sha256()
    seen: set[Path] = set()
    for text in texts:
        for url in sorted(set(_FILE_URL.findall(text))):
            path = Path(unquote(url.split("#")[0].split("?")[0]))
            if path in seen:
                continue
            seen.add(path)
            sha.update(str(path).encode() + b"\0" + file_digest(path).encode() + b"\n")
            if path.suffix.lower() == ".svg" and file_digest(path) not in ("missing", "not a file", "unreadable"):
                for name in sorted(set(re.findall(rb'href="([^"#:]+)"', path.read_bytes()))):
                    inner = path.parent / unquote(name.decode("utf-8", "replace"))
                    sha.update(str(inner).encode() + b"\0" + file_digest(inner).encode() + b"\n")
    return sha.hexdigest()


@dataclass(frozen=True)
class Entry:
    """A piece of work found in the cache: what it recorded and its files, as blob digests."""

    key: str
    meta: dict
    blobs: dict[str, str]


@dataclass
class Tally:
    """What the cache answered during a build, by kind of work."""

    reused: dict[str, int] = field(default_factory=dict)
    made: dict[str, int] = field(default_factory=dict)
    damaged: int = 0

    def since(self, before: "Tally", kind: str) -> tuple[int, int]:
        """(reused, made) of a kind since an earlier copy of the tally."""
        return (self.reused.get(kind, 0) - before.reused.get(kind, 0), self.made.get(kind, 0) - before.made.get(kind, 0))

    def copy(self) -> "Tally":
        return Tally(dict(self.reused), dict(self.made), self.damaged)


class BuildCache:
    """The cache folder of one output folder. Every read is checked; a failed check reads as a miss."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.used: set[str] = set()  # entry keys and blob digests this build read or wrote
        self.tally = Tally()

    @classmethod
    def of(cls, out: Path) -> "BuildCache | None":
        """The cache of an output folder (made if missing), or None if its place holds a link or a file."""
        folder = Path(out) / FOLDER
        if folder.is_symlink() or Path(out).is_symlink() or (folder.exists() and not folder.is_dir()):
            return None
        try:
            if not folder.exists():
                folder.mkdir()
            for sub in ("blobs", "entries"):
                path = folder / sub
                if not path.is_symlink() and not path.exists():
                    path.mkdir()
        except OSError:
            return None
        usable = all(p.is_dir() and not p.is_symlink() for p in (folder, folder / "blobs", folder / "entries"))
        return cls(folder) if usable else None

    # -- blobs ---------------------------------------------------------------------------------------
    def _blob_path(self, name: str) -> Path:
        if not _HEX.fullmatch(name):
            raise ValueError(name)
        return self.folder / "blobs" / name

    def read(self, name: str) -> bytes | None:
        """A blob's bytes, or None if it is missing, a link, too large or not what its name says."""
        try:
            fd = os.open(self._blob_path(name), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except (OSError, ValueError):
            return None
        with os.fdopen(fd, "rb") as blob:
            info = os.fstat(blob.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BLOB:
                return None
            data = blob.read(MAX_BLOB + 1)
        if len(data) > MAX_BLOB or digest(data) != name:
            return None
        self.used.add(name)
        return data

    def has(self, name: str) -> bool:
        path = self._blob_path(name)
        return path.is_file() and not path.is_symlink()

    def put(self, data: bytes, source: Path | None = None) -> str:
        """Store bytes (hard-linked from `source` when it holds them and the disk allows); their digest."""
        name = digest(data)
        self.used.add(name)
        path = self._blob_path(name)
        if path.is_file() and not path.is_symlink() and path.stat().st_size == len(data):
            return name
        if source is not None:
            try:
                tmp = path.with_name(f".{name}.link")
                tmp.unlink(missing_ok=True)
                os.link(source, tmp, follow_symlinks=False)
                os.replace(tmp, path)
                return name
            except OSError:
                pass
        self._write(path, data)
        return name

    # -- entries -------------------------------------------------------------------------------------
    def get(self, kind: str, key: str) -> Entry | None:
        """The entry stored under key, checked (JSON shape, its own key, every blob present); else None."""
        path = self.folder / "entries" / f"{key}.json"
        if not _HEX.fullmatch(key) or not path.exists():
            return None
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            with os.fdopen(fd, "rb") as file:
                record = json.loads(file.read(1 << 24))
            ok = (isinstance(record, dict) and record.get("format") == FORMAT and record.get("key") == key
                  and record.get("kind") == kind and isinstance(record.get("meta"), dict)
                  and isinstance(record.get("blobs"), dict)
                  and all(isinstance(n, str) and isinstance(b, str) and _HEX.fullmatch(b) and self.has(b)
                          for n, b in record["blobs"].items()))
        except (OSError, ValueError, UnicodeDecodeError):
            ok = False
        if not ok:
            self.damaged(key)
            return None
        self.used.add(key)
        self.used.update(record["blobs"].values())
        self.used.update(k for k in record["meta"].get("uses", ()) if isinstance(k, str) and _HEX.fullmatch(k))
        return Entry(key, record["meta"], dict(record["blobs"]))

    def store(self, kind: str, key: str, meta: dict, blobs: dict[str, str]) -> None:
        """Record a piece of work (its blobs already stored with put)."""
        self.used.add(key)
        record = {"format": FORMAT, "kind": kind, "key": key, "meta": meta, "blobs": blobs}
        self._write(self.folder / "entries" / f"{key}.json", json.dumps(record, sort_keys=True).encode())

    def damaged(self, key: str) -> None:
        """An entry failed a check: count it and remove it, so the work is done again and stored anew."""
        self.tally.damaged += 1
        if _HEX.fullmatch(key):
            (self.folder / "entries" / f"{key}.json").unlink(missing_ok=True)

    def _write(self, path: Path, data: bytes) -> None:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".new-")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def prune(self, kinds: frozenset[str] | None = None) -> None:
        """Remove the entries this build did not use (only those of the given kinds, if any: `render
        cards` prunes faces and leaves what a build keeps), then the blobs no remaining entry names (and
        leftovers of interrupted writes)."""
        kept: set[str] = set()
        for path in (self.folder / "entries").iterdir():
            key = path.name.removesuffix(".json")
            if path.is_symlink() or not path.is_file():
                path.unlink(missing_ok=True)
                continue
            try:
                record = json.loads(path.read_bytes())
                if key not in self.used and (kinds is None or record.get("kind") in kinds):
                    path.unlink(missing_ok=True)
                    continue
                kept.update(b for b in record.get("blobs", {}).values() if isinstance(b, str))
            except (OSError, ValueError, AttributeError):
                path.unlink(missing_ok=True)
        for path in (self.folder / "blobs").iterdir():
            if path.name not in kept:
                path.unlink(missing_ok=True)


_ACTIVE: list[BuildCache] = []


@contextmanager
def using(cache: BuildCache | None) -> Iterator[BuildCache | None]:
    """Make `cache` the one rendering code consults (current()) while inside."""
    _ACTIVE.append(cache)
    try:
        yield cache
    finally:
        _ACTIVE.pop()


def current() -> BuildCache | None:
    """The cache of the build running now, if any."""
    return _ACTIVE[-1] if _ACTIVE else None
