"""The Jinja2 environment over the shipped templates (and game plugins' own), and atomic file writing.

A template is looked for among cardtool's shipped templates first; then, for a name "<game>/...", in the
`templates_dir` of that game's plugin (cardtool.games.plugin.GamePlugin), if it has one.
"""

from __future__ import annotations

import os
import tempfile
from functools import lru_cache
from pathlib import Path

from jinja2 import BaseLoader, ChoiceLoader, Environment, FileSystemLoader, StrictUndefined, TemplateNotFound
from jinja2 import select_autoescape

from cardtool.resources import templates_dir


#: The templates folders of game plugins that templates were read from (files there may be fetched too).
PLUGIN_TEMPLATE_DIRS: set[Path] = set()


def plugin_templates_dir(game: str) -> Path | None:
    """The templates folder a game's plugin brings, or None (a built-in game's are shipped)."""
    from cardtool.games import BUILTIN, GAMES

    if game in BUILTIN or game not in GAMES:
        return None
    folder = getattr(GAMES[game], "templates_dir", None)
    return Path(folder) if folder is not None else None


class _PluginTemplates(BaseLoader):
    """"<game>/<path>" from the templates_dir of the game's plugin."""

    def get_source(self, environment: Environment, template: str):
        game, _, rest = template.partition("/")
        folder = plugin_templates_dir(game) if rest else None
        if folder is None:
            raise TemplateNotFound(template)
        PLUGIN_TEMPLATE_DIRS.add(folder.resolve())
        return FileSystemLoader(str(folder)).get_source(environment, rest)


def template_exists(name: str) -> bool:
    """Whether a template of that name is shipped or brought by a plugin."""
    try:
        environment().loader.get_source(environment(), name)
    except TemplateNotFound:
        return False
    return True


@lru_cache(maxsize=None)
def environment() -> Environment:
    from cardtool.render.icons import inline_icons

    env = Environment(
        loader=ChoiceLoader([FileSystemLoader(str(templates_dir())), _PluginTemplates()]),
        # Markup is escaped; YAML scaffolds (*.yaml.j2) are written as they are.
        autoescape=select_autoescape(["html", "svg", "xml", "html.j2", "svg.j2", "xml.j2"]),
        undefined=StrictUndefined,  # a missing context field is a bug to see, not blank output
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["icons"] = inline_icons  # {{ text|icons(urls) }}: `:P:` tokens drawn inline (H8)
    return env


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
