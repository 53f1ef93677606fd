"""Where the shipped schemas and templates are, in a checkout and in an installed wheel."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _data_dir(name: str) -> Path:
    installed = _PACKAGE / "_data" / name  # a wheel carries them inside the package
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name  # a checkout or an editable install


def schemas_dir() -> Path:
    return _data_dir("schemas")


def templates_dir() -> Path:
    return _data_dir("templates")
