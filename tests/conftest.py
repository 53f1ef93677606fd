"""Shared test helpers: paths to the shipped decks and the bad-deck corpus, and a CLI runner."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cardtool.cli import main

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
DECKS = ROOT / "decks"


@pytest.fixture
def run_cli(capsys):
    """Run the CLI in-process; returns (exit code, stdout, stderr)."""

    def run(*argv: str):
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:  # argparse usage errors and --help/--version
            code = exc.code
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def deck_repo(tmp_path) -> Path:
    """A git repository holding decks/base (tests/data/expansions/base) in two commits: the second renames
    the Eagle to Golden Eagle."""
    repo = tmp_path / "repo"
    shutil.copytree(DATA / "expansions" / "base", repo / "decks" / "base")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git[:3] + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-qm", "first"], check=True)
    cards = repo / "decks" / "base" / "cards.yaml"
    cards.write_text(cards.read_text().replace("name: Eagle", "name: Golden Eagle"))
    subprocess.run(git + ["commit", "-qam", "rename"], check=True)
    return repo
