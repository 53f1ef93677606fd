"""Expansions: extends, include/exclude, overrides, links across decks, conflicts, cycles, alone."""

from __future__ import annotations

from fractions import Fraction

import pytest

from cardtool.deck.loader import load
from tests.conftest import DATA

EXP = DATA / "expansions"


def _write(folder, manifest: str, cards: str = "cards: []\n"):
    folder.mkdir()
    (folder / "deck.yaml").write_text(manifest)
    (folder / "cards.yaml").write_text(cards)
    return folder


def test_expansion_combines_with_its_base():
    result = load(EXP / "addon")
    deck = result.deck
    assert result.report.ok
    ids = {c.id for c in deck.cards}
    assert {"osprey", "damselfly", "trout", "eagle"} <= ids
    assert deck.bases == ("base",)
    assert deck.origins["osprey"] == "addon" and deck.origins["trout"] == "base"
    assert {c.id for c in deck.own_cards()} == {"osprey", "damselfly"}


def test_exclude_leaves_base_cards_out_and_drops_references_to_them():
    deck = load(EXP / "addon").deck
    assert "willow" not in {c.id for c in deck.cards}
    assert "willow" not in deck.card("caddis").eats


def test_override_changes_a_base_field_and_is_reported():
    result = load(EXP / "addon")
    assert result.deck.card("eagle").vp == Fraction(4)
    [note] = [i for i in result.report.notes if i.code == "override"]
    assert note.card == "eagle" and note.location.file.name == "deck.yaml" and note.location.line == 9
    [override] = result.deck.overrides
    assert (override.card, override.field, override.old, override.new) == ("eagle", "vp", 3, 4)


def test_links_to_base_cards_are_completed_on_the_base_side():
    deck = load(EXP / "addon").deck
    assert "osprey" in deck.card("trout").eaten_by  # osprey eats trout
    assert "damselfly" in deck.card("trout").eats  # damselfly is eaten by trout
    assert "damselfly" in deck.card("algae").eaten_by


def test_base_files_are_not_changed_by_loading_an_expansion():
    before = (EXP / "base" / "cards.yaml").read_bytes()
    load(EXP / "addon")
    assert (EXP / "base" / "cards.yaml").read_bytes() == before
    assert "osprey" not in load(EXP / "base").deck.card("trout").eaten_by


def test_same_id_without_override_names_both_files():
    [issue] = load(EXP / "clash").report.errors
    assert issue.code == "duplicate-id"
    assert issue.location.file.parent.name == "clash"
    assert "base/cards.yaml:" in issue.message


def test_excluded_id_may_be_defined_anew(tmp_path):
    deck = _write(tmp_path / "replace", 'id: replace\nname: R\nversion: "1"\ngame: ecologies\nextends: [' +
                  str(EXP / "base") + ']\nexclude: {ids: [trout]}\ncards: [cards.yaml]\n',
                  (EXP / "clash" / "cards.yaml").read_text().replace("eaten_by: []", "eaten_by: [kingfisher, heron]")
                  .replace("eats: [mayfly]", "eats: [mayfly, caddis]"))
    result = load(deck)
    assert result.report.ok, result.report.format()
    assert result.deck.card("trout").name == "Brown Trout"


def test_extends_cycle_is_an_error():
    codes = {i.code for i in load(EXP / "cycle-a").report.errors}
    assert "extends-cycle" in codes


def test_unknown_base_suggests_a_deck_id():
    [issue] = load(EXP / "unknown-base").report.errors
    assert issue.code == "unknown-base" and "did you mean 'base'?" in issue.format()


def test_bad_overrides_are_located_in_the_manifest():
    errors = load(EXP / "bad-override").report.errors
    by_code = {i.code: i for i in errors}
    assert by_code["unknown-ref"].location.line == 7 and "did you mean 'eagle'?" in by_code["unknown-ref"].format()
    assert by_code["bad-value"].location.line == 10 and by_code["bad-value"].card == "heron"


def test_include_keeps_only_matching_base_cards(tmp_path):
    deck = _write(tmp_path / "inc", 'id: inc\nname: I\nversion: "1"\ngame: ecologies\nextends: [' + str(EXP / "base") +
                  ']\ninclude: {kinds: [biome], ids: [algae, mayfly, trout, heron, worm]}\ncards: [cards.yaml]\n')
    result = load(deck)
    assert {c.id for c in result.deck.cards} == {"riparian", "algae", "mayfly", "trout", "heron", "worm"}
    assert result.deck.card("trout").eats == ("mayfly",)


def test_exclude_by_biome_drops_only_organisms_living_nowhere_else():
    result = load(EXP / "standalone")
    assert result.report.ok
    deck = result.deck
    assert deck.card("arctic-tern").biomes == ("TUN", "RIP")
    assert "arctic-tern" in deck.card("trout").eaten_by


def test_expansion_alone_drops_base_references():
    result = load(EXP / "standalone", standalone=True)
    assert result.report.ok, result.report.format()
    deck = result.deck
    assert deck.standalone and "trout" not in {c.id for c in deck.cards}
    assert deck.card("arctic-tern").biomes == ("TUN",)
    assert deck.card("arctic-tern").eats == ("t-trout",)


def test_addon_alone_is_not_a_game_and_says_where():
    errors = load(EXP / "addon", standalone=True).report.errors
    codes = sorted(i.code for i in errors)
    assert codes == ["needs-base", "needs-base", "no-biome"]
    assert all(i.location.file.parent.name == "addon" for i in errors)


def test_validate_reports_combined_and_alone(run_cli):
    code, out, _ = run_cli("validate", EXP / "addon")
    assert code == 0  # the combined game is valid; being no stand-alone game is information
    assert "(combined with ../base): 0 error(s)" in out
    assert "(alone, for information): 3 error(s), 0 warning(s) - not a stand-alone game" in out
    code, out, _ = run_cli("validate", "--standalone", EXP / "addon")
    assert code == 1 and "(alone): 3 error(s)" in out


