"""Update packs: for an expansion, `render cards --own` (and build) also prints every base card whose
printed face differs in the combined game, listed with what changed on each."""

from __future__ import annotations

from io import BytesIO

from pypdf import PdfReader

from cardtool.deck.loader import load_deck
from cardtool.render.pipeline import Output, StepResult, index_html
from cardtool.render.update_pack import face_changes, update_pack
from tests.conftest import DECKS


def _expected_changed(combined, base) -> set[str]:
    """Independently of the faces: base cards whose links changed, or that an override touches."""
    base_cards = {card.id: card for card in base.cards}
    changed = {o.card for o in combined.overrides}
    for card in combined.cards:
        old = base_cards.get(card.id)
        if old is not None and hasattr(card, "eats") and (set(card.eats) != set(old.eats)
                                                          or set(card.eaten_by) != set(old.eaten_by)):
            changed.add(card.id)
    return changed


def test_the_pack_lists_exactly_the_base_cards_whose_print_changes():
    combined = load_deck(DECKS / "frozen-and-deep")
    base = load_deck(DECKS / "ecologies-bizarre-biomes")
    pack = update_pack(combined)
    assert pack.own == tuple(card.id for card in combined.own_cards())
    replaced = {card.card_id for card in pack.replaced}
    assert replaced == _expected_changed(combined, base)
    assert {"wildfire", "fiddler-crab", "great-horned-owl"} <= replaced and "coyote" not in replaced
    wildfire = next(card for card in pack.replaced if card.card_id == "wildfire")
    [change] = wildfire.changes
    assert change.field == "text" and "Hydrothermal Vent" in change.after and "Vent" not in change.before
    crab = next(card for card in pack.replaced if card.card_id == "fiddler-crab")
    assert [c.field for c in crab.changes] == ["eaten by"] and crab.changes[0].after.endswith("Whimbrel")
    assert pack.removed == (("pollinators", "Pollinators"),)


def test_a_base_game_or_a_standalone_expansion_reprints_nothing():
    assert update_pack(load_deck(DECKS / "ecologies-bizarre-biomes")).replaced == ()
    assert update_pack(load_deck(DECKS / "frozen-and-deep", standalone=True)).replaced == ()


def test_identical_faces_have_no_changes():
    deck = load_deck(DECKS / "symbiosis")
    from cardtool.render.cards import faces_of

    faces = faces_of(deck)
    card = deck.cards[0]
    assert face_changes(faces.front(card).card, faces.front(card).card) == ()


def test_render_own_prints_the_pack_and_names_the_cards_to_replace(run_cli, tmp_path):
    code, out, err = run_cli("render", "cards", DECKS / "frozen-and-deep", "--own", "--duplex", "none",
                             "--out", tmp_path / "pack.pdf")
    assert code == 0, err
    combined = load_deck(DECKS / "frozen-and-deep")
    pack = update_pack(combined)
    copies = sum(card.count for card in combined.cards if card.id in pack.ids)
    assert len(PdfReader(BytesIO((tmp_path / "pack.pdf").read_bytes())).pages) == -(-copies // 9)
    assert "replace these base cards" in out and "wildfire (ecologies-bizarre-biomes): text:" in out


def test_the_build_index_lists_the_cards_to_replace_with_their_changes():
    combined = load_deck(DECKS / "frozen-and-deep")
    step = StepResult("update-pack", "Update pack", "done", (
        Output("update-pack.pdf", "Update pack (PDF)", "34 cards"),
        Output("update-pack.pdf", "Replace Wildfire (wildfire, ecologies-bizarre-biomes)", "text: a → b")))
    html = index_html(combined, [step])
    assert "Replace these base cards" in html and "Replace Wildfire" in html and "text: a → b" in html
