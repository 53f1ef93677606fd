"""`cardtool build` again: what did not change is reused from <out>/.cardtool-cache and not rewritten; one
changed card lays out its own face only; a damaged or hostile cache is never trusted."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.conftest import DATA

FAST = ("--dpi", "72", "--duplex", "none", "--sim-games", "0")
CACHE = ".cardtool-cache"


def files(out):
    return {p.relative_to(out).as_posix(): p for p in sorted(out.rglob("*"))
            if p.is_file() and CACHE not in p.parts}


def stamps(out):
    return {name: path.stat().st_mtime_ns for name, path in files(out).items()}


def contents(out):
    return {name: path.read_bytes() for name, path in files(out).items()}


@pytest.fixture
def built(run_cli, tmp_path):
    """A copy of a small deck, built once into out/."""
    deck, out = tmp_path / "deck", tmp_path / "out"
    shutil.copytree(DATA / "foodweb" / "valid", deck)
    code, text, err = run_cli("build", deck, "--out", out, *FAST)
    assert code == 0, err
    assert "0 faces reused" in text
    return deck, out


def change_worm(deck, flavor="Turns leaves into soil."):
    cards = deck / "cards.yaml"
    cards.write_text(cards.read_text().replace("  name: Worm\n", f"  name: Worm\n  flavor: {flavor}\n", 1))


def test_building_again_unchanged_reuses_every_step_and_rewrites_no_file(built, run_cli):
    deck, out = built
    before = stamps(out)
    code, text, err = run_cli("build", deck, "--out", out, *FAST)
    assert code == 0, err
    for step in ("foodweb", "cards", "images", "rulebook"):
        assert f"{step}: " in text and "(reused" in text.split(f"\n{step}: ")[1].splitlines()[0]
    assert f"nothing changed: none of its {len(before) - 1} files rewritten" in text  # less the manifest
    assert "reused foodweb, cards, images, rulebook" in text
    assert stamps(out) == before


def test_one_changed_card_lays_out_its_face_only_and_the_rest_stays_as_it_was(built, run_cli, tmp_path):
    deck, out = built
    before = stamps(out)
    change_worm(deck)
    code, text, err = run_cli("build", deck, "--out", out, *FAST)
    assert code == 0, err
    assert "(11 faces reused, 1 rendered" in text  # twelve cards' fronts (--duplex none: no backs)
    assert "(12 images reused, 1 rasterised" in text  # images have the back too
    after = stamps(out)
    changed = {name for name in before if after[name] != before[name]}
    assert "images/worm.png" in changed and "cards.pdf" in changed
    assert not {name for name in changed if name.startswith("images/") and name.endswith(".png")} - {
        "images/worm.png", "images/contact-sheet.png"}
    # the same bytes as a build that used no cache at all
    code, _, err = run_cli("build", deck, "--out", tmp_path / "fresh", "--no-cache", *FAST)
    assert code == 0, err
    assert contents(out) == contents(tmp_path / "fresh")
    assert not (tmp_path / "fresh" / CACHE / "entries").exists() or not any((tmp_path / "fresh" / CACHE).rglob("*.json"))


def _entries(out, kind):
    for path in (out / CACHE / "entries").glob("*.json"):
        record = json.loads(path.read_text())
        if record["kind"] == kind:
            yield path, record


def test_damaged_cache_entries_are_found_and_made_again(built, run_cli, tmp_path):
    deck, out = built
    # every face's PDF replaced by other bytes, its entry's JSON cut short, or naming a missing blob, in turn
    for number, (path, record) in enumerate(_entries(out, "face")):
        if number % 3 == 0:
            blob = out / CACHE / "blobs" / record["blobs"]["pdf"]
            blob.unlink(missing_ok=True)
            blob.write_bytes(b"%PDF-1.7 not the face it claims to be")
        elif number % 3 == 1:
            path.write_text(path.read_text()[:40])
        else:
            path.write_text(json.dumps({**record, "blobs": {"pdf": "0" * 64}}))
    change_worm(deck)  # so the cards step runs and asks the cache for each face
    code, text, err = run_cli("build", deck, "--out", out, *FAST)
    assert code == 0, err
    assert "(0 faces reused, 12 rendered" in text, text
    code, _, err = run_cli("build", deck, "--out", tmp_path / "fresh", "--no-cache", *FAST)
    assert code == 0, err
    assert contents(out) == contents(tmp_path / "fresh")


def test_a_step_whose_files_were_damaged_runs_again(built, run_cli):
    deck, out = built
    (_, record), = [(p, r) for p, r in _entries(out, "step") if "cards.pdf" in r["blobs"]]
    good = (out / "cards.pdf").read_bytes()
    (out / "cards.pdf").write_bytes(b"%PDF-1.7 damaged in place")  # the output and its cached blob share a file
    code, text, err = run_cli("build", deck, "--out", out, *FAST)
    assert code == 0, err
    assert "(reused" not in text.split("\ncards: ")[1].splitlines()[0]
    assert (out / "cards.pdf").read_bytes() == good


def test_a_cache_that_is_a_link_is_not_used(run_cli, tmp_path):
    deck, out, elsewhere = tmp_path / "deck", tmp_path / "out", tmp_path / "elsewhere"
    shutil.copytree(DATA / "foodweb" / "valid", deck)
    out.mkdir()
    elsewhere.mkdir()
    (out / CACHE).symlink_to(elsewhere, target_is_directory=True)
    code, text, err = run_cli("build", deck, "--out", out, *FAST)
    assert code == 0, err
    assert list(elsewhere.iterdir()) == []  # nothing written through the link
    assert (out / "cards.pdf").is_file()


def test_render_cards_reuses_the_faces_a_build_keeps_and_leaves_the_rest_of_its_cache(built, run_cli, tmp_path):
    deck, out = built
    code, text, err = run_cli("render", "cards", deck, "--duplex", "none", "--out", out / "sheets.pdf")
    assert code == 0, err
    assert "(12 faces reused, 0 rendered" in text  # the build laid out these twelve fronts
    code, _, err = run_cli("render", "cards", deck, "--duplex", "none", "--no-cache", "--out", tmp_path / "fresh.pdf")
    assert code == 0, err
    assert (out / "sheets.pdf").read_bytes() == (tmp_path / "fresh.pdf").read_bytes()
    original = (deck / "cards.yaml").read_text()
    change_worm(deck)
    code, text, err = run_cli("render", "cards", deck, "--duplex", "none", "--out", out / "sheets.pdf")
    assert code == 0, err
    assert "(11 faces reused, 1 rendered" in text
    (deck / "cards.yaml").write_text(original)  # the deck the build was made of
    code, text, err = run_cli("build", deck, "--out", out, *FAST)
    assert code == 0, err
    assert "reused foodweb, cards, images, rulebook" in text  # render cards pruned none of the build's work


def test_render_cards_keeps_no_cache_among_a_users_own_files(run_cli, tmp_path):
    deck, folder = tmp_path / "deck", tmp_path / "mine"
    shutil.copytree(DATA / "foodweb" / "valid", deck)
    folder.mkdir()
    (folder / "notes.txt").write_text("my own file")
    code, text, err = run_cli("render", "cards", deck, "--duplex", "none", "--out", folder / "cards.pdf")
    assert code == 0, err
    assert "faces reused" not in text
    assert sorted(p.name for p in folder.iterdir()) == ["cards.pdf", "notes.txt"]
