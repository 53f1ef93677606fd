"""Importing WeasyPrint quickly on Linux.

WeasyPrint opens Pango, HarfBuzz and fontconfig through cffi, trying several names for each library;
every name that is not the file's own makes cffi ask ctypes.util.find_library, which on Linux runs
ldconfig, then gcc and ld, as subprocesses: about 50 processes and 0.4 s of CPU before the first card
is laid out (far more on a busy machine). While WeasyPrint is imported here, find_library reads one
`ldconfig -p` listing instead; should that miss a library the full search would find, the import is
simply done again the usual way.

Once imported, WeasyPrint's font subsetting is given C arrays without a new C type each time: it asks
cffi for `hb_codepoint_t[N]` arrays, and every new N is a type cffi parses with pycparser, a few ms
each, about 60 per process that writes card faces (half the CPU of subsetting them). `_OpenArrays`
makes the same arrays as `hb_codepoint_t[]` of the same items: one type, parsed once, same bytes.
"""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
from functools import lru_cache

_SIZED = re.compile(r"([A-Za-z_][A-Za-z0-9_ ]*)\[(\d+)\]")


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
        _open_arrays()
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
        _open_arrays()


class _OpenArrays:
    """A cffi FFI that makes `T[N]` arrays given N items as `T[]` arrays of them (one C type for every
    length, the same memory); everything else is the FFI's own."""

    def __init__(self, ffi):
        self._ffi = ffi

    def new(self, cdecl, init=None):
        sized = _SIZED.fullmatch(cdecl) if isinstance(cdecl, str) else None
        if sized is not None and init is not None and len(init) == int(sized.group(2)):
            return self._ffi.new(f"{sized.group(1)}[]", init)
        return self._ffi.new(cdecl, init)

    def __getattr__(self, name):
        return getattr(self._ffi, name)


def _open_arrays() -> None:
    """Give WeasyPrint's font subsetting (weasyprint.pdf.fonts) the FFI above, where it has one."""
    try:
        import weasyprint.pdf.fonts as fonts
    except ImportError:  # another WeasyPrint layout: its own FFI, as it is
        return
    if fonts is not None and hasattr(getattr(fonts, "ffi", None), "new") and not isinstance(fonts.ffi, _OpenArrays):
        fonts.ffi = _OpenArrays(fonts.ffi)
