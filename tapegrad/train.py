"""``tapegrad.train``: ``Checkpoint``, ``CheckpointManager`` and ``latest_checkpoint`` (TensorFlow's
``tf.train``), on tapegrad's checkpoint format (:mod:`tapegrad.saving`'s ``.npz``), and the
``tf.train.Example`` messages (``Example``, ``Features``, ``Feature``, ``BytesList``, ``FloatList``,
``Int64List``, ``SequenceExample``, ...) that ``tf.io`` parses: :mod:`tapegrad.io`.

A Checkpoint tracks the objects given to it by keyword or assigned to its attributes: Variables,
Modules (their variables by attribute path), optimizers (``iterations`` and slot variables), other
Checkpoints, dataset iterators (their position, see :mod:`tapegrad.data`), lists and dicts of
these (entries by index or key; what is put in them later is tracked too), and anything else with
a ``variables`` attribute. ``save("dir/ckpt")`` writes ``dir/ckpt-1``, ``dir/ckpt-2``, ... and
returns ``"dir/ckpt-1"``, ...: each is two files named as TensorFlow names them, the values
(``ckpt-1.data-00000-of-00001``, tapegrad's ``.npz`` format, not TensorFlow's) and, written last,
the index of their names, shapes and dtypes (``ckpt-1.index``, JSON); the latest is recorded in
``dir/checkpoint`` (TensorFlow's text format), which :func:`latest_checkpoint` reads. (Files named
``ckpt-1.npz``, written by earlier tapegrad versions, are read too.)

A TF1 ``tf.compat.v1.train.Saver`` checkpoint (:mod:`tapegrad.compat._graph`) is read too:
``restore`` then gives each tracked variable the value saved under its name, as TensorFlow's
name-based restore.

Restoration assigns the variables that exist when ``restore`` is called; the other saved values
wait, as TensorFlow defers them, and are assigned when a variable appears under their name: an
optimizer's slot variables when its first ``apply_gradients`` makes them, a Variable assigned to
a checkpoint's attribute or put in a tracked list or dict later. A Keras layer built after the
restore is not: build it first.

>>> import os, tempfile, tapegrad as tf
>>> w = tf.Variable([1.0, 2.0])
>>> ckpt = tf.train.Checkpoint(w=w)
>>> d = tempfile.mkdtemp()
>>> path = ckpt.save(os.path.join(d, "ckpt"))
>>> os.path.basename(path)
'ckpt-1'
>>> _ = w.assign([0.0, 0.0])
>>> ckpt.restore(tf.train.latest_checkpoint(d)).assert_consumed()  # doctest: +ELLIPSIS
<tapegrad.train.CheckpointLoadStatus ...>
>>> w.numpy()
array([1., 2.], dtype=float32)
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import threading
import time
import weakref
import zipfile
from typing import Any

import numpy as np

from . import _graph_api, saving
from ._tensor import Tensor, constant_maker, wrap
from ._variable import Variable
from .io._proto import (BytesList, Example, Feature, FeatureList, FeatureLists, Features, FloatList, Int64List,
                        SequenceExample)
from .errors import NotFoundError, OutOfRangeError
from .ops import math as _m
from .module import Module

__all__ = ["BytesList", "Checkpoint", "CheckpointManager", "CheckpointReader", "ClusterSpec", "Example", "Feature", "FeatureList",
           "FeatureLists", "Features", "FloatList", "Int64List", "SequenceExample", "latest_checkpoint",
           "list_variables", "load_checkpoint", "load_variable", "ExponentialMovingAverage", "CheckpointOptions",
           "CheckpointState", "get_checkpoint_state", "checkpoints_iterator", "Coordinator"]

_STATE_FILE = "checkpoint"
_ATTRIBUTES = "/.ATTRIBUTES/"  # (a saveable's tensors are saved as "<path>/.ATTRIBUTES/<name>")
_STATE_LINE = re.compile(r'^(model_checkpoint_path|all_model_checkpoint_paths): "(.*)"$')


def _saves_tensors(obj: Any) -> bool:
    return hasattr(obj, "_serialize_to_tensors") and hasattr(obj, "_restore_from_tensors")


def _variables_of(obj: Any, prefix: str, out: dict, saveables: dict | None = None) -> None:
    """Put the variables of ``obj`` into ``out`` by name, and (when ``saveables`` is given) the
    objects that save tensors of their own (TensorFlow's ``_serialize_to_tensors``: a dataset
    iterator) into ``saveables`` by path."""
    from .optimizers import Optimizer  # here: module-level, it would break the layering (docs/contributing.md)
    if isinstance(obj, Variable):
        out[prefix] = obj
    elif isinstance(obj, Checkpoint):
        for k, v in obj._named().items():
            out[f"{prefix}/{k}"] = v
        if saveables is not None:
            for k, v in obj._saveables().items():
                saveables[f"{prefix}/{k}"] = v
    elif _saves_tensors(obj):
        if saveables is not None:
            saveables[prefix] = obj
    elif isinstance(obj, (list, tuple)):  # (TF's ListWrapper: entries by index)
        for i, v in enumerate(obj):
            _variables_of(v, f"{prefix}/{i}", out, saveables)
    elif isinstance(obj, dict):  # (TF's _DictWrapper: entries by key)
        for k, v in obj.items():
            if not isinstance(k, str):
                raise ValueError(f"`Checkpoint` tracks a dict's entries by their keys, which must be strings; "
                                 f"{prefix!r} has the key {k!r}.")
            _variables_of(v, f"{prefix}/{_escape_local_name(k)}", out, saveables)
    elif hasattr(obj, "_trackable_children"):  # a Keras layer, a tf.random.Generator: TF's names
        for k, v in obj._trackable_children().items():
            _variables_of(v, f"{prefix}/{k}", out, saveables)
    elif isinstance(obj, Module):
        for k, v in saving.variables_by_name(obj).items():
            out[f"{prefix}/{k}"] = v
        if saveables is not None:  # (a lookup table, an iterator held by the module: by attribute path)
            for path, s in obj._flatten(predicate=_saves_tensors, with_path=True):
                saveables.setdefault(f"{prefix}/{saving._key(path)}", s)
    elif isinstance(obj, Optimizer):  # TensorFlow's names for a Keras 3 optimizer's variables
        for i, v in enumerate(obj.variables):
            name = "_iterations" if v is obj.iterations else \
                "_learning_rate" if v is obj._learning_rate else f"_variables/{i}"
            out[f"{prefix}/{name}"] = v
    elif hasattr(obj, "variables"):
        for i, v in enumerate(obj.variables):
            out[f"{prefix}/variables/{i}"] = v
    else:
        raise ValueError(f"`Checkpoint` was expecting {prefix!r} to be a trackable object (an "
                         "object derived from `Trackable`: a Variable, a Module, an optimizer, a "
                         "Checkpoint, a dataset iterator, or an object with `variables`); got "
                         f"{type(obj).__name__}.")


def _escape_local_name(name: str) -> str:
    """A dict key as TensorFlow writes it in a checkpoint key: ``"."`` as ``".."``, ``"/"`` as ``".S"``."""
    return name.replace(".", "..").replace("/", ".S")


def write_files(prefix: str, arrays: dict, name_based: bool) -> str:
    """Write a checkpoint's two files (values, then the index of their names, shapes and dtypes)
    at ``prefix``, making its folder if need be, and return ``prefix``. ``name_based``: the keys
    are TF1 ``Saver`` names (``"scoped/c"``), not object paths."""
    folder = os.path.dirname(prefix)
    if folder:
        os.makedirs(folder, exist_ok=True)  # (as TensorFlow's save and write)
    saving._write_atomically(prefix + _DATA, lambda f: saving._write_npz(f, arrays))
    index = {"format": _NAME_BASED if name_based else _OBJECT_BASED, "data": os.path.basename(prefix) + _DATA,
             "tensors": {(k if name_based or _ATTRIBUTES in k else k + _SUFFIX):
                         {"shape": list(a.shape), "dtype": "string" if a.dtype.names else a.dtype.name}
                         for k, a in sorted(arrays.items())}}
    saving._write_atomically(prefix + _INDEX, lambda f: f.write(json.dumps(index, indent=1).encode()))
    return prefix


def is_name_based(file: str) -> bool:
    """Whether the checkpoint whose values are in ``file`` was written by a TF1 ``Saver``."""
    index = file[:-len(_DATA)] + _INDEX if file.endswith(_DATA) else None
    try:
        with open(index, encoding="utf-8") as f:  # type: ignore[arg-type]
            return json.load(f).get("format") == _NAME_BASED
    except (OSError, TypeError, ValueError, AttributeError):
        return False


def variable_name(v: Variable) -> str:
    """A variable's name without TensorFlow's ``":0"`` (its key in a TF1 checkpoint)."""
    return v.name[:-2] if v.name.endswith(":0") else v.name


class CheckpointLoadStatus:
    """What :meth:`Checkpoint.restore` returns: which saved values matched which variables."""

    def __init__(self, path: str, unmatched_in_file: Any, unmatched_objects: list) -> None:
        self._path = path
        self._unused = unmatched_in_file  # (a dict whose keys are the values still waiting for a variable)
        self._missing = unmatched_objects

    def assert_consumed(self) -> "CheckpointLoadStatus":
        """Raise AssertionError unless every saved value was restored (by now: a value restored
        later, when its variable was made, counts) and every tracked variable was found in the
        checkpoint."""
        if self._unused:
            raise AssertionError(f"Unresolved values in the checkpoint {self._path!r}: "
                                 f"{sorted(self._unused)} (no tracked variable of that name yet: it is "
                                 "restored when one is made)")
        return self.assert_existing_objects_matched()

    def assert_existing_objects_matched(self) -> "CheckpointLoadStatus":
        """Raise AssertionError unless every tracked variable was found in the checkpoint."""
        if self._missing:
            raise AssertionError(f"Some tracked variables were not found in the checkpoint "
                                 f"{self._path!r}: {self._missing}")
        return self

    def expect_partial(self) -> "CheckpointLoadStatus":
        """Accept a partial match silently (tapegrad never warns about one)."""
        return self

    def run_restore_ops(self, session: Any = None) -> None:
        """Nothing left to run: tapegrad restores when ``restore`` is called (TF1 sessions included)."""

    def initialize_or_restore(self, session: Any = None) -> None:
        """Nothing left to run: the values were assigned by ``restore``."""


class Checkpoint:
    """Saves and restores the variables of the objects given by keyword (see the module doc).

    ``save_counter`` counts the calls to :meth:`save` and is saved with them. As in TensorFlow it
    is made when first needed (by :meth:`save`, :meth:`restore` or reading it), so a checkpoint
    nested in another, or one only written with :meth:`write`, has none.
    """

    def __init__(self, root: Any = None, **kwargs: Any) -> None:
        objects = dict(kwargs)
        if root is not None:
            objects["root"] = root
        objects = {k: _tracked(v, self) for k, v in objects.items()}
        for k, v in objects.items():
            _variables_of(v, k, {})  # (rejects what cannot be tracked now, not at save time)
        self._objects = objects
        self._save_counter: Variable | None = None
        self._waiting: dict = {}  # saved values of the last restore that no variable took yet

    @property
    def save_counter(self) -> Variable:
        """The number of :meth:`save` calls (an int64 Variable, saved with the checkpoint)."""
        if self._save_counter is None:
            self._save_counter = Variable(np.int64(0), trainable=False, name="save_counter")
        return self._save_counter

    def __getattr__(self, name: str) -> Any:
        objects = self.__dict__.get("_objects", {})
        if name in objects:
            return objects[name]
        raise AttributeError(f"'Checkpoint' object has no attribute {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        """``ckpt.name = obj`` tracks ``obj`` as the keyword ``name`` would (lists and dicts keep
        tracking what is put in them later); a value a restore left waiting for it is assigned."""
        if name.startswith("_"):
            object.__setattr__(self, name, value)
            return
        if name == "save_counter":
            raise AttributeError("Checkpoint.save_counter cannot be assigned.")
        value = _tracked(value, self)
        _variables_of(value, name, {})
        self._objects[name] = value
        _restore_waiting()

    def _trackable_children(self) -> dict:
        """The tracked objects by name, and ``save_counter`` (``tf.saved_model.save`` saves them)."""
        return {"save_counter": self.save_counter, **{k: _plain(v) for k, v in self._objects.items()}}

    def _named(self) -> dict:
        out = {} if self._save_counter is None else {"save_counter": self._save_counter}
        for k, v in self._objects.items():
            _variables_of(v, k, out)
        return out

    def _optimizers(self) -> dict:
        """``{path: optimizer}`` of the optimizers tracked here or in nested checkpoints."""
        from .optimizers import Optimizer  # (see _variables_of)
        out: dict = {}
        for k, v in self._objects.items():
            if isinstance(v, Optimizer):
                out[k] = v
            elif isinstance(v, Checkpoint):
                out.update({f"{k}/{p}": o for p, o in v._optimizers().items()})
        return out

    def _saveables(self) -> dict:
        """``{path: object}`` of the tracked objects that save tensors of their own (iterators)."""
        out: dict = {}
        for k, v in self._objects.items():
            _variables_of(v, k, {}, out)
        return out

    def write(self, file_prefix: str, options: Any = None) -> str:
        """Write the checkpoint to ``file_prefix`` (its ``.data-00000-of-00001`` and ``.index`` files,
        making its folder if need be) and return ``file_prefix``."""
        prefix = os.fspath(file_prefix)
        arrays = {k: np.asarray(v.numpy()) for k, v in saving.variables_by_name(self._named()).items()}
        for path, obj in self._saveables().items():  # (each may refuse: before anything is written)
            for name, t in obj._serialize_to_tensors().items():
                arrays[f"{path}{_ATTRIBUTES}{name}"] = saving.encode_strings(np.asarray(t.numpy()))
        return write_files(prefix, arrays, name_based=False)

    def save(self, file_prefix: str, options: Any = None) -> str:
        """Write ``<file_prefix>-<n>`` (``n`` = the new ``save_counter``), record it as the latest
        checkpoint of its folder, and return its path."""
        self.save_counter.assign_add(1)
        path = self.write(f"{os.fspath(file_prefix)}-{int(self.save_counter.numpy())}")
        folder = os.path.dirname(path)
        _write_state(folder, [path])  # (TF's Checkpoint.save records only the newest)
        return path

    def restore(self, save_path: str | None, options: Any = None) -> CheckpointLoadStatus:
        """Assign the saved values to the tracked variables they belong to, and say what matched.

        ``save_path``: a path from :meth:`save`, :meth:`write` or :func:`latest_checkpoint`;
        ``None`` restores nothing. Shapes and dtypes are checked before anything is assigned.
        The ``save_counter`` is made first, so that it is restored too (:meth:`read` does not).
        """
        self.save_counter  # noqa: B018  (made now)
        return self.read(save_path, options)

    def read(self, save_path: str | None, options: Any = None) -> CheckpointLoadStatus:
        """Restore the tracked variables from ``save_path`` (the prefix :meth:`save` returned), as
        :meth:`restore` but without making the ``save_counter`` (for checkpoints from :meth:`write`)."""
        named, saveables = self._named(), self._saveables()
        if save_path is None:
            return CheckpointLoadStatus("None", [], sorted(named) + sorted(saveables))
        path = os.fspath(save_path)
        file = _data_file(path)
        if file is None:
            raise _not_found(path)
        if is_name_based(file):
            return self._read_by_names(path, file, named)
        with zipfile.ZipFile(file) as z:
            entries = saving._entries(z, repr(file))
            keys = set(entries)
            own = {p: {k[len(p) + len(_ATTRIBUTES):]: k for k in keys if k.startswith(p + _ATTRIBUTES)}
                   for p in saveables}
            values = {p: {name: saving._data(z, entries[k], k, repr(file), *saving._header(z, entries[k], k, repr(file)))
                          for name, k in ks.items()} for p, ks in own.items() if ks}
            used = set(named) | {k for ks in own.values() for k in ks.values()}
            later = {k: saving._data(z, entries[k], k, repr(file), *saving._header(z, entries[k], k, repr(file)))
                     for k in keys - used if _ATTRIBUTES not in k}
        present = {k: v for k, v in named.items() if k in keys}
        saving.load_variables(file, present, strict=False)
        for p, tensors in values.items():
            saveables[p]._restore_from_tensors({k: wrap(saving.decode_strings(v)) for k, v in tensors.items()})
        # TF's deferred restoration: a value no variable took yet is assigned when one is made under
        # its name (an optimizer's slots at its first step, an entry put in a tracked list later)
        self._waiting = later
        if later:
            _waiting_checkpoints.add(self)
            for opt in self._optimizers().values():  # (which keeps this checkpoint, and its waiting values, alive)
                opt._deferred_restore = _RestoreWaiting(self)
        else:
            _waiting_checkpoints.discard(self)
        unused = dict.fromkeys(sorted(k for k in keys - used if _ATTRIBUTES in k))  # (iterators of no one)
        return CheckpointLoadStatus(path, _Unused(self._waiting, unused),
                                    sorted(set(named) - keys) + sorted(p for p in saveables if not own[p]))


    def _read_by_names(self, path: str, file: str, named: dict) -> CheckpointLoadStatus:
        """Restore from a TF1 ``Saver`` checkpoint: each tracked variable takes the value saved
        under its own name (``v.name`` without ``":0"``), as TensorFlow's name-based restore."""
        reader = CheckpointReader(file)
        found = {k: v for k, v in named.items() if k != "save_counter" and reader.has_tensor(variable_name(v))}
        values = {k: reader.get_tensor(variable_name(v)) for k, v in found.items()}
        for k, v in found.items():  # (shapes and dtypes checked before anything is assigned)
            if tuple(values[k].shape) != tuple(v.shape) or values[k].dtype != v.dtype.as_numpy_dtype:
                raise ValueError(f"Restoring {k!r} from {variable_name(v)!r} of {path!r}: the saved value has shape "
                                 f"{list(values[k].shape)} and dtype {values[k].dtype}, the variable {v.shape} "
                                 f"and {v.dtype.name}.")
        for k, v in found.items():
            v.assign(values[k])
        # (as TF's NameBasedSaverStatus: values no variable took are no error, a variable not found is)
        return CheckpointLoadStatus(path, {}, sorted(set(named) - set(found) - {"save_counter"}))


