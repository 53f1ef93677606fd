"""Safe YAML loading keeps positions and refuses what PyYAML would let through silently."""

from __future__ import annotations

from cardtool.deck.yamlsource import load_yaml
from cardtool.issues import Report


def _load(tmp_path, text: str | bytes):
    file = tmp_path / "f.yaml"
    file.write_bytes(text if isinstance(text, bytes) else text.encode())
    report = Report()
    return load_yaml(file, report), report


def test_positions_are_one_based_line_and_column(tmp_path):
    doc, report = _load(tmp_path, "cards:\n  - id: a\n    vp: 2\n")
    assert report.ok
    assert doc.locate(("cards", 0, "vp")).line == 3
    assert doc.locate(("cards", 0, "vp")).column == 9
    assert doc.locate(("cards", 0, "vp"), key=True).column == 5


def test_locate_falls_back_to_nearest_ancestor(tmp_path):
    doc, _ = _load(tmp_path, "cards:\n  - id: a\n")
    assert doc.locate(("cards", 0, "missing")).line == 2


def test_duplicate_key_keeps_first_and_reports_second(tmp_path):
    doc, report = _load(tmp_path, "a: 1\nb: 2\na: 3\n")
    assert doc.data["a"] == 1
    [issue] = report.errors
    assert (issue.code, issue.location.line) == ("duplicate-key", 3)


def test_merge_keys_are_supported(tmp_path):
    doc, report = _load(tmp_path, "base: &b {x: 1, y: 2}\nthing:\n  <<: *b\n  y: 3\n")
    assert report.ok
    assert doc.data["thing"] == {"x": 1, "y": 3}


def test_dates_stay_text(tmp_path):
    doc, report = _load(tmp_path, "version: 2026-11-30\n")
    assert doc.data["version"] == "2026-11-30"


def test_byte_order_mark_is_accepted(tmp_path):
    doc, report = _load(tmp_path, "\ufeffa: 1\n".encode("utf-8"))
    assert report.ok and doc.data == {"a": 1}


def test_multiple_documents_are_a_syntax_error(tmp_path):
    doc, report = _load(tmp_path, "a: 1\n---\nb: 2\n")
    assert doc is None and report.errors[0].code == "yaml-syntax"


from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=300) | st.text(alphabet="ab:-[]{}&*!#'\"\n \t|>?,%@`1.", max_size=200).map(str.encode))
def test_any_bytes_load_or_report_never_raise(tmp_path, raw):
    """Whatever is in a file, loading gives data or located errors, never an exception."""
    file = tmp_path / "fuzz.yaml"
    file.write_bytes(raw)
    report = Report()
    doc = load_yaml(file, report)
    assert doc is not None or report.errors  # no data without saying why
    for issue in report.errors:
        assert issue.location is not None and issue.location.file == file
