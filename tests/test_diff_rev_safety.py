"""`diff --rev` hands git only resolved commit ids: a value that looks like an option is a usage error."""

from __future__ import annotations

import shutil

import pytest

from tests.conftest import DATA

EXP = DATA / "expansions"


@pytest.fixture
def repo(deck_repo):
    return deck_repo


@pytest.mark.parametrize("rev", ["--output={target}", "HEAD~1..--output={target}", "--output={target}..HEAD",
                                 "-o{target}", "--remote=file://{target}"])
def test_a_revision_that_looks_like_an_option_is_refused_and_creates_nothing(rev, repo, tmp_path, run_cli):
    target = tmp_path / "created-by-git"
    value = rev.format(target=target)
    code, out, err = run_cli("diff", repo / "decks" / "base", f"--rev={value}")
    assert code == 2, err
    bad = next(part for part in value.split("..") if not part.startswith("HEAD"))
    assert f"'{bad}' is not a commit" in err
    assert "Traceback" not in err and out == ""
    assert not target.exists() and not list(tmp_path.glob("created-by-git*"))


def test_revisions_are_resolved_to_commit_ids_before_git_archive(repo, monkeypatch, run_cli):
    from cardtool.deck import diff

    seen = []
    real = diff._run_git

    def spy(where, *args):
        seen.append(args)
        return real(where, *args)

    monkeypatch.setattr(diff, "_run_git", spy)
    code, out, err = run_cli("diff", repo / "decks" / "base", "--rev", "HEAD~1..HEAD")
    assert code == 0 and "name Eagle → Golden Eagle" in out, err
    archives = [args for args in seen if args[0] == "archive"]
    assert len(archives) == 2
    for args in archives:
        assert len(args[-1]) == 40 and all(c in "0123456789abcdef" for c in args[-1])
    assert all("--end-of-options" in args for args in seen if args[:2] == ("rev-parse", "--verify"))


@pytest.mark.parametrize("rev, message", [("..HEAD", "a revision on each side"),
                                          ("HEAD~1...HEAD", "two dots"),
                                          ("no-such-branch", "'no-such-branch' is not a commit"),
                                          ("HEAD:decks", "is not a commit")])
def test_bad_revisions_are_usage_errors_naming_them(rev, message, repo, run_cli):
    code, _, err = run_cli("diff", repo / "decks" / "base", "--rev", rev)
    assert code == 2 and message in err and "Traceback" not in err


def test_rev_outside_a_git_repository_is_a_usage_error(tmp_path, run_cli):
    shutil.copytree(EXP / "base", tmp_path / "base")
    code, _, err = run_cli("diff", tmp_path / "base", "--rev", "HEAD")
    assert code == 2 and "git" in err and "Traceback" not in err
