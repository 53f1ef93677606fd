"""Safe YAML loading that keeps where every value came from.

PyYAML's safe loader silently keeps the last of two duplicate keys, expands aliases without bound
and forgets positions. Here the node tree is composed by PyYAML and turned into plain data by a
small walker that records each value's line and column, reports duplicate keys, refuses any tag
beyond plain YAML, and stops once aliases expand past a budget (billion-laughs files). A file larger
than any deck needs is refused before it is read, so a huge file fails at once and says so.
"""

from __future__ import annotations

import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor

from cardtool.issues import Location, Report

try:  # the C parser is much faster on large decks; both give the same nodes and marks
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - libyaml is optional
    from yaml import SafeLoader as _Loader

#: Largest deck file read, in bytes: the shipped decks' largest file has 16 KB, 1,000 cards take about 1 MB.
MAX_FILE_BYTES = 2 * 1024 * 1024
#: Most values aliases (*name) may expand to in one file; written-out values are bounded by the file size.
MAX_ALIAS_VALUES = 100_000
#: Deepest nesting of lists and mappings; a card's deepest value (an effect's filter list) is at depth 6.
MAX_DEPTH = 64

_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_TAG + t for t in ("str", "int", "float", "bool", "null")}
_STR = _TAG + "str"
_TIMESTAMP = _TAG + "timestamp"
_MERGE = _TAG + "merge"

Path_ = tuple  # a JSON-pointer-like path: ("cards", 3, "vp")


@dataclass
class SourceDoc:
    """One parsed file: its data, and where each value (and each mapping key) stands."""

    file: Path
    data: Any
    positions: dict = field(default_factory=dict)
    key_positions: dict = field(default_factory=dict)
    size: int = 0  # bytes read

    def locate(self, path: Path_ = (), *, key: bool = False) -> Location:
        """The location of the value at path (or of its key), else of its nearest ancestor."""
        path = tuple(path)
        if key and path in self.key_positions:
            return Location(self.file, *self.key_positions[path])
        while path not in self.positions and path:
            path = path[:-1]
        line, column = self.positions.get(path, (0, 0))
        return Location(self.file, line, column)


class _Budget(Exception):
    pass


class _TooDeep(Exception):
    """Nesting past MAX_DEPTH, or an alias inside the value it names; args: (line, column, recursive)."""


class _Walker:
    """Turns a composed node tree into plain data, recording positions and problems."""

    def __init__(self, doc: SourceDoc, report: Report):
        self.doc = doc
        self.report = report
        self.seen: set[int] = set()  # nodes walked once; walking one again is expanding an alias
        self.expanded = 0
        self.open: set[int] = set()  # nodes being walked: the current node and its ancestors
        self.constructor = SafeConstructor()

    def _mark(self, node) -> tuple[int, int]:
        return node.start_mark.line + 1, node.start_mark.column + 1

    def walk(self, node, path: Path_) -> Any:
        key = id(node)
        if key in self.open:
            raise _TooDeep(*self._mark(node), True)
        if len(path) > MAX_DEPTH:
            raise _TooDeep(*self._mark(node), False)
        if key in self.seen:
            self.expanded += 1
            if self.expanded > MAX_ALIAS_VALUES:
                raise _Budget
        else:
            self.seen.add(key)
        self.doc.positions.setdefault(path, self._mark(node))
        if isinstance(node, yaml.ScalarNode):
            return self._scalar(node, path)  # a scalar holds nothing, so it never stands inside itself
        self.open.add(key)
        try:
            if isinstance(node, yaml.MappingNode):
                return self._mapping(node, path)
            if node.tag != _TAG + "seq":
                self._bad_tag(node, path)
            return [self.walk(item, path + (i,)) for i, item in enumerate(node.value)]
        finally:
            self.open.discard(key)

    def _scalar(self, node, path: Path_) -> Any:
        if node.tag == _TIMESTAMP:
            return node.value  # dates stay text: versions and notes, not datetimes
        if node.tag == _STR:
            return node.value  # what the constructor returns for text, without its bookkeeping
        if node.tag not in _SCALAR_TAGS:
            self._bad_tag(node, path)
            return node.value
        return self.constructor.construct_object(node)

    def _mapping(self, node, path: Path_) -> dict:
        if node.tag != _TAG + "map":
            self._bad_tag(node, path)
        result: dict = {}
        first_seen: dict = {}
        merged: dict = {}
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE:
                merged.update(self._merge_sources(value_node, path))
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                self.report.error(
                    "yaml-syntax", "a mapping key must be plain text, not a list or mapping",
                    location=Location(self.doc.file, *self._mark(key_node)), path=path)
                continue
            key = self._scalar(key_node, path)
            if key in first_seen:
                line, column = first_seen[key]
                self.report.error(
                    "duplicate-key",
                    f"key '{key}' appears twice in this mapping (first at line {line}, column {column})",
                    location=Location(self.doc.file, *self._mark(key_node)), path=path + (key,),
                    hint="YAML keeps only one of them; remove or rename the other")
                continue
            first_seen[key] = self._mark(key_node)
            self.doc.key_positions[path + (key,)] = self._mark(key_node)
            result[key] = self.walk(value_node, path + (key,))
        for key, value in merged.items():
            result.setdefault(key, value)
        return result

    def _merge_sources(self, node, path: Path_) -> dict:
        """`<<: *base` or `<<: [*a, *b]`: keys of the merged mappings, earlier ones winning."""
        sources = node.value if isinstance(node, yaml.SequenceNode) else [node]
        merged: dict = {}
        for source in sources:
            value = self.walk(source, path)
            if isinstance(value, dict):
                for key, item in value.items():
                    merged.setdefault(key, item)
        return merged

    def _bad_tag(self, node, path: Path_) -> None:
        self.report.error(
            "yaml-tag", f"tag '{node.tag.replace(_TAG, '!!')}' is not allowed in deck files",
            location=Location(self.doc.file, *self._mark(node)), path=path,
            hint="deck files are plain data: remove the '!' tag")


