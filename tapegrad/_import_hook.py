"""tapegrad standing in for TensorFlow and Keras: an import hook, scoped to one run.

While installed, ``import tensorflow`` gives ``tapegrad``, ``tensorflow.X`` gives ``tapegrad.X``
(``tensorflow.keras.layers``, ``tensorflow.experimental.numpy``, ...), and ``keras``/``tf_keras``
and their submodules give ``tapegrad.keras``'s; ``google.protobuf.text_format`` gives protobuf's
text format for tapegrad's messages (``tf.train.Example``; other messages go to protobuf's own
module), with empty ``google`` and ``google.protobuf`` packages when protobuf is not installed.
Each module is imported only when the program asks for it, so a name tapegrad does not have stays
missing, with tapegrad's own message ("tapegrad does not cover tf.X yet", "did you mean", see
``_missing``), for ``import tensorflow.X`` and ``from tensorflow import X`` alike.

The hook is a ``sys.meta_path`` finder of this process only: it writes nothing to disk (no
``.pth`` file, no site-packages change), other processes never see it, and uninstalling it puts
back the modules a real TensorFlow or Keras had imported before. ``python -m tapegrad script.py``
(``tapegrad/__main__.py``) runs a program under it; :func:`install_as_tensorflow` installs it in
a running interpreter (a notebook).
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import threading
from types import ModuleType
from typing import Any

ALIASES = (("tensorflow", "tapegrad"), ("tf_keras", "tapegrad.keras"), ("keras", "tapegrad.keras"))
"""``(alias, real)``: the alias and every ``alias.X`` import ``real`` and ``real.X``."""


def _mapped(fullname: str) -> str | None:
    for alias, real in ALIASES:
        if fullname == alias or fullname.startswith(alias + "."):
            return real + fullname[len(alias):]
    return None


TEXT_FORMAT = ("google.protobuf.text_format", "tapegrad.io._text_format")
"""protobuf's text format, for tapegrad's ``tf.train.Example`` messages (it hands other messages to
protobuf's own module); ``google`` and ``google.protobuf`` are empty packages if not installed."""


STAND_INS = {"tensorflow.compiler.tf2xla.python.xla": "tapegrad._xla"}
"""TensorFlow modules outside its public API that programs import, and tapegrad's module for each
(their parent packages are empty stand-ins)."""
_STAND_IN_PARENTS = {p for name in STAND_INS for p in
                     (name.rsplit(".", k)[0] for k in range(1, name.count(".")))
                     if p != "tensorflow"}


def _aliased(name: str) -> bool:
    return _mapped(name) is not None or name == TEXT_FORMAT[0] or name in ("google", "google.protobuf") and \
        vars(sys.modules.get(name, sys)).get("__tapegrad_stand_in__", False)


class _EmptyPackageLoader(importlib.abc.Loader):
    """An empty package standing in for one that is not installed (``google.protobuf``)."""

    def exec_module(self, module: ModuleType) -> None:
        module.__tapegrad_stand_in__ = True  # type: ignore[attr-defined]


def _missing_error(fullname: str, cls: type = ModuleNotFoundError) -> ImportError | None:
    """The ImportError for a module ``parent.name`` that does not exist, with the message of
    ``getattr(parent, name)`` (tapegrad's "not covered yet" or "did you mean"); None when the
    parent has the attribute or is not imported."""
    parent, _, name = fullname.rpartition(".")
    module = sys.modules.get(parent)
    if module is None:
        return None
    try:
        getattr(module, name)
    except AttributeError as e:
        return cls(str(e), name=None)
    return None


class _AliasLoader(importlib.abc.Loader):
    """Loads an alias as the real module itself (one module object under two names)."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.real_spec: Any = None

    def create_module(self, spec: Any) -> ModuleType:
        module = importlib.import_module(self.target)
        self.real_spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:  # the import system set the alias's spec: undo
        module.__spec__ = self.real_spec


class _Finder(importlib.abc.MetaPathFinder):
    """Finds ``tensorflow``/``keras``/``tf_keras`` (and submodules) as tapegrad's modules."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        mapped = _mapped(fullname)
        if fullname == TEXT_FORMAT[0]:
            return importlib.machinery.ModuleSpec(fullname, _AliasLoader(TEXT_FORMAT[1]))
        if fullname in STAND_INS:
            return importlib.machinery.ModuleSpec(fullname, _AliasLoader(STAND_INS[fullname]))
        if fullname in _STAND_IN_PARENTS:
            return importlib.machinery.ModuleSpec(fullname, _EmptyPackageLoader(), is_package=True)
        if fullname in ("google", "google.protobuf"):
            if importlib.machinery.PathFinder.find_spec(fullname, path) is not None:
                return None
            return importlib.machinery.ModuleSpec(fullname, _EmptyPackageLoader(), is_package=True)
        if mapped is None:
            if fullname.startswith("tapegrad.") and "." in fullname:
                return self._missing_tapegrad_module(fullname, path)
            return None
        if importlib.util.find_spec(mapped) is None:
            err = _missing_error(mapped)
            if err is not None:
                raise err
            return None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(mapped))

    @staticmethod
    def _missing_tapegrad_module(fullname: str, path: Any) -> None:
        """``from tensorflow import X`` with X missing: Python then imports ``tapegrad.X`` as a
        submodule; a module that does not exist raises tapegrad's message for X (Python's own,
        "cannot import name", would drop it)."""
        if importlib.machinery.PathFinder.find_spec(fullname, path) is not None:
            return None
        err = _missing_error(fullname, ImportError)
        if err is not None:
            raise err
        return None


