"""``keras.Model``, ``keras.Sequential`` and the functional API (``keras.Input``, ``InputLayer``),
with Keras 3's training loop: ``compile``, ``fit``, ``evaluate``, ``predict`` and the
``*_on_batch`` methods.

A functional model replays the nodes recorded when layers were called on ``keras.Input``
tensors, in the order they were recorded. The training step is a ``GradientTape`` around the
forward pass and the loss; the logged loss is the running mean over the epoch's batches,
weighted by batch size, as Keras reports it.
"""
from __future__ import annotations

import importlib
import math
import os
import warnings
from typing import Any, Callable, Iterable

import numpy as np

from .. import random as _random
from .._convert import convert_to_tensor
from .._tape import GradientTape
from .._tensor import Tensor, wrap
from .._variable import Variable
from .._warn import warn_outside
from ..distribute import _strategy as _distribute
from ..ops.array import expand_dims, squeeze
from ..ops.math import add_n, cast
from ..ops.reduction import reduce_sum
from ..optimizers.loss_scale import LossScaleOptimizer
from ..saving import load_variables, save_variables
from . import backend
from . import callbacks as callbacks_module
from . import optimizers as optimizers_module
from ._data_utils import PyDataset, _PyDatasetPass
from ._distributed import Replicas, StrategyRef, uses_replicas
from ._layer import (
    KerasTensor,
    Layer,
    Node,
    auto_config,
    flatten,
    map_structure,
    name_scope,
    shapes_to_specs,
)
from .losses import _same_rank, _scale_for_replicas, _unscale_for_replicas
from .utils import pack_x_y_sample_weight, unpack_x_y_sample_weight

__all__ = ["Model", "Sequential", "Input", "InputLayer"]


# ---- functional API ------------------------------------------------------------------------------

class InputLayer(Layer):
    """The layer behind ``keras.Input``: it holds the symbolic input of a functional model."""

    def __init__(self, shape: Any = None, batch_size: int | None = None, dtype: Any = None,
                 sparse: Any = None, batch_shape: Any = None, input_tensor: Any = None,
                 optional: bool = False, name: str | None = None, ragged: bool = False,
                 **kwargs: Any) -> None:
        if "input_shape" in kwargs:
            shape = kwargs.pop("input_shape")
        if "batch_input_shape" in kwargs:
            batch_shape = kwargs.pop("batch_input_shape")
        super().__init__(name=name, dtype=dtype, **kwargs)
        if sparse:
            raise ValueError("tapegrad has no sparse tensors: InputLayer(sparse=True) is not supported.")
        if ragged:
            raise ValueError("tapegrad has no ragged tensors: InputLayer(ragged=True) is not supported.")
        if shape is not None and batch_shape is not None:
            raise ValueError("You cannot pass both `shape` and `batch_shape` at the same time.")
        if shape is None and batch_shape is None and input_tensor is None:
            raise ValueError("You must pass a `shape` argument.")
        if input_tensor is not None:
            batch_shape = input_tensor.shape
        elif batch_shape is None:
            shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
            batch_shape = (batch_size,) + shape
        self.batch_shape = tuple(batch_shape)
        self.optional = optional
        self.built = True
        out = KerasTensor(self.batch_shape, self.dtype, name=self.name)
        out._node = Node(self, (), {}, out)

    def call(self, inputs: Any) -> Any:
        return inputs

    def get_config(self) -> dict:
        return {"batch_shape": self.batch_shape, "dtype": self.dtype, "sparse": False,
                "ragged": False, "name": self.name, "optional": self.optional}


def Input(shape: Any = None, batch_size: int | None = None, dtype: Any = None, sparse: Any = None,
          batch_shape: Any = None, name: str | None = None, tensor: Any = None,
          optional: bool = False) -> KerasTensor:
    """A symbolic input of a functional model: ``keras.Input(shape)`` leaves out the batch axis.

    >>> from tapegrad import keras
    >>> x = keras.Input((3,))
    >>> x.shape, x.dtype
    ((None, 3), 'float32')
    """
    return InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, sparse=sparse,
                      batch_shape=batch_shape, input_tensor=tensor, optional=optional,
                      name=name).output


def _nodes_between(inputs: list, outputs: list) -> list:
    """The nodes that make ``outputs``, in recording order; every path must start at ``inputs``."""
    found: dict[int, Node] = {}
    stack = [t._node for t in outputs]
    input_ids = {id(t) for t in inputs}
    while stack:
        node = stack.pop()
        if id(node) in found:
            continue
        found[id(node)] = node
        if isinstance(node.layer, InputLayer):
            if id(node.outputs) not in input_ids:
                raise ValueError(f"Graph disconnected: cannot find the value of the tensor "
                                 f"{node.outputs!r} (from keras.Input {node.layer.name!r}), which "
                                 "the outputs need but the model's `inputs` do not include.")
            continue
        stack.extend(node.parents)
    return sorted(found.values(), key=lambda n: n.order)


def _layers_by_depth(inputs: list, outputs: list) -> list:
    """The layers in Keras's order: deepest first (a layer's depth is its deepest node's, counted
    from the outputs), layers of one depth in the order a depth-first walk from the outputs
    first meets them."""
    order: dict = {}
    finished: list = []
    done: set = set()
    input_ids = {id(t) for t in inputs}

    def visit(t: KerasTensor) -> None:
        node = t._node
        if id(node) in done:
            return
        order.setdefault(node.layer, len(order))
        if not isinstance(node.layer, InputLayer) and id(t) not in input_ids:
            for parent in flatten((node.args, node.kwargs)):
                if isinstance(parent, KerasTensor):
                    visit(parent)
        done.add(id(node))
        finished.append(node)
    for t in outputs:
        visit(t)
    node_depth: dict = {}
    layer_depth: dict = {}
    for node in reversed(finished):
        depth = max(node_depth.setdefault(id(node), 0), layer_depth.get(node.layer, 0))
        layer_depth[node.layer] = node_depth[id(node)] = depth
        for parent in node.parents:
            node_depth[id(parent)] = max(depth + 1, node_depth.get(id(parent), 0))
    return sorted(order, key=lambda layer: (-layer_depth[layer], order[layer]))


class _Mean:
    """A weighted running mean (the loss tracker, and metrics given as plain functions)."""

    def __init__(self, name: str, fn: Callable | None = None) -> None:
        self.name, self.fn = name, fn
        self.total, self.count = 0.0, 0.0

    def reset_state(self) -> None:
        self.total, self.count = 0.0, 0.0

    def update_state(self, value: Any, y_pred: Any = None, sample_weight: Any = None) -> None:
        if self.fn is not None:  # update_state(y_true, y_pred, sample_weight)
            v = np.asarray(convert_to_tensor(self.fn(value, y_pred)).numpy(), np.float64)
            w = np.ones_like(v) if sample_weight is None else np.broadcast_to(
                np.asarray(sample_weight, np.float64).reshape(
                    np.shape(sample_weight) + (1,) * (v.ndim - np.ndim(sample_weight))), v.shape)
            self.total += float(np.sum(v * w))
            self.count += float(np.sum(w))
        else:  # update_state(values, sample_weight=batch_size): the weighted mean of the entries
            v = np.asarray(np.asarray(value), np.float32).astype(np.float64)
            w = np.broadcast_to(np.asarray(1.0 if sample_weight is None else np.asarray(sample_weight),
                                           np.float64), v.shape)
            self.total += float(np.sum(v * w))
            self.count += float(np.sum(w))

    def result(self) -> float:
        return self.total / self.count if self.count else 0.0


