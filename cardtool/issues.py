"""Validation as a report of located issues, shared by every validator."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from enum import Enum
from pathlib import Path


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"  # worth saying, never a failure (e.g. an expansion's override)


@dataclass(frozen=True)
class Location:
    """A place in a source file: 1-based line and column (0 when unknown)."""

    file: Path
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.column}"
        return str(self.file)


@dataclass(frozen=True)
class Issue:
    """One problem found in a deck: what, where, in which card, and how to fix it."""

    severity: Severity
    code: str
    message: str
    location: Location | None = None
    card: str | None = None
    path: tuple = ()
    hint: str | None = None

    def format(self) -> str:
        where = f"{self.location}: " if self.location else ""
        card = f"{self.card}: " if self.card else ""
        text = f"{where}{self.severity.value}[{self.code}] {card}{self.message}"
        if self.hint:
            text += f"\n    hint: {self.hint}"
        return text

    def to_json(self) -> dict:
        data = asdict(self)
        data["severity"] = self.severity.value
        data["path"] = list(self.path)
        loc = self.location
        data["location"] = None
        data.update(
            file=str(loc.file) if loc else None,
            line=loc.line if loc else None,
            column=loc.column if loc else None,
        )
        del data["location"]
        return data


@dataclass
class Report:
    """Every issue found in one run, errors and warnings alike, in the order found."""

    issues: list[Issue] = field(default_factory=list)

    def add(self, issue: Issue) -> None:
        self.issues.append(issue)

    def error(self, code: str, message: str, **where) -> None:
        self.add(Issue(Severity.ERROR, code, message, **where))

    def warning(self, code: str, message: str, **where) -> None:
        self.add(Issue(Severity.WARNING, code, message, **where))

    def note(self, code: str, message: str, **where) -> None:
        self.add(Issue(Severity.NOTE, code, message, **where))

    def extend(self, other: "Report") -> None:
        self.issues.extend(other.issues)

    @property
    def errors(self) -> list[Issue]:
        return [i for i in self.issues if i.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Issue]:
        return [i for i in self.issues if i.severity is Severity.WARNING]

    @property
    def notes(self) -> list[Issue]:
        return [i for i in self.issues if i.severity is Severity.NOTE]

    @property
    def ok(self) -> bool:
        return not self.errors

    def sorted(self) -> list[Issue]:
        """Issues ordered by file and line, so output reads top to bottom."""

        def key(issue: Issue):
            loc = issue.location
            return (str(loc.file) if loc else "", loc.line if loc else 0, loc.column if loc else 0)

        return sorted(self.issues, key=key)

    def format(self) -> str:
        return "\n".join(issue.format() for issue in self.sorted())

    def to_json(self) -> str:
        return json.dumps([i.to_json() for i in self.sorted()], indent=2)