class _Unused:
    """The saved values no variable took (yet): the waiting ones, as they are now, and others."""

    def __init__(self, waiting: dict, other: dict) -> None:
        self._waiting, self._other = waiting, other

    def __bool__(self) -> bool:
        return bool(self._waiting or self._other)

    def __iter__(self) -> Any:
        return iter([*self._waiting, *self._other])


_waiting_checkpoints: weakref.WeakSet = weakref.WeakSet()  # checkpoints with values waiting for variables


def _restore_waiting() -> None:
    """Assign the values that restores left waiting to the variables now tracked under their names."""
    for ck in list(_waiting_checkpoints):
        named = ck._named()
        for k in [k for k in ck._waiting if k in named]:
            v, value = named[k], ck._waiting[k]
            if not v.shape.is_compatible_with(value.shape) or value.dtype != v.dtype.as_numpy_dtype:
                raise ValueError(f"Cannot restore {k!r} into the variable now tracked under that name: the "
                                 f"checkpoint has shape {list(value.shape)} and dtype {value.dtype}, the variable "
                                 f"{v.shape} and {v.dtype.name}.")
            v.assign(value)
            del ck._waiting[k]
        if not ck._waiting:
            _waiting_checkpoints.discard(ck)


class _RestoreWaiting:
    """An optimizer's ``_deferred_restore``, called when it has made variables (its slots)."""

    def __init__(self, checkpoint: "Checkpoint") -> None:
        self.checkpoint = checkpoint

    def __call__(self, opt: Any) -> None:
        _restore_waiting()
        if not self.checkpoint._waiting:
            opt._deferred_restore = None