_lock = threading.Lock()
_installed: list = []  # the active installs, innermost last


class TensorFlowAlias:
    """An installed import hook (see :func:`install_as_tensorflow`): ``uninstall()`` it, or use
    it as a context manager."""

    def __init__(self) -> None:
        self._finder = _Finder()
        self._saved: dict = {}
        self.installed = False

    def _install(self) -> TensorFlowAlias:
        with _lock:
            self._saved = {k: v for k, v in sys.modules.items() if _aliased(k)}
            for k, module in self._saved.items():
                del sys.modules[k]
                parent, _, child = k.rpartition(".")  # (`from google.protobuf import text_format` imports again)
                if vars(sys.modules.get(parent, sys)).get(child) is module:
                    delattr(sys.modules[parent], child)
            sys.meta_path.insert(0, self._finder)
            _installed.append(self)
            self.installed = True
        return self

    def uninstall(self) -> None:
        """Remove the hook and the aliases it made, and put back the modules it set aside (a real
        TensorFlow imported before). Calling it again does nothing."""
        with _lock:
            if not self.installed:
                return
            self.installed = False
            if self._finder in sys.meta_path:
                sys.meta_path.remove(self._finder)
            _installed.remove(self)
            if not _installed:  # (an outer install keeps its aliases)
                for k in [k for k in sys.modules if _aliased(k)]:
                    del sys.modules[k]
            sys.modules.update(self._saved)
            for k, module in self._saved.items():  # (an import under the hook set the parent's attribute)
                parent, _, child = k.rpartition(".")
                if parent in sys.modules:
                    setattr(sys.modules[parent], child, module)

    def __enter__(self) -> TensorFlowAlias:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.uninstall()

    def __repr__(self) -> str:
        return f"<tapegrad standing in for {', '.join(a for a, _ in ALIASES)}: " + \
            ("installed>" if self.installed else "uninstalled>")


def install_as_tensorflow() -> TensorFlowAlias:
    """Make ``import tensorflow``, ``import keras`` and ``import tf_keras`` (and their submodules:
    ``tensorflow.keras.layers``, ``keras.ops``, ...) give tapegrad's modules in this process, so
    that unmodified TensorFlow and Keras code runs on tapegrad — in a notebook, say. What was
    already imported under those names (a real TensorFlow) is set aside until
    :meth:`TensorFlowAlias.uninstall`. Nothing is written to disk and other processes are not
    affected; from a shell, ``python -m tapegrad script.py`` does the same for one program.

    >>> import tapegrad
    >>> with tapegrad.install_as_tensorflow():
    ...     import tensorflow as tf
    ...     import keras
    ...     print(tf is tapegrad, keras.layers.Dense is tapegrad.keras.layers.Dense)
    True True
    >>> "tensorflow" in __import__("sys").modules   # gone again
    False
    """
    return TensorFlowAlias()._install()
