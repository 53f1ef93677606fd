"""The containment rule: every path a deck names leads, links followed, to a file inside its roots.

A deck's roots are its own folder and the folders of the decks it extends. A card file, glob match,
art, icon, rulebook section, Markdown image or position file that a deck names is accepted only when
its real path (every symbolic link followed) lies inside one of them; otherwise it is an
`outside-deck` issue, raised or reported before anything outside is opened, and never showing what
the outside file holds. URLs a deck writes are sorted the same way: `data:` is allowed, a local path
obeys the rule, anything reaching the network (`http:`, `https:`, `//host`, ...) is `remote-url`.
"""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

if os.name == "nt":
    from nturl2path import url2pathname
else:  # what urllib.request.url2pathname is on POSIX: importing that module (http.client, email) costs ~40 ms
    url2pathname = unquote

from cardtool.issues import Location, Report

OUTSIDE = "outside-deck"
REMOTE = "remote-url"
BAD_ART = "bad-art"
HINT = "a deck may name only files inside its own folder or its base decks' folders; copy the file in"
REMOTE_HINT = "cardtool never uses the network: download the file into the deck folder and name it by its path"


class Outside(ValueError):
    """A name that leads outside the roots; the message says why, never what the file holds."""

    code = OUTSIDE


class Remote(ValueError):
    """A URL that would reach the network."""

    code = REMOTE


@dataclass(frozen=True)
class Roots:
    """The folders a deck may name files in (real paths): its own first, then its bases'."""

    folders: tuple[Path, ...]

    @classmethod
    def of(cls, *folders: Path) -> "Roots":
        unique: list[Path] = []
        for folder in folders:
            real = Path(folder).resolve()
            if real not in unique:
                unique.append(real)
        return cls(tuple(unique))

    def __add__(self, other: "Roots") -> "Roots":
        return Roots.of(*self.folders, *other.folders)

    def contains(self, path: Path) -> bool:
        """Whether path's real location is inside one of the folders."""
        real = _real(Path(path))
        return real is not None and any(real.is_relative_to(folder) for folder in self.folders)

    def locate(self, name: str, base: Path) -> Path:
        """The real path of the file `name` (relative to the folder base) names; Outside if it leaves
        the roots. A missing file inside the roots is returned: saying so is the caller's job."""
        if Path(name).is_absolute():
            raise Outside("is an absolute path; name it relative to the deck folder")
        real = _real(Path(base) / name)
        if real is None:
            raise Outside("is not a usable file name (or is a loop of symbolic links)")
        if self.contains(real):
            return real
        written = Path(os.path.normpath(Path(base).resolve() / name))  # as written, no link followed
        if not any(written.is_relative_to(folder) for folder in self.folders):
            raise Outside("leads out of the deck folder with '..'")
        raise Outside("is a symbolic link (or lies in a linked folder) that leads outside the deck folder")

    def find(self, name: str) -> Path | None:
        """The first existing file `name` names, looked up in each folder in turn (own deck first)."""
        for folder in self.folders:
            path = self.locate(name, folder)
            if path.is_file():
                return path
        return None

    def glob(self, base: Path, pattern: str) -> tuple[list[Path], list[str]]:
        """Files below base matching pattern (`*`, `?`, `[...]`, `**`), in name order, and the names (relative
        to base) of links the pattern would follow out of the roots. No folder outside is ever listed."""
        found: list[Path] = []
        escapes: list[str] = []
        self._glob(Path(base), Path(pattern).parts, "", found, escapes)
        return sorted(set(found)), sorted(set(escapes))

    def _glob(self, folder: Path, parts, shown: str, found: list, escapes: list) -> None:
        if not self.contains(folder):
            escapes.append(shown.rstrip("/") or ".")
            return
        if not parts:
            return
        if parts[0] == "**":
            self._glob_here(folder, parts[1:], shown, found, escapes)
            for child in _entries(folder):
                if child.is_dir() and not child.is_symlink():  # as pathlib: ** never follows links
                    self._glob(child, parts, shown + child.name + "/", found, escapes)
            return
        self._glob_here(folder, parts, shown, found, escapes)

    def _glob_here(self, folder: Path, parts, shown: str, found: list, escapes: list) -> None:
        if not parts:
            return
        head, rest = parts[0], parts[1:]
        if head == "**":
            self._glob(folder, parts, shown, found, escapes)
            return
        if any(ch in head for ch in "*?["):
            children = [c for c in _entries(folder) if fnmatch.fnmatchcase(c.name, head)]
        else:
            children = [folder / head] if (folder / head).exists() or (folder / head).is_symlink() else []
        for child in children:
            name = shown + child.name
            if rest:
                if child.is_dir():
                    self._glob(child, rest, name + "/", found, escapes)
            elif not self.contains(child):
                escapes.append(name)
            elif child.is_file():
                found.append(child)

    def files(self, folder: Path, suffixes: tuple[str, ...]) -> list[Path]:
        """Files with these suffixes below folder and inside the roots (for "did you mean" hints); linked
        folders are not entered."""
        if not self.contains(folder):
            return []
        result = []
        for top, dirs, names in os.walk(folder):
            dirs.sort()
            for name in sorted(names):
                path = Path(top) / name
                if path.suffix.lower() in suffixes and self.contains(path):
                    result.append(path)
        return result