def _tracked(value: Any, owner: "Checkpoint") -> Any:
    """``value`` with its lists and dicts replaced by ones that track what is put in them later
    (each keeps ``owner`` alive: the checkpoint whose restore may have values waiting for them)."""
    if type(value) in (list, _TrackedList):
        out: Any = _TrackedList(_tracked(v, owner) for v in value)
    elif type(value) in (dict, _TrackedDict):
        out = _TrackedDict((k, _tracked(v, owner)) for k, v in value.items())
    else:
        return value
    out._owner = owner
    return out


def _plain(value: Any) -> Any:
    """``value`` with its tracked lists and dicts as plain ones (what other walkers expect)."""
    if isinstance(value, _TrackedList):
        return [_plain(v) for v in value]
    if isinstance(value, _TrackedDict):
        return {k: _plain(v) for k, v in value.items()}
    return value


class _TrackedList(list):
    """A list tracked by a Checkpoint (TensorFlow's ``ListWrapper``): entries put in later are
    checked as trackable and get the values a restore left waiting for them (``_owner``, the
    checkpoint that tracks it, lives as long as it, as TensorFlow's objects keep their pending
    restores)."""

    def append(self, v: Any) -> None:
        list.append(self, _checked(self, v))
        _restore_waiting()

    def extend(self, vs: Any) -> None:
        list.extend(self, [_checked(self, v) for v in vs])
        _restore_waiting()

    def insert(self, i: Any, v: Any) -> None:
        list.insert(self, i, _checked(self, v))
        _restore_waiting()

    def __setitem__(self, i: Any, v: Any) -> None:
        list.__setitem__(self, i, [_checked(self, x) for x in v] if isinstance(i, slice) else _checked(self, v))
        _restore_waiting()

    def __iadd__(self, vs: Any) -> "_TrackedList":
        self.extend(vs)
        return self


