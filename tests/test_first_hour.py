"""The first hour of a new designer (issue 17's frictions): each one fixed, each with a test."""

from __future__ import annotations

import json

from tests.conftest import DECKS

BASE = DECKS / "ecologies-bizarre-biomes"


def test_diff_calls_a_new_biome_new_not_unhealthy(run_cli):
    code, out, _ = run_cli("diff", BASE, DECKS / "frozen-and-deep")
    line = next(l for l in out.splitlines() if l.startswith("- TUN:"))
    assert "(new biome) →" in line and "cannot be healthy" not in line
    code, out, _ = run_cli("diff", BASE, DECKS / "frozen-and-deep", "--format", "json")
    tundra = next(w for w in json.loads(out)["witnesses"] if w["biome"] == "TUN")
    assert tundra["status"] == "added" and tundra["old"] is None


def _validate_both(run_cli, deck):
    code, out, err = run_cli("validate", deck)
    assert code == 0, out + err
    assert "error(s)" in out and "Traceback" not in out + err
    return out


def test_expansion_scaffolds_validate_alone_and_combined_with_zero_errors(run_cli, tmp_path):
    for base in ("ecologies-bizarre-biomes", "symbiosis"):
        code, out, err = run_cli("new", "expansion", f"Test {base}", "--base", DECKS / base, "--dir", tmp_path)
        assert code == 0, err
        folder = tmp_path / f"test-{base}"
        out = _validate_both(run_cli, folder)
        assert "(combined with" in out and "(alone, for information): 0 error(s)" in out, out
        for file in folder.rglob("*"):
            if file.is_file():
                assert file.read_bytes().endswith(b"\n"), f"{file.name} lacks a final newline"
    out = _validate_both(run_cli, tmp_path / "test-ecologies-bizarre-biomes")
    assert "0 error(s), 0 warning(s) - ok" in out.splitlines()[-1]  # its new biome has its own icon too


def test_deck_scaffolds_validate_with_zero_errors_and_end_in_a_newline(run_cli, tmp_path):
    for game in ("ecologies", "symbiosis"):
        assert run_cli("new", "deck", f"New {game}", "--game", game, "--dir", tmp_path)[0] == 0
        folder = tmp_path / f"new-{game}"
        assert " 0 error(s)" in _validate_both(run_cli, folder)
        assert all(f.read_bytes().endswith(b"\n") for f in folder.rglob("*") if f.is_file())


def test_appending_to_a_scaffold_keeps_it_valid(run_cli, tmp_path):
    run_cli("new", "expansion", "Glow", "--base", BASE, "--dir", tmp_path)
    with (tmp_path / "glow" / "deck.yaml").open("a", encoding="utf-8") as stream:
        stream.write("authors: [Ada]\n")
    _validate_both(run_cli, tmp_path / "glow")


def test_new_deck_needs_game_and_the_readme_says_so(run_cli, tmp_path):
    from tests.conftest import ROOT

    code, _, err = run_cli("new", "deck", "X", "--dir", tmp_path)
    assert code == 2 and "--game" in err
    heading = next(l for l in (ROOT / "README.md").read_text().splitlines() if l.startswith("### `cardtool new"))
    assert "[--game" not in heading and "new deck NAME --game" in heading


def _scaffold(run_cli, tmp_path, name="Glow"):
    assert run_cli("new", "expansion", name, "--base", BASE, "--dir", tmp_path)[0] == 0
    return tmp_path / name.lower()


