"""ColorAide's Color class as the colour-vision check uses it, imported without the tables it never reads.

Importing coloraide registers every default plugin on its Color class, and two of them, the correlated
colour temperature methods (Robertson 1968 and Ohno 2013, coloraide.temperature), compute their lookup
tables from the CIE colour-matching functions as they are made: most of the import's cost (about 0.1 s
of CPU of 0.15), paid by every first `validate` of a palette, which converts, simulates and compares
colours but never asks a colour's temperature. A subclass of Color registering fewer plugins cannot
avoid it: the tables are built when coloraide.color is first imported, before any subclass exists.

So color_class() imports coloraide with those two plugins' construction deferred: they are registered
as usual, and each builds its table the first time anything of it is used (Color.cct() still works,
with the same numbers). Every other plugin, and every number the palette check computes, is ColorAide's
own, unchanged. When coloraide was imported already, or its modules are not where this expects them
(another version), the import is ColorAide's ordinary one: slower, never different.
"""

from __future__ import annotations

import sys

#: The modules whose plugin builds a table when it is made, and that plugin's class.
DEFERRED = {"coloraide.temperature.robertson_1968": "Robertson1968",
            "coloraide.temperature.ohno_2013": "Ohno2013"}
_PENDING = "_cardtool_pending"  # where a deferred plugin keeps the arguments it was made with


def color_class():
    """coloraide.Color, its colour-temperature tables built only when first used."""
    if "coloraide" not in sys.modules:
        finder = _DeferringFinder()
        sys.meta_path.insert(0, finder)
        try:
            import coloraide  # noqa: F401  (registers the default plugins, two of them deferred)
        finally:
            sys.meta_path.remove(finder)
            finder.restore()
    from coloraide import Color

    return Color


class _DeferringFinder:
    """A meta path finder for DEFERRED's modules only: each is found and run as usual, then its plugin
    class makes instances that build themselves on first use (for as long as coloraide is imported)."""

    def __init__(self):
        self.patched: list[tuple[type, object]] = []

    def find_spec(self, name, path=None, target=None):
        if name not in DEFERRED:
            return None
        from importlib.machinery import PathFinder

        spec = PathFinder.find_spec(name, path, target)
        if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
            spec.loader = _DeferringLoader(spec.loader, DEFERRED[name], self)
        return spec

    def restore(self) -> None:
        """Plugins made after coloraide's import are built at once, as ColorAide builds them."""
        for cls, build in self.patched:
            cls.__init__ = build
        self.patched.clear()


class _DeferringLoader:
    def __init__(self, loader, class_name: str, finder: _DeferringFinder):
        self.loader, self.class_name, self.finder = loader, class_name, finder

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def __getattr__(self, name):  # get_source, is_package, ...: the real loader's, for inspect and the like
        return getattr(self.loader, name)

    def exec_module(self, module) -> None:
        self.loader.exec_module(module)
        cls = getattr(module, self.class_name, None)
        if isinstance(cls, type) and "__getattr__" not in vars(cls):
            self.finder.patched.append((cls, cls.__init__))
            _defer(cls)


def _defer(cls: type) -> None:
    """Instances of cls made from now on keep their arguments and run cls's own __init__ when an
    attribute they would have set is first looked up."""
    build = cls.__init__

    def __init__(self, *args, **kwargs):
        self.__dict__[_PENDING] = (args, kwargs)

    def __getattr__(self, name):  # only called for attributes not found: those __init__ would set
        pending = self.__dict__.pop(_PENDING, None)
        if pending is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        build(self, *pending[0], **pending[1])
        return getattr(self, name)

    cls.__init__ = __init__
    cls.__getattr__ = __getattr__