class _CompileMetrics:
    """Keras 3's ``compile_metrics``: the metrics given to ``compile`` as one entry of
    ``model.metrics``, built on the first batch; its result is ``{name: value}`` for each (named
    after the output when there are several; duplicates renamed as Keras does)."""

    name = "compile_metrics"

    def __init__(self, model: Model) -> None:
        self._model = model
        self._entries: list | None = None  # [(output index, metric, weighted, output name)]

    @property
    def metrics(self) -> list:
        return [m for _, m, *_ in self._entries or []]

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        if self._entries is None:
            self._entries = self._model._build_metrics(y_true, y_pred)
        ys, ps = flatten(y_true), flatten(y_pred)
        sws = self._model._per_output(sample_weight, len(ps), "sample_weight") if isinstance(
            sample_weight, (list, tuple, dict)) else [sample_weight] * len(ps)
        for i, m, weighted, _ in self._entries:  # `metrics` take no sample weights
            m.update_state(ys[i], ps[i], sample_weight=sws[i] if weighted else None)

    def reset_state(self) -> None:
        for m in self.metrics:
            m.reset_state()

    def result(self) -> dict:
        out: dict = {}
        seen: dict = {}
        for _, m, weighted, prefix in self._entries or []:
            r = m.result()
            if isinstance(r, dict):
                out.update(r)
                continue
            name = m.name if not prefix else f"{prefix}_{m.name}"
            if name in seen:
                if weighted:
                    name = f"weighted_{m.name}" if not prefix else f"{prefix}_weighted_{m.name}"
                if name in seen:
                    seen[name] += 1
                    name = f"{name}_{seen[name] - 1}"
            seen.setdefault(name, 1)
            out[name] = r
        return out


class _CompiledMetrics:
    """What Keras 3 keeps of Keras 2's ``model.compiled_metrics``."""

    def __init__(self, model: Model) -> None:
        self._model = model

    def update_state(self, y: Any, y_pred: Any, sample_weight: Any = None) -> None:
        """Update every metric in ``model.metrics``; as Keras 3, a mean (the loss tracker) gets
        ``y_pred`` as its values."""
        warn_outside("`model.compiled_metrics()` is deprecated. Instead, use e.g.:\n"
                     "for metric in self.metrics:\n    metric.update_state(y, y_pred)")
        means = (_Mean, _keras_module("metrics").Mean)
        for m in self._model.metrics:
            if isinstance(m, means):
                m.update_state(y_pred, sample_weight=sample_weight)
            else:
                m.update_state(y, y_pred, sample_weight=sample_weight)


def _shapes_of(tensors: list) -> Any:
    shapes = [t.shape for t in tensors]
    return shapes[0] if len(shapes) == 1 else shapes


def _adjust_rank(x: Tensor, ref: KerasTensor, model: str) -> Tensor:
    """Keras 3's ``_adjust_input_rank``: an input one axis short of the model's ``Input`` whose
    last axis is 1 gains that axis; one with an extra trailing axis of 1 loses it."""
    rank, want = x.shape.rank, len(ref.shape)
    if rank == want:
        return x
    if rank == want + 1 and x.shape[-1] == 1:
        return squeeze(x, -1)
    if rank == want - 1 and ref.shape[-1] == 1:
        return expand_dims(x, -1)
    raise ValueError(f"Invalid input shape for input {ref.name!r} of model {model!r}: expected "
                     f"shape {ref.shape}, but the input has the incompatible shape "
                     f"{tuple(x.shape)} (rank {rank}; only a trailing axis of length 1 is added "
                     "or dropped). Reshape the data to the model's input shape.")


def _keras_module(name: str) -> Any:
    return importlib.import_module(f".{name}", __package__)


def _loss_fn(identifier: Any) -> Callable:
    if identifier is None:
        return None
    if isinstance(identifier, (str, dict)):
        return _keras_module("losses").get(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret loss identifier: {identifier!r} "
                     f"(a {type(identifier).__name__}); expected a name, a loss object or a function.")


def _binary_or_sparse(y_true: Any, y_pred: Any) -> tuple[bool, bool]:
    """Keras's reading of targets and outputs for "accuracy" and "crossentropy"."""
    t, p = tuple(np.shape(y_true)), tuple(y_pred.shape)
    return p[-1] == 1, len(t) < len(p) or t[-1] == 1 and p[-1] > 1


def _resolve_loss(identifier: Any, y_true: Any, y_pred: Any) -> Callable:
    if isinstance(identifier, str) and identifier.lower() in ("crossentropy", "ce"):
        binary, sparse = _binary_or_sparse(y_true, y_pred)
        losses = _keras_module("losses")
        return (losses.binary_crossentropy if binary else losses.sparse_categorical_crossentropy
                if sparse else losses.categorical_crossentropy)
    return _loss_fn(identifier)


def _loss_name(identifier: Any, fn: Callable) -> str:
    if isinstance(identifier, str):
        return identifier
    return getattr(fn, "name", None) or getattr(fn, "__name__", type(fn).__name__)


def _class_weights(y: Any, class_weight: dict) -> np.ndarray:
    """Keras's sample weights for ``class_weight``: a class per row (argmax of one-hot rows,
    else the rounded label), weighted by ``class_weight.get(class, 1.0)``."""
    y = np.asarray(_to_numpy(y))
    if y.ndim > 1:
        y = np.argmax(y, axis=-1) if y.shape[-1] != 1 else np.squeeze(y, axis=-1)
    labels = np.round(y).astype(np.int32)
    return np.array([class_weight.get(int(c), 1.0) for c in labels], dtype=backend.floatx())


def _call_loss(fn: Callable, y_true: Any, y_pred: Any, sample_weight: Any) -> Tensor:
    """A loss object reduces itself; a plain function's per-sample values are averaged as Keras's
    ``sum_over_batch_size`` does (weighted sum over the number of entries)."""
    y_true = convert_to_tensor(y_true)
    if y_true.dtype.is_floating and y_true.dtype != y_pred.dtype:
        y_true = cast(y_true, y_pred.dtype)
    if hasattr(fn, "reduction") or hasattr(fn, "get_config") and not hasattr(fn, "__code__"):
        return fn(y_true, y_pred, sample_weight=sample_weight)
    y_true, y_pred = _same_rank(y_true, y_pred)   # as Keras's LossFunctionWrapper: (n,) labels, (n, 1) outputs
    values = convert_to_tensor(fn(y_true, y_pred))
    if sample_weight is not None:
        values, sw = _same_rank(values, cast(convert_to_tensor(sample_weight), values.dtype))
        while sw.shape.rank < values.shape.rank:
            sw = expand_dims(sw, -1)
        values = values * sw
    n = max(1, int(np.prod(values.shape)))
    return _scale_for_replicas(reduce_sum(values) / np.asarray(n, values.dtype.name))


def _batches_of(arrays: list, size: int) -> int:
    return int(math.ceil(len(arrays[0]) / size)) if arrays else 0


def _is_arraylike(x: Any) -> bool:
    return isinstance(x, (np.ndarray, Tensor, Variable, list, tuple, dict)) or hasattr(x, "__array__")


def _to_numpy(x: Any) -> Any:
    return map_structure(lambda a: a.numpy() if hasattr(a, "numpy") else np.asarray(a), x)


