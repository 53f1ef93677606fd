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

WeasyPrint's PDF writer also imports fontTools' subsetter and variable-font instancer when it loads
(about 0.2 s of CPU, a quarter of importing WeasyPrint), though it calls them only where HarfBuzz's own
subsetter is missing or a font is variable. Where HarfBuzz-Subset is installed, `_deferred_font_tools`
lets them load at their first use instead: WeasyPrint gets stand-ins that import the real modules
when one of their names is first read or called.
"""

from __future__ import annotations

import contextlib
import ctypes.util
import importlib
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
    if "weasyprint" in sys.modules:
        _patched()
        return
    with _deferred_font_tools():
        if not sys.platform.startswith("linux") or not _listing():
            import weasyprint  # noqa: F401
            _patched()
            return
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
            _patched()


def _patched() -> None:
    """WeasyPrint given the quicker parts cardtool brings: C arrays (below), pages without margin
    boxes laid out without trying them (render/margins.py) and font subsets cut from small sources
    (render/font_subsets.py)."""
    from cardtool.render.font_subsets import quick_subsets
    from cardtool.render.margins import skip_empty_margin_boxes

    _open_arrays()
    skip_empty_margin_boxes()
    quick_subsets()


SUBSETTER, INSTANCER = "fontTools.subset", "fontTools.varLib.instancer"


def _has_harfbuzz_subset() -> bool:
    """Whether the HarfBuzz subsetting library WeasyPrint looks for is installed (by its usual names)."""
    finder = _find_library if sys.platform.startswith("linux") and _listing() else ctypes.util.find_library
    return any(finder(name) for name in ("harfbuzz-subset", "harfbuzz-subset-0"))


class _Deferred(type(sys)):
    """Stands in sys.modules for a module while WeasyPrint is imported: reading any of its names imports
    the real module (from then on in sys.modules) and gives its name."""

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]
        return getattr(importlib.import_module(self.__name__), name)


def _instantiate_variable_font(*args, **kwargs):
    """fontTools' instantiateVariableFont, imported at its first call."""
    return importlib.import_module(INSTANCER).instantiateVariableFont(*args, **kwargs)


@contextlib.contextmanager
def _deferred_font_tools():
    """While WeasyPrint is imported, fontTools' subsetter and instancer stand deferred in sys.modules
    (see the module docstring); nothing is deferred where they would be used at once, or are loaded."""
    if not _has_harfbuzz_subset() or SUBSETTER in sys.modules or INSTANCER in sys.modules:
        yield
        return
    subsetter = _Deferred(SUBSETTER, "fontTools' subsetter, imported when first used (render/libraries.py)")
    instancer = _Deferred(INSTANCER, "fontTools' instancer, imported when first used (render/libraries.py)")
    instancer.instantiateVariableFont = _instantiate_variable_font  # a from-import takes it without loading
    sys.modules[SUBSETTER], sys.modules[INSTANCER] = subsetter, instancer
    try:
        yield
    finally:
        for name, stand_in in ((SUBSETTER, subsetter), (INSTANCER, instancer)):
            if sys.modules.get(name) is stand_in:
                del sys.modules[name]  # an import from now on gets the real module; WeasyPrint keeps the stand-in


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
