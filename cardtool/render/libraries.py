"""Importing WeasyPrint quickly on Linux.

WeasyPrint opens Pango, HarfBuzz and fontconfig through cffi, trying several names for each library;
every name that is not the file's own makes cffi ask ctypes.util.find_library, which on Linux runs
ldconfig, then gcc and ld, as subprocesses: about 50 processes and 0.4 s of CPU before the first card
is laid out (far more on a busy machine). While WeasyPrint is imported here, find_library reads one
`ldconfig -p` listing instead; should that miss a library the full search would find, the import is
simply done again the usual way.
"""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
from functools import lru_cache


@lru_cache(maxsize=1)
def _listing() -> str:
    for ldconfig in ("/sbin/ldconfig", "/usr/sbin/ldconfig", "ldconfig"):
        try:
            return subprocess.run([ldconfig, "-p"], capture_output=True, text=True, timeout=20,
                                  env={"LC_ALL": "C", "LANG": "C"}).stdout
        except (OSError, subprocess.SubprocessError):
            continue
    return ""


def _find_library(name: str) -> str | None:
    """The soname ldconfig lists for lib<name>, as ctypes.util.find_library gives it, or None."""
    match = re.search(rf"\s(lib{re.escape(name)}\.[^\s]+)\s", _listing())
    return match.group(1) if match else None


def import_weasyprint() -> None:
    """Import WeasyPrint (once) with the quick library search on Linux."""
    if "weasyprint" in sys.modules or not sys.platform.startswith("linux") or not _listing():
        import weasyprint  # noqa: F401
        return
    import ctypes.util

    original = ctypes.util.find_library
    ctypes.util.find_library = _find_library
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # WeasyPrint prints advice when a library is missing
            import weasyprint  # noqa: F401
    except OSError:
        for module in [m for m in sys.modules if m == "weasyprint" or m.startswith("weasyprint.")]:
            del sys.modules[module]
        ctypes.util.find_library = original
        import weasyprint  # noqa: F401
    finally:
        ctypes.util.find_library = original
