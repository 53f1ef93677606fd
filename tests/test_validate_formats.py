"""`cardtool validate --format github|junit|sarif`: CI annotations carry every issue with its place."""

from __future__ import annotations

import json
import re
from xml.etree import ElementTree as ET

import yaml

from tests.conftest import DATA, DECKS, ROOT

BAD = DATA / "bad" / "unknown-ref"


def test_github_format_annotates_each_error_at_its_line(run_cli):
    code, out, _ = run_cli("validate", "--format", "github", BAD)
    assert code == 1
    line = next(l for l in out.splitlines() if l.startswith("::error "))
    match = re.match(r"::error file=([^,]+),line=(\d+),col=(\d+),title=cardtool unknown-ref::(.*)", line)
    assert match, line
    assert match.group(1).endswith("unknown-ref/cards.yaml") and int(match.group(2)) > 0
    assert "green-alga" in match.group(4) and "%0Ahint: did you mean" in match.group(4)  # one line, escaped


def test_github_format_escapes_properties_and_data():
    from cardtool.issueformats import Checked, github
    from cardtool.issues import Location, Report

    report = Report()
    report.error("bad-value", "50% of\nit", location=Location("a,b:c.yaml", 3, 1))
    out = github([Checked("deck", report)])
    assert "::error file=a%2Cb%3Ac.yaml,line=3,col=1,title=cardtool bad-value::50%25 of%0Ait" in out


def test_github_format_shows_an_expansion_alone_as_notices(run_cli, tmp_path):
    code, out, err = run_cli("new", "expansion", "Glow", "--base", DECKS / "ecologies-bizarre-biomes",
                             "--dir", tmp_path)
    assert code == 0, err
    cards = tmp_path / "glow" / "cards.yaml"
    cards.write_text(cards.read_text() + """
  - id: glow-drought
    kind: factor
    name: Drought
    factor: abiotic
    placement: discard
    text: Destroy a producer in a vernal pool.
    effects:
      - {trigger: play, action: destroy, target: opponent, filter: {kind: [organism], acting: [P], biomes: [VER]}}
""", encoding="utf-8")  # a card that needs the base: an error alone, which is for information only
    code, out, _ = run_cli("validate", "--format", "github", tmp_path / "glow")
    assert code == 0
    assert "::notice " in out and "needs-base" in out and "::error " not in out


def test_junit_format_has_a_failure_per_error_and_passes_a_valid_deck(run_cli):
    code, out, _ = run_cli("validate", "--format", "junit", BAD, DECKS / "symbiosis")
    assert code == 1
    root = ET.fromstring(out.split("\n", 1)[1])
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites][0].endswith("unknown-ref")
    failure = suites[0].find("testcase/failure")
    assert failure.get("type") == "unknown-ref" and "green-alga" in failure.text
    assert suites[0].find("testcase").get("line")
    assert suites[1].get("failures") == "0" and suites[1].find("testcase") is not None
    assert root.get("failures") == "1"


def test_junit_strict_fails_warnings(run_cli):
    deck = DATA / "foodweb" / "uneaten-producer"  # a deck whose only finding is a warning
    _, plain, _ = run_cli("validate", "--format", "junit", deck)
    _, strict, _ = run_cli("validate", "--format", "junit", "--strict", deck)
    count = lambda text: int(ET.fromstring(text.split("\n", 1)[1]).get("failures"))  # noqa: E731
    assert count(plain) == 0 and count(strict) >= 1


def test_sarif_format_is_sarif_2_1_0(run_cli):
    code, out, _ = run_cli("validate", "--format", "sarif", BAD, DECKS / "frozen-and-deep")
    assert code == 1
    log = json.loads(out)
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "cardtool" and driver["version"]
    rule_ids = [rule["id"] for rule in driver["rules"]]
    assert len(rule_ids) == len(set(rule_ids))
    levels = set()
    for result in run["results"]:
        assert set(result) <= {"ruleId", "ruleIndex", "level", "message", "locations", "properties"}
        assert rule_ids[result["ruleIndex"]] == result["ruleId"]
        assert result["level"] in ("none", "note", "warning", "error")
        assert isinstance(result["message"]["text"], str) and result["message"]["text"]
        levels.add(result["level"])
        for location in result.get("locations", []):
            physical = location["physicalLocation"]
            assert not physical["artifactLocation"]["uri"].startswith("/")
            region = physical.get("region", {})
            assert all(isinstance(v, int) and v >= 1 for v in region.values())
    error = next(r for r in run["results"] if r["level"] == "error")
    assert error["ruleId"] == "unknown-ref" and error["locations"][0]["physicalLocation"]["region"]["startLine"] > 0
    assert "note" in levels  # frozen-and-deep's overrides


def test_every_format_keeps_the_exit_status(run_cli):
    for fmt in ("text", "json", "github", "junit", "sarif"):
        assert run_cli("validate", "--format", fmt, DECKS / "symbiosis")[0] == 0
        assert run_cli("validate", "--format", fmt, BAD)[0] == 1


def test_pre_commit_hooks_run_cardtool_validate():
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    ids = {hook["id"] for hook in hooks}
    assert {"cardtool-validate", "cardtool-validate-strict"} <= ids
    for hook in hooks:
        assert {"id", "name", "entry", "language"} <= set(hook)
        assert hook["entry"].startswith("cardtool validate") and hook["pass_filenames"] is False
        assert re.search(hook["files"], "decks/x/organisms.yaml")
    assert "cardtool-validate" in (ROOT / "docs" / "ci.md").read_text()
