"""Expansions: a deck that `extends` base decks, choosing which base cards to keep and overriding some.

The combined deck is the kept base cards (with overrides applied) followed by the expansion's own.
Links an expansion declares to base cards are completed on the base side by the game (a base deck
cannot know its future expansions), and references to cards left out are dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from cardtool.deck.containment import Roots
from cardtool.deck.model import Manifest, Override
from cardtool.deck.schema import validate_against
from cardtool.deck.source import CardEntry, DeckSource, relative
from cardtool.deck.yamlsource import SourceDoc, load_yaml
from cardtool.issues import Report
from cardtool.suggest import did_you_mean

MANIFEST = "deck.yaml"
#: Most cards a deck may hold, every copy counted, with its bases: ten times the largest shipped deck.
MAX_DECK_CARDS = 2000
#: Most card files one deck folder may have read, and their total size (each file is at most 2 MB).
MAX_CARD_FILES = 1000
MAX_CARD_BYTES = 20 * 1024 * 1024


def resolve_base(ref: str, manifest: Manifest, report: Report, where) -> Path | None:
    """The folder of a base deck named by path (relative to this deck) or by id (beside it)."""
    folder = (manifest.root / ref)
    if (folder / MANIFEST).is_file():
        return folder
    known: dict[str, list[Path]] = {}
    for candidate in sorted(manifest.root.parent.glob(f"*/{MANIFEST}")):
        if not Roots.of(candidate.parent).contains(candidate):
            continue  # a sibling's deck.yaml that links out of its folder is never opened
        doc = load_yaml(candidate, Report())
        if doc is not None and isinstance(doc.data, dict) and isinstance(doc.data.get("id"), str):
            known.setdefault(doc.data["id"], []).append(candidate.parent)
    if len(known.get(ref, ())) == 1:
        return known[ref][0]
    if ref in known:
        folders = [relative(folder) for folder in known[ref]]
        report.error("ambiguous-base", f"several decks beside this one have the id '{ref}': "
                     + ", ".join(map(str, folders)), location=where,
                     hint=f"name the base by its folder instead, e.g. extends: [../{folders[0].name}]")
        return None
    report.error("unknown-base", f"no base deck '{ref}': not a deck folder, nor the id of a deck beside this one",
                 location=where, hint=did_you_mean(ref, known) or (f"decks found: {', '.join(known)}" if known else None))
    return None


def selector_matches(selector: Mapping, entry: CardEntry, *, biomes_any: bool) -> bool:
    """Whether a card matches an include/exclude selector (any listed id, tag, kind or biome)."""
    data = entry.data
    if entry.id in selector.get("ids", ()):
        return True
    if set(data.get("tags", ())) & set(selector.get("tags", ())):
        return True
    if entry.kind in selector.get("kinds", ()):
        return True
    codes = set(selector.get("biomes", ()))
    if codes:
        if data.get("code") in codes:
            return True
        lives = set(data.get("biomes", ()))
        if lives and (lives & codes if biomes_any else lives <= codes):
            return True
    return False


def unmatched_selectors(manifest_doc: SourceDoc, base: DeckSource, report: Report) -> None:
    """Each include/exclude value must match some base card: a misspelt one would silently keep (or drop)
    cards in the printed game. The error is at the value, with the closest value that exists."""
    entries = list(base.cards.values())
    present = {
        "ids": {entry.id for entry in entries},
        "tags": {tag for entry in entries for tag in _strings(entry.data.get("tags"))},
        "kinds": {entry.kind for entry in entries},
        "biomes": {code for entry in entries
                   for code in [entry.data.get("code"), *_strings(entry.data.get("biomes"))] if isinstance(code, str)},
    }
    singular = {"ids": "card id", "tags": "tag", "kinds": "kind", "biomes": "biome"}
    data = manifest_doc.data
    for selector in ("include", "exclude"):
        chosen = data.get(selector)
        if not isinstance(chosen, Mapping):
            continue
        for key, values in chosen.items():
            for index, value in enumerate(values if isinstance(values, list) else ()):
                if value in present.get(key, {value}):
                    continue
                known = sorted(present[key])
                hint = did_you_mean(value, known) or (
                    f"the base decks have: {', '.join(known[:20])}{', ...' if len(known) > 20 else ''}"
                    if known else f"no base card has any {key}")
                if key == "ids" and value in base.left_out:
                    hint = "a base deck already leaves this card out; remove it from the list"
                report.error("no-match", f"{selector}: no base card has the {singular[key]} '{value}'",
                             location=manifest_doc.locate((selector, key, index)), path=(selector, key, index),
                             hint=hint)


def _strings(values: object) -> list[str]:
    return [v for v in values if isinstance(v, str)] if isinstance(values, list) else []


def check_combined(source: DeckSource, report: Report) -> None:
    """Checks on the whole deck before any game looks at it: the selectors of a deck without bases, and
    the deck's size with every copy counted (so no command ever expands a deck past MAX_DECK_CARDS)."""
    data = source.manifest_doc.data if isinstance(source.manifest_doc.data, Mapping) else {}
    if not source.manifest.extends:
        for key in ("include", "exclude", "overrides"):
            if data.get(key):  # an empty list chooses nothing either way
                report.error("no-match", f"'{key}' chooses among base cards, but this deck extends no base deck",
                             location=source.manifest_doc.locate((key,), key=True), path=(key,),
                             hint="add the base under extends:, or remove the key")
    counts = [(entry.data.get("count", 1) if isinstance(entry.data.get("count", 1), int) else 1, entry)
              for entry in source.cards.values()]
    total = sum(count for count, _ in counts)
    if total > MAX_DECK_CARDS:
        largest = sorted(counts, key=lambda pair: -pair[0])[:3]
        named = ", ".join(f"{entry.id} x{count} ({entry.locate('count')})" for count, entry in largest)
        report.error("deck-too-large", f"the deck holds {total:,} cards with every copy counted"
                     + (" and its bases" if source.bases else "") + f"; at most {MAX_DECK_CARDS:,} are allowed",
                     location=source.manifest_doc.locate(("cards",), key=True), path=("cards",),
                     hint=f"{len(counts):,} different cards; the largest counts: {named}")