class _TrackedDict(dict):
    """A dict tracked by a Checkpoint (TensorFlow's ``_DictWrapper``), as :class:`_TrackedList`."""

    def __setitem__(self, k: Any, v: Any) -> None:
        dict.__setitem__(self, k, _checked(self, v))
        _restore_waiting()

    def update(self, *args: Any, **kwargs: Any) -> None:
        for k, v in dict(*args, **kwargs).items():
            dict.__setitem__(self, k, _checked(self, v))
        _restore_waiting()

    def setdefault(self, k: Any, v: Any = None) -> Any:
        if k not in self:
            self[k] = v
        return self[k]


def _checked(container: Any, v: Any) -> Any:
    v = _tracked(v, container._owner)
    _variables_of(v, "(an entry)", {})
    return v


def _not_found(path: str) -> Exception:
    return NotFoundError(f"Failed to find any matching files for {path} (looked for "
                         f"{path}{_DATA}, written by Checkpoint.save or Checkpoint.write)")


_DATA, _INDEX = ".data-00000-of-00001", ".index"  # (TensorFlow's names for one shard)
_SUFFIX = _ATTRIBUTES + "VARIABLE_VALUE"
_GRAPH = "_CHECKPOINTABLE_OBJECT_GRAPH"
_OBJECT_BASED, _NAME_BASED = "tapegrad checkpoint index 1", "tapegrad name-based checkpoint index 1"


def _data_file(path: str) -> str | None:
    """The file holding the values of the checkpoint ``path`` (a prefix, or one of its files),
    or None when there is none."""
    for suffix in (_INDEX, _DATA, ".npz"):
        if path.endswith(suffix):
            path = path[:-len(suffix)]
            break
    for file in (path + _DATA, path + ".npz"):
        if os.path.exists(file):
            return file
    return None


