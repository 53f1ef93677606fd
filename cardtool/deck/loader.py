"""Loading a deck folder: manifest, card files, schemas, game checks, then the frozen model.

Every stage collects all the problems it can find before the next stage decides whether to run,
so one `cardtool validate` shows everything wrong with a deck at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cardtool.deck.model import Deck, Manifest
from cardtool.deck.schema import validate_against
from cardtool.deck.source import CardEntry, DeckSource, relative
from cardtool.deck.yamlsource import SourceDoc, load_yaml
from cardtool.errors import DeckError
from cardtool.report import Location, Report

MANIFEST = "deck.yaml"


@dataclass
class LoadResult:
    """The outcome of loading: the report always, the source and deck when they could be made."""

    report: Report
    source: DeckSource | None = None
    deck: Deck | None = None


def manifest_path(deck_path: Path) -> Path:
    """deck.yaml of a deck given as its folder or as the manifest itself."""
    deck_path = Path(deck_path)
    return deck_path if deck_path.suffix in (".yaml", ".yml") else deck_path / MANIFEST


def load(deck_path: Path, *, deep: bool = True) -> LoadResult:
    """Read and validate a deck; deep also runs the model-level checks (food webs)."""
    from cardtool.games import GAMES

    report = Report()
    path = relative(manifest_path(deck_path))
    if not path.parent.is_dir():
        report.error("missing-file", "no such deck folder", location=Location(path.parent))
        return LoadResult(report)
    if not path.is_file():
        report.error("missing-file", f"the deck folder has no {MANIFEST} manifest", location=Location(path),
                     hint="every deck folder starts with a deck.yaml naming its game and card files")
        return LoadResult(report)
    manifest_doc = load_yaml(path, report)
    if manifest_doc is None:
        return LoadResult(report)
    validate_against(manifest_doc, "deck.schema.json", report)
    if not report.ok:
        return LoadResult(report)
    manifest = _manifest(manifest_doc)
    game = GAMES[manifest.game]
    source = DeckSource(manifest, manifest_doc)
    for file, where in _card_files(manifest, manifest_doc, report):
        doc = load_yaml(file, report)
        if doc is None:
            continue
        source.docs.append(doc)
        validate_against(doc, game.card_schema, report)
        _collect_cards(doc, game.default_kind, source, report)
    if not report.ok:
        return LoadResult(report, source)
    game.check_source(source, report)
    if not report.ok:
        return LoadResult(report, source)
    deck = game.build(source)
    if deep:
        game.check_deck(deck, source, report)
    return LoadResult(report, source, deck)


def load_deck(deck_path: Path) -> Deck:
    """The validated deck, or DeckError carrying the report of why it is not valid."""
    result = load(deck_path)
    if result.deck is None or not result.report.ok:
        raise DeckError(f"deck {deck_path} has errors", result.report)
    return result.deck


def _manifest(doc: SourceDoc) -> Manifest:
    data = doc.data
    return Manifest(
        id=data["id"], name=data["name"], version=data["version"], game=data["game"],
        card_files=tuple(data["cards"]), root=doc.file.parent,
        extends=tuple(data.get("extends", ())), description=data.get("description", ""),
        authors=tuple(data.get("authors", ())),
    )


def _card_files(manifest: Manifest, doc: SourceDoc, report: Report):
    """Each card file with the manifest location naming it; patterns expand in name order."""
    seen: set[Path] = set()
    for index, pattern in enumerate(manifest.card_files):
        where = doc.locate(("cards", index))
        if Path(pattern).is_absolute() or ".." in Path(pattern).parts:
            report.error("bad-value", f"card file '{pattern}' must lie inside the deck folder", location=where)
            continue
        if any(ch in pattern for ch in "*?["):
            files = sorted(p for p in manifest.root.glob(pattern) if p.is_file())
            if not files:
                report.error("missing-file", f"no file matches '{pattern}'", location=where)
        else:
            files = [manifest.root / pattern]
            if not files[0].is_file():
                report.error("missing-file", f"card file '{pattern}' not found", location=where,
                             hint=_near_file(manifest.root, pattern))
                continue
        for file in files:
            if file.resolve() not in seen:
                seen.add(file.resolve())
                yield file, where


def _near_file(root: Path, pattern: str) -> str | None:
    from cardtool.suggest import did_you_mean

    existing = [str(p.relative_to(root)) for p in root.rglob("*.y*ml") if p.name != MANIFEST]
    return did_you_mean(pattern, existing)


def _collect_cards(doc: SourceDoc, default_kind: str, source: DeckSource, report: Report) -> None:
    cards = doc.data.get("cards") if isinstance(doc.data, dict) else None
    if not isinstance(cards, list):
        return
    for index, data in enumerate(cards):
        if not isinstance(data, dict) or not isinstance(data.get("id"), str):
            continue
        entry = CardEntry(data["id"], data.get("kind", default_kind), data, doc, ("cards", index))
        first = source.cards.get(entry.id)
        if first is not None:
            report.error(
                "duplicate-id", f"card id '{entry.id}' is already defined at {first.locate('id')}",
                location=entry.locate("id"), card=entry.id, path=entry.path + ("id",),
                hint="every card needs its own id; rename one of them")
            continue
        source.cards[entry.id] = entry