@pytest.mark.parametrize("command", ["info", "foodweb"])
def test_deck_commands_take_standalone(command, run_cli):
    code, out, _ = run_cli(command, EXP / "standalone", "--standalone")
    assert code == 0
    code, combined, _ = run_cli(command, EXP / "standalone")
    assert code == 0 and combined != out


def test_game_mismatch(tmp_path):
    deck = _write(tmp_path / "mix", 'id: mix\nname: M\nversion: "1"\ngame: symbiosis\nextends: [' + str(EXP / "base") +
                  ']\ncards: [cards.yaml]\n', "seasons: []\n")
    assert "game-mismatch" in {i.code for i in load(deck).report.errors}


def test_info_names_left_out_cards_and_overrides(run_cli):
    code, out, _ = run_cli("info", EXP / "addon")
    assert code == 0
    assert "left out of the bases: willow" in out
    assert "override of eagle.vp:\n    was: 3\n    now: 4" in out


def test_shipped_sample_expansion_is_also_a_stand_alone_game():
    from tests.conftest import DECKS

    combined = load(DECKS / "frozen-and-deep")
    alone = load(DECKS / "frozen-and-deep", standalone=True)
    assert combined.report.ok and alone.report.ok, combined.report.format() + alone.report.format()
    assert combined.deck.bases == ("ecologies-bizarre-biomes",)
    assert {"TUN", "VNT"} <= set(alone.deck.biome_codes) and "RIP" not in alone.deck.biome_codes
    own = combined.deck.own_cards()
    # Some expansion organisms eat base organisms, and the base side knows it in the combined deck.
    links = [(o.id, prey) for o in own if hasattr(o, "eats") for prey in o.eats
             if combined.deck.origins[prey] == "ecologies-bizarre-biomes"]
    assert links
    predator, prey = links[0]
    assert predator in combined.deck.card(prey).eaten_by


def test_render_own_prints_the_expansion_cards_and_the_base_cards_it_changes(run_cli, tmp_path):
    code, out, err = run_cli("render", "cards", EXP / "addon", "--own", "--out", tmp_path / "own.pdf")
    assert code == 0, err
    assert "update pack: 2 new card(s) and " in out and "eagle (base): vp: 3 → 4" in out  # an override reprinted
    code, _, err = run_cli("render", "cards", EXP / "addon", "--own", "--only", "osprey")
    assert code == 2 and "exclude each other" in err


def _expansion(tmp_path, selectors: str, name: str = "sel"):
    return _write(tmp_path / name, f'id: {name}\nname: S\nversion: "1"\ngame: ecologies\nextends: [{EXP / "base"}]\n'
                  + selectors + "cards: [cards.yaml]\n")


@pytest.mark.parametrize("selectors, line, column, message, hint", [
    ("exclude: {ids: [willow, heorn]}\n", 6, 25, "exclude: no base card has the card id 'heorn'", "did you mean 'heron'?"),
    ("include:\n  kinds: [biome, organsim]\n", 7, 18, "include: no base card has the kind 'organsim'",
     "did you mean 'organism'?"),
    ("exclude:\n  biomes: [RPI]\n", 7, 12, "exclude: no base card has the biome 'RPI'", "did you mean 'RIP'?"),
    ("exclude:\n  tags: [aquatic]\n", 7, 10, "exclude: no base card has the tag 'aquatic'", "no base card has any tags"),
    ("exclude:\n  kinds: [factor]\n", 7, 11, "exclude: no base card has the kind 'factor'",
     "the base decks have: biome, organism"),
])
def test_a_selector_value_that_matches_nothing_is_a_located_error(selectors, line, column, message, hint, tmp_path):
    errors = load(_expansion(tmp_path, selectors)).report.errors
    [issue] = [i for i in errors if i.code == "no-match"]
    assert issue.location.file.name == "deck.yaml"
    assert (issue.location.line, issue.location.column) == (line, column)
    assert issue.message == message and issue.hint == hint


def test_selectors_without_a_base_are_an_error(tmp_path):
    deck = _write(tmp_path / "lone", 'id: lone\nname: L\nversion: "1"\ngame: ecologies\nexclude: {ids: [a]}\n'
                  "cards: [cards.yaml]\n")
    [issue] = [i for i in load(deck).report.errors if i.code == "no-match"]
    assert issue.location.line == 5 and "extends no base deck" in issue.message


def test_validate_fails_on_a_misspelt_exclude(tmp_path, run_cli):
    code, out, _ = run_cli("validate", _expansion(tmp_path, "exclude: {ids: [wilow]}\n"))
    assert code == 1
    assert "deck.yaml:6:17: error[no-match] exclude: no base card has the card id 'wilow'" in out
    assert "did you mean 'willow'?" in out


def test_extends_naming_an_id_two_sibling_folders_share_is_an_error(tmp_path):
    import shutil

    for folder in ("base-a", "base-b"):
        shutil.copytree(EXP / "base", tmp_path / folder)
    deck = _write(tmp_path / "exp", 'id: exp\nname: E\nversion: "1"\ngame: ecologies\nextends: [base]\n'
                  "cards: [cards.yaml]\n")
    [issue] = load(deck).report.errors
    assert issue.code == "ambiguous-base" and issue.location.line == 5
    assert "several decks beside this one have the id 'base'" in issue.message
    assert "base-a" in issue.message and "base-b" in issue.message
    assert "extends: [../base-a]" in issue.hint
    shutil.rmtree(tmp_path / "base-b")
    assert load(deck).report.ok
