"""Update packs: what to print for an expansion so that the combined game on the table agrees with its
cards. The expansion's own cards, and every base card whose printed face differs in the combined game
(a new "Eaten by" link, an override such as Wildfire's text), with what changed on each, field by field,
as printed: the player replaces those base cards with the new prints.

A face is compared as the typed context its template prints (render/context.py Face.card), so anything
the card shows counts and nothing else does; pictures (icons, art) compare by the file they show."""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass

from cardtool.deck.model import Deck


@dataclass(frozen=True)
class Change:
    """One printed field of a base card, as the base game prints it and as the combined game does."""

    field: str
    before: str
    after: str


@dataclass(frozen=True)
class Replaced:
    """A base card to replace: its id and name, the base deck it comes from, what changed on its front."""

    card_id: str
    name: str
    base: str
    changes: tuple[Change, ...]

    def summary(self) -> str:
        return "; ".join(f"{c.field}: {c.before or '(nothing)'} → {c.after or '(nothing)'}" for c in self.changes)


@dataclass(frozen=True)
class UpdatePack:
    """The cards an expansion's printed update holds: its own, then the base cards to replace; and the
    base cards the combined game leaves out (to take out of the base set), as (id, name)."""

    own: tuple[str, ...]
    replaced: tuple[Replaced, ...]
    removed: tuple[tuple[str, str], ...] = ()

    @property
    def ids(self) -> tuple[str, ...]:
        return self.own + tuple(r.card_id for r in self.replaced)


def printed(value) -> str:
    """A face value as a person reads it on the card: text as is, lists joined, pictures as their file."""
    if value is None:
        return ""
    if isinstance(value, str):
        if value.startswith("data:"):
            return "(pattern)"
        if value.startswith("file:"):
            return value.rsplit("/", 1)[-1]
        return value
    if isinstance(value, (tuple, list)):
        return ", ".join(printed(v) for v in value)
    if is_dataclass(value):
        for name in ("text", "name", "code"):
            if hasattr(value, name) and isinstance(getattr(value, name), str) and getattr(value, name):
                return getattr(value, name)
        return " ".join(printed(getattr(value, f.name)) for f in fields(value))
    return str(value)


def face_changes(before, after) -> tuple[Change, ...]:
    """The printed fields that differ between two typed face contexts of the same card."""
    if before == after:
        return ()
    changes = []
    for item in fields(after):
        if not item.compare:  # not printed as such (e.g. the icon lookup for inline tokens)
            continue
        old, new = getattr(before, item.name, None), getattr(after, item.name)
        if old != new and printed(old) != printed(new):
            changes.append(Change(item.name.replace("_", " "), printed(old), printed(new)))
    if not changes:  # something the card shows changed that reads the same (e.g. a picture's colour)
        changes.append(Change("picture", "", "changed"))
    return tuple(changes)


def update_pack(deck: Deck) -> UpdatePack:
    """The expansion's own cards and the base cards whose printed front differs in this combined deck
    from their base game's print. A deck that extends nothing (or an expansion taken alone) has only its
    own cards."""
    from cardtool.render.bases import base_decks
    from cardtool.render.cards import faces_of

    own = tuple(card.id for card in deck.own_cards())
    if not deck.manifest.extends or deck.standalone:
        return UpdatePack(own, ())
    combined = faces_of(deck)
    printed_before = {}
    bases = base_decks(deck)
    names = {card.id: card.name for base in bases for card in base.cards}
    for base in bases:
        renderer = faces_of(base)
        for card in base.cards:
            printed_before.setdefault(card.id, (base.manifest.id, renderer.front(card).card))
    replaced = []
    for card in deck.cards:
        if card.id in own or card.id not in printed_before:
            continue
        base_id, before = printed_before[card.id]
        changes = face_changes(before, combined.front(card).card)
        if changes:
            replaced.append(Replaced(card.id, card.name, base_id, changes))
    removed = tuple((cid, names[cid]) for cid in dict.fromkeys(deck.left_out) if cid in names)
    return UpdatePack(own, tuple(replaced), removed)


# -- the build step (registered in render/pipeline.py STEPS) -------------------------------------------
def skip(ctx) -> str | None:
    """An update pack is for an expansion combined with its bases."""
    deck = ctx.deck
    if deck is None or not deck.manifest.extends or deck.standalone:
        return "not an expansion (only an expansion combined with its bases has base cards to replace)"
    return None


def run(ctx) -> tuple[list[tuple[str, str, str]], str]:
    """update-pack.pdf: the expansion's own cards and the base cards it reprints. Returns the outputs as
    (path, title, note), the first the PDF, then one per base card to replace (or take out), so the
    index lists them with what changed; and the step's message."""
    from cardtool.render.cards import DeckPrint

    pack = update_pack(ctx.deck)
    spec = ctx.options.sheet
    sheet, pdf = DeckPrint(ctx.deck, spec.card, spec.bleed, ",".join(pack.ids)).sheets(spec)
    (ctx.folder / "update-pack.pdf").write_bytes(pdf)
    copies = sum(card.count for card in ctx.deck.cards if card.id in set(pack.ids))
    message = (f"{len(pack.own)} new cards and {len(pack.replaced)} reprinted base cards, {copies} cards on "
               f"{sheet.pages(copies)} fronts pages; replace {len(pack.replaced)} base cards"
               + (f", take out {len(pack.removed)}" if pack.removed else ""))
    outputs = [("update-pack.pdf", "Update pack: the expansion's cards and the base cards it reprints (PDF)",
                message)]
    outputs += [("update-pack.pdf", f"Replace {card.name} ({card.card_id}, {card.base})", card.summary())
                for card in pack.replaced]
    outputs += [("update-pack.pdf", f"Take out {name} ({cid})", "the combined game leaves it out")
                for cid, name in pack.removed]
    return outputs, message