def _num_rows(x: Any) -> int:
    return len(flatten(x)[0])


def _take(x: Any, idx: np.ndarray) -> Any:
    return map_structure(lambda a: a[idx], x)


class _Data:
    """Batches from arrays (x, y, sample_weight) or from an iterable of batches (a Dataset)."""

    def __init__(self, x: Any, y: Any = None, sample_weight: Any = None, batch_size: int | None = None,
                 steps: int | None = None, shuffle: bool = False, class_weight: dict | None = None) -> None:
        self.steps, self.class_weight = steps, class_weight
        self._it: Any = None  # with ``steps``: the pass that goes on across epochs
        self._seen = 0
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
            if y is not None:
                raise ValueError("`y` argument is not supported when using a dataset or a generator "
                                 "as input: the batches carry the targets.")
            self.iterable, self.arrays = x, None
            try:
                self._known: int | None = len(x)
            except TypeError:
                self._known = None
            self.size = self._known if steps is None else steps
            return
        self.iterable = None
        x = _to_numpy(x)
        y = None if y is None else _to_numpy(y)
        sw = None if sample_weight is None else _to_numpy(sample_weight)
        if class_weight is not None and y is not None:
            sw = _class_weights(y, class_weight)
        n = _num_rows(x)
        for what, v in (("y", y), ("sample_weight", sw)):
            if v is not None and _num_rows(v) != n:
                raise ValueError(f"Data cardinality is ambiguous: x sizes: {n}, {what} sizes: "
                                 f"{_num_rows(v)}. Make sure all arrays contain the same number of "
                                 "samples.")
        self.arrays, self.n, self.shuffle = (x, y, sw), n, shuffle
        self.batch_size = 32 if batch_size is None else int(batch_size)
        self._known = int(math.ceil(n / self.batch_size))
        self.size = self._known if steps is None else steps

    def __iter__(self) -> Iterable:
        """One epoch's batches, as Keras 3's epoch iterator gives them: a whole pass without
        ``steps``; with ``steps``, the next ``steps`` batches of a pass that goes on across
        epochs (a new pass starts once the last one ran out), warning when the data runs out."""
        if self.steps is None:
            yield from self._pass()
            return
        if self._it is None:
            self._it, self._seen = self._pass(), 0
        for _ in range(self.steps):
            if self._known is not None and self._seen >= self._known:
                _ran_out()
                break
            try:
                batch = next(self._it)
            except StopIteration:
                if self._known is None:
                    self._known = self._seen
                _ran_out()
                self._it = None
                return
            self._seen += 1
            yield batch
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
                        batch = bx, by, _class_weights(by, self.class_weight)
                yield map_structure(_as_tensor, batch)  # as the dataset gives it: train_step unpacks it
            return
        x, y, sw = self.arrays
        # Keras 3 (TF backend) permutes with tf.random.shuffle inside a tf.data function
        order = _random.fit_permutation(self.n) if self.shuffle else np.arange(self.n)
        for i in range(self._known):
            idx = order[i * self.batch_size:(i + 1) * self.batch_size]
            yield map_structure(_as_tensor, pack_x_y_sample_weight(
                _take(x, idx), None if y is None else _take(y, idx), None if sw is None else _take(sw, idx)))


def _as_tensor(v: Any) -> Any:
    if type(v) is np.ndarray and v.dtype.kind in "biufc":  # (made for this batch: not copied)
        v.flags.writeable = False
        return wrap(v)
    return v if v is None or isinstance(v, Tensor) else convert_to_tensor(v)


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


# ---- Model ---------------------------------------------------------------------------------------