def _decode(raw: bytes, file: Path, report: Report) -> str | None:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        report.error(
            "encoding", f"the file is not UTF-8 text (byte 0x{raw[exc.start]:02x} cannot be decoded)",
            location=Location(file, line, column),
            hint="save the file as UTF-8 in your editor")
        return None


def _read_at_most(file: Path, size: int) -> bytes:
    with file.open("rb") as stream:
        return stream.read(size)  # never more, whatever the file grows to while being read


def load_yaml(file: Path, report: Report) -> SourceDoc | None:
    """Parse one YAML file safely, or add located errors to report and return None."""
    file = Path(file)
    try:
        info = file.stat()
        if not stat.S_ISREG(info.st_mode):  # a folder, a pipe or a device: opening could block or never end
            report.error("missing-file", "not a regular file", location=Location(file))
            return None
        raw = b"" if info.st_size > MAX_FILE_BYTES else _read_at_most(file, MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        report.error("missing-file", "file not found", location=Location(file))
        return None
    except OSError as exc:
        report.error("missing-file", f"cannot read the file: {exc.strerror}", location=Location(file))
        return None
    if info.st_size > MAX_FILE_BYTES or len(raw) > MAX_FILE_BYTES:
        report.error("file-too-large", f"the file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB, far more than "
                     "any deck needs", location=Location(file),
                     hint="split the cards over several files (globs such as organisms/*.yaml read them all); "
                          "docs/deck-format.md#limits lists every limit")
        return None
    text = _decode(raw, file, report)
    if text is None:
        return None
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = Location(file, mark.line + 1, mark.column + 1) if mark else Location(file)
        context = exc.context or ""
        if context and exc.context_mark and exc.context_mark is not mark:
            context += f" (started at line {exc.context_mark.line + 1}, column {exc.context_mark.column + 1})"
        problem = ", ".join(str(part) for part in (context, exc.problem) if part)
        report.error("yaml-syntax", f"invalid YAML: {problem}", location=where)
        return None
    except yaml.YAMLError as exc:
        report.error("yaml-syntax", f"invalid YAML: {exc}", location=Location(file))
        return None
    if node is None:
        report.error("empty-file", "the file is empty (only blank lines or comments)",
                     location=Location(file, 1, 1))
        return None
    doc = SourceDoc(file, None, size=len(raw))
    walker = _Walker(doc, report)
    try:
        doc.data = walker.walk(node, ())
    except _Budget:
        report.error(
            "alias-limit",
            f"aliases (*name) in this file expand to more than {MAX_ALIAS_VALUES:,} values",
            location=Location(file, 1, 1),
            hint="this looks like an alias bomb; write the values out or use fewer nested aliases")
        return None
    except _TooDeep as exc:
        line, column, recursive = exc.args
        if recursive:
            report.error("alias-limit", "an alias (*name) stands inside the value it names, which would never end",
                         location=Location(file, line, column), hint="write the value out instead")
        else:
            report.error("too-deep", f"lists and mappings are nested more than {MAX_DEPTH} levels deep",
                         location=Location(file, line, column), hint="a card's values nest a few levels at most")
        return None
    except RecursionError:
        report.error("too-deep", "lists and mappings are nested too deep", location=Location(file, 1, 1))
        return None
    return doc