def _read_state(folder: str) -> tuple[str, list] | None:
    """``(latest path, all paths)`` from the folder's ``checkpoint`` file, or None."""
    try:
        with open(os.path.join(folder, _STATE_FILE), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    return _parse_state(folder, lines)


def _write_state(folder: str, paths: list) -> None:
    rel = [os.path.relpath(p, folder) if folder else p for p in paths]
    text = f'model_checkpoint_path: "{rel[-1]}"\n' + "".join(
        f'all_model_checkpoint_paths: "{p}"\n' for p in rel)
    tmp = os.path.join(folder, _STATE_FILE + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, os.path.join(folder, _STATE_FILE))


def latest_checkpoint(checkpoint_dir: str, latest_filename: str | None = None) -> str | None:
    """The path of the newest checkpoint saved in ``checkpoint_dir``, or None if there is none.

    >>> import tempfile, tapegrad as tf
    >>> tf.train.latest_checkpoint(tempfile.mkdtemp()) is None
    True
    """
    state = _read_state(os.fspath(checkpoint_dir))
    if state is None or _data_file(state[0]) is None:
        return None
    return state[0]


class CheckpointManager:
    """Saves numbered checkpoints into ``directory`` and deletes all but the ``max_to_keep``
    newest (``None``: keeps all). It picks up the checkpoints already recorded there.

    >>> import tempfile, tapegrad as tf
    >>> ckpt = tf.train.Checkpoint(w=tf.Variable(1.0))
    >>> manager = tf.train.CheckpointManager(ckpt, tempfile.mkdtemp(), max_to_keep=2)
    >>> paths = [manager.save() for _ in range(3)]
    >>> [p.rsplit("/", 1)[-1] for p in manager.checkpoints]
    ['ckpt-2', 'ckpt-3']
    """

    def __init__(self, checkpoint: Checkpoint, directory: str, max_to_keep: int | None,
                 keep_checkpoint_every_n_hours: float | None = None, checkpoint_name: str = "ckpt",
                 step_counter: Any = None, checkpoint_interval: int | None = None,
                 init_fn: Any = None) -> None:
        if not isinstance(checkpoint, Checkpoint):
            raise TypeError(f"CheckpointManager needs a tf.train.Checkpoint; got "
                            f"{type(checkpoint).__name__}.")
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError(f"Expected a positive integer or `None` for `max_to_keep`, got "
                             f"{max_to_keep}.")
        if checkpoint_interval is not None and step_counter is None:
            raise ValueError("`step_counter` should be passed if `checkpoint_interval` is not "
                             "None.")
        self._checkpoint = checkpoint
        self._directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._prefix = os.path.join(self._directory, checkpoint_name)
        self._step_counter = step_counter
        self._interval = checkpoint_interval
        self._last_step: int | None = None
        self._init_fn = init_fn
        state = _read_state(self._directory)
        self._paths = [p for p in state[1] if _data_file(p) is not None] if state else []

    @property
    def directory(self) -> str:
        return self._directory

    @property
    def checkpoint(self) -> Checkpoint:
        return self._checkpoint

    @property
    def checkpoints(self) -> list:
        """The managed checkpoints' paths, oldest first."""
        return list(self._paths)

    @property
    def latest_checkpoint(self) -> str | None:
        """The newest managed checkpoint's path, or None."""
        return self._paths[-1] if self._paths else None

    def save(self, checkpoint_number: Any = None, check_interval: bool = True,
             options: Any = None) -> str | None:
        """Save a checkpoint numbered ``checkpoint_number`` (default: the checkpoint's next
        ``save_counter``), delete the oldest beyond ``max_to_keep``, and return its path. With
        ``checkpoint_interval``, returns None without saving until that many steps have passed."""
        if self._interval is not None and check_interval:
            step = int(np.asarray(getattr(self._step_counter, "numpy", lambda: self._step_counter)()))
            if self._last_step is not None and step < self._last_step + self._interval:
                return None
            self._last_step = step
        os.makedirs(self._directory, exist_ok=True)
        counter = self._checkpoint.save_counter
        counter.assign_add(1)
        number = int(counter.numpy()) if checkpoint_number is None else int(
            np.asarray(getattr(checkpoint_number, "numpy", lambda: checkpoint_number)()))
        path = self._checkpoint.write(f"{self._prefix}-{number}")
        self._paths = [p for p in self._paths if p != path] + [path]
        if self._max_to_keep is not None:
            while len(self._paths) > self._max_to_keep:
                old = self._paths.pop(0)
                for suffix in (_INDEX, _DATA, ".npz"):
                    try:
                        os.remove(old + suffix)
                    except FileNotFoundError:
                        pass
        _write_state(self._directory, self._paths)
        return path

    def restore_or_initialize(self) -> str | None:
        """Restore the latest checkpoint and return its path; with none, call ``init_fn`` (if
        given) and return None."""
        if self.latest_checkpoint is not None:
            self._checkpoint.restore(self.latest_checkpoint)
            return self.latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
        return None


# ---- reading a checkpoint without objects (TensorFlow's checkpoint_utils) -------------------------



def _checkpoint_file(ckpt_dir_or_file: Any) -> str:
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        latest = latest_checkpoint(path)
        if latest is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given directory {path}")
        path = latest
    file = _data_file(path)
    if file is None:
        raise _not_found(path)
    return file


class CheckpointReader:
    """The names, shapes, dtypes and values saved in one checkpoint (``tf.train.load_checkpoint``).

    Names are TensorFlow's: the object path then ``/.ATTRIBUTES/VARIABLE_VALUE``; as in TensorFlow,
    ``_CHECKPOINTABLE_OBJECT_GRAPH`` is a string scalar describing the saved objects (tapegrad's
    description: JSON of each value's name, shape and dtype, not TensorFlow's protocol buffer).
    A checkpoint of TF1's ``tf.compat.v1.train.Saver`` has the variables' names (``"scoped/c"``)
    and no object graph.
    """

    def __init__(self, file: str) -> None:
        self._file = file
        with zipfile.ZipFile(file) as z:
            entries = saving._entries(z, repr(file))
            self._name_based = is_name_based(file)
            full = {k: k if self._name_based or _ATTRIBUTES in k else k + _SUFFIX for k in entries}
            self._headers = {full[k]: saving._header(z, info, k, repr(file)) for k, info in entries.items()}
            self._entries = {full[k]: (k, info) for k, info in entries.items()}

    def _key(self, name: str) -> str:
        name = name[:-2] if name.endswith(":0") else name
        if name == _GRAPH and not self._name_based:
            return name
        for key in (name, name + _SUFFIX):
            if key in self._headers:
                return key
        raise NotFoundError(f"Key {name} not found in checkpoint")

    def has_tensor(self, name: str) -> bool:
        """Whether the checkpoint holds a value of that name."""
        try:
            self._key(name)
        except NotFoundError:
            return False
        return True

    def get_tensor(self, name: str) -> np.ndarray:
        """The saved value of that name (``NotFoundError`` if there is none)."""
        key = self._key(name)
        if key == _GRAPH:
            return np.array(json.dumps({k: {"shape": list(h[0]), "dtype": h[2].name}
                                        for k, h in sorted(self._headers.items())}).encode(), object)
        with zipfile.ZipFile(self._file) as z:
            return saving.decode_strings(saving._data(z, self._entries[key][1], key, repr(self._file),
                                                      *self._headers[key]))

    def get_variable_to_shape_map(self) -> dict:
        """``{name: shape as a list}``."""
        return {**({} if self._name_based else {_GRAPH: []}), **{k: list(h[0]) for k, h in self._headers.items()}}

    def get_variable_to_dtype_map(self) -> dict:
        """``{name: tf.DType}``."""
        from .dtypes import as_dtype, string
        return {**({} if self._name_based else {_GRAPH: string}),
                **{k: string if h[2].names else as_dtype(h[2].newbyteorder("=")) for k, h in self._headers.items()}}


def load_checkpoint(ckpt_dir_or_file: Any) -> CheckpointReader:
    """A :class:`CheckpointReader` for a checkpoint path, or the latest one in a directory."""
    return CheckpointReader(_checkpoint_file(ckpt_dir_or_file))


def list_variables(ckpt_dir_or_file: Any) -> list:
    """``[(name, shape), ...]`` of the values saved in a checkpoint, sorted by name.

    >>> import os, tempfile, tapegrad as tf
    >>> path = tf.train.Checkpoint(w=tf.Variable([1.0, 2.0])).write(os.path.join(tempfile.mkdtemp(), "x"))
    >>> tf.train.list_variables(path)
    [('_CHECKPOINTABLE_OBJECT_GRAPH', []), ('w/.ATTRIBUTES/VARIABLE_VALUE', [2])]
    """
    return sorted(load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map().items())


def load_variable(ckpt_dir_or_file: Any, name: str) -> np.ndarray:
    """The value saved under ``name`` (as :func:`list_variables` names it)."""
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


class ClusterSpec:
    """``tf.train.ClusterSpec``: the tasks of a cluster by job, as TensorFlow describes one (a
    dict of job names to lists of ``"host:port"`` addresses, or to dicts of task index to
    address). tapegrad's multi-worker training runs on Dask (docs/distribute.md): a ClusterSpec
    only describes, it starts and reaches nothing.

    >>> import tapegrad as tf
    >>> cs = tf.train.ClusterSpec({"worker": ["localhost:2222", "localhost:2223"]})
    >>> cs.jobs, cs.num_tasks("worker"), cs.task_address("worker", 1)
    (['worker'], 2, 'localhost:2223')
    """

    def __init__(self, cluster: Any) -> None:
        if isinstance(cluster, ClusterSpec):
            cluster = cluster.as_dict()
        if not isinstance(cluster, dict):
            raise TypeError("`cluster` must be a dictionary mapping one or more job names to lists of "
                            "network addresses, or a `ClusterDef` protocol buffer")
        self._jobs: dict = {}
        for job, tasks in cluster.items():
            if isinstance(tasks, (list, tuple)):
                tasks = dict(enumerate(tasks))
            elif not isinstance(tasks, dict):
                raise TypeError(f"The tasks for job {job!r} must be a list or a dictionary from "
                                f"integers to strings, got {type(tasks).__name__}.")
            for i, address in tasks.items():
                if not isinstance(address, (str, bytes)):
                    raise TypeError(f"Task address {address!r} must be bytes or unicode")
                if not isinstance(i, int) or isinstance(i, bool):
                    raise TypeError(f"Task index {i!r} of job {job!r} must be an integer.")
            self._jobs[str(job)] = {i: a.decode() if isinstance(a, bytes) else a for i, a in tasks.items()}

    def __bool__(self) -> bool:
        return bool(self._jobs)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ClusterSpec) and self._jobs == other._jobs

    def __ne__(self, other: Any) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        return f"ClusterSpec({dict(sorted(self.as_dict().items()))!r})"

    __repr__ = __str__

    @property
    def jobs(self) -> list:
        """The job names, in the order given."""
        return list(self._jobs)

    def as_dict(self) -> dict:
        """Job name to the list of addresses (to a dict by task index where indices have gaps)."""
        out = {}
        for job, tasks in self._jobs.items():
            idx = sorted(tasks)
            out[job] = [tasks[i] for i in idx] if idx == list(range(len(idx))) else \
                {i: tasks[i] for i in idx}
        return out

    def _tasks(self, job_name: str) -> dict:
        if job_name not in self._jobs:
            raise ValueError(f"No such job in cluster: {job_name!r}")
        return self._jobs[job_name]

    def num_tasks(self, job_name: str) -> int:
        """How many tasks ``job_name`` has."""
        return len(self._tasks(job_name))

    def task_indices(self, job_name: str) -> list:
        """The task indices of ``job_name``, sorted."""
        return sorted(self._tasks(job_name))

    def task_address(self, job_name: str, task_index: int) -> str:
        """The address of task ``task_index`` of ``job_name``."""
        tasks = self._tasks(job_name)
        if task_index not in tasks:
            raise ValueError(f"No task with index {task_index!r} in job {job_name!r}")
        return tasks[task_index]

    def job_tasks(self, job_name: str) -> list:
        """The addresses of ``job_name`` by task index, ``None`` where an index has no task."""
        tasks = self._tasks(job_name)
        return [tasks.get(i) for i in range(max(tasks) + 1)] if tasks else []


