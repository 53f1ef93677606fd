"""Loading a deck folder: manifest, card files, schemas, game checks, then the frozen model.

Every stage collects all the problems it can find before the next stage decides whether to run,
so one `cardtool validate` shows everything wrong with a deck at once.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType

from cardtool.collector import collector_paused
from cardtool.deck import compose, printing, prose
from cardtool.deck.containment import (BAD_ART, HINT, OUTSIDE, REMOTE, REMOTE_HINT, Outside, Remote, Roots, check_name,
                                       find_file, is_url, svg_problems)
from cardtool.deck.model import Deck, Manifest
from cardtool.deck.schema import validate_against
from cardtool.deck.source import CardEntry, DeckSource, relative
from cardtool.deck.yamlsource import SourceDoc, load_yaml
from cardtool.errors import DeckError
from cardtool.issues import Location, Report
from cardtool.suggest import did_you_mean

MANIFEST = "deck.yaml"
ART_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg", ".gif", ".webp")  # what render/context.art_url prints
ICONS = "icons"  # a deck's own icons, replacing the shipped ones of the same name (render/context.py)


@dataclass
class LoadResult:
    """The outcome of loading: the report always, the source and deck when they could be made."""

    report: Report
    source: DeckSource | None = None
    deck: Deck | None = None
    roots: Roots | None = None  # the folders the deck may name files in: its own, then its bases'


def manifest_path(deck_path: Path) -> Path:
    """deck.yaml of a deck given as its folder or as the manifest itself."""
    deck_path = Path(deck_path)
    return deck_path if deck_path.suffix in (".yaml", ".yml") else deck_path / MANIFEST


def load(deck_path: Path, *, deep: bool = True, standalone: bool = False) -> LoadResult:
    """Read and validate a deck; deep also runs the model-level checks (food webs).

    An expansion (a deck that `extends` others) is combined with its bases, or taken alone with
    `standalone`, its references to base cards then dropped.
    """
    # about 40% of validating 10,000 organisms was the collector rescanning what loading keeps
    # (benchmarks/scale_bench.py), the part that grew faster than the deck
    with collector_paused():
        return _load(deck_path, deep=deep, standalone=standalone, chain=())


def _load(deck_path: Path, *, deep: bool, standalone: bool, chain: tuple[Path, ...]) -> LoadResult:
    from cardtool.games import GAMES

    report = Report()
    path = relative(manifest_path(deck_path))
    own = _read_own(path, report)
    if own is None:
        return LoadResult(report)
    manifest, manifest_doc = own.manifest, own.manifest_doc
    game = GAMES[manifest.game]
    if not report.ok:
        return LoadResult(report, own)
    source = own
    roots = Roots.of(manifest.root)
    if manifest.extends:
        base, base_roots = _load_bases(own, report, chain + (path.resolve(),))
        roots = roots + base_roots
        if not report.ok:
            return LoadResult(report, own)
        own.manifest = replace(manifest, print=printing.inherit(base.manifest, manifest, manifest_doc, report),
                               rules={**(base.manifest.rules or {}), **(manifest.rules or {})} or None)
        if standalone:
            source = compose.standalone(own, base, game.restrict, report)
        else:
            source = compose.combine(base, own, manifest_doc, game.card_schema, report, game.restrict, game.link)
            source.manifest = replace(source.manifest, rulebook=base.manifest.rulebook + manifest.rulebook)
            if not report.ok:
                return LoadResult(report, source)
    else:
        source.origins = {cid: manifest.id for cid in source.cards}
    compose.check_combined(source, report)  # deck size and selectors, before anything counts copies
    check_art(source, roots, report)
    check_icons(manifest.root, roots, report)
    prose.check_sections(manifest.rulebook, roots, report)  # pictures and links the prose names
    game.check_source(source, report)
    if not report.ok:
        return LoadResult(report, source, roots=roots)
    deck = replace(game.build(source), origins=MappingProxyType(dict(source.origins)),
                   overrides=tuple(source.overrides), bases=tuple(source.bases), left_out=tuple(source.left_out),
                   standalone=source.standalone, roots=roots.folders)
    if deep:
        game.check_deck(deck, source, report)
    return LoadResult(report, source, deck, roots)


def _read_own(path: Path, report: Report) -> DeckSource | None:
    """The manifest and this deck's own card files, checked against their schemas."""
    from cardtool.games import GAMES

    if not path.parent.is_dir():
        report.error("missing-file", "no such deck folder", location=Location(path.parent))
        return None
    if not path.is_file():
        report.error("missing-file", f"the deck folder has no {MANIFEST} manifest", location=Location(path),
                     hint="every deck folder starts with a deck.yaml naming its game and card files")
        return None
    if not Roots.of(path.parent).contains(path):
        report.error(OUTSIDE, f"{path.name} is a symbolic link that leads outside the deck folder; it was not read",
                     location=Location(path), hint=HINT)
        return None
    manifest_doc = load_yaml(path, report)
    if manifest_doc is None:
        return None
    validate_against(manifest_doc, "deck.schema.json", report)
    if not report.ok:
        return None
    manifest = _manifest(manifest_doc)
    if manifest.game not in GAMES:  # the registry, not the schema, knows which games are installed
        games = list(GAMES)
        report.error("bad-value", f"'game': text '{manifest.game}' is not one of: {', '.join(games)}",
                     location=manifest_doc.locate(("game",)),
                     hint=did_you_mean(manifest.game, games) or "a game installed as a plugin is listed by "
                                                                "'pip show' (see docs/plugins.md)")
        return None
    game = GAMES[manifest.game]
    source = DeckSource(manifest, manifest_doc)
    _check_rulebook(manifest, manifest_doc, report)
    for tried, (file, where) in enumerate(_card_files(manifest, manifest_doc, report)):
        if compose.read_enough(tried, source, report, where):  # a folder of a million files is not a deck
            break
        doc = load_yaml(file, report)
        if doc is None:
            continue
        source.docs.append(doc)
        validate_against(doc, game.card_schema, report)
        _collect_cards(doc, game.default_kind, source, report)
    return source


