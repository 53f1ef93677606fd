"""Same input, same bytes: a deck built twice, into two folders, gives identical files."""

from __future__ import annotations

import os
import subprocess
import sys
from io import BytesIO

import pytest
from pypdf import PdfReader

from tests.conftest import DATA, DECKS


def _files(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.slow
@pytest.mark.parametrize("deck, sim_games", [(DATA / "expansions" / "base", "0"), (DECKS / "symbiosis", "4")],
                         ids=["ecologies", "symbiosis"])
def test_building_twice_gives_the_same_bytes(deck, sim_games, tmp_path):
    """Two processes with different string hash seeds, so nothing may depend on the order of a set."""
    environment = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    builds = []
    for seed, name in (("1", "first"), ("2", "second")):
        done = subprocess.run([sys.executable, "-m", "cardtool", "build", str(deck), "--out", str(tmp_path / name),
                               "--sim-games", sim_games, "--dpi", "72"], capture_output=True, text=True,
                              env={**environment, "PYTHONHASHSEED": seed}, timeout=600)
        assert done.returncode == 0, done.stderr
        builds.append(_files(tmp_path / name))
    first, second = builds
    assert sorted(first) == sorted(second)
    kinds = {name.rsplit(".", 1)[-1] for name in first}
    assert {"pdf", "png"} <= kinds
    if sim_games != "0":
        assert "sim/report.pdf" in first
    different = [name for name in first if first[name] != second[name]]
    assert different == []
    info = PdfReader(BytesIO(first["cards.pdf"]))
    assert info.metadata["/CreationDate"] == "D:20000101000000Z"
    assert info.trailer["/ID"][0] == info.trailer["/ID"][1]


def test_pdfs_carry_source_date_epoch_and_an_id_from_their_content(tmp_path, run_cli, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    deck = DATA / "expansions" / "base"
    code, _, err = run_cli("render", "cards", deck, "--only", "algae,riparian", "--out", tmp_path / "a.pdf")
    assert code == 0, err
    code, _, err = run_cli("render", "cards", deck, "--only", "algae", "--out", tmp_path / "b.pdf")
    assert code == 0, err
    a, b = (PdfReader(tmp_path / name) for name in ("a.pdf", "b.pdf"))
    assert a.metadata["/CreationDate"] == a.metadata["/ModDate"] == "D:20231114221320Z"
    assert a.trailer["/ID"][0] != b.trailer["/ID"][0]  # other content, other id


def test_a_malformed_source_date_epoch_is_a_usage_error(tmp_path, run_cli, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    code, _, err = run_cli("render", "cards", DATA / "expansions" / "base", "--only", "algae",
                           "--out", tmp_path / "a.pdf")
    assert code == 2
    assert "SOURCE_DATE_EPOCH='yesterday' is not a whole number of seconds" in err
    assert not (tmp_path / "a.pdf").exists()


@pytest.mark.slow
def test_the_cards_pdf_does_not_depend_on_the_number_of_workers(tmp_path, run_cli, monkeypatch):
    from cardtool.deck.loader import load_deck
    from cardtool.render.cards import PARALLEL_FROM

    deck = DECKS / "symbiosis"  # more faces than PARALLEL_FROM, so the layout is cut in parts
    assert len(load_deck(deck).cards) >= PARALLEL_FROM
    pdfs = []
    for workers in ("1", "2", "3"):
        monkeypatch.setenv("CARDTOOL_WORKERS", workers)
        code, _, err = run_cli("render", "cards", deck, "--out", tmp_path / f"{workers}.pdf")
        assert code == 0, err
        pdfs.append((tmp_path / f"{workers}.pdf").read_bytes())
    assert pdfs[0] == pdfs[1] == pdfs[2]
