"""The data of ``fit``, ``evaluate`` and ``predict``: batches from arrays (x, y, sample_weight)
or from an iterable of batches (a Dataset, a PyDataset), class weights as sample weights, the
epoch's steps (Keras 3's epoch iterator) and ``validation_split``."""
from __future__ import annotations

import itertools
import math
import types
import warnings
from typing import Any, Iterable

import numpy as np

from ... import random as _random
from .._engine import convert_to_tensor
from .._engine import Tensor, wrap
from .._engine import Variable
from .. import backend
from ...data import Dataset
from ...sparse._sparse_tensor import SparseTensor
from .._data_utils import PyDataset, _PyDatasetPass, check_batch_size
from .._tree import flatten, map_structure
from ..utils import pack_x_y_sample_weight, unpack_x_y_sample_weight


def _class_weights(y: Any, class_weight: dict) -> np.ndarray:
    """Keras's sample weights for ``class_weight``: a class per row (argmax of one-hot rows,
    else the rounded label), weighted by ``class_weight.get(class, 1.0)``."""
    y = np.asarray(_to_numpy(y))
    if y.ndim > 1:
        y = np.argmax(y, axis=-1) if y.shape[-1] != 1 else np.squeeze(y, axis=-1)
    labels = np.round(y).astype(np.int32)
    return np.array([class_weight.get(int(c), 1.0) for c in labels], dtype=backend.floatx())


def _dataset_class_weights(y: Any, class_weight: dict) -> Tensor:
    """Keras 3.15's sample weights for ``class_weight`` on a ``tf.data.Dataset``'s batch: a class
    per entry of ``y`` without its last axis (argmax over it, or the rounded label when it has
    size 1; the rounded label of a vector), gathered from ``class_weight`` (1.0 for a class
    below its largest that it lacks): per pixel for a segmentation mask, where arrays refuse a
    target of rank 3 or more. A class beyond the largest fails as Keras's ``tf.gather``."""
    from ...ops.indexing import gather

    y = np.asarray(_to_numpy(y))
    if y.ndim >= 2:
        y = np.argmax(y, axis=-1) if y.shape[-1] > 1 else np.round(np.squeeze(y, axis=-1))
    else:
        y = np.round(y)
    table = convert_to_tensor([class_weight.get(int(c), 1.0) for c in range(max(class_weight) + 1)])
    return gather(table, y.astype(np.int32))


def _batches_of(arrays: list, size: int) -> int:
    return int(math.ceil(len(arrays[0]) / size)) if arrays else 0


def _is_arraylike(x: Any) -> bool:
    return isinstance(x, (np.ndarray, Tensor, Variable, list, tuple, dict, SparseTensor)) or hasattr(x, "__array__")


def _to_numpy(x: Any) -> Any:  # (a SparseTensor stays one: its batches are SparseTensors, as in Keras)
    # (a None entry stays None: the target of an output without a loss)
    return map_structure(lambda a: a if a is None or type(a) is SparseTensor else a.numpy()
                         if hasattr(a, "numpy") else np.asarray(a), x)


def _floatx(x: Any) -> Any:
    """NumPy arrays of a float dtype other than ``floatx()`` cast to it, as Keras 3's array
    adapter casts fit's, evaluate's and predict's array inputs (float64 data trains in float32)."""
    fx = np.dtype(backend.floatx())
    return map_structure(lambda a: a.astype(fx) if a is not None and type(a) is not SparseTensor
                         and a.dtype.kind == "f" and a.dtype != fx else a, x)


def _num_rows(x: Any) -> int:
    first = next((a for a in flatten(x) if a is not None), None)
    if first is None:
        raise ValueError("The data holds no array (every entry is None).")
    return int(first.dense_shape[0]) if type(first) is SparseTensor else len(first)


def _take(x: Any, idx: np.ndarray) -> Any:
    return map_structure(lambda a: None if a is None else _take_rows(a, idx) if type(a) is SparseTensor
                         else a[idx], x)


def _take_rows(sp: SparseTensor, idx: np.ndarray) -> SparseTensor:
    """Rows ``idx`` of a SparseTensor, in that order (each row's entries in their order)."""
    ind, vals = np.asarray(sp.indices.numpy()), np.asarray(sp.values.numpy())
    order = np.argsort(ind[:, 0], kind="stable")
    rows = ind[order, 0]
    idx = np.asarray(idx, np.int64)
    starts, ends = np.searchsorted(rows, idx, "left"), np.searchsorted(rows, idx, "right")
    pick = np.concatenate([order[s:e] for s, e in zip(starts, ends)] + [np.zeros(0, np.int64)])
    out = ind[pick].copy()
    out[:, 0] = np.repeat(np.arange(len(idx)), ends - starts)
    shape = np.asarray(sp.dense_shape.numpy()).copy()
    shape[0] = len(idx)
    return SparseTensor(out, vals[pick], shape)