def _load_bases(own: DeckSource, report: Report, chain: tuple[Path, ...]) -> tuple[DeckSource | None, Roots]:
    """The expansion's base decks, each loaded (with its own bases) and merged in order, and their roots."""
    manifest, doc = own.manifest, own.manifest_doc
    merged: DeckSource | None = None
    roots = Roots(())
    for index, ref in enumerate(manifest.extends):
        where = doc.locate(("extends", index))
        folder = compose.resolve_base(ref, manifest, report, where)
        if folder is None:
            continue
        base_path = relative(manifest_path(folder))
        if base_path.resolve() in chain:
            names = " -> ".join(str(relative(p.parent)) for p in chain + (base_path.resolve(),))
            report.error("extends-cycle", f"decks extend each other in a cycle: {names}", location=where,
                         hint="an expansion may extend a base, but a base never extends its expansion")
            continue
        result = _load(base_path, deep=False, standalone=False, chain=chain)
        report.extend(result.report)
        roots = roots + (result.roots or Roots.of(base_path.parent))
        if not result.report.ok or result.source is None:
            report.error("base-invalid", f"base deck '{ref}' has errors (listed above); fix it first", location=where)
            continue
        base = result.source
        if base.manifest.game != manifest.game:
            report.error("game-mismatch", f"base deck '{ref}' is a {base.manifest.game} deck, this one {manifest.game}",
                         location=where)
            continue
        merged = base if merged is None else _merge_bases(merged, base, report)
    return merged, roots


