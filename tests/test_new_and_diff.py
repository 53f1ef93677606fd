"""`cardtool new` scaffolds decks that validate at once; `cardtool diff` writes a changelog."""

from __future__ import annotations

import json
import shutil

import pytest

from cardtool.deck.loader import load
from tests.conftest import DATA, DECKS

EXP = DATA / "expansions"


@pytest.mark.parametrize("game", ["ecologies", "symbiosis"])
def test_new_deck_validates_at_once(game, run_cli, tmp_path):
    code, out, _ = run_cli("new", "deck", "My First Deck", "--game", game, "--dir", tmp_path)
    assert code == 0 and "my-first-deck" in out
    result = load(tmp_path / "my-first-deck")
    assert result.report.issues == [], result.report.format()
    assert result.deck.manifest.name == "My First Deck"
    first_line = (tmp_path / "my-first-deck" / "deck.yaml").read_text().splitlines()[0]
    assert first_line.startswith("# yaml-language-server: $schema=")


def test_new_symbiosis_deck_fills_four_ponds_and_a_river(run_cli, tmp_path):
    run_cli("new", "deck", "Pond", "--game", "symbiosis", "--dir", tmp_path)
    assert load(tmp_path / "pond").deck.size == 36


@pytest.mark.parametrize("base", [DECKS / "ecologies-bizarre-biomes", DECKS / "symbiosis"], ids=lambda p: p.name)
def test_new_expansion_validates_combined(base, run_cli, tmp_path):
    code, out, _ = run_cli("new", "expansion", "Frozen Test", "--base", base, "--dir", tmp_path)
    assert code == 0
    result = load(tmp_path / "frozen-test")
    assert result.report.ok, result.report.format()
    assert result.deck.bases == (load(base).deck.manifest.id,)
    # Symbiosis: two cards; Ecologies: a new biome with a web that can be healthy alone, and a factor card
    assert len(result.deck.own_cards()) == (2 if base.name == "symbiosis" else 9)


def test_new_never_overwrites(run_cli, tmp_path):
    run_cli("new", "deck", "Mine", "--game", "ecologies", "--dir", tmp_path)
    (tmp_path / "mine" / "organisms.yaml").write_text("cards: []  # my work\n")
    code, _, err = run_cli("new", "deck", "Mine", "--game", "symbiosis", "--dir", tmp_path)
    assert code == 2 and "already exists" in err
    assert (tmp_path / "mine" / "organisms.yaml").read_text() == "cards: []  # my work\n"


def test_new_needs_game_or_base(run_cli, tmp_path):
    assert run_cli("new", "deck", "X", "--dir", tmp_path)[0] == 2
    assert run_cli("new", "expansion", "X", "--dir", tmp_path)[0] == 2


def test_new_takes_a_name_not_a_path(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # where the default --dir decks/ would be made
    code, _, err = run_cli("new", "deck", str(tmp_path / "river-rats"), "--game", "ecologies")
    assert code == 2 and f"--dir {tmp_path}" in err and "'river-rats'" in err
    assert not any(tmp_path.iterdir())


def test_diff_of_base_and_expansion(run_cli):
    code, out, _ = run_cli("diff", EXP / "base", EXP / "addon")
    assert code == 0
    assert "### Added\n\n- Osprey (`osprey`, organism)\n- Damselfly (`damselfly`, organism)" in out
    assert "### Removed\n\n- Willow (`willow`, organism)" in out
    assert "- `eagle`: vp 3 → 4" in out
    assert "- gained: `osprey` eats `trout`" in out
    assert "- lost: `caddis` no longer eats `willow`" in out


def test_diff_json(run_cli):
    code, out, _ = run_cli("diff", EXP / "base", EXP / "addon", "--format", "json")
    data = json.loads(out)
    assert [c["id"] for c in data["added"]] == ["osprey", "damselfly"]
    assert {"field": "vp", "old": "3", "new": "4"} in next(c for c in data["changed"] if c["id"] == "eagle")["fields"]
    assert {"prey": "trout", "predator": "osprey"} in data["links_gained"]


def test_diff_reports_changed_witness(run_cli, tmp_path):
    import yaml

    changed = tmp_path / "valid"
    shutil.copytree(DATA / "foodweb" / "valid", changed)
    data = yaml.safe_load((changed / "cards.yaml").read_text())
    data["cards"] = [c for c in data["cards"] if c["id"] != "crayfish"]  # the witness's SD
    (changed / "cards.yaml").write_text(yaml.safe_dump(data))
    code, out, _ = run_cli("diff", DATA / "foodweb" / "valid", changed)
    assert "### Biomes whose healthy web changed" in out
    assert "SD crayfish → " in out and "SD worm" in out


def test_diff_same_deck_has_no_changes(run_cli):
    code, out, _ = run_cli("diff", EXP / "base", EXP / "base")
    assert code == 0 and "No changes." in out


def test_diff_between_git_revisions(run_cli, deck_repo):
    repo = deck_repo
    cards = repo / "decks" / "base" / "cards.yaml"
    code, out, _ = run_cli("diff", repo / "decks" / "base", "--rev", "HEAD~1..HEAD")
    assert code == 0 and "- `eagle`: name Eagle → Golden Eagle" in out
    cards.write_text(cards.read_text().replace("name: Golden Eagle", "name: Bald Eagle"))
    code, out, _ = run_cli("diff", repo / "decks" / "base", "--rev", "HEAD")
    assert "name Golden Eagle → Bald Eagle" in out
    code, _, err = run_cli("diff", repo / "decks" / "base", "--rev", "nope..HEAD")
    assert code == 2 and "nope" in err