# ---- tf.train.ExponentialMovingAverage ------------------------------------------------------------

_MOVING_AVERAGE_VARIABLES: "weakref.WeakValueDictionary[int, Variable]" = weakref.WeakValueDictionary()
_FLOATS = ("float16", "float32", "float64")


class ExponentialMovingAverage:
    """Keeps moving averages of variables, as ``tf.train.ExponentialMovingAverage``.

    ``apply(var_list)`` makes, on its first sight of each variable, a non-trainable shadow
    variable ``"<name>/<ema name>"`` that starts at the variable's value, and moves every shadow
    toward its variable: ``shadow -= (1 - decay) * (shadow - variable)``. With ``num_updates``
    (a number or a Variable, read at each ``apply``), the decay is
    ``min(decay, (1 + num_updates) / (10 + num_updates))``. As in TensorFlow the decay is a
    float32, whatever the variables' dtype; ``zero_debias`` only concerns tensors, which eager
    code cannot average (TF's TypeError). The shadows are Variables: checkpoint them through
    ``average(var)``. A shadow's name is made unique in the program as TF's are (a second
    shadow of ``w`` under the same name is ``w/<name>_1``). Works inside ``tf.function`` (the
    shadows are made once, at tracing; see docs/differences.md for their first value there).

    >>> import tapegrad as tf
    >>> w = tf.Variable([1.0, 2.0], name="weights")
    >>> ema = tf.train.ExponentialMovingAverage(decay=0.9, name="doc_average")
    >>> ema.apply([w])
    >>> _ = w.assign([3.0, 5.0])
    >>> ema.apply([w])
    >>> ema.average(w).numpy().round(4), ema.average_name(w)
    (array([1.2, 2.3], dtype=float32), 'weights/doc_average')
    """

    def __init__(self, decay: Any, num_updates: Any = None, zero_debias: bool = False,
                 name: str = "ExponentialMovingAverage") -> None:
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = zero_debias
        self._name = name
        self._averages: dict = {}

    @property
    def name(self) -> str:
        """The name of this ExponentialMovingAverage object (the shadows' name suffix)."""
        return self._name

    @constant_maker  # (its constants: the decay and num_updates given as Python numbers)
    def apply(self, var_list: Any = None) -> None:
        """Make the shadows of ``var_list``'s variables not seen before, then update every one
        of them once (returns None, as TensorFlow's eager call)."""
        if var_list is None:
            var_list = []  # (TF's trainable_variables(): no collections when eager)
        var_list = list(var_list)
        for v in var_list:
            if not isinstance(v, Variable):
                raise TypeError("tf.train.ExponentialMovingAverage does not support non-Variable tensors "
                                "when eager execution is enabled.")
        for v in var_list:
            if v.dtype.name not in _FLOATS:
                raise TypeError(f"The variables must be half, float, or double: {v.name}")
            if v.ref() not in self._averages:
                with _graph_api.init_scope():
                    avg = Variable(v.read_value(), trainable=False,
                                   name=_unique_name(_op_name(v) + "/" + self._name, True))
                _MOVING_AVERAGE_VARIABLES[id(v)] = v
                self._averages[v.ref()] = avg
        # (float32, as TF's; Python numbers stay NumPy scalars, so that a trace holds no constant of ours)
        decay = _float32(self._decay)
        if self._num_updates is not None:
            n = _float32(self._num_updates)
            decay = _m.minimum(decay, (1.0 + n) / (10.0 + n)) if isinstance(decay, Tensor) or isinstance(
                n, Tensor) else np.minimum(decay, (np.float32(1) + n) / (np.float32(10) + n))
        one_minus = np.float32(1) - decay if isinstance(decay, np.floating) else 1.0 - decay
        for v in var_list:
            avg = self._averages[v.ref()]
            if isinstance(one_minus, np.floating):
                d: Any = one_minus.astype(avg.dtype.as_numpy_dtype)
            else:
                d = one_minus if avg.dtype.name == "float32" else _m.cast(one_minus, avg.dtype)
            avg.assign_sub((avg - v) * d)
        return None

    def average(self, var: Any) -> Any:   # (a Variable, or None for one not averaged: Any, as TF code reads it unchecked)
        """The shadow variable of ``var``, or None if ``apply`` has not seen it."""
        return self._averages.get(var.ref(), None)

    def average_name(self, var: Any) -> str:
        """The name of ``var``'s shadow variable (without ``:0``), whether or not it exists yet."""
        avg = self._averages.get(var.ref())
        if avg is not None:
            return _op_name(avg)
        return _unique_name(_op_name(var) + "/" + self._name, False)

    def variables_to_restore(self, moving_avg_variables: Any = None) -> dict:
        """``{average_name(v): v}`` for ``moving_avg_variables`` (by default every variable some
        ExponentialMovingAverage has averaged), to restore variables from their averages."""
        if moving_avg_variables is None:
            moving_avg_variables = list(_MOVING_AVERAGE_VARIABLES.values())
        return {self.average_name(v): v for v in moving_avg_variables}


