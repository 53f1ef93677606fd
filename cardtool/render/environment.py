"""The Jinja2 environment over the shipped templates, and atomic file writing."""

from __future__ import annotations

import os
import tempfile
from functools import lru_cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from cardtool.resources import templates_dir


@lru_cache(maxsize=None)
def environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(str(templates_dir())),
        # Markup is escaped; YAML scaffolds (*.yaml.j2) are written as they are.
        autoescape=select_autoescape(["html", "svg", "xml", "html.j2", "svg.j2", "xml.j2"]),
        undefined=StrictUndefined,  # a missing context field is a bug to see, not blank output
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render(template: str, **context) -> str:
    return environment().get_template(template).render(**context)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write a file so that readers see the old content or the new, never half of it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes files private; outputs are ordinary files
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
