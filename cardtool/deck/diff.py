"""What changed between two versions of a deck, as a changelog a designer can paste.

Game-neutral: cards added, removed and changed field by field; a game adds its own sections through its
plugin (cardtool.games.plugin.DiffsDecks, e.g. food-web links) and may word its own values (ShowsValues).
"""

from __future__ import annotations

import dataclasses
import io
import re
import subprocess
import tarfile
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from cardtool.deck.model import Card, Deck
from cardtool.errors import UsageError

_SKIP = {"id", "kind"}


@dataclass
class DeckDiff:
    """Cards added, removed and changed field by field, and the game's own sections (its plugin's)."""

    old: str
    new: str
    added: list[Card] = field(default_factory=list)
    removed: list[Card] = field(default_factory=list)
    changed: list[tuple[str, list[tuple[str, str, str]]]] = field(default_factory=list)
    sections: list = field(default_factory=list)  # cardtool.games.plugin.DiffSection, from the game

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed or any(s.lines for s in self.sections))


def show(value: object, game=None) -> str:
    """A field value as a person reads it (the game's own way first, when its plugin has one)."""
    shown = game.show_value(value) if game is not None else None
    if shown is not None:
        return shown
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, tuple):
        return "[" + ", ".join(show(v, game) for v in value) + "]"
    if dataclasses.is_dataclass(value):
        parts = [f"{f.name}: {show(getattr(value, f.name), game)}" for f in dataclasses.fields(value)
                 if getattr(value, f.name) not in (None, (), "", False) and getattr(value, f.name) != f.default]
        return "{" + ", ".join(parts) + "}"
    return "" if value is None else str(value)


def _plugin(deck: Deck):
    from cardtool.games import get

    return get(deck.game)


def diff_decks(old: Deck, new: Deck) -> DeckDiff:
    result = DeckDiff(f"{old.manifest.id} {old.manifest.version}", f"{new.manifest.id} {new.manifest.version}")
    before = {c.id: c for c in old.cards}
    after = {c.id: c for c in new.cards}
    result.added = [c for cid, c in after.items() if cid not in before]
    result.removed = [c for cid, c in before.items() if cid not in after]
    from cardtool.games.plugin import DiffsDecks, ShowsValues

    game = _plugin(new)
    shows = game if isinstance(game, ShowsValues) else None
    for cid, card in after.items():
        if cid in before:
            changes = _field_changes(before[cid], card, shows)
            if changes:
                result.changed.append((cid, changes))
    if old.game == new.game and isinstance(game, DiffsDecks):
        result.sections = list(game.diff_sections(old, new))
    return result


def _field_changes(old: Card, new: Card, game=None) -> list[tuple[str, str, str]]:
    names = [f.name for f in dataclasses.fields(new) if f.name not in _SKIP]
    if type(old) is not type(new):
        return [("kind", old.kind, new.kind)]
    return [(name, show(getattr(old, name), game), show(getattr(new, name), game)) for name in names
            if getattr(old, name) != getattr(new, name)]


def to_markdown(d: DeckDiff) -> str:
    lines = [f"## Changes from {d.old} to {d.new}", ""]
    if d.empty:
        return "\n".join(lines + ["No changes.", ""])
    if d.added:
        lines += ["### Added", ""] + [f"- {c.name} (`{c.id}`, {c.kind}{_copies(c)})" for c in d.added] + [""]
    if d.removed:
        lines += ["### Removed", ""] + [f"- {c.name} (`{c.id}`, {c.kind}{_copies(c)})" for c in d.removed] + [""]
    if d.changed:
        lines += ["### Changed", ""]
        for cid, changes in d.changed:
            lines.append(f"- `{cid}`: " + "; ".join(f"{name} {old or '(none)'} → {new or '(none)'}"
                                                     for name, old, new in changes))
        lines.append("")
    for section in d.sections:
        if section.lines:
            lines += [f"### {section.title}", "", *section.lines, ""]
    return "\n".join(lines)


def to_json(d: DeckDiff) -> dict:
    return {
        "old": d.old, "new": d.new,
        "added": [{"id": c.id, "kind": c.kind, "name": c.name, "count": c.count} for c in d.added],
        "removed": [{"id": c.id, "kind": c.kind, "name": c.name, "count": c.count} for c in d.removed],
        "changed": [{"id": cid, "fields": [{"field": n, "old": o, "new": v} for n, o, v in changes]}
                    for cid, changes in d.changed],
        **{key: value for section in d.sections for key, value in section.json.items()},
    }


def _copies(card: Card) -> str:
    return f", {card.count} copies" if card.count > 1 else ""


@contextmanager
def checkout(deck: Path, rev: str):
    """The deck folder as it was at a git revision, extracted (with the whole tree) to a temp folder."""
    deck = Path(deck).resolve()
    if deck.is_file():  # the deck's deck.yaml
        deck = deck.parent
    if not deck.is_dir():
        raise UsageError(f"{deck} is not a deck folder")
    top = Path(_git(deck, "rev-parse", "--show-toplevel").decode().strip()).resolve()
    inside = deck.relative_to(top)
    commit = resolve_revision(top, rev)
    archive = _git(top, "archive", "--format=tar", commit)  # from the top: the whole tree, bases too
    with tempfile.TemporaryDirectory(prefix="cardtool-diff-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        folder = Path(tmp) / inside
        if not (folder / "deck.yaml").is_file():
            raise UsageError(f"{inside} holds no deck.yaml at revision {rev}")
        yield folder


def resolve_revision(repository: Path, rev: str) -> str:
    """The commit id (hex) a revision names; only that id is ever handed on to git.

    `--end-of-options` keeps git from reading a value such as `--output=FILE` as an option."""
    if not rev:
        raise UsageError("--rev needs a revision on each side of '..', e.g. HEAD~3..HEAD")
    result = _run_git(repository, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}")
    commit = result.stdout.decode(errors="replace").strip()
    if result.returncode != 0 or not re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", commit):
        raise UsageError(f"--rev: '{rev}' is not a commit of the git repository at {repository} "
                         "(give a branch, tag or commit such as HEAD~3 or v0.1)")
    return commit


def _run_git(where: Path, *args: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", "-C", str(where), *args], capture_output=True, check=False)
    except FileNotFoundError:
        raise UsageError("--rev needs git, which is not installed") from None


def _git(where: Path, *args: str) -> bytes:
    result = _run_git(where, *args)
    if result.returncode != 0:
        raise UsageError(f"git {' '.join(args[:1])}: {result.stderr.decode(errors='replace').strip()}")
    return result.stdout