class _Data:
    """Batches from arrays (x, y, sample_weight) or from an iterable of batches (a Dataset)."""

    def __init__(self, x: Any, y: Any = None, sample_weight: Any = None, batch_size: int | None = None,
                 steps: int | None = None, shuffle: bool = False, class_weight: dict | None = None) -> None:
        self.steps, self.class_weight = steps, class_weight
        self._it: Any = None  # with ``steps``: the pass that goes on across epochs
        self._seen = 0
        # the last epoch ended by asking data of unknown length for a batch it did not have (Keras
        # then begins a step on the missing batch, which fails in the step: see Trainer.fit)
        self.ran_out, self.ran_out_step = False, 0
        if class_weight is not None:
            if sample_weight is not None:
                raise ValueError("You cannot `class_weight` and `sample_weight` at the same time.")
            if isinstance(y, (list, tuple, dict)) and len(flatten(y)) > 1:
                raise ValueError("`class_weight` is only supported for Models with a single output.")
            if not isinstance(class_weight, dict):
                raise ValueError("`class_weight` must be a dict {class index: weight}; received "
                                 f"a {type(class_weight).__name__}.")
        if isinstance(x, PyDataset):
            x = _PyDatasetPass(x, shuffle)
        if x is not None and not _is_arraylike(x) and isinstance(x, Iterable):
            kind = "PyDataset" if isinstance(x, _PyDatasetPass) else \
                "tf.data.Dataset" if hasattr(x, "element_spec") else "generator"
            for arg, what, given in (("y", "the targets", y), ("sample_weights", "the sample weights",
                                                                 sample_weight)):
                if given is not None:   # (Keras's raise_unsupported_arg)
                    raise ValueError(f"When providing `x` as a {kind}, `{arg}` should not be passed. "
                                     f"Instead, {what} should be included as part of the {kind}.")
            self.iterable, self.arrays = x, None
            try:
                self._known: int | None = len(x)
            except TypeError:
                self._known = None
            # (Keras reads a dataset of unknown cardinality or a generator until the step fails
            # on the missing batch; other iterables are tapegrad's, read in Python to their end)
            self._ends_in_step = self._known is None and isinstance(x, (Dataset, types.GeneratorType))
            self.size = self._known if steps is None else steps
            return
        self.iterable, self._ends_in_step = None, False
        x = _floatx(_to_numpy(x))
        y = None if y is None else _floatx(_to_numpy(y))
        sw = None if sample_weight is None else _floatx(_to_numpy(sample_weight))
        if class_weight is not None and y is not None:
            sw = _class_weights(y, class_weight)
        n = _num_rows(x)
        for what, v in (("y", y), ("sample_weight", sw)):
            if v is not None and _num_rows(v) != n:
                raise ValueError(f"Data cardinality is ambiguous: x sizes: {n}, {what} sizes: "
                                 f"{_num_rows(v)}. Make sure all arrays contain the same number of "
                                 "samples.")
        self.arrays, self.n, self.shuffle = (x, y, sw), n, shuffle
        # (Keras's array adapter: without a batch size, ``steps`` batches make one pass)
        self.batch_size = check_batch_size(batch_size) or (int(math.ceil(n / steps)) if steps else 32)
        self._known = int(math.ceil(n / self.batch_size))
        self.size = self._known if steps is None else steps

    def prime(self) -> None:
        """What Keras 3's TensorFlow trainer does before ``fit`` and ``evaluate`` of a model made
        under a ``tf.distribute`` strategy (its ``_maybe_symbolic_build``): read one batch of a
        new pass, then start afresh. A dataset makes one iterator more, so a reshuffling
        dataset's orders move on by one (array data: TensorFlow's orders are unchanged)."""
        if isinstance(self.iterable, Dataset):
            for _ in self._pass():
                break

    def executions(self, per_execution: int = 1) -> Iterable:
        """One epoch as Keras 3's epoch iterator gives it: ``(first step, last step, batches)`` per
        execution of up to ``per_execution`` steps (``compile(steps_per_execution=...)``), each
        taking batches while the data lasts (even past ``steps``). Without ``steps``, a whole
        pass; with ``steps``, executions from a pass that goes on across epochs (a new pass once
        the last one ran out), warning when the data runs out. The epoch iterator counts
        ``per_execution`` steps for each execution, the one that found no batch included."""
        self.ran_out = False
        if self.steps is None:
            it, step = self._pass(), 0
            while True:
                batches = list(itertools.islice(it, per_execution))
                if not batches:
                    break
                yield step, step + per_execution - 1, batches
                step += per_execution
                if len(batches) < per_execution:
                    break
            if self._known is None:
                self.ran_out, self.ran_out_step = self._ends_in_step, step
            elif isinstance(self.iterable, Dataset):
                # Keras 3's epoch iterator makes the dataset's next iterator as soon as an epoch of
                # known size completes, and makes another when the next epoch starts: a
                # reshuffling dataset moves on by one order in between
                iter(self.iterable)
            return
        if self._it is None:
            self._it, self._seen = self._pass(), 0
        for step in range(0, self.steps, per_execution):
            if self._known is not None and self._seen >= self._known:
                _ran_out()
                break
            self._seen += per_execution
            batches = list(itertools.islice(self._it, per_execution))
            if not batches:   # (the execution that found no batch: its callbacks heard of it)
                if self._known is None:
                    self._known = self._seen
                self.ran_out, self.ran_out_step = self._ends_in_step, step
                _ran_out()
                self._it = None
                return
            yield step, step + per_execution - 1, batches
        if self._known is not None and self._seen >= self._known:
            self._it = None

    def _pass(self) -> Iterable:
        """One pass over the data; the batches' arrays as tensors, as Keras gives train_step."""
        if self.iterable is not None:
            for batch in self.iterable:
                if self.class_weight is not None:
                    bx, by, bsw = unpack_x_y_sample_weight(batch)
                    if by is not None:
                        if bsw is not None:
                            raise ValueError("You cannot `class_weight` and `sample_weight` at the same time.")
                        weigh = _dataset_class_weights if isinstance(self.iterable, Dataset) else _class_weights
                        batch = bx, by, weigh(by, self.class_weight)
                yield map_structure(_as_tensor, batch)  # as the dataset gives it: train_step unpacks it
            return
        x, y, sw = self.arrays
        # Keras 3 (TF backend) permutes with tf.random.shuffle inside a tf.data function
        order = _random.fit_batch_permutation(self.n, self.batch_size) if self.shuffle == "batch" \
            else _random.fit_permutation(self.n) if self.shuffle else np.arange(self.n)
        for i in range(self._known):
            idx = order[i * self.batch_size:(i + 1) * self.batch_size]
            yield map_structure(_as_tensor, pack_x_y_sample_weight(
                _take(x, idx), None if y is None else _take(y, idx), None if sw is None else _take(sw, idx)))