def test_validate_checks_art_paths_at_their_line(run_cli, tmp_path):
    deck = _scaffold(run_cli, tmp_path)
    cards = deck / "cards.yaml"
    cards.write_text(cards.read_text().replace("    name: Glowing Moss\n", "    name: Glowing Moss\n    art: art/mos.png\n")
                     .replace("    name: Rock Lichen\n", "    name: Rock Lichen\n    art: notes.txt\n"), encoding="utf-8")
    (deck / "art").mkdir()
    (deck / "art" / "moss.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (deck / "notes.txt").write_text("not a picture", encoding="utf-8")
    code, out, _ = run_cli("validate", deck)
    assert code == 1
    assert re_line(out, r"cards\.yaml:\d+:\d+: error\[missing-file\] glow-moss: field 'art': no file 'art/mos.png'")
    assert "did you mean 'art/moss.png'" in out
    assert re_line(out, r"cards\.yaml:\d+:\d+: error\[bad-art\] glow-lichen: field 'art': 'notes.txt' is not")


def re_line(text: str, pattern: str) -> bool:
    import re

    return any(re.search(pattern, line) for line in text.splitlines())


def test_validate_checks_rulebook_directives_at_their_line(run_cli, tmp_path):
    import shutil

    deck = tmp_path / "symbiosis"
    shutil.copytree(DECKS / "symbiosis", deck)
    scoring = deck / "rulebook" / "4-scoring.md"
    scoring.write_text(scoring.read_text().replace("worked-example.yaml Emma", "worked-example.yaml Emmma")
                       + "\n```cardtool:scroe x\n```\n\n```cardtool:score ../../outside.yaml\n```\n", encoding="utf-8")
    (tmp_path / "outside.yaml").write_text("mode: duel\n", encoding="utf-8")
    position = deck / "examples" / "worked-example.yaml"
    code, out, _ = run_cli("validate", deck)
    assert code == 1
    assert re_line(out, r"4-scoring\.md:\d+:1: error\[unknown-ref\] cardtool:score: no player Emmma")
    assert re_line(out, r"4-scoring\.md:\d+:1: error\[bad-directive\] unknown rulebook directive 'cardtool:scroe'")
    assert re_line(out, r"4-scoring\.md:\d+:1: error\[outside-deck\] cardtool:score: position file")
    position.write_text(position.read_text().replace("spring-fish-5", "spring-fsh-5"), encoding="utf-8")
    code, out, _ = run_cli("validate", deck)
    assert re_line(out, r"worked-example\.yaml:\d+:\d+: error\[unknown-ref\] unknown card 'spring-fsh-5'")


def test_position_errors_come_all_at_once(run_cli, tmp_path):
    text = (DECKS / "symbiosis" / "examples" / "worked-example.yaml").read_text()
    position = tmp_path / "pos.yaml"
    position.write_text(text.replace("mode: standard", "mode: standard\ncolour: blue")
                        .replace("spring-fish-5", "spring-fsh-5"), encoding="utf-8")
    code, out, err = run_cli("score", DECKS / "symbiosis", position)
    assert code == 1
    assert "error[unknown-key]" in err and "error[unknown-ref] unknown card 'spring-fsh-5'" in err


def test_a_new_biome_without_an_icon_is_a_warning(run_cli, tmp_path):
    deck = _scaffold(run_cli, tmp_path)
    for icon in (deck / "icons" / "biomes").iterdir():
        icon.unlink()
    code, out, _ = run_cli("validate", deck)
    assert code == 0 and re_line(out, r"cards\.yaml:\d+:\d+: warning\[generic-icon\] glow-biome: biome GLO has no icon")
    assert run_cli("validate", "--strict", deck)[0] == 1


def test_base_biomes_in_filters_are_dropped_alone_like_in_organisms(run_cli, tmp_path):
    deck = _scaffold(run_cli, tmp_path)
    cards = deck / "cards.yaml"
    text = cards.read_text()
    cards.write_text(text + """
  - id: glow-flood
    kind: factor
    name: Flood
    factor: abiotic
    placement: discard
    text: Destroy a producer in a vernal pool or in the glow biome.
    effects:
      - {trigger: play, action: destroy, target: opponent, filter: {kind: [organism], acting: [P], biomes: [VER, GLO]}}

  - id: glow-drought
    kind: factor
    name: Drought
    factor: abiotic
    placement: discard
    text: Destroy a producer in a vernal pool.
    effects:
      - {trigger: play, action: destroy, target: opponent, filter: {kind: [organism], acting: [P], biomes: [VER]}}
""", encoding="utf-8")
    code, out, _ = run_cli("validate", deck)
    assert code == 0  # combined: both fine
    alone = [l for l in out.splitlines() if "error[" in l]
    # alone: the filter keeps GLO (like an organism keeps its own biomes); the card with only base biomes
    # needs the base, exactly as an organism living only in base biomes does
    assert len(alone) == 1 and "error[needs-base] glow-drought" in alone[0] and "unknown-biome" not in out
    code, out, _ = run_cli("cards", deck, "--standalone", "--format", "json")
    assert code == 1  # not a stand-alone game while glow-drought needs the base
