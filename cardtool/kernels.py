"""Loading the optional compiled kernels (the cardtool-accel package, accel/ in the repository).

A game's kernel is a C extension `cardtool_accel.<name>` beside its pure-Python code, which stays the
reference; each game's own accel module decides when its kernel may serve. Both the loading and the
switch to the pure path are the same for every game: an installed kernel of another KERNEL_VERSION is
not used, and CARDTOOL_PURE set in the environment (to anything but "" or "0") when cardtool starts
turns every kernel off.
"""

from __future__ import annotations

import os
from importlib import import_module
from types import ModuleType

#: The environment variable that forces the pure-Python engines (every game's kernels obey it).
PURE_ENV = "CARDTOOL_PURE"


def pure_from_environment() -> bool:
    """Whether CARDTOOL_PURE asks for the pure-Python path."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def load_kernel(name: str, version: int) -> ModuleType | None:
    """The kernel `cardtool_accel.<name>` if it is installed and of this version, else None."""
    try:
        module = import_module(f"cardtool_accel.{name}")
    except ImportError:
        return None
    return module if getattr(module, "KERNEL_VERSION", None) == version else None
