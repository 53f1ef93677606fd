"""Fingerprints of what `make demo` builds, so a refactoring that must not change outputs can show it didn't.

`python tests/golden_demo.py` rebuilds the shipped decks (no simulation: the report's games move with the
bots, which are meant to change) and writes tests/data/golden/demo-outputs.json. Re-record only when an
output is meant to change, and say in the commit which output and why.

A PDF or PNG is compared byte for byte only under the library versions that made the record (a WeasyPrint
or PDFium release may lay out or rasterise differently); under other versions its page count and text
(PDF) or its pixel size (PNG) must still match.
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "tests" / "data" / "golden" / "demo-outputs.json"
DECKS = ("ecologies-bizarre-biomes", "frozen-and-deep", "symbiosis")
LIBRARIES = ("weasyprint", "pypdfium2", "pillow", "pypdf", "fonttools", "jinja2", "networkx")
SKIPPED = {".cardtool-manifest.json"}  # lists the files with their hashes: the fingerprints say that already
# Hidden .cardtool-* folders (the build cache) are skipped too: their entries are keyed by cardtool's own code.


def build_argv(deck: str, out: Path) -> list[str]:
    """As `make demo` runs it: from the repository's root, the deck named relative to it (the reports name
    the deck as it was given, so an absolute path would tie the record to one clone's location)."""
    return ["build", f"decks/{deck}", "--out", str(out), "--sim-games", "0"]


def libraries() -> dict[str, str]:
    return {name: version(name) for name in LIBRARIES}


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def fingerprint_file(path: Path) -> dict:
    data = path.read_bytes()
    entry = {"sha256": _sha(data)}
    if path.suffix == ".pdf":
        from pypdf import PdfReader

        reader = PdfReader(io.BytesIO(data))
        text = "\n".join(page.extract_text() or "" for page in reader.pages)
        entry.update(pages=len(reader.pages), text_sha256=_sha(text.encode()))
    elif path.suffix == ".png":
        from PIL import Image

        with Image.open(io.BytesIO(data)) as image:
            entry.update(size=list(image.size))
    return entry


def fingerprint(folder: Path) -> dict[str, dict]:
    return {p.relative_to(folder).as_posix(): fingerprint_file(p) for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name not in SKIPPED
            and not any(part.startswith(".cardtool-") for part in p.relative_to(folder).parts)}


def differences(recorded: dict[str, dict], built: dict[str, dict], same_libraries: bool) -> list[str]:
    """What differs, one line a file; byte hashes of PDFs and PNGs count only under the same libraries."""
    found = [f"{name}: missing from the build" for name in sorted(recorded.keys() - built.keys())]
    found += [f"{name}: new in the build" for name in sorted(built.keys() - recorded.keys())]
    for name in sorted(recorded.keys() & built.keys()):
        old, new = recorded[name], built[name]
        binary = name.endswith((".pdf", ".png"))
        keys = [k for k in old if k != "sha256" or same_libraries or not binary]
        changed = [k for k in keys if old.get(k) != new.get(k)]
        if changed:
            found.append(f"{name}: {', '.join(changed)} changed")
    return found


def main() -> int:
    import os
    import tempfile

    from cardtool.cli import main as cardtool

    os.chdir(ROOT)

    record = {"libraries": libraries(), "decks": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for deck in DECKS:
            out = Path(tmp) / deck
            if cardtool(build_argv(deck, out)) != 0:
                print(f"building {deck} failed", file=sys.stderr)
                return 1
            record["decks"][deck] = fingerprint(out)
    RECORD.parent.mkdir(parents=True, exist_ok=True)
    RECORD.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    print(f"wrote {RECORD.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