_NAMES_IN_USE: dict = {}  # (the shadows' names, uniquified as TF's default graph names them)


def _unique_name(name: str, mark_as_used: bool) -> str:
    """TF's ``Graph.unique_name``: ``name``, or ``name_1``, ``name_2``, ... once it is taken."""
    key = name.lower()
    i = _NAMES_IN_USE.get(key, 0)
    if mark_as_used:
        _NAMES_IN_USE[key] = i + 1
    if i > 0:
        base = key
        while key in _NAMES_IN_USE:
            key = f"{base}_{i}"
            i += 1
        if mark_as_used:
            _NAMES_IN_USE[key] = 1
        name = f"{name}_{i - 1}"
    return name


def _float32(x: Any) -> Any:
    if isinstance(x, (Tensor, Variable)):
        return _m.cast(x, "float32")
    return np.float32(x)


def _op_name(v: Any) -> str:
    name = v.name
    return name[:-2] if name.endswith(":0") else name


# ---- checkpoint files: options, state, iterator ----------------------------------------------------

class CheckpointOptions:
    """Options for ``Checkpoint.save``/``write``/``restore``, as ``tf.train.CheckpointOptions``
    (tapegrad writes its checkpoints synchronously on the host: the options are kept, not acted on).

    >>> import tapegrad as tf
    >>> tf.train.CheckpointOptions(experimental_io_device="/job:localhost").experimental_io_device
    '/job:localhost'
    """

    def __init__(self, experimental_io_device: str | None = None, experimental_enable_async_checkpoint: bool = False,
                 experimental_write_callbacks: Any = None, enable_async: bool = False,
                 experimental_sharding_callback: Any = None, experimental_skip_slot_variables: bool = False) -> None:
        self.experimental_io_device = experimental_io_device
        self.enable_async = experimental_enable_async_checkpoint or enable_async
        self.experimental_enable_async_checkpoint = self.enable_async
        self.experimental_write_callbacks = experimental_write_callbacks
        self.experimental_sharding_callback = experimental_sharding_callback
        self.experimental_skip_slot_variables = experimental_skip_slot_variables


class CheckpointState:
    """The contents of a folder's ``checkpoint`` file (TF's ``CheckpointState`` message)."""

    def __init__(self, model_checkpoint_path: str = "", all_model_checkpoint_paths: Any = (),
                 all_model_checkpoint_timestamps: Any = (), last_preserved_timestamp: float = 0.0) -> None:
        self.model_checkpoint_path = model_checkpoint_path
        self.all_model_checkpoint_paths = list(all_model_checkpoint_paths)
        self.all_model_checkpoint_timestamps = list(all_model_checkpoint_timestamps)
        self.last_preserved_timestamp = last_preserved_timestamp

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CheckpointState) and vars(self) == vars(other)

    def __str__(self) -> str:
        lines = [f'model_checkpoint_path: "{self.model_checkpoint_path}"']
        lines += [f'all_model_checkpoint_paths: "{p}"' for p in self.all_model_checkpoint_paths]
        return "\n".join(lines) + "\n"

    __repr__ = __str__


def get_checkpoint_state(checkpoint_dir: str, latest_filename: str | None = None) -> Any:   # (a CheckpointState or None; Any: TF code reads it unchecked)
    """The ``CheckpointState`` of ``checkpoint_dir``'s ``checkpoint`` file, or None when it has none
    (relative paths joined to the folder, as TensorFlow does).

    >>> import tempfile, tapegrad as tf
    >>> tf.train.get_checkpoint_state(tempfile.mkdtemp()) is None
    True
    """
    folder = os.fspath(checkpoint_dir)
    if latest_filename not in (None, _STATE_FILE):
        try:
            with open(os.path.join(folder, latest_filename), encoding="utf-8") as f:
                text = f.read()
        except OSError:
            return None
        state = _parse_state(folder, text.splitlines())
    else:
        state = _read_state(folder)
    if state is None:
        return None
    latest, paths = state
    return CheckpointState(latest, paths)