def _merge_bases(first: DeckSource, second: DeckSource, report: Report) -> DeckSource:
    """Two base decks side by side (a deck extending several); their card ids must not clash."""
    merged = DeckSource(first.manifest, first.manifest_doc, docs=first.docs + second.docs,
                        cards=dict(first.cards), origins=dict(first.origins),
                        overrides=first.overrides + second.overrides,
                        bases=first.bases + [first.manifest.id] + second.bases,
                        left_out=first.left_out + second.left_out)
    for cid, entry in second.cards.items():
        if cid in merged.cards and merged.origins.get(cid) != second.origins.get(cid):
            report.error("duplicate-id", f"card id '{cid}' is defined by two base decks, also at "
                         f"{merged.cards[cid].locate('id')}", location=entry.locate("id"), card=cid)
            continue
        merged.cards.setdefault(cid, entry)
        merged.origins.setdefault(cid, second.origins[cid])
    merged.manifest = replace(second.manifest,  # the last base names the merged bases in messages
                              rulebook=first.manifest.rulebook + second.manifest.rulebook)
    return merged


def load_deck(deck_path: Path, *, standalone: bool = False) -> Deck:
    """The validated deck, or DeckError carrying the report of why it is not valid."""
    result = load(deck_path, standalone=standalone)
    if result.deck is None or not result.report.ok:
        raise DeckError(f"deck {deck_path} has errors", result.report)
    return result.deck


def _manifest(doc: SourceDoc) -> Manifest:
    data = doc.data
    return Manifest(
        id=data["id"], name=data["name"], version=data["version"], game=data["game"],
        card_files=tuple(data["cards"]), root=doc.file.parent,
        extends=tuple(data.get("extends", ())), description=data.get("description", ""),
        authors=tuple(data.get("authors", ())), include=data.get("include"), exclude=data.get("exclude"),
        overrides=tuple(data.get("overrides", ())),
        rulebook=tuple(doc.file.parent / section for section in data.get("rulebook", ())),
        print=data.get("print"), rules=data.get("rules"),
    )


def _check_rulebook(manifest: Manifest, doc: SourceDoc, report: Report) -> None:
    """Every rulebook section named in the manifest is a file inside the deck folder (a missing one is a
    warning: the cards play and print without it)."""
    roots = Roots.of(manifest.root)
    for index, (name, path) in enumerate(zip(doc.data.get("rulebook", ()), manifest.rulebook)):
        where = doc.locate(("rulebook", index))
        if check_name(roots, name, manifest.root, report, where, "rulebook section") is None:
            continue
        if path.exists() and not path.is_file():
            report.warning("missing-rulebook", f"rulebook section '{name}' is not a regular file (a folder, a pipe "
                           "or a device); it was not read", location=where,
                           hint="a rulebook section is a Markdown text file inside the deck folder")
        elif not path.is_file():
            from cardtool.suggest import did_you_mean

            sections = [p.relative_to(manifest.root).as_posix() for p in roots.files(manifest.root, (".md",))]
            report.warning("missing-rulebook", f"rulebook section '{name}' not found", location=where,
                           hint=did_you_mean(name, sections) or "cards can be played and printed without it; "
                                                                 "`cardtool render rulebook` needs it")


def _card_files(manifest: Manifest, doc: SourceDoc, report: Report):
    """Each card file with the manifest location naming it; patterns expand in name order. A file (or a
    folder a pattern would enter) that leads outside the deck folder is refused before it is opened."""
    roots = Roots.of(manifest.root)
    seen: set[Path] = set()
    for index, pattern in enumerate(manifest.card_files):
        where = doc.locate(("cards", index))
        if check_name(roots, pattern, manifest.root, report, where, "card file") is None:
            continue
        if any(ch in pattern for ch in "*?["):
            files, escapes = roots.glob(manifest.root, pattern)
            for name in escapes:
                report.error(OUTSIDE, f"'{name}', matched by '{pattern}', is a symbolic link that leads outside "
                             "the deck folder; it was not read", location=where, hint=HINT)
            if not files and not escapes:
                report.error("missing-file", f"no file matches '{pattern}'", location=where)
        else:
            files = [manifest.root / pattern]
            if files[0].exists() and not files[0].is_file():  # a folder, a pipe or a device: never opened
                report.error("missing-file", f"card file '{pattern}' is not a regular file (a folder, a pipe or a "
                             "device); it was not read", location=where,
                             hint="a card file is a YAML text file inside the deck folder")
                continue
            if not files[0].is_file():
                report.error("missing-file", f"card file '{pattern}' not found", location=where,
                             hint=_near_file(roots, pattern))
                continue
        for file in files:
            if file.resolve() not in seen:
                seen.add(file.resolve())
                yield file, where


