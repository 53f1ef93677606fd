"""A non-editable install finds its schemas and templates without the repository."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import DECKS, ROOT


@pytest.mark.slow
def test_wheel_install_validates_a_deck(tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(ROOT)],
                   check=True, capture_output=True)
    assert (target / "cardtool" / "_data" / "schemas" / "deck.schema.json").is_file()
    assert (target / "cardtool" / "_data" / "templates").is_dir()
    deck = tmp_path / "symbiosis"
    shutil.copytree(DECKS / "symbiosis", deck)
    env = dict(os.environ, PYTHONPATH=str(target))
    code = ("import cardtool.resources as r, sys; from cardtool.cli import main; "
            "assert str(r.schemas_dir()).startswith(sys.argv[1]), r.schemas_dir(); sys.exit(main(['validate', 'symbiosis']))")
    result = subprocess.run([sys.executable, "-c", code, str(target)], cwd=tmp_path, env=env,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "symbiosis: 0 error(s)" in result.stdout