class Model(Layer):
    """A layer with a training loop: subclass it, or build it from ``keras.Input`` tensors.

    Functional: ``keras.Model(inputs, outputs)`` with the tensors of layers called on
    ``keras.Input``; several inputs and outputs and shared layers are fine. Subclassed: create
    layers in ``__init__`` and use them in ``call(inputs, training=None)``.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> inputs = keras.Input((2,))
    >>> hidden = keras.layers.Dense(4, activation="relu")(inputs)
    >>> model = keras.Model(inputs, keras.layers.Dense(1)(hidden))
    >>> model.compile(optimizer=keras.optimizers.SGD(0.1), loss=lambda y, p: (y - p) ** 2)
    >>> x = np.random.rand(16, 2).astype("float32")
    >>> history = model.fit(x, x.sum(1, keepdims=True), epochs=2, verbose=0)
    >>> list(history.history), len(history.history["loss"])
    (['loss'], 2)
    """

    _string_inputs = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if args or "inputs" in kwargs or "outputs" in kwargs:
            inputs = args[0] if args else kwargs.pop("inputs")
            outputs = args[1] if len(args) > 1 else kwargs.pop("outputs")
            self._init_functional(inputs, outputs, **kwargs)
        else:
            super().__init__(**kwargs)
            self._functional = False
        self.optimizer: Any = None
        self.stop_training = False
        self.history: Any = None
        self.compiled = False
        # Keras: a model created under strategy.scope() trains on that strategy
        self._strategy_ref = StrategyRef(_distribute.get_strategy() if _distribute.has_strategy() else None)

    def _init_functional(self, inputs: Any, outputs: Any, name: str | None = None,
                         trainable: bool = True, **kwargs: Any) -> None:
        if name is None:
            name = backend.unique_name("functional")
        super().__init__(name=name, trainable=trainable, **kwargs)
        for what, v in (("inputs", inputs), ("outputs", outputs)):
            bad = [t for t in flatten(v) if not isinstance(t, KerasTensor)]
            if bad:
                raise ValueError(f"All `{what}` of a functional model must be KerasTensors (from "
                                 f"keras.Input and layers called on them); received {bad[0]!r}.")
        self._functional = True
        self._inputs_struct, self._outputs_struct = inputs, outputs
        self.inputs, self.outputs = flatten(inputs), flatten(outputs)
        self._nodes = _nodes_between(self.inputs, self.outputs)
        layers = _layers_by_depth(self.inputs, self.outputs)
        self._layers_list = layers
        self.built = True

    # -- structure --------------------------------------------------------------------------------

    @property
    def input(self) -> Any:
        """A functional model's inputs as given to ``keras.Model`` (a tensor, list or dict)."""
        if self.__dict__.get("_functional"):
            return self._inputs_struct
        return super().input

    @property
    def output(self) -> Any:
        """A functional model's outputs as given to ``keras.Model``."""
        if self.__dict__.get("_functional"):
            return self._outputs_struct
        return super().output

    @property
    def input_shape(self) -> Any:
        """The shape of the input (a list of shapes for several), batch axis ``None``."""
        return _shapes_of(self._graph_ends("inputs"))

    @property
    def output_shape(self) -> Any:
        """The shape of the output (a list of shapes for several)."""
        return _shapes_of(self._graph_ends("outputs"))

    def _graph_ends(self, what: str) -> list:
        if not self.__dict__.get("_functional"):
            raise AttributeError(f"Model {self.name!r} ({type(self).__name__}) has no {what}: only "
                                 "a functional or Sequential model has a symbolic graph.")
        return self.__dict__[what]

    @property
    def layers(self) -> list:
        """The model's layers (for a functional model, its InputLayers first)."""
        if self.__dict__.get("_functional"):
            return list(self._layers_list)
        return list(self._sublayers())

    def get_layer(self, name: str | None = None, index: int | None = None) -> Layer:
        """A layer by name or by index in :attr:`layers`."""
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model only has "
                                 f"{len(self.layers)} layers.")
            return self.layers[index]
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: {[l.name for l in self.layers]}.")

    def call(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:
        if not self.__dict__.get("_functional"):
            raise NotImplementedError(f"Model {type(self).__name__} has no `call()`: subclass "
                                      "keras.Model and define call(self, inputs, training=None), or "
                                      "build a functional model with keras.Model(inputs, outputs).")
        given = flatten(inputs) if not isinstance(inputs, dict) else [
            inputs[t.name] if t.name in inputs else None for t in self.inputs]
        if isinstance(inputs, dict) and any(v is None for v in given):
            missing = [t.name for t, v in zip(self.inputs, given) if v is None]
            raise ValueError(f"Missing data for input(s) {missing} of model {self.name!r}; the dict "
                             f"has keys {sorted(inputs)}.")
        if len(given) != len(self.inputs):
            raise ValueError(f"Model {self.name!r} expects {len(self.inputs)} input(s), but it "
                             f"received {len(given)} input tensors.")
        values: dict[int, Any] = {}
        for t, v in zip(self.inputs, given):
            v = convert_to_tensor(v.numpy() if isinstance(v, Variable) else v)
            if v.dtype.name != t.dtype and (v.dtype.is_floating or t.dtype.startswith("float")):
                v = cast(v, t.dtype)
            values[id(t)] = _adjust_rank(v, t, self.name)
        for node in self._nodes:
            if isinstance(node.layer, InputLayer):
                continue

            def value(x: Any) -> Any:
                return values[id(x)] if isinstance(x, KerasTensor) else x
            out = node.layer(*map_structure(value, node.args), **map_structure(value, node.kwargs))
            for t, v in zip(flatten(node.outputs), flatten(out)):
                values[id(t)] = v
        return map_structure(lambda t: values[id(t)], self._outputs_struct)

    def build(self, input_shape: Any = None) -> None:
        """Create the weights by running ``call`` on zeros of ``input_shape`` (a subclassed model)."""
        was_built, self.built = self.built, True
        if input_shape is not None and not was_built and not self.__dict__.get("_functional"):
            self.__dict__["_build_input_shape"] = input_shape
            self.compute_output_spec(shapes_to_specs(input_shape))

    # -- summary ----------------------------------------------------------------------------------

    def _summary_rows(self) -> list:
        rows = []
        if self.__dict__.get("_functional"):
            for layer in self.layers:
                nodes = [n for n in self._nodes if n.layer is layer]
                shape = (layer.batch_shape if isinstance(layer, InputLayer)
                         else nodes[0].outputs.shape if nodes and isinstance(nodes[0].outputs, KerasTensor)
                         else [t.shape for t in flatten(nodes[0].outputs)] if nodes else "?")
                parents = []
                for n in nodes:
                    for t in flatten((n.args, n.kwargs)):
                        if isinstance(t, KerasTensor):
                            parents.append(f"{t._node.layer.name}[0][{t._index}]")
                rows.append((layer, shape, parents or ["-"]))
            return rows
        shapes = self.__dict__.get("_output_shapes", {})
        for layer in self.layers:
            rows.append((layer, shapes.get(id(layer), "?"), None))
        return rows

    def summary(self, line_length: int | None = None, positions: Any = None,
                print_fn: Callable | None = None, expand_nested: bool = False,
                show_trainable: bool = False, layer_range: Any = None) -> None:
        """Print a table of the layers (name and type, output shape, parameters) and the totals."""
        print_fn = print_fn or print
        rows = self._summary_rows()
        functional = self.__dict__.get("_functional")
        header = ["Layer (type)", "Output Shape", "Param #"] + (["Connected to"] if functional else [])
        body = []
        for layer, shape, parents in rows:
            n = layer.count_params() if layer.built else 0
            shape_s = str(tuple(shape)) if isinstance(shape, tuple) else str(shape)
            cells = [f"{layer.name} ({type(layer).__name__})", shape_s, f"{n:,}" if layer.built else "0 (unbuilt)"]
            if functional:
                cells.append(", ".join(parents))
            body.append(cells)
        widths = [max([len(header[i])] + [len(r[i]) for r in body]) + 1 for i in range(len(header))]

        def line(left: str, mid: str, right: str, fill: str) -> str:
            return left + mid.join(fill * (w + 1) for w in widths) + right

        def row(cells: list, bar: str) -> str:
            out = []
            for i, (c, w) in enumerate(zip(cells, widths)):
                out.append(" " + (c.rjust(w - 1) + " " if i == 2 else c.ljust(w)))
            return bar + bar.join(out) + bar
        lines = [f'Model: "{self.name}"', line("┏", "┳", "┓", "━"), row(header, "┃"),
                 line("┡", "╇", "┩", "━")]
        for i, cells in enumerate(body):
            lines.append(row(cells, "│"))
            lines.append(line("├", "┼", "┤", "─") if i < len(body) - 1 else line("└", "┴", "┘", "─"))
        if not body:
            lines.append(line("└", "┴", "┘", "─"))

        def size(ws: list) -> str:
            count = int(sum(int(np.prod(v.shape)) for v in ws))
            nbytes = float(sum(int(np.prod(v.shape)) * v.dtype.size for v in ws))
            unit = "B"
            for u in ("KB", "MB", "GB"):
                if nbytes < 1024:
                    break
                nbytes, unit = nbytes / 1024, u
            return f"{count:,} ({nbytes:.2f} {unit})"
        lines += [f" Total params: {size(self.weights)}",
                  f" Trainable params: {size(self.trainable_weights)}",
                  f" Non-trainable params: {size(self.non_trainable_weights)}"]
        if self.optimizer is not None and self.optimizer.variables:
            lines.insert(-2, f" Optimizer params: {size(list(self.optimizer.variables))}")
        for text in lines:
            print_fn(text)

    # -- weights on disk --------------------------------------------------------------------------

    def _weights_by_key(self) -> dict:
        return {f"{i:04d}_{v.name.split(':')[0]}": v for i, v in enumerate(self.weights)}

    def save_weights(self, filepath: Any, overwrite: bool = True) -> None:
        """Write the weights to ``filepath`` in tapegrad's checkpoint format (an ``.npz`` zip of
        ``.npy`` arrays, ``tapegrad.saving``), whatever the suffix (``.weights.h5`` is accepted)."""
        path = os.fspath(filepath)
        if not overwrite and os.path.exists(path):
            raise FileExistsError(f"{path!r} exists and overwrite=False.")
        save_variables(path + ".npz" if not path.endswith(".npz") else path, self._weights_by_key())
        if not path.endswith(".npz"):
            os.replace(path + ".npz", path)

    def load_weights(self, filepath: Any, skip_mismatch: bool = False) -> None:
        """Read weights written by :meth:`save_weights` (same layers, same order)."""
        load_variables(os.fspath(filepath), self._weights_by_key(), strict=not skip_mismatch)

    # -- compile ----------------------------------------------------------------------------------

    def compile(self, optimizer: Any = "rmsprop", loss: Any = None, loss_weights: Any = None,
                metrics: Any = None, weighted_metrics: Any = None, run_eagerly: bool = False,
                steps_per_execution: int = 1, jit_compile: Any = "auto",
                auto_scale_loss: bool = True) -> None:
        """Set the optimizer (a name or an optimizer), the loss (a name, a loss object or a
        function ``fn(y_true, y_pred)``; a list or dict for several outputs) and the metrics."""
        self.optimizer = optimizers_module.get(optimizer)
        if auto_scale_loss and self.dtype_policy.name == "mixed_float16" and self.optimizer is not None \
                and not isinstance(self.optimizer, LossScaleOptimizer):  # (as Keras 3)
            self.optimizer = LossScaleOptimizer(self.optimizer, name="loss_scale_optimizer")
        for ident in flatten(loss) if isinstance(loss, (list, tuple, dict)) else [loss]:
            if not (isinstance(ident, str) and ident.lower() in ("crossentropy", "ce")):
                _loss_fn(ident)  # an unknown name fails here, not on the first batch
        self.loss = loss
        if loss_weights is not None and not isinstance(loss_weights, (list, tuple, dict, float, int)):
            raise ValueError("Expected `loss_weights` argument to be a float (single output case) or "
                             "a list or dict with one entry per output. Received instead: "
                             f"loss_weights={loss_weights!r} of type {type(loss_weights).__name__}")
        self._loss_weights = loss_weights
        self._metric_ids = metrics
        self._weighted_metric_ids = weighted_metrics
        self._flat_losses: list | None = None  # [(output index, loss fn, weight, name)], first batch
        self._output_loss_trackers: list = []
        self._compile_metrics = None if metrics is None and weighted_metrics is None else \
            _CompileMetrics(self)
        self._loss_tracker = _Mean("loss")
        self.compiled = True
        ref = self.__dict__.get("_strategy_ref")
        if ref is not None:  # the replicas get the model as compiled now (and its trainable flags)
            ref.replicas = None
        self._replicas()  # a model compiled under a strategy it was not created under fails here

    @property
    def distribute_strategy(self) -> Any:
        """The strategy the model was created under (``strategy.scope()``), else the current one;
        ``fit``, ``evaluate`` and ``predict`` run their steps on its replicas."""
        ref = self.__dict__.get("_strategy_ref")
        return ref.strategy if ref is not None and ref.strategy is not None else _distribute.get_strategy()

    def _replicas(self) -> Replicas | None:
        """The model's loops on the replicas of its strategy; None for a strategy that runs in
        this process (the default one, OneDeviceStrategy)."""
        strategy = self.distribute_strategy
        if not uses_replicas(strategy):
            return None
        ref = self.__dict__.get("_strategy_ref")
        if ref is None or ref.strategy is not strategy:
            raise ValueError(f"Model {self.name!r} was created outside the scope of {strategy!r}, "
                             "which is in effect now: Keras trains a model on the strategy it was "
                             "created under. Create the model (and compile it) inside "
                             "`with strategy.scope():`.")
        if ref.replicas is None:
            ref.replicas = Replicas(self, strategy)
        return ref.replicas

    @property
    def output_names(self) -> list | None:
        """The names of a functional model's outputs (the layers that made them)."""
        if not self.__dict__.get("_functional"):
            return None
        return [t._node.layer.name if t._node is not None else t.name for t in self.outputs]

    def _per_output(self, spec: Any, n: int, what: str) -> list:
        """``spec`` (one entry for every output, a list in output order, or a dict by output
        name) as a list of ``n`` entries, as Keras reads `loss`, `loss_weights` and `metrics`."""
        names = self.output_names
        if isinstance(spec, dict):
            if n == 1 and not (names and set(spec) <= set(names)):
                return [spec]
            if not names or not set(spec) <= set(names):
                raise ValueError(f"Invalid `{what}`: the keys {sorted(spec)} must be names of the "
                                 f"model's outputs {names}.")
            return [spec.get(name) for name in names]
        if isinstance(spec, (list, tuple)) and n > 1:
            if len(spec) != n:
                raise ValueError(f"Invalid `{what}`: {spec!r} has {len(spec)} entries but the model "
                                 f"has {n} outputs {names or ''}; give one entry per output, or a "
                                 "dict by output name.")
            return list(spec)
        return [spec] * n if what == "loss" else [spec] + [None] * (n - 1)

    def _build_losses(self, y_true: list, y_pred: list) -> None:
        if self._flat_losses is not None:
            return
        n = len(y_pred)
        if len(y_true) != n:
            raise ValueError(f"The model has {n} output(s) but the targets `y` have "
                             f"{len(y_true)} array(s); give one target per output.")
        ids = self._per_output(self.loss, n, "loss")
        weights = self._loss_weights
        weights = [weights] * n if isinstance(weights, (int, float)) else \
            self._per_output(weights, n, "loss_weights") if weights is not None else [None] * n
        names = self.output_names or [None] * n
        flat = []
        for i, (ident, w, name) in enumerate(zip(ids, weights, names)):
            if ident is None:
                continue
            fn = _resolve_loss(ident, y_true[i], y_pred[i])
            flat.append((i, fn, w, name or _loss_name(ident, fn)))
        self._flat_losses = flat
        self._output_loss_trackers = [_Mean(f"{name}_loss") for *_, name in flat] if len(flat) > 1 else []

    def _build_metrics(self, y_true: Any, y_pred: Any) -> list:
        """``[(output index, metric, weighted, output name or None)]`` for the compiled metrics."""
        ys, ps = flatten(y_true), flatten(y_pred)
        n = len(ps)
        names = self.output_names if n > 1 else None
        built = []
        for ids, weighted in ((self._metric_ids, False), (self._weighted_metric_ids, True)):
            if not ids:
                continue
            what = "weighted_metrics" if weighted else "metrics"
            if ids is not None and not isinstance(ids, (list, tuple, dict)):
                raise ValueError(f"Expected `{what}` argument to be a list, tuple, or dict. "
                                 f"Received instead: {what}={ids!r} of type {type(ids).__name__}")
            per_output = [flatten(ids)] if n == 1 else self._per_output(ids, n, what)
            for i, mids in enumerate(per_output):
                for m in flatten(mids) if mids is not None else []:
                    built.append((i, self._make_metric(m, ys[i], ps[i]), weighted,
                                  names[i] if names else None))
        return built

    @staticmethod
    def _make_metric(m: Any, y_true: Any, y_pred: Any) -> Any:
        """A metric object for an identifier; "accuracy" is binary, sparse categorical or
        categorical accuracy by the shapes of the targets and outputs, as in Keras."""
        if hasattr(m, "update_state"):
            return m
        if isinstance(m, str) and m.lower() in ("accuracy", "acc"):
            metrics = _keras_module("metrics")
            binary, sparse = _binary_or_sparse(y_true, y_pred)
            if binary:
                return metrics.BinaryAccuracy(name=m)
            if sparse:
                return metrics.SparseCategoricalAccuracy(name=m)
            return metrics.CategoricalAccuracy(name=m)
        fn = _keras_module("metrics").get(m) if isinstance(m, (str, dict)) else m
        if hasattr(fn, "update_state"):
            if isinstance(m, str):  # Keras names a metric by the string it was asked by
                fn.name = m
            return fn
        name = m if isinstance(m, str) else getattr(fn, "__name__", type(fn).__name__)
        return _Mean(name, fn)

    @property
    def metrics(self) -> list:
        """As Keras 3 lists them: the loss tracker (named ``"loss"``), the compiled metrics as one
        metric named ``"compile_metrics"`` (its result is a dict), each output's loss tracker,
        then the ``keras.metrics.Metric`` objects held by the model's attributes."""
        out = []
        if self.__dict__.get("compiled"):
            out.append(self._loss_tracker)
            if self._compile_metrics is not None:
                out.append(self._compile_metrics)
            out.extend(self._output_loss_trackers)
        metric_cls = _keras_module("metrics").Metric
        ids = {id(m) for m in out}
        for v in self.__dict__.values():
            if isinstance(v, metric_cls) and id(v) not in ids:
                ids.add(id(v))
                out.append(v)
        return out

    @property
    def metrics_names(self) -> list:
        return [m.name for m in self.metrics]

    def reset_metrics(self) -> None:
        """Restart the running means of the loss and of the metrics."""
        for m in self.metrics:
            m.reset_state()

    def compute_loss(self, x: Any = None, y: Any = None, y_pred: Any = None,
                     sample_weight: Any = None, training: bool = True) -> Tensor:
        """The compiled loss(es), weighted by ``loss_weights``, plus the model's :attr:`losses`."""
        terms = []
        if y is not None and self.loss is not None:
            ys, ps = flatten(y), flatten(y_pred)
            self._build_losses(ys, ps)
            sws = self._per_output(sample_weight, len(ps), "sample_weight") if isinstance(
                sample_weight, (list, tuple, dict)) else [sample_weight] * len(ps)
            trackers = self._output_loss_trackers or [None] * len(self._flat_losses)
            for (i, fn, w, _), tracker in zip(self._flat_losses, trackers):
                term = _call_loss(fn, ys[i], ps[i], sws[i])
                if tracker is not None:  # each output's unweighted loss, a plain mean over
                    # batches: Keras's traced step sees no batch size
                    tracker.update_state(_unscale_for_replicas(term))
                terms.append(term if w is None else term * np.asarray(w, term.dtype.name))
        for extra in self.losses:
            extra = convert_to_tensor(extra)
            terms.append(_scale_for_replicas(reduce_sum(extra) if extra.shape.rank else extra))
        if not terms:
            raise ValueError("No loss to compute. Provide a `loss` argument in `compile()`.")
        dt = terms[0].dtype
        terms = [t if t.dtype == dt else cast(t, dt) for t in terms]
        return terms[0] if len(terms) == 1 else add_n(terms)

    def compute_metrics(self, x: Any, y: Any, y_pred: Any, sample_weight: Any = None) -> dict:
        """Update the compiled metrics with this batch and return every running result."""
        if y is not None and self._compile_metrics is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def get_metrics_result(self) -> dict:
        """``{name: running result}`` of every metric in :attr:`metrics` (a dict result, as the
        compiled metrics' is, is merged in)."""
        out: dict = {}
        for m in self.metrics:
            r = m.result()
            if isinstance(r, dict):
                out.update({k: self._result(v) for k, v in r.items()})
            else:
                out[m.name] = self._result(r)
        return out

    @property
    def compiled_metrics(self) -> _CompiledMetrics:
        """Keras 2's ``model.compiled_metrics``, kept by Keras 3 (with a warning): its
        ``update_state(y, y_pred, sample_weight)`` updates every metric in :attr:`metrics`."""
        return _CompiledMetrics(self)

    def compiled_loss(self, y: Any, y_pred: Any, sample_weight: Any = None,
                      regularization_losses: Any = None) -> Tensor:
        """Keras 2's ``model.compiled_loss(y, y_pred)``, kept by Keras 3 (with a warning):
        :meth:`compute_loss` on ``y`` and ``y_pred``."""
        warn_outside("`model.compiled_loss()` is deprecated. Instead, use "
                     "`model.compute_loss(x, y, y_pred, sample_weight, training)`.")
        return self.compute_loss(x=None, y=y, y_pred=y_pred, sample_weight=sample_weight)

    @staticmethod
    def _result(r: Any) -> Any:
        a = np.asarray(getattr(r, "numpy", lambda: r)())
        return float(a) if a.ndim == 0 else a

    def _in_keras_order(self, logs: dict) -> list:
        """``evaluate``'s list: the loss, the metrics that kept their own names, each output's
        loss, then every other log by name (Keras's ``_flatten_metrics_in_order``)."""
        names = [n.name for m in self.metrics
                 for n in (m.metrics if isinstance(m, _CompileMetrics) else [m])]
        return [logs[k] for k in names if k in logs] + [logs[k] for k in sorted(logs) if k not in names]

    # -- steps ------------------------------------------------------------------------------------

    def _require_compiled(self, what: str) -> None:
        if not self.__dict__.get("compiled"):
            raise RuntimeError(f"You must call `compile()` before using the model ({what}).")

    def train_step(self, data: Any) -> dict:
        """One optimizer step on a batch as ``fit`` yields it (``x``, ``(x, y)`` or
        ``(x, y, sample_weight)``, see ``keras.utils.unpack_x_y_sample_weight``); returns the
        running logs."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x, y, y_pred, sample_weight)
            scaled = self.optimizer.scale_loss(loss)
        variables = self.trainable_weights
        if variables:
            grads = tape.gradient(scaled, variables)
            self.optimizer.apply_gradients([(g, v) for g, v in zip(grads, variables) if g is not None])
        self._loss_tracker.update_state(_unscale_for_replicas(loss), sample_weight=_num_rows(x))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def test_step(self, data: Any) -> dict:
        """The loss and metrics of a batch, without training."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        y_pred = self(x, training=False)
        loss = self.compute_loss(x, y, y_pred, sample_weight, training=False)
        self._loss_tracker.update_state(_unscale_for_replicas(loss), sample_weight=_num_rows(x))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def predict_step(self, data: Any) -> Any:
        """The model's outputs for a batch."""
        x = unpack_x_y_sample_weight(data)[0]
        return self(x, training=False)

    @classmethod
    def _logs(cls, logs: Any) -> dict:  # sorted by name, nested dicts flattened, as Keras's are
        out: dict = {}
        for k, v in sorted(logs.items()):
            if isinstance(v, dict):
                out.update(cls._logs(v))
            else:
                a = np.asarray(v.numpy() if hasattr(v, "numpy") else v)
                out[k] = float(a) if a.ndim == 0 else a  # (F1Score() gives one value per class)
        return out

    # -- loops ------------------------------------------------------------------------------------

    def fit(self, x: Any = None, y: Any = None, batch_size: int | None = None, epochs: int = 1,
            verbose: Any = "auto", callbacks: Any = None, validation_split: float = 0.0,
            validation_data: Any = None, shuffle: bool = True, class_weight: Any = None,
            sample_weight: Any = None, initial_epoch: int = 0, steps_per_epoch: int | None = None,
            validation_steps: int | None = None, validation_batch_size: int | None = None,
            validation_freq: int = 1) -> Any:
        """Train for ``epochs`` epochs on arrays ``x``, ``y`` (in batches of ``batch_size``) or on an
        iterable of ``(x, y)`` / ``(x, y, sample_weight)`` batches; returns a ``History``."""
        self._require_compiled("fit")
        if validation_split and validation_data is None:
            (x, y, sample_weight), validation_data = _split(x, y, sample_weight, validation_split)
        data = _Data(x, y, sample_weight, batch_size, steps_per_epoch, shuffle, class_weight)
        val = None
        if validation_data is not None:
            if isinstance(validation_data, (tuple, list)) and len(validation_data) in (2, 3) and \
                    _is_arraylike(validation_data[0]):
                vx, vy, vsw = (tuple(validation_data) + (None,))[:3]
                val = (vx, vy, vsw)
            else:
                val = (validation_data, None, None)
        verbose = 1 if verbose == "auto" else int(verbose)
        cbs = callbacks_module.CallbackList(callbacks, add_history=True, add_progbar=verbose != 0,
                                            model=self, verbose=verbose, epochs=epochs,
                                            steps=data.size)
        dist = self._replicas()
        self.stop_training = False
        self._initial_epoch = None  # (BackupAndRestore sets it to resume)
        cbs.on_train_begin()
        initial_epoch = self._initial_epoch or initial_epoch
        logs: dict = {}
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            cbs.on_epoch_begin(epoch)
            for step, batch in enumerate(data):
                cbs.on_train_batch_begin(step)
                if dist is not None:
                    logs = dist.step("train", batch, reset=step == 0)
                else:
                    with _random.graph_step(self):  # (Keras's step is a tf.function: graph op seeds)
                        logs = self._logs(self.train_step(batch))
                cbs.on_train_batch_end(step, logs)
                if self.stop_training:
                    break
            epoch_logs = dict(logs) if dist is None else dist.epoch_logs(logs)
            if val is not None and (epoch + 1) % validation_freq == 0:
                val_logs = self.evaluate(val[0], val[1], sample_weight=val[2],
                                         batch_size=validation_batch_size or batch_size,
                                         steps=validation_steps, verbose=0, return_dict=True,
                                         _internal=True, _fit_callbacks=cbs)
                epoch_logs.update({"val_" + k: v for k, v in val_logs.items()})
            cbs.on_epoch_end(epoch, epoch_logs)
            if self.stop_training:
                break
        if epochs > 0:
            self.optimizer.finalize_variable_values(self.trainable_weights)
        cbs.on_train_end(epoch_logs if epochs > initial_epoch else {})
        return self.history

    def evaluate(self, x: Any = None, y: Any = None, batch_size: int | None = None,
                 verbose: Any = "auto", sample_weight: Any = None, steps: int | None = None,
                 callbacks: Any = None, return_dict: bool = False, **kwargs: Any) -> Any:
        """The loss (and metrics) over the data: a float, a list in :attr:`metrics_names`'s order,
        or a dict with ``return_dict=True``."""
        self._require_compiled("evaluate")
        internal = kwargs.pop("_internal", False)
        cbs = kwargs.pop("_fit_callbacks", None)  # fit's validation: fit's callbacks, as in Keras
        if kwargs:
            raise TypeError(f"Invalid keyword arguments: {list(kwargs)}")
        data = _Data(x, y, sample_weight, batch_size, steps)
        verbose = 1 if verbose == "auto" else int(verbose)
        if cbs is None:
            cbs = callbacks_module.CallbackList(callbacks, add_progbar=verbose != 0, model=self,
                                                verbose=verbose, epochs=1, steps=data.size,
                                                mode="test")
        self.reset_metrics()
        dist = self._replicas()
        cbs.on_test_begin()
        logs: dict = {}
        for step, batch in enumerate(data):
            cbs.on_test_batch_begin(step)
            logs = self._logs(self.test_step(batch)) if dist is None else dist.step("test", batch, step == 0)
            cbs.on_test_batch_end(step, logs)
        if dist is not None:
            logs = dist.epoch_logs(logs)
        cbs.on_test_end(logs)
        if return_dict or internal:
            return logs
        return self._flat(logs)

    def predict(self, x: Any, batch_size: int | None = None, verbose: Any = "auto",
                steps: int | None = None, callbacks: Any = None) -> Any:
        """The model's outputs for ``x``, batch by batch, joined into NumPy arrays."""
        data = _Data(x, None, None, batch_size, steps)
        verbose = 1 if verbose == "auto" else int(verbose)
        cbs = callbacks_module.CallbackList(callbacks, add_progbar=verbose != 0, model=self,
                                            verbose=verbose, epochs=1, steps=data.size,
                                            mode="predict")
        dist = self._replicas()
        cbs.on_predict_begin()
        outs: list = []
        for step, batch in enumerate(data):
            cbs.on_predict_batch_begin(step)
            out = self.predict_step(batch) if dist is None else dist.predict(batch)
            outs.append(map_structure(lambda t: np.asarray(t.numpy() if hasattr(t, "numpy") else t), out))
            cbs.on_predict_batch_end(step, {"outputs": out})
        cbs.on_predict_end()
        if not outs:
            raise ValueError("Unexpected result of `predict_function` (Empty batch_outputs). Please "
                             "use `Model.compile(..., run_eagerly=True)`, or `tf.config.run_functions_"
                             "eagerly(True)` for more information of where went wrong, or file a "
                             "issue/bug to `keras`.")
        first = outs[0]
        if isinstance(first, np.ndarray):
            return np.concatenate(outs)
        leaves = [flatten(o) for o in outs]
        joined = [np.concatenate([l[i] for l in leaves]) for i in range(len(leaves[0]))]
        it = iter(joined)
        return map_structure(lambda _: next(it), first)

    def train_on_batch(self, x: Any, y: Any = None, sample_weight: Any = None,
                       class_weight: Any = None, return_dict: bool = False) -> Any:
        """One training step on one batch; returns its loss (and metrics), the metrics reset
        first as Keras resets them. ``class_weight`` weighs each row by its class, as in fit."""
        self._require_compiled("train_on_batch")
        self.reset_metrics()
        if class_weight is not None:
            if sample_weight is not None:
                raise ValueError("You cannot `class_weight` and `sample_weight` at the same time.")
            if y is None:
                raise ValueError("`class_weight` needs the targets `y`: it weighs each row by its class.")
            sample_weight = _class_weights(y, class_weight)
        batch = (_to_numpy(x), None if y is None else _to_numpy(y), sample_weight)
        dist = self._replicas()
        logs = self._logs(self.train_step(batch)) if dist is None else \
            dist.step("train", batch, reset=True, split=False)  # (every replica: the whole batch)
        return logs if return_dict else self._flat(logs)

    def test_on_batch(self, x: Any, y: Any = None, sample_weight: Any = None,
                      return_dict: bool = False) -> Any:
        """The loss (and metrics) of one batch."""
        self._require_compiled("test_on_batch")
        self.reset_metrics()
        batch = (_to_numpy(x), None if y is None else _to_numpy(y), sample_weight)
        dist = self._replicas()
        logs = self._logs(self.test_step(batch)) if dist is None else \
            dist.step("test", batch, reset=True, split=False)  # (every replica: the whole batch)
        return logs if return_dict else self._flat(logs)

    def predict_on_batch(self, x: Any) -> Any:
        """The model's outputs for one batch, as NumPy arrays."""
        dist = self._replicas()
        if dist is not None:
            return dist.predict((_to_numpy(x),))
        return map_structure(lambda t: t.numpy(), self.predict_step((_to_numpy(x),)))

    def _flat(self, logs: dict) -> Any:
        values = self._in_keras_order(logs)
        return values[0] if len(values) == 1 else values

    def get_config(self) -> dict:
        """The config that remakes this model: a functional model's layers and how they connect
        (Keras 3's layout), a subclassed model's constructor arguments (override it)."""
        if self.__dict__.get("_functional"):
            from .saving import functional_config
            return functional_config(self)
        return auto_config(self, {"name": self.name, "trainable": self.trainable})

    @classmethod
    def from_config(cls, config: dict, custom_objects: dict | None = None) -> "Model":
        """The model ``config`` describes (a functional config rebuilds the graph)."""
        if "layers" in config and "input_layers" in config:
            from .saving import functional_from_config
            return functional_from_config(cls, config, custom_objects)
        try:
            return cls(**config)
        except TypeError as e:
            raise TypeError(f"Unable to revive model from config. When overriding the `get_config()` "
                            "method, make sure that the returned config contains all items used as "
                            f"arguments in the constructor to {cls}, which is the default behavior. "
                            "You can override this default behavior by defining a "
                            "`from_config(cls, config)` class method to specify how to create an "
                            f"instance of {cls.__name__} from its config.\n\nReceived config={config}"
                            f"\n\nError encountered during deserialization: {e}") from e

    def save(self, filepath: Any, overwrite: bool = True, zipped: bool | None = None,
             **kwargs: Any) -> None:
        """Write the whole model (config, weights, compile state, optimizer variables) to a
        ``.keras`` file; ``keras.models.load_model`` reads it back."""
        from .saving import save_model
        save_model(self, filepath, overwrite=overwrite, zipped=zipped, **kwargs)

    def to_json(self, **kwargs: Any) -> str:
        """The model's architecture as a JSON string (``keras.models.model_from_json``)."""
        import json
        from .saving import serialize_keras_object
        return json.dumps(serialize_keras_object(self), **kwargs)


class Sequential(Model):
    """A stack of layers, each feeding the next.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.backend.clear_session()  # layer names count from "dense" again
    >>> model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4), keras.layers.Dense(1)])
    >>> [layer.name for layer in model.layers][-1:], model.count_params()
    (['dense_1'], 21)
    >>> model.predict(np.zeros((5, 3)), verbose=0).shape
    (5, 1)
    """

    def __init__(self, layers: Any = None, trainable: bool = True, name: str | None = None) -> None:
        super().__init__(trainable=trainable, name=name or backend.unique_name("sequential"))
        self._stack: list = []
        self._input: InputLayer | None = None
        self._output_shapes: dict = {}
        self._outputs: list | None = None  # the symbolic output, once built
        for layer in layers or []:
            self.add(layer, rebuild=False)
        self._maybe_rebuild()

    def add(self, layer: Any, rebuild: bool = True) -> None:
        """Append a layer (or a ``keras.Input``, first)."""
        if isinstance(layer, KerasTensor) and isinstance(layer._node.layer, InputLayer):
            layer = layer._node.layer
        if isinstance(layer, InputLayer):
            if self._stack or self._input is not None:
                raise ValueError("Sequential model: an Input or InputLayer can only be the first layer.")
            self._input = layer
        elif isinstance(layer, Layer):
            if self._input is None and not self._stack:
                shape = layer._batch_input_shape
                if shape is None and layer.__dict__.get("_functional") and len(layer.inputs) == 1:
                    shape = layer.inputs[0].shape
                if shape is not None:
                    self._input = InputLayer(batch_shape=shape, dtype=layer.compute_dtype)
            if any(l is layer for l in self._stack):
                raise ValueError(f"Sequential model already contains the layer {layer.name!r}.")
            self._stack.append(layer)
        else:
            raise ValueError("Only instances of `keras.Layer` can be added to a Sequential model. "
                             f"Received: {layer!r} (of type {type(layer).__name__})")
        if rebuild:
            self._maybe_rebuild()

    def pop(self, rebuild: bool = True) -> Layer:
        """Remove and return the last layer."""
        if not self._stack:
            raise TypeError("There are no layers in the model.")
        layer = self._stack.pop()
        self.built, self._outputs = False, None
        if rebuild:
            self._maybe_rebuild()
        return layer

    def _maybe_rebuild(self) -> None:
        if self._input is not None and self._stack:
            self.build(self._input.batch_shape)

    @property
    def layers(self) -> list:
        return list(self._stack)

    @property
    def inputs(self) -> list:
        """The symbolic input (a one-element list), once the model knows its input shape."""
        self._require_graph("inputs")
        return [self._input.output]

    @property
    def outputs(self) -> list:
        """The symbolic output of the last layer (a one-element list), once built."""
        self._require_graph("outputs")
        return list(self._outputs)

    def _require_graph(self, what: str) -> None:
        if self._outputs is None:
            raise AttributeError(f"Sequential model '{self.name}' has no defined {what} yet: start "
                                 "it with keras.Input(shape) (or give its first layer "
                                 "`input_shape`), call `build(input_shape)`, or call it on data.")

    def _graph_ends(self, what: str) -> list:
        return getattr(self, what)

    def _sublayers(self) -> Any:
        return iter(self._stack)

    def build(self, input_shape: Any = None) -> None:
        """Build the symbolic graph: the layers called in turn on an ``Input`` of
        ``input_shape`` (made here unless the model starts with one)."""
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        if not self._stack:
            raise ValueError(f"Sequential model {self.name} cannot be built because it has no "
                             "layers. Call `model.add(layer)`.")
        input_shape = tuple(input_shape)
        if self._input is None:
            self._input = InputLayer(batch_shape=input_shape, dtype=self._stack[0].compute_dtype)
        elif self._input.batch_shape != input_shape:
            raise ValueError(f"Sequential model '{self.name}' has already been configured to use "
                             f"input shape {self._input.batch_shape}. You cannot build it with "
                             f"input_shape {input_shape}")
        x = self._input.output
        shapes = {}
        with name_scope(self):
            for layer in self._stack:
                x = layer(x)
                shapes[id(layer)] = x.shape if isinstance(x, KerasTensor) else "?"
        self._output_shapes, self._outputs = shapes, flatten(x)
        self.built = True

    def call(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:
        x = inputs
        if self._input is not None:
            x = convert_to_tensor(x) if not isinstance(x, Tensor) else x
            if x.dtype.is_floating and x.dtype.name != self._input.dtype:
                x = cast(x, self._input.dtype)
            if self._outputs is not None:
                x = _adjust_rank(x, self._input.output, self.name)
        for layer in self._stack:
            x = layer(x)
        return x

    def _maybe_build(self, args: tuple, kwargs: dict) -> None:
        if not self.built:
            shape = tuple(args[0].shape) if hasattr(args[0], "shape") else None
            if shape is not None:  # Keras 3 keeps the batch size of the first data
                self.build(shape)
        self.built = True

    def get_config(self) -> dict:
        from .saving import serialize_keras_object
        layers = ([self._input] if self._input is not None else []) + self._stack
        config = {"name": self.name, "trainable": self.trainable,
                  "layers": [serialize_keras_object(layer) for layer in layers]}
        if self._input is not None and self._outputs is not None:
            config["build_input_shape"] = list(self._input.batch_shape)
        return config

    @classmethod
    def from_config(cls, config: dict, custom_objects: dict | None = None) -> "Sequential":
        from .saving import deserialize_keras_object
        model = cls(name=config.get("name"), trainable=config.get("trainable", True))
        for layer in config["layers"]:
            model.add(deserialize_keras_object(layer, custom_objects), rebuild=False)
        if model._input is None and config.get("build_input_shape") is not None:
            model.build(tuple(config["build_input_shape"]))
        model._maybe_rebuild()
        return model