def read_enough(tried: int, source: DeckSource, report: Report, where) -> bool:
    """True (with an error at the manifest entry about to be read) once the card files tried so far are
    more, or larger together, than any deck needs: reading stops there rather than at the end of the disk."""
    size = sum(doc.size for doc in source.docs)
    if tried < MAX_CARD_FILES and size <= MAX_CARD_BYTES:
        return False
    report.error("deck-too-large", f"the card files read so far ({tried:,} file(s), {size / 2**20:.1f} MB) "
                 f"are more than a deck may have: at most {MAX_CARD_FILES:,} files and "
                 f"{MAX_CARD_BYTES // 2**20} MB in all; the rest were not read", location=where,
                 hint="docs/deck-format.md#limits lists every limit; no real deck comes near them")
    return True


def combine(base: DeckSource, own: DeckSource, manifest_doc: SourceDoc, card_schema: str, report: Report,
            restrict: Callable, link: Callable) -> DeckSource:
    """The expansion `own` combined with its (already merged) bases."""
    manifest = own.manifest
    unmatched_selectors(manifest_doc, base, report)
    kept: dict[str, CardEntry] = {}
    dropped: dict[str, CardEntry] = {}
    for cid, entry in base.cards.items():
        keep = manifest.include is None or selector_matches(manifest.include, entry, biomes_any=True)
        if keep and manifest.exclude is not None and selector_matches(manifest.exclude, entry, biomes_any=False):
            keep = False
        if keep:
            kept[cid] = entry
        else:
            dropped[cid] = entry
    combined = DeckSource(manifest, own.manifest_doc, docs=base.docs + own.docs,
                          origins={cid: base.origins[cid] for cid in kept}, overrides=list(base.overrides),
                          bases=base.bases + [base.manifest.id])
    combined.cards = kept
    combined.left_out = base.left_out + list(dropped)
    _apply_overrides(combined, base, dropped, manifest_doc, card_schema, report)
    for cid, entry in own.cards.items():
        if cid in kept:
            report.error("duplicate-id", f"card id '{cid}' is already defined by base deck "
                         f"'{base.origins.get(cid, base.manifest.id)}' at {kept[cid].locate('id')}",
                         location=entry.locate("id"), card=cid, path=entry.path + ("id",),
                         hint="to change a base card, list it under overrides: in deck.yaml; "
                              "to replace it, exclude it first")
            continue
        combined.cards[cid] = entry
        combined.origins[cid] = manifest.id
    restrict(combined, dropped, report)
    link(combined, set(own.cards))
    return combined


def standalone(own: DeckSource, base: DeckSource | None, restrict: Callable, report: Report) -> DeckSource:
    """The expansion's own cards alone, references to base cards dropped. The bases' files stay among its
    documents, so the vocabulary they define beside their cards (Symbiosis' Seasons and Animals) is known."""
    docs = (list(base.docs) if base is not None else []) + list(own.docs)
    alone = DeckSource(own.manifest, own.manifest_doc, docs=docs, cards=dict(own.cards),
                       origins={cid: own.manifest.id for cid in own.cards}, standalone=True)
    if base is not None:
        restrict(alone, {cid: e for cid, e in base.cards.items() if cid not in own.cards}, report)
    return alone


def _apply_overrides(combined: DeckSource, base: DeckSource, dropped: Mapping[str, CardEntry], manifest_doc: SourceDoc,
                     card_schema: str, report: Report) -> None:
    for index, override in enumerate(combined.manifest.overrides):
        where = manifest_doc.locate(("overrides", index, "id"))
        cid = override["id"]
        entry = combined.cards.get(cid)
        if entry is None:
            if cid in dropped:
                report.error("unknown-ref", f"override of '{cid}', which include/exclude leave out",
                             location=where, hint="keep the card, or remove the override")
            else:
                report.error("unknown-ref", f"override of unknown base card '{cid}'", location=where,
                             hint=did_you_mean(cid, combined.cards))
            continue
        fields = {k: v for k, v in override.items() if k != "id"}
        if "kind" in fields:
            report.error("bad-value", "an override cannot change a card's kind",
                         location=manifest_doc.locate(("overrides", index, "kind")), card=cid)
            continue
        merged = {**entry.data, **fields}
        # Check the changed card against its schema, reporting at the override that changed it.
        probe = SourceDoc(manifest_doc.file, {"cards": [merged]})
        for name in (None, *override):
            path = ("overrides", index) + ((name,) if name else ())
            loc = manifest_doc.locate(path)
            probe.positions[("cards", 0) + path[2:]] = (loc.line, loc.column)
        before = len(report.errors)
        validate_against(probe, card_schema, report)
        if len(report.errors) > before:
            continue
        moved = dict(entry.moved)
        for name, value in fields.items():
            moved[name] = manifest_doc.locate(("overrides", index, name))
            override_record = Override(cid, name, entry.data.get(name), value)
            combined.overrides.append(override_record)
            report.note("override", f"base card field overridden: {override_record}", location=moved[name], card=cid)
        combined.cards[cid] = CardEntry(cid, entry.kind, merged, entry.doc, entry.path, moved)