def _parse_state(folder: str, lines: list) -> tuple[str, list] | None:
    latest, paths = None, []
    for line in lines:
        m = _STATE_LINE.match(line.strip())
        if m:
            p = m[2] if os.path.isabs(m[2]) else os.path.join(folder, m[2])
            if m[1] == "model_checkpoint_path":
                latest = p
            else:
                paths.append(p)
    return (latest, paths) if latest else None


def _wait_for_new_checkpoint(checkpoint_dir: str, last: str | None, seconds_to_sleep: float,
                             timeout: float | None) -> str | None:
    stop_time = time.time() + timeout if timeout is not None else None
    while True:
        path = latest_checkpoint(checkpoint_dir)
        if path is not None and path != last:
            return path
        if stop_time is not None and time.time() + seconds_to_sleep > stop_time:
            return None
        time.sleep(seconds_to_sleep)


def checkpoints_iterator(checkpoint_dir: str, min_interval_secs: float = 0, timeout: float | None = None,
                         timeout_fn: Any = None) -> Any:
    """Yield each new checkpoint path of ``checkpoint_dir`` as it appears (the latest first, then
    each newer one), waiting at least ``min_interval_secs`` between yields. It ends when no new
    checkpoint comes within ``timeout`` seconds and ``timeout_fn`` (if given) returns True; with
    no timeout it waits forever.

    >>> import os, tempfile, tapegrad as tf
    >>> d = tempfile.mkdtemp()
    >>> _ = tf.train.Checkpoint(v=tf.Variable(1.0)).save(os.path.join(d, "ckpt"))
    >>> [os.path.basename(p) for p in tf.train.checkpoints_iterator(d, timeout=0)]
    ['ckpt-1']
    """
    path = None
    while True:
        path = _wait_for_new_checkpoint(checkpoint_dir, path, 1.0, timeout)
        if path is None:
            if timeout_fn is None or timeout_fn():
                return
            continue
        start = time.time()
        yield path
        wait = start + min_interval_secs - time.time()
        if wait > 0:
            time.sleep(wait)


# ---- tf.train.Coordinator ---------------------------------------------------------------------------

class Coordinator:
    """Coordinates the stopping of a set of threads, as ``tf.train.Coordinator``: a thread calls
    ``request_stop`` (with the exception it met, if any), the others poll ``should_stop``, and
    ``join`` waits for them and raises the first reported exception. ``OutOfRangeError`` (or
    ``clean_stop_exception_types``) stops cleanly.

    >>> import threading, tapegrad as tf
    >>> coord = tf.train.Coordinator()
    >>> def work():
    ...     with coord.stop_on_exception():
    ...         raise ValueError("done badly")
    >>> t = threading.Thread(target=work); t.start()
    >>> try:
    ...     coord.join([t])
    ... except ValueError as e:
    ...     print(e)
    done badly
    """

    def __init__(self, clean_stop_exception_types: Any = None) -> None:
        if clean_stop_exception_types is None:
            clean_stop_exception_types = (OutOfRangeError,)
        self._clean_stop_exception_types = tuple(clean_stop_exception_types)
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._exc_info_to_raise: Any = None
        self._joined = False
        self._registered_threads: set = set()

    def _filter_exception(self, ex: Any) -> Any:
        ex2 = ex[1] if isinstance(ex, tuple) else ex
        return None if isinstance(ex2, self._clean_stop_exception_types) else ex

    def request_stop(self, ex: Any = None) -> None:
        """Ask the threads to stop; ``ex`` (an exception or ``sys.exc_info()``) is raised by ``join``."""
        with self._lock:
            ex = self._filter_exception(ex)
            if self._joined:
                if isinstance(ex, tuple):
                    raise ex[1]
                if ex is not None:
                    raise ex
            if not self._stop_event.is_set():
                if ex is not None and self._exc_info_to_raise is None:
                    # (TF's: an exception object stands for sys.exc_info(), the one being handled)
                    info = ex if isinstance(ex, tuple) else sys.exc_info()
                    if len(info) != 3 or not info[0] or not info[1]:
                        raise TypeError("Coordinator.request_stop(ex): ex must be a sys.exc_info() tuple, or "
                                        "an exception given while it is being handled (inside its except "
                                        f"block); got {ex!r} outside one.")
                    self._exc_info_to_raise = info
                self._stop_event.set()

    def clear_stop(self) -> None:
        """Forget the stop request and its exception (the coordinator can be used again)."""
        with self._lock:
            self._joined = False
            self._exc_info_to_raise = None
            self._stop_event.clear()

    def should_stop(self) -> bool:
        """Whether a stop was requested."""
        return self._stop_event.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self) -> Any:
        """A block whose exception requests a stop (and is swallowed, for ``join`` to raise)."""
        try:
            yield
        except BaseException:  # noqa: BLE001  (TF's: every exception is reported)
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout: float | None = None) -> bool:
        """Wait until a stop is requested (or ``timeout`` seconds); True if it was."""
        return self._stop_event.wait(timeout)

    def register_thread(self, thread: threading.Thread) -> None:
        """Have ``join`` wait for ``thread`` too."""
        with self._lock:
            self._registered_threads.add(thread)

    def join(self, threads: Any = None, stop_grace_period_secs: float = 120,
             ignore_live_threads: bool = False) -> None:
        """Wait for the threads to end (after a stop request, at most ``stop_grace_period_secs``),
        then raise the reported exception, or a RuntimeError naming the threads still alive."""
        with self._lock:
            threads = list(self._registered_threads if threads is None
                           else self._registered_threads.union(set(threads)))
        while any(t.is_alive() for t in threads) and not self.wait_for_stop(1.0):
            pass
        wait = 0.001
        while any(t.is_alive() for t in threads) and stop_grace_period_secs >= 0.0:
            time.sleep(wait)
            stop_grace_period_secs -= wait
            wait = max(min(2 * wait, stop_grace_period_secs), 0.001)
        stragglers = [t.name for t in threads if t.is_alive()]
        with self._lock:
            self._joined = True
            self._registered_threads = set()
            if self._exc_info_to_raise:
                raise self._exc_info_to_raise[1]
            if stragglers and not ignore_live_threads:
                raise RuntimeError("Coordinator stopped with threads still running: " + " ".join(stragglers))

    @property
    def joined(self) -> bool:
        """Whether ``join`` has run."""
        return self._joined

    def raise_requested_exception(self) -> None:
        """Raise the exception a thread reported, if any."""
        with self._lock:
            if self._exc_info_to_raise:
                raise self._exc_info_to_raise[1]
