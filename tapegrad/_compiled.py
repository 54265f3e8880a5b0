"""Which of tapegrad's modules run compiled, and the guard that keeps a stale build from running.

When ``pip install`` finds Cython and a C compiler, ``setup.py`` compiles the modules in
``MODULES`` from their unchanged ``.py`` sources; the ``.py`` files stay the source of truth and the
fallback. This module is never compiled. ``tapegrad/__init__.py`` calls :func:`install` before it
imports any of them, and for each one the ``.py`` source is used instead of the compiled module when

* ``TAPEGRAD_PURE=1`` is set in the environment, or
* the source changed after the module was compiled: ``setup.py`` records each compiled source's
  checksum in the generated ``_build_info.txt``, compared here at import (a RuntimeWarning names
  the file; ``pip install -e .`` again recompiles it).

Otherwise Python's own import picks the compiled module when there is one. :func:`status` tells
which is in use and why. Compiled functions have no Python frames: code that looks up the stack
walks past tapegrad's frames instead of counting them (:func:`warn_outside` for warnings).
"""
from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Any

# The modules setup.py compiles (the one list): module name -> source, relative to this folder.
MODULES = {
    "tapegrad._core": "_core.py",
    "tapegrad._tape": "_tape.py",
    "tapegrad.ops.math": "ops/math.py",
    "tapegrad.ops": "ops/__init__.py",
}

_HERE = os.path.dirname(os.path.abspath(__file__))
_TRUE = ("1", "true", "yes", "on")
_forced: dict[str, str] = {}  # module -> why it is loaded from its .py source
_installed = False


def source_path(name: str) -> str:
    return os.path.join(_HERE, *MODULES[name].split("/"))


def checksum(path: str) -> str:
    """A checksum of a source file and of its Cython declarations (``.pxd``) if it has them
    (CRC-32 and size: cheap to import and to compute)."""
    import zlib
    with open(path, "rb") as f:
        data = f.read()
    pxd = path[:-3] + ".pxd"
    if os.path.exists(pxd):
        with open(pxd, "rb") as f:
            data += f.read()
    return f"crc32:{zlib.crc32(data):08x}:{len(data)}"


def extension_path(name: str) -> str | None:
    """The compiled module that Python's import would pick for ``name``, if there is one."""
    stem = source_path(name)[:-3]
    for suffix in EXTENSION_SUFFIXES:
        if os.path.exists(stem + suffix):
            return stem + suffix
    return None


BUILD_INFO = os.path.join(_HERE, "_build_info.txt")  # written by setup.py, not in git


def _recorded() -> dict[str, str]:
    """The build record: module name -> checksum of the source it was compiled from (and the
    build settings that setup.py compares before it compiles again)."""
    try:
        with open(BUILD_INFO, encoding="utf-8") as f:
            return dict(line.split() for line in f if line.strip() and not line.startswith("#"))
    except (OSError, ValueError):
        return {}


class _SourceFinder:
    """Finds the ``.py`` source of the modules in ``_forced``, ahead of their compiled versions."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name not in _forced:
            return None
        from importlib.util import spec_from_file_location
        src = source_path(name)
        package = [os.path.dirname(src)] if src.endswith("__init__.py") else None
        return spec_from_file_location(name, src, submodule_search_locations=package)


def install() -> None:
    """Decide, once, which compiled modules must not be used, before any of them is imported."""
    global _installed
    if _installed:
        return
    _installed = True
    if os.environ.get("TAPEGRAD_PURE", "").strip().lower() in _TRUE:
        _forced.update(dict.fromkeys(MODULES, "TAPEGRAD_PURE is set"))
    else:
        recorded = None
        for name, rel in MODULES.items():
            if extension_path(name) is None:
                continue  # not built: the normal import finds the .py source
            if recorded is None:
                recorded = _recorded()
            want = recorded.get(name)
            if want is None:
                _forced[name] = f"tapegrad/{rel} has a compiled module but no build record"
            elif checksum(source_path(name)) != want:
                _forced[name] = f"tapegrad/{rel} changed after it was compiled"
        if _forced:
            warn_outside("; ".join(_forced.values()) + ": using the pure-Python source instead "
                         "(slower). Run `pip install -e .` again to recompile.", RuntimeWarning)
    if _forced:
        sys.meta_path.insert(0, _SourceFinder())


_INSIDE = (_HERE + os.sep, os.path.dirname(os.path.realpath(__file__)) + os.sep, "<frozen importlib")


def warn_outside(message: str, category: type = UserWarning) -> None:
    """Warn at the first frame outside tapegrad (and the import machinery): the user's line.

    For warnings raised in compiled modules, where ``stacklevel`` cannot work (their functions
    have no frames, so a fixed count lands too far up). Python's default filter shows it once per
    call site. It also escapes tapegrad's own filter, which silences RuntimeWarnings raised from
    its modules.
    """
    import warnings
    f: Any = sys._getframe(1)
    while f is not None and f.f_code.co_filename.startswith(_INSIDE):
        f = f.f_back
    if f is None:
        warnings.warn(message, category, stacklevel=2)
        return
    g = f.f_globals
    warnings.warn_explicit(message, category, f.f_code.co_filename, f.f_lineno,
                           module=g.get("__name__", "tapegrad"),
                           registry=g.setdefault("__warningregistry__", {}))


def status() -> dict[str, str]:
    """For each compilable module: ``"compiled"``, or ``"pure: <why>"``.

    >>> import tapegrad
    >>> sorted(tapegrad._compiled.status())
    ['tapegrad._core', 'tapegrad._tape', 'tapegrad.ops', 'tapegrad.ops.math']
    """
    out = {}
    for name in MODULES:
        mod = sys.modules.get(name)
        file = getattr(mod, "__file__", None) or ""
        if mod is not None and file.endswith(tuple(EXTENSION_SUFFIXES)):
            out[name] = "compiled"
        elif name in _forced:
            out[name] = "pure: " + _forced[name]
        elif mod is None:
            out[name] = "pure: not imported yet"
        else:
            out[name] = "pure: not compiled"
    return out


def summary() -> str:
    """One line for reports, e.g. ``"compiled (4 of 4 modules)"`` or ``"pure Python (...)"``.

    >>> import tapegrad
    >>> tapegrad._compiled.summary().startswith(("compiled", "pure Python", "partly compiled"))
    True
    """
    st = status()
    n = sum(v == "compiled" for v in st.values())
    if n == len(st):
        return f"compiled ({n} of {n} modules, Cython)"
    why = sorted({v[len("pure: "):] for v in st.values() if v != "compiled"})
    if n == 0:
        return f"pure Python ({'; '.join(why)})"
    return f"partly compiled ({n} of {len(st)} modules; the others: {'; '.join(why)})"