def _near_file(roots: Roots, pattern: str) -> str | None:
    from cardtool.suggest import did_you_mean

    root = roots.folders[0]
    existing = [str(p.relative_to(root)) for p in roots.files(root, (".yaml", ".yml")) if p.name != MANIFEST]
    return did_you_mean(pattern, existing)


def check_art(source: DeckSource, roots: Roots, report: Report) -> None:
    """Every card's `art` names a file inside the roots (looked up in the deck's folder, then its bases');
    SVG art must not refer to anything outside them or on the network. A missing file, or one that is
    not an image rendering can print, is an error here, located, rather than when the cards are printed."""
    for entry in source.cards.values():
        art = entry.data.get("art")
        if not isinstance(art, str) or not art:
            continue
        where = entry.locate("art")
        try:
            path = find_file(roots, art)
        except Remote as exc:
            report.error(REMOTE, f"field 'art': {exc}; cardtool never fetches art", location=where, card=entry.id,
                         path=entry.path + ("art",), hint=REMOTE_HINT)
            continue
        except Outside as exc:
            message = str(exc) if is_url(art) else f"'{art}' {exc}"
            report.error(OUTSIDE, f"field 'art': {message}", location=where, card=entry.id,
                         path=entry.path + ("art",), hint=HINT)
            continue
        if path is None and not is_url(art) and any(p.exists() for p in (roots.locate(art, f) for f in roots.folders)):
            report.error(BAD_ART, f"field 'art': '{art}' is not a regular file (a folder, a pipe or a device)",
                         location=where, card=entry.id, path=entry.path + ("art",),
                         hint="art is a PNG, JPEG or SVG file inside the deck folder")
            continue
        if path is None and not is_url(art):
            images = [str(p.relative_to(roots.folders[0])) for p in roots.files(roots.folders[0], ART_SUFFIXES)]
            report.error("missing-file", f"field 'art': no file '{art}' in the deck's folders", location=where,
                         card=entry.id, path=entry.path + ("art",),
                         hint=did_you_mean(art, images) or "art is a path relative to the deck folder")
            continue
        if path is not None and path.suffix.lower() not in ART_SUFFIXES:
            report.error(BAD_ART, f"field 'art': '{art}' is not a PNG, JPEG, GIF, WebP or SVG image", location=where,
                         card=entry.id, path=entry.path + ("art",), hint="cards print .png, .jpg, .svg, .gif or .webp art")
            continue
        if path is not None and path.suffix.lower() == ".svg":
            for problem in svg_problems(path, roots):
                report.error(problem.code, f"field 'art': {art}:{problem.line}:{problem.column} {problem.message}",
                             location=where, card=entry.id, path=entry.path + ("art",),
                             hint="SVG art must be self-contained: embed pictures as data: URLs or paths "
                                  "inside the deck folder, and never name the network")


def check_icons(root: Path, roots: Roots, report: Report) -> None:
    """The deck's own icons/ folder (icons replacing the shipped ones) holds files inside the roots, and
    SVG icons refer to nothing outside them or on the network."""
    folder = root / ICONS
    if not folder.is_dir() and not folder.is_symlink():
        return
    if not roots.contains(folder):
        report.error(OUTSIDE, f"the {ICONS}/ folder is a symbolic link that leads outside the deck folder; "
                     "it was not read", location=Location(folder), hint=HINT)
        return
    for top, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(dirs) + sorted(names):
            path = Path(top) / name
            if not roots.contains(path):
                report.error(OUTSIDE, "this icon is a symbolic link that leads outside the deck folder; it was "
                             "not read", location=Location(path), hint=HINT)
            elif name in names and path.suffix.lower() == ".svg" and path.is_file():  # never open a pipe
                for problem in svg_problems(path, roots):
                    report.error(problem.code, f"this icon {problem.message}",
                                 location=Location(path, problem.line, problem.column),
                                 hint="icons must be self-contained SVG: nothing on the network or outside the deck")


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