def _real(path: Path) -> Path | None:
    """path with every link followed (None for a NUL byte or a loop of links)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):
        return None


def _entries(folder: Path) -> list[Path]:
    try:
        return sorted(folder.iterdir())
    except OSError:
        return []


def check_name(roots: Roots, name: str, base: Path, report: Report, where: Location, what: str,
               **issue) -> Path | None:
    """The real path of a name the deck wrote at `where`, or None after reporting `outside-deck`."""
    try:
        return roots.locate(name, base)
    except Outside as exc:
        report.error(OUTSIDE, f"{what} '{name}' {exc}", location=where, hint=HINT, **issue)
        return None


# -- URLs written in deck files (Markdown images and links, SVG references) ---------------------------
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")


def url_target(url: str, base: Path, roots: Roots) -> Path | None:
    """What a URL written in a deck file (relative to the folder base) would load: None for a fragment
    (`#id`) or a `data:` URL, else the real path of the local file (inside the roots). Raises Remote for
    anything that reaches the network, Outside for a local file outside the roots."""
    url = url.strip()
    if not url or url.startswith("#"):
        return None
    scheme = _SCHEME.match(url)
    if scheme and len(scheme[1]) > 1:  # one letter is a Windows drive, not a scheme
        kind = scheme[1].lower()
        if kind == "data":
            return None
        if kind != "file":
            raise Remote(f"'{url}' is a URL on the network ({kind}:)")
        parts = urlsplit(url)
        if parts.netloc not in ("", "localhost"):
            raise Remote(f"'{url}' names a file on another machine")
        path = Path(url2pathname(parts.path))
        if not roots.contains(path):
            raise Outside(f"'{url}' names a file outside the deck folder")
        return path.resolve()
    if url.startswith("//") or url.startswith("\\\\"):
        raise Remote(f"'{url}' is a URL on the network (another machine)")
    name = unquote(urlsplit(url).path)
    try:
        return roots.locate(name, base)
    except Outside as exc:
        raise Outside(f"'{url}' {exc}") from None


def is_url(name: str) -> bool:
    """Whether a name a deck wrote is a URL (a scheme, or //host) rather than a path."""
    scheme = _SCHEME.match(name.strip())
    return bool(scheme and len(scheme[1]) > 1) or name.strip().startswith(("//", "\\\\"))


def find_file(roots: Roots, name: str) -> Path | None:
    """The file a deck field (such as `art`) names by path or by URL, looked up in each root in turn; None
    for a data: URL or a file that does not exist. Raises Remote or Outside as url_target does."""
    if is_url(name):
        return url_target(name, roots.folders[0], roots)
    return roots.find(name)


def line_of(text: str, needle: str) -> tuple[int, int]:
    """1-based line and column of needle's first occurrence in text (1, 1 when absent)."""
    at = text.find(needle)
    if at < 0:
        return 1, 1
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


# -- SVG files: what they would fetch -----------------------------------------------------------------
_CSS_URL = re.compile(r"""url\(\s*(['"]?)([^'")]*)\1\s*\)""", re.IGNORECASE)
_IMPORT = re.compile(r"@import", re.IGNORECASE)


@dataclass(frozen=True)
class SvgProblem:
    code: str
    message: str
    line: int
    column: int


def svg_problems(path: Path, roots: Roots, _seen: set | None = None) -> list[SvgProblem]:
    """Everything in an SVG file (inside the roots) that would make a renderer read outside the roots or
    from the network: external hrefs, CSS url(...) and @import, XML entities and stylesheet instructions.
    An SVG it draws is checked too, its problems located at the reference that draws it."""
    seen = _seen if _seen is not None else set()
    seen.add(path.resolve())
    from xml.etree.ElementTree import ParseError

    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import fromstring

    raw = path.read_bytes()
    text = raw.decode("utf-8", errors="replace")
    try:  # entity declarations are refused: external ones would be fetched, nested ones bomb
        tree = fromstring(raw, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except DefusedXmlException:
        return [SvgProblem(BAD_ART, "declares XML entities, which SVG art may not use", *line_of(text, "<!ENTITY"))]
    except ParseError as exc:
        line, column = exc.position
        return [SvgProblem(BAD_ART, f"is not well-formed SVG ({str(exc).split(':')[0]})", line, column + 1)]
    problems: list[SvgProblem] = []

    def check(url: str) -> None:
        try:
            target = url_target(url, path.parent, roots)
        except (Outside, Remote) as exc:
            problems.append(SvgProblem(exc.code, str(exc), *line_of(text, url)))
            return
        if target is not None and target.suffix.lower() == ".svg" and target.is_file() and target not in seen:
            for problem in svg_problems(target, roots, seen):
                problems.append(SvgProblem(problem.code, f"draws {url}, whose line {problem.line} {problem.message}",
                                           *line_of(text, url)))

    if "<?xml-stylesheet" in text:
        problems.append(SvgProblem(REMOTE, "loads a stylesheet (<?xml-stylesheet?>), which SVG art may not do",
                                   *line_of(text, "<?xml-stylesheet")))
    for element in tree.iter():
        for attribute, value in element.attrib.items():
            local = attribute.rsplit("}", 1)[-1]
            if local in ("href", "src"):
                check(value)
            for match in _CSS_URL.finditer(value):
                check(match[2])
        tag = element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""
        if tag == "style" and element.text:
            if _IMPORT.search(element.text):
                problems.append(SvgProblem(REMOTE, "imports a stylesheet (@import), which SVG art may not do",
                                           *line_of(text, "@import")))
            for match in _CSS_URL.finditer(element.text):
                check(match[2])
    return problems
