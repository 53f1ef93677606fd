"""Shared test helpers: paths to the shipped decks and the bad-deck corpus, and a CLI runner."""

from __future__ import annotations

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
