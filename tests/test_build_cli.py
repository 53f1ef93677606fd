"""`cardtool build`: every output into build/<deck>/ with an index, swapped in only when the build succeeds."""

from __future__ import annotations

import re
import shutil

import pytest

from cardtool.render.pipeline import STEPS
from tests.conftest import DATA, DECKS


@pytest.fixture(scope="module")
def symbiosis_build(tmp_path_factory):
    from cardtool.cli import main

    out = tmp_path_factory.mktemp("build") / "symbiosis"
    assert main(["build", str(DECKS / "symbiosis"), "--out", str(out), "--sim-games", "40"]) == 0
    return out


def test_build_writes_every_output_and_an_index_linking_them(symbiosis_build):
    out = symbiosis_build
    for name in ("cards.pdf", "rulebook.pdf", "validation.txt", "images/contact-sheet.png", "images/cards.csv",
                 "images/card-back.png", "images/summer-fish-per-fish.png", "index.html"):
        assert (out / name).is_file(), name
    index = (out / "index.html").read_text()
    for link in re.findall(r'href="([^"]+)"', index):
        assert (out / link).exists(), link
    assert {"cards.pdf", "rulebook.pdf", "images/contact-sheet.png"} <= set(re.findall(r'href="([^"]+)"', index))


def test_build_runs_a_short_simulation(symbiosis_build):
    import json

    index = (symbiosis_build / "index.html").read_text()
    assert "Short simulation" in index and 'href="sim/report.html"' in index
    assert [s.name for s in STEPS][-1] == "simulation"
    summary = json.loads((symbiosis_build / "sim" / "summary.json").read_text())
    assert summary["games"] == 40 and summary["config"]["seed"] == 1
    assert (symbiosis_build / "sim" / "report.pdf").is_file()


def test_build_says_where_the_simulation_report_is(run_cli, tmp_path):
    code, out, err = run_cli("build", DECKS / "symbiosis", "--out", tmp_path / "b", "--sim-games", "10",
                             "--dpi", "72", "--duplex", "none")
    assert code == 0, err
    assert f"simulation report: {tmp_path / 'b'}/sim/report.html" in out
    assert (tmp_path / "b" / "sim" / "report.html").is_file()


def test_build_prints_each_step(run_cli, tmp_path):
    code, out, err = run_cli("build", DATA / "foodweb" / "valid", "--out", tmp_path / "valid", "--dpi", "72",
                             "--paper", "letter", "--no-crop-marks", "--duplex", "none", "--sim-games", "0")
    assert code == 0, err
    for step in ("validate:", "foodweb:", "cards:", "images:", "rulebook:", "simulation: left out (--sim-games 0)"):
        assert step in out
    assert (tmp_path / "valid" / "foodweb" / "RIP.svg").is_file()


def outputs(out):
    """Every file of a build folder but its cache (which keeps work a failed build did)."""
    return {p.relative_to(out): p.read_bytes() for p in out.rglob("*")
            if p.is_file() and ".cardtool-cache" not in p.parts}


def test_a_failed_build_leaves_the_previous_outputs_intact(run_cli, tmp_path):
    deck = tmp_path / "deck"
    shutil.copytree(DATA / "foodweb" / "valid", deck)
    out = tmp_path / "out"
    code, _, err = run_cli("build", deck, "--out", out, "--dpi", "72", "--sim-games", "0")
    assert code == 0, err
    before = outputs(out)
    # now give a card a text that cannot fit: the build fails at the cards step, after validation
    cards = (deck / "cards.yaml").read_text()
    too_long = "  name: Worm\n  flavor: " + "Very long. " * 200 + "\n"
    (deck / "cards.yaml").write_text(cards.replace("  name: Worm\n", too_long))
    code, out_text, err = run_cli("build", deck, "--out", out, "--dpi", "72", "--sim-games", "0")
    assert code == 1 and "card worm: field 'text' (flavor) does not fit" in err and "Traceback" not in err
    assert outputs(out) == before  # (the cache may keep the faces laid out before the failure)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck", "out"]  # no staging folder left behind
    # an invalid deck fails before anything is built, with its report
    (deck / "cards.yaml").write_text(cards.replace("eats: [mayfly, caddis]", "eats: [mayfly, cadis]", 1))
    code, _, err = run_cli("build", deck, "--out", out)
    assert code == 1 and "unknown-ref" in err
    assert outputs(out) == before


def test_a_new_build_keeps_what_other_commands_wrote_beside_it(tmp_path):
    from cardtool.render.output import staged_dir

    out = tmp_path / "deck"
    with staged_dir(out) as stage:
        (stage / "cards.pdf").write_text("old")
    with staged_dir(out / "sim") as stage:  # as `cardtool simulate` writes build/<deck>/sim
        (stage / "games.jsonl").write_text("{}\n")
    with staged_dir(out) as stage:
        (stage / "cards.pdf").write_text("new")
    assert (out / "cards.pdf").read_text() == "new" and (out / "sim" / "games.jsonl").is_file()
    with pytest.raises(RuntimeError):
        with staged_dir(out) as stage:
            (stage / "cards.pdf").write_text("broken")
            raise RuntimeError("a step failed")
    assert (out / "cards.pdf").read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck"]