def _as_tensor(v: Any) -> Any:
    if type(v) is np.ndarray and v.dtype.kind in "biufc":  # (made for this batch: not copied)
        v.flags.writeable = False
        return wrap(v)
    return v if v is None or isinstance(v, (Tensor, SparseTensor)) else convert_to_tensor(v)


def _ran_out() -> None:
    warnings.warn("Your input ran out of data; interrupting training. Make sure that your dataset or "
                  "generator can generate at least `steps_per_epoch * epochs` batches. You may need "
                  "to use the `.repeat()` function when building your dataset.", stacklevel=4)


def _split(x: Any, y: Any, sw: Any, fraction: float) -> tuple:
    if not _is_arraylike(x):
        raise ValueError("`validation_split` is only supported for NumPy arrays and tensors, not for "
                         f"a {type(x).__name__}; pass `validation_data` instead.")
    x, y = _to_numpy(x), None if y is None else _to_numpy(y)
    n = _num_rows(x)
    at = int(math.floor(n * (1.0 - fraction)))
    if at == 0 or at == n:
        raise ValueError(f"Training data contains {n} samples, which is not sufficient to split it "
                         f"into a validation and training set as specified by "
                         f"`validation_split={fraction}`.")
    cut = lambda v, s: None if v is None else map_structure(lambda a: a[s], v)  # noqa: E731
    sw = None if sw is None else np.asarray(sw)
    return ((cut(x, slice(0, at)), cut(y, slice(0, at)), None if sw is None else sw[:at]),
            (cut(x, slice(at, None)), cut(y, slice(at, None)), None if sw is None else sw[at:]))
