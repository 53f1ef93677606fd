"""Validation reports written for CI: GitHub workflow commands, JUnit XML and SARIF 2.1.0.

Each writer takes the checks `cardtool validate` ran, as `Checked` records (a label, its report, whether
it counts toward the exit status), and returns text. A check that does not count (an expansion taken
alone, for information) is shown as a notice, a skipped test or a SARIF note, never as a failure.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote
from xml.etree import ElementTree as ET

from cardtool.issues import Issue, Report, Severity

#: The SARIF version written, and the schema it follows (named in the file, never fetched).
SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


@dataclass(frozen=True)
class Checked:
    """One way one deck was checked: its label, its report, and whether its errors fail the run."""

    label: str
    report: Report
    counts: bool = True
    strict: bool = False

    def fails(self, issue: Issue) -> bool:
        """Whether this issue fails the check (errors, and warnings with --strict)."""
        return issue.severity is Severity.ERROR or (self.strict and issue.severity is Severity.WARNING)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _message(issue: Issue) -> str:
    card = f"{issue.card}: " if issue.card else ""
    hint = f"\nhint: {issue.hint}" if issue.hint else ""
    return f"{card}{issue.message}{hint}"


def github(checks: Sequence[Checked]) -> str:
    """GitHub Actions workflow commands: one `::error file=...,line=...::message` line per issue."""
    lines = []
    for check in checks:
        for issue in check.report.sorted():
            if not check.counts or issue.severity is Severity.NOTE:
                command = "notice"
            else:
                command = "error" if check.fails(issue) else "warning"
            props = []
            loc = issue.location
            if loc is not None:
                props.append(f"file={_escape_property(Path(loc.file).as_posix())}")
                if loc.line:
                    props.append(f"line={loc.line}")
                    if loc.column:
                        props.append(f"col={loc.column}")
            props.append(f"title={_escape_property(f'cardtool {issue.code}')}")
            lines.append(f"::{command} {','.join(props)}::{_escape_data(_message(issue))}")
        errors = sum(check.fails(i) for i in check.report.issues)
        verdict = "ok" if not errors else ("FAILED" if check.counts else "not a stand-alone game")
        lines.append(f"{check.label}: {len(check.report.errors)} error(s), {len(check.report.warnings)} "
                     f"warning(s) - {verdict}")
    return "\n".join(lines)


def junit(checks: Sequence[Checked]) -> str:
    """JUnit XML: a test suite per check, a test case per error or warning (failed when it fails the
    check, skipped when the check is for information only), one passing case when there is none."""
    suites = ET.Element("testsuites", name="cardtool validate")
    total = failed = 0
    for check in checks:
        suite = ET.SubElement(suites, "testsuite", name=check.label)
        cases = failures = skipped = 0
        for issue in check.report.sorted():
            if issue.severity is Severity.NOTE:
                continue
            cases += 1
            where = str(issue.location) if issue.location else check.label
            case = ET.SubElement(suite, "testcase", classname=check.label,
                                 name=f"{issue.severity.value}[{issue.code}] {where}" +
                                      (f" {issue.card}" if issue.card else ""))
            if issue.location is not None:
                case.set("file", Path(issue.location.file).as_posix())
                if issue.location.line:
                    case.set("line", str(issue.location.line))
            if not check.counts:
                ET.SubElement(case, "skipped", message=_message(issue))
                skipped += 1
            elif check.fails(issue):
                node = ET.SubElement(case, "failure", type=issue.code, message=issue.message)
                node.text = issue.format()
                failures += 1
            else:
                ET.SubElement(case, "system-out").text = issue.format()
        if not cases:
            ET.SubElement(suite, "testcase", classname=check.label, name="deck is valid")
            cases = 1
        suite.set("tests", str(cases))
        suite.set("failures", str(failures))
        suite.set("errors", "0")
        suite.set("skipped", str(skipped))
        total += cases
        failed += failures
    suites.set("tests", str(total))
    suites.set("failures", str(failed))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode")


def _uri(file: Path) -> str:
    file = Path(file)
    if file.is_absolute():
        return file.as_uri()
    return quote(file.as_posix())


def sarif(checks: Sequence[Checked], version: str) -> str:
    """SARIF 2.1.0: one run of the cardtool driver, a rule per code met, a result per issue."""
    rules: dict[str, int] = {}
    results = []
    for check in checks:
        for issue in check.report.sorted():
            index = rules.setdefault(issue.code, len(rules))
            if not check.counts or issue.severity is Severity.NOTE:
                level = "note"
            else:
                level = "error" if check.fails(issue) else "warning"
            result = {"ruleId": issue.code, "ruleIndex": index, "level": level,
                      "message": {"text": _message(issue)},
                      "properties": {"check": check.label, "severity": issue.severity.value}}
            if issue.card:
                result["properties"]["card"] = issue.card
            if issue.location is not None:
                physical: dict = {"artifactLocation": {"uri": _uri(issue.location.file)}}
                if issue.location.line:
                    region = {"startLine": issue.location.line}
                    if issue.location.column:
                        region["startColumn"] = issue.location.column
                    physical["region"] = region
                result["locations"] = [{"physicalLocation": physical}]
            results.append(result)
    driver = {"name": "cardtool", "version": version, "semanticVersion": version,
              "rules": [{"id": code, "name": code, "shortDescription": {"text": f"cardtool validate: {code}"}}
                        for code in rules]}
    log = {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION,
           "runs": [{"tool": {"driver": driver}, "results": results,
                     "invocations": [{"executionSuccessful": True}]}]}
    return json.dumps(log, indent=2)
