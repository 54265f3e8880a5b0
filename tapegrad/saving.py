"""Save Variables to a NumPy ``.npz`` file and restore them, without pickle.

What can be saved: a :class:`~tapegrad.Module` (its variables are keyed by attribute path,
``"layers/0/w"``), a dict of Variables (keyed by the dict's keys), or a list or tuple of
Variables (keyed by their names without the ``":0"`` suffix, which must then be unique). An
optimizer's state can be saved the same way: ``save_variables(path, opt.variables)``.

Loading checks every name, shape and dtype before it assigns anything, so a failed load leaves
the variables as they were.

>>> import io, tapegrad as tf
>>> w, b = tf.Variable([[1.0, 2.0]], name="w"), tf.Variable([0.5], name="b")
>>> buf = io.BytesIO()
>>> tf.saving.save_variables(buf, [w, b])
>>> _ = w.assign([[0.0, 0.0]])
>>> _ = buf.seek(0)
>>> tf.saving.load_variables(buf, [w, b])
>>> w.numpy()
array([[1., 2.]], dtype=float32)
"""
from __future__ import annotations

import os
import zipfile
from typing import Any, BinaryIO, Union

import numpy as np

from ._core import Variable
from .module import Module, _is_variable

__all__ = ["save_variables", "load_variables", "variables_by_name"]

PathLike = Union[str, "os.PathLike[str]", BinaryIO]


def _key(path: tuple) -> str:
    return "/".join(str(p) for p in path)


def variables_by_name(variables: Any) -> dict[str, Variable]:
    """The ``{key: Variable}`` mapping that :func:`save_variables` writes for ``variables``.

    >>> import tapegrad as tf
    >>> m = tf.Module()
    >>> m.layers = [tf.Variable(1.0), tf.Variable(2.0)]
    >>> list(tf.saving.variables_by_name(m))
    ['layers/0', 'layers/1']
    """
    if isinstance(variables, Variable):
        variables = [variables]
    out: dict[str, Variable] = {}
    if isinstance(variables, Module):
        seen: set = set()
        for path, v in variables._flatten(predicate=_is_variable, with_path=True):
            if id(v) not in seen:  # a variable reachable by several paths keeps its first
                seen.add(id(v))
                out[_key(path)] = v
        return out
    if isinstance(variables, dict):
        items = list(variables.items())
        for k, _ in items:
            if not isinstance(k, str):
                raise TypeError(f"Variable dict keys must be strings; got {k!r}.")
    elif isinstance(variables, (list, tuple)):
        items = []
        for v in variables:
            name = getattr(v, "name", "")
            items.append((name[:-2] if name.endswith(":0") else name, v))
        names = [k for k, _ in items]
        dups = sorted({n for n in names if names.count(n) > 1})
        if dups:
            raise ValueError(f"Several variables are named {dups}; names must be unique to save "
                             "a list. Give the variables distinct names (tf.Variable(..., "
                             "name='w1')), or pass a dict {name: variable} or a Module.")
    else:
        raise TypeError("Expected a Module, a dict of Variables or a list of Variables; got "
                        f"{type(variables).__name__}.")
    for k, v in items:
        if not isinstance(v, Variable):
            raise TypeError(f"Entry {k!r} is a {type(v).__name__}, not a tf.Variable; only "
                            "Variables can be saved and restored.")
        out[k] = v
    return out


def save_variables(file: PathLike, variables: Any) -> None:
    """Write the values of ``variables`` to ``file`` in NumPy's ``.npz`` format (no pickle).

    ``variables``: a Module, a dict ``{name: Variable}``, or a list of uniquely named Variables.
    ``file``: a path (NumPy adds ``.npz`` when the name has no such suffix) or a binary file.
    Read the file back with :func:`load_variables`, or with ``np.load`` in any program.
    """
    named = variables_by_name(variables)
    arrays = {k: np.asarray(v.numpy()) for k, v in named.items()}
    if isinstance(file, (str, os.PathLike)):
        file = os.fspath(file)
        if not file.endswith(".npz"):
            file += ".npz"
    np.savez(file, **arrays)


def load_variables(file: PathLike, variables: Any, strict: bool = True) -> None:
    """Assign the values saved in ``file`` to ``variables`` (as in :func:`save_variables`).

    Every variable must have an entry of the same shape and dtype; with ``strict`` (the
    default), every entry in the file must belong to a variable too. Nothing is assigned unless
    all checks pass. Raises ``ValueError`` naming the missing, unexpected or mismatched entries.
    """
    named = variables_by_name(variables)
    if isinstance(file, (str, os.PathLike)):
        file = os.fspath(file)
        if not os.path.exists(file) and os.path.exists(file + ".npz"):
            file += ".npz"
    try:
        data = np.load(file, allow_pickle=False)
        if not hasattr(data, "files"):
            raise ValueError("it holds a single array, not named arrays")
        with data:
            stored = {k: data[k] for k in data.files}
        bad = [k for k, a in stored.items() if not isinstance(a, np.ndarray)]
        if bad:   # NpzFile hands back the raw bytes of a member that is not an .npy payload
            raise ValueError(f"the entries {bad} are not NumPy arrays")
    except (ValueError, OSError, zipfile.BadZipFile, EOFError) as e:
        detail = f": {e}" if str(e) else ""
        raise ValueError(f"{file!r} is not a readable .npz file of saved variables{detail}") from None
    problems = []
    missing = [k for k in named if k not in stored]
    if missing:
        problems.append(f"missing from the file: {missing}")
    extra = [k for k in stored if k not in named]
    if extra and strict:
        problems.append(f"in the file but not among the variables: {extra} (pass strict=False "
                        "to ignore them)")
    for k, v in named.items():
        if k not in stored:
            continue
        a = stored[k]
        if tuple(a.shape) != tuple(v.shape):
            problems.append(f"{k!r}: the file has shape {list(a.shape)}, the variable has shape "
                            f"{list(v.shape)}")
        elif a.dtype != v.dtype.as_numpy_dtype:
            problems.append(f"{k!r}: the file has dtype {a.dtype}, the variable has dtype "
                            f"{v.dtype.name}")
    if problems:
        raise ValueError("Cannot restore the variables; nothing was assigned:\n  "
                         + "\n  ".join(problems))
    for k, v in named.items():
        v.assign(stored[k])
