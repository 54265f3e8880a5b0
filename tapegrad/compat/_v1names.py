"""TF1 names of ``tf.compat.v1`` that TF2 spells otherwise: ``nn`` (TF1's argument names:
``dropout(keep_prob=)``, ``softmax(dim=)``, ``conv2d(filter=)``, ``max_pool(value=)``,
``moments(keep_dims=)``, ``xw_plus_b``), ``initializers`` and the ``*_initializer`` classes (the
dtype given to the constructor), ``ConfigProto``/``GPUOptions``, ``make_template``, and
``layers``, which raises as TensorFlow 2.21 does with Keras 3.

>>> import tapegrad as tf
>>> tf1 = tf.compat.v1
>>> tf1.nn.softmax([[1.0, 1.0]], dim=-1).numpy()
array([[0.5, 0.5]], dtype=float32)
>>> tf1.initializers.random_normal(stddev=0.0, mean=2.0)([2]).numpy()
array([2., 2.], dtype=float32)
"""
from __future__ import annotations

import types
from typing import Any, Callable

import numpy as np

from .. import dtypes as _dtypes, nn as _nn
from .._convert import convert_to_tensor as _to_tensor
from ..keras import initializers as _ki
from ..linalg import matmul as _matmul

__all__ = ["ConfigProto", "GPUOptions", "constant_initializer", "initializers", "layers", "make_template", "nn",
           "ones_initializer", "zeros_initializer"]


# ---- nn with TF1's argument names ------------------------------------------------------------

def _one(new: Any, old: Any, new_name: str, old_name: str) -> Any:
    if new is not None and old is not None:
        raise ValueError(f"Cannot specify both '{old_name}' and '{new_name}'.")
    return new if new is not None else old


def dropout(x: Any, keep_prob: Any = None, noise_shape: Any = None, seed: Any = None, name: Any = None,
            rate: Any = None) -> Any:
    """TF1's dropout: keeps each entry with probability ``keep_prob`` (or drops with ``rate``),
    scaling the kept ones by ``1 / keep_prob``."""
    if keep_prob is not None and rate is not None:
        raise ValueError("Cannot specify both 'rate' and 'keep_prob'.")
    if keep_prob is None and rate is None:
        raise ValueError("You must provide a rate to dropout.")
    if rate is None:
        rate = 1 - keep_prob
    from ._graph import _recording
    if _recording() is not None and noise_shape is None:
        return _graph_dropout(x, rate, seed)
    return _nn.dropout(x, rate=rate, noise_shape=noise_shape, seed=seed, name=name)


def _graph_dropout(x: Any, rate: Any, seed: Any) -> Any:
    """Dropout in a TF1 graph: the mask is drawn at each run, of the shape of ``x`` at that run
    (one random step whose input is ``x``), so it follows the sizes fed to placeholders."""
    import numpy as np
    from .. import _trace
    from .._convert import convert_to_tensor
    from ..ops.math import cast
    x = convert_to_tensor(x)
    rng = np.random.default_rng(seed)

    def uniform(xv: Any) -> tuple:
        return (rng.random(np.shape(xv)).astype(xv.dtype),)
    u, = _trace.draw(uniform, [x], True)
    rate = cast(convert_to_tensor(rate), x.dtype)
    return x * cast(u >= rate, x.dtype) / (1.0 - rate)


def softmax(logits: Any, axis: Any = None, name: Any = None, dim: Any = None) -> Any:
    """TF1's softmax: ``dim`` is the old name of ``axis``."""
    return _nn.softmax(logits, axis=_one(axis, dim, "axis", "dim"), name=name)


def log_softmax(logits: Any, axis: Any = None, name: Any = None, dim: Any = None) -> Any:
    """TF1's log-softmax: ``dim`` is the old name of ``axis``."""
    return _nn.log_softmax(logits, axis=_one(axis, dim, "axis", "dim"), name=name)


def softmax_cross_entropy_with_logits(_sentinel: Any = None, labels: Any = None, logits: Any = None, dim: int = -1,
                                      name: Any = None, axis: Any = None) -> Any:
    """TF1's (deprecated) softmax cross-entropy: no gradient reaches ``labels``."""
    from ..ops.array import stop_gradient
    _no_positional(_sentinel, "softmax_cross_entropy_with_logits")
    return _nn.softmax_cross_entropy_with_logits(labels=stop_gradient(labels), logits=logits,
                                                 axis=dim if axis is None else axis, name=name)


def softmax_cross_entropy_with_logits_v2(labels: Any, logits: Any, axis: Any = None, name: Any = None,
                                         dim: Any = None) -> Any:
    """Softmax cross-entropy (gradients reach the labels too)."""
    axis = _one(axis, dim, "axis", "dim")
    return _nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits, axis=-1 if axis is None else axis,
                                                 name=name)


def sparse_softmax_cross_entropy_with_logits(_sentinel: Any = None, labels: Any = None, logits: Any = None,
                                             name: Any = None) -> Any:
    """TF1's sparse softmax cross-entropy: labels and logits by name only."""
    _no_positional(_sentinel, "sparse_softmax_cross_entropy_with_logits")
    return _nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits, name=name)


def sigmoid_cross_entropy_with_logits(_sentinel: Any = None, labels: Any = None, logits: Any = None,
                                      name: Any = None) -> Any:
    """TF1's sigmoid cross-entropy: labels and logits by name only."""
    _no_positional(_sentinel, "sigmoid_cross_entropy_with_logits")
    return _nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits, name=name)


def _no_positional(sentinel: Any, name: str) -> None:
    if sentinel is not None:
        raise ValueError(f"Only call `{name}` with named arguments (labels=..., logits=..., ...). "
                         f"Received unnamed argument: {sentinel}")


def moments(x: Any, axes: Any, shift: Any = None, name: Any = None, keep_dims: Any = None,
            keepdims: Any = None) -> tuple:
    """TF1's moments: ``keep_dims`` is the old name of ``keepdims``."""
    keep = _one(keepdims, keep_dims, "keepdims", "keep_dims")
    return _nn.moments(x, axes, shift=shift, keepdims=bool(keep), name=name)


def conv2d(input: Any, filter: Any = None, strides: Any = None, padding: Any = None,  # noqa: A002
           use_cudnn_on_gpu: bool = True, data_format: str = "NHWC", dilations: Any = (1, 1, 1, 1),
           name: Any = None, filters: Any = None) -> Any:
    """TF1's conv2d: the kernel as ``filter`` (or ``filters``)."""
    return _nn.conv2d(input, _one(filters, filter, "filters", "filter"), strides, padding,
                      data_format=data_format, dilations=dilations, name=name)


def max_pool(value: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NHWC", name: Any = None,
             input: Any = None) -> Any:  # noqa: A002
    """TF1's max pooling: the input as ``value``."""
    return _nn.max_pool(_one(input, value, "input", "value"), ksize, strides, padding, data_format=data_format,
                        name=name)


def avg_pool(value: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NHWC", name: Any = None,
             input: Any = None) -> Any:  # noqa: A002
    """TF1's average pooling: the input as ``value``."""
    return _nn.avg_pool(_one(input, value, "input", "value"), ksize, strides, padding, data_format=data_format,
                        name=name)


def xw_plus_b(x: Any, weights: Any, biases: Any, name: Any = None) -> Any:
    """``matmul(x, weights) + biases``."""
    return _nn.bias_add(_matmul(x, weights), biases)


def l2_normalize(x: Any, axis: Any = None, epsilon: float = 1e-12, name: Any = None, dim: Any = None) -> Any:
    """TF1's l2_normalize: ``dim`` is the old name of ``axis``."""
    return _nn.l2_normalize(x, axis=_one(axis, dim, "axis", "dim"), epsilon=epsilon, name=name)


def ctc_loss(labels: Any, inputs: Any = None, sequence_length: Any = None, preprocess_collapse_repeated: bool = False,
             ctc_merge_repeated: bool = True, ignore_longer_outputs_than_inputs: bool = False,
             time_major: bool = True, logits: Any = None) -> Any:
    """TF1's CTC loss: ``labels`` a ``tf.SparseTensor`` of class ids, ``inputs`` (or ``logits``)
    ``[max_time, batch, num_classes]`` (``[batch, ...]`` without ``time_major``), the blank the
    last class; the loss of each batch entry, as TF2's :func:`tf.nn.ctc_loss` with
    ``blank_index=num_classes - 1`` computes it.

    >>> import tapegrad as tf
    >>> labels = tf.SparseTensor([[0, 0]], [0], [1, 1])   # one sequence "a"; classes {a, blank}
    >>> tf.compat.v1.nn.ctc_loss(labels, tf.zeros([3, 1, 2]), [3]).numpy().round(4)
    array([0.2877], dtype=float32)
    """
    x = _one(inputs, logits, "inputs", "logits")
    if preprocess_collapse_repeated or not ctc_merge_repeated or ignore_longer_outputs_than_inputs:
        raise NotImplementedError(
            "tf.compat.v1.nn.ctc_loss: tapegrad computes the default CTC (preprocess_collapse_repeated=False, "
            "ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=False); for other settings "
            "collapse the labels yourself and use tf.nn.ctc_loss.")
    if not hasattr(labels, "indices") or not hasattr(labels, "dense_shape"):
        raise TypeError("tf.compat.v1.nn.ctc_loss: labels must be a tf.SparseTensor (TF1's form); for dense "
                        "labels use tf.nn.ctc_loss(labels, logits, label_length, logit_length).")
    idx = np.asarray(labels.indices.numpy()).reshape(-1, 2)
    vals = np.asarray(labels.values.numpy()).reshape(-1)
    x = _to_tensor(x)
    n_b = int(x.shape[1] if time_major else x.shape[0])
    n_k = int(x.shape[2])
    length = np.zeros(n_b, np.int32)
    for b, p in idx:
        length[b] = max(length[b], p + 1)
    dense = np.zeros((n_b, max(int(length.max()) if n_b else 0, 1)), np.int32)
    dense[idx[:, 0], idx[:, 1]] = vals
    return _nn.ctc_loss(dense, x, length, sequence_length, logits_time_major=time_major, blank_index=n_k - 1)


_NN_OWN = {f.__name__: f for f in (ctc_loss, dropout, softmax, log_softmax, softmax_cross_entropy_with_logits,
                                    softmax_cross_entropy_with_logits_v2, sparse_softmax_cross_entropy_with_logits,
                                    sigmoid_cross_entropy_with_logits, moments, conv2d, max_pool, avg_pool,
                                    xw_plus_b, l2_normalize)}


class _NN(types.ModuleType):
    """``tf.compat.v1.nn``: TF2's ``tf.nn`` with TF1's signatures where they differ."""

    def __getattr__(self, name: str) -> Any:
        return getattr(_nn, name)

    def __dir__(self) -> list:
        return sorted(set(dir(_nn)) | set(_NN_OWN))


nn = _NN("tf.compat.v1.nn")
nn.__dict__.update(_NN_OWN)


# ---- initializers ----------------------------------------------------------------------------

class _V1Initializer:
    """A TF1 initializer: the dtype is the constructor's (a call may give another)."""

    def __init__(self, make: Callable, dtype: Any) -> None:
        self._init, self.dtype = make, _dtypes.as_dtype(dtype)

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        return self._init(shape, dtype=_dtypes.as_dtype(dtype or self.dtype))


def random_normal_initializer(mean: float = 0.0, stddev: float = 1.0, seed: Any = None,
                              dtype: Any = _dtypes.float32) -> _V1Initializer:
    """Normal draws (TF1's default ``stddev`` is 1)."""
    return _V1Initializer(_ki.random_normal_initializer(mean, stddev, seed), dtype)


def truncated_normal_initializer(mean: float = 0.0, stddev: float = 1.0, seed: Any = None,
                                 dtype: Any = _dtypes.float32) -> _V1Initializer:
    """Normal draws within two standard deviations of the mean."""
    return _V1Initializer(_ki.TruncatedNormal(mean, stddev, seed), dtype)


def random_uniform_initializer(minval: Any = 0, maxval: Any = None, seed: Any = None,
                               dtype: Any = _dtypes.float32) -> _V1Initializer:
    """Uniform draws in ``[minval, maxval)`` (``maxval`` 1 for floats)."""
    dt = _dtypes.as_dtype(dtype)
    if maxval is None:
        if not dt.is_floating:
            raise ValueError(f"Must specify maxval for integer dtype {dt!r}")
        maxval = 1.0
    return _V1Initializer(_ki.random_uniform_initializer(minval, maxval, seed), dt)


def variance_scaling_initializer(scale: float = 1.0, mode: str = "fan_in", distribution: str = "truncated_normal",
                                 seed: Any = None, dtype: Any = _dtypes.float32) -> _V1Initializer:
    """Draws scaled by the fans (``"normal"`` is TF1's name of ``"truncated_normal"``)."""
    distribution = "truncated_normal" if distribution == "normal" else distribution
    return _V1Initializer(_ki.VarianceScaling(scale, mode, distribution, seed), dtype)


def glorot_uniform_initializer(seed: Any = None, dtype: Any = _dtypes.float32) -> _V1Initializer:
    """Glorot (Xavier) uniform draws."""
    return _V1Initializer(_ki.GlorotUniform(seed), dtype)


def glorot_normal_initializer(seed: Any = None, dtype: Any = _dtypes.float32) -> _V1Initializer:
    """Glorot (Xavier) truncated normal draws."""
    return _V1Initializer(_ki.GlorotNormal(seed), dtype)


def orthogonal_initializer(gain: float = 1.0, seed: Any = None, dtype: Any = _dtypes.float32) -> _V1Initializer:
    """An orthogonal matrix (times ``gain``)."""
    return _V1Initializer(_ki.Orthogonal(gain, seed), dtype)


def _preset(cls: Any) -> Callable:
    def make(seed: Any = None, dtype: Any = _dtypes.float32) -> _V1Initializer:
        return _V1Initializer(cls(seed), dtype)
    make.__name__ = cls.__name__
    return make


def _filled(cls: Any) -> Callable:
    def make(dtype: Any = _dtypes.float32) -> _V1Initializer:
        return _V1Initializer(cls(), dtype)
    make.__name__ = cls.__name__
    make.__doc__ = f"TF1's ``{cls.__name__}(dtype=tf.float32)``."
    return make


def _constant(value: Any = 0, dtype: Any = _dtypes.float32, verify_shape: bool = False) -> _V1Initializer:
    """TF1's ``constant_initializer``: ``value`` (a scalar, or of the shape's size) as ``dtype``."""
    return _V1Initializer(_ki.constant_initializer(value), dtype)


def _identity(gain: float = 1.0, dtype: Any = _dtypes.float32) -> _V1Initializer:
    return _V1Initializer(_ki.Identity(gain), dtype)


zeros_initializer = _filled(_ki.zeros_initializer)
ones_initializer = _filled(_ki.ones_initializer)
constant_initializer = _constant
initializers = types.SimpleNamespace(
    zeros=zeros_initializer, ones=ones_initializer, constant=constant_initializer,
    random_normal=random_normal_initializer, truncated_normal=truncated_normal_initializer,
    random_uniform=random_uniform_initializer, variance_scaling=variance_scaling_initializer,
    glorot_uniform=glorot_uniform_initializer, glorot_normal=glorot_normal_initializer,
    orthogonal=orthogonal_initializer, identity=_identity, he_normal=_preset(_ki.HeNormal),
    he_uniform=_preset(_ki.HeUniform), lecun_normal=_preset(_ki.LecunNormal),
    lecun_uniform=_preset(_ki.LecunUniform))


# ---- ConfigProto ------------------------------------------------------------------------------

class _Message:
    """A protocol-buffer message's fields as attributes (TF1's session config is accepted and
    has no effect: tapegrad runs on the CPU, in this process)."""

    _FIELDS: dict = {}

    def __init__(self, **kwargs: Any) -> None:
        for k, v in self._FIELDS.items():
            object.__setattr__(self, k, v() if isinstance(v, type) else v)
        for k, v in kwargs.items():
            setattr(self, k, v)

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self._FIELDS:
            raise ValueError(f'Protocol message {type(self).__name__} has no "{name}" field.')
        object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        set_ = {k: getattr(self, k) for k, v in self._FIELDS.items()
                if not isinstance(v, type) and getattr(self, k) != v}
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in set_.items())})"


class GPUOptions(_Message):
    """``tf.compat.v1.GPUOptions`` (no effect in tapegrad)."""
    _FIELDS = {"allow_growth": False, "per_process_gpu_memory_fraction": 0.0, "visible_device_list": "",
               "allocator_type": "", "force_gpu_compatible": False}


class ConfigProto(_Message):
    """``tf.compat.v1.ConfigProto``: a session's configuration, kept and without effect
    (tapegrad runs on the CPU, in this process); an unknown field raises ValueError.

    >>> import tapegrad as tf
    >>> config = tf.compat.v1.ConfigProto(allow_soft_placement=True)
    >>> config.gpu_options.allow_growth = True
    >>> config.allow_soft_placement, config.log_device_placement
    (True, False)
    """
    _FIELDS = {"allow_soft_placement": False, "log_device_placement": False, "gpu_options": GPUOptions,
               "device_count": dict, "intra_op_parallelism_threads": 0, "inter_op_parallelism_threads": 0,
               "use_per_session_threads": False, "operation_timeout_in_ms": 0, "isolate_session_state": False,
               "graph_options": None, "experimental": None}


# ---- make_template and layers ------------------------------------------------------------------

class Template:
    """A function whose ``get_variable`` calls make variables on the first call and reuse them
    on later ones, in the variable scope ``name`` (``make_template``)."""

    def __init__(self, name: str, func: Callable, create_scope_now: bool, unique_name: Any, kwargs: dict) -> None:
        from ._graph import variable_scope
        self._func, self._kwargs, self._calls = func, kwargs, 0
        self._name = unique_name or name
        self._scope = None
        self._store: dict = {}
        if create_scope_now:
            with variable_scope(None, default_name=self._name) as scope:
                self._scope = scope

    @property
    def variable_scope(self) -> Any:
        return self._scope

    @property
    def variable_scope_name(self) -> str | None:
        return None if self._scope is None else self._scope.name

    @property
    def variables(self) -> list:
        return list(self._store.values())

    trainable_variables = variables

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from ._graph import _state, variable_scope
        reuse = self._calls > 0
        scope = self._scope if self._scope is not None else self._name
        _state.stores.append(self._store)
        try:
            with variable_scope(scope, reuse=True if reuse else None) as s:
                self._scope = s
                out = self._func(*args, **{**self._kwargs, **kwargs})
        finally:
            _state.stores.pop()
        self._calls += 1
        return out


def make_template(name_: str, func_: Callable, create_scope_now_: bool = False, unique_name_: Any = None,
                  custom_getter_: Any = None, **kwargs: Any) -> Template:
    """``func_`` (called with ``kwargs`` too) as a :class:`Template`: its ``get_variable``
    calls make variables in the scope ``name_`` on the first call and share them after.

    >>> import tapegrad as tf
    >>> tf1 = tf.compat.v1
    >>> def scale(x, name):
    ...     return x * tf1.get_variable(name, [], initializer=tf1.constant_initializer(2.0))
    >>> t = tf1.make_template("scale", scale, name="s")
    >>> float(t(1.0)), float(t(3.0)), [v.name for v in t.variables]
    (2.0, 6.0, ['scale/s:0'])
    """
    if custom_getter_ is not None:
        raise NotImplementedError("make_template(custom_getter_=...) is not supported by tapegrad.")
    return Template(name_, func_, create_scope_now_, unique_name_, kwargs)


class _Layers(types.ModuleType):
    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"`{name}` is not available with Keras 3.")


layers = _Layers("tf.compat.v1.layers", "TF1's layers: not available with Keras 3 (as TensorFlow 2.21); use "
                                        "tf.keras.layers.")


# ---- TF1's top-level names that TF2 renamed (``import tensorflow.compat.v1 as tf`` programs) ---

def _reduction(fn: Callable) -> Callable:
    def reduce(input_tensor: Any, axis: Any = None, keepdims: Any = None, name: Any = None,
               reduction_indices: Any = None, keep_dims: Any = None) -> Any:
        axis = _one(axis, reduction_indices, "axis", "reduction_indices")
        keep = _one(keepdims, keep_dims, "keepdims", "keep_dims")
        return fn(input_tensor, axis=axis, keepdims=bool(keep), name=name)
    reduce.__name__ = fn.__name__
    reduce.__doc__ = f"TF1's ``{fn.__name__}`` (also ``reduction_indices=``, ``keep_dims=``)."
    return reduce


def _cast_to(dtype: Any, name: str) -> Callable:
    def to(x: Any, name: Any = None) -> Any:
        from ..ops.math import cast
        return cast(x, dtype)
    to.__name__ = name
    to.__doc__ = f"TF1's ``{name}``: ``tf.cast(x, {dtype.name})``."
    return to


def _arg(fn: Callable, name: str) -> Callable:
    def arg(input: Any, dimension: Any = None, output_type: Any = _dtypes.int64, name: Any = None) -> Any:  # noqa: A002
        return fn(input, axis=dimension, output_type=output_type)
    arg.__name__ = name
    arg.__doc__ = f"TF1's ``{name}(input, dimension)``."
    return arg


def assign(ref: Any, value: Any, validate_shape: Any = None, use_locking: Any = None, name: Any = None) -> Any:
    """TF1's ``tf.assign(ref, value)``: ``ref.assign(value)``."""
    return ref.assign(value)


def assign_add(ref: Any, value: Any, use_locking: Any = None, name: Any = None) -> Any:
    """TF1's ``tf.assign_add(ref, value)``: ``ref.assign_add(value)``."""
    return ref.assign_add(value)


def assign_sub(ref: Any, value: Any, use_locking: Any = None, name: Any = None) -> Any:
    """TF1's ``tf.assign_sub(ref, value)``: ``ref.assign_sub(value)``."""
    return ref.assign_sub(value)


def _tf1_aliases() -> dict:
    from .. import random as _random
    from ..ops import reduction as _r
    names = {f.__name__: _reduction(f) for f in (_r.reduce_sum, _r.reduce_mean, _r.reduce_max, _r.reduce_min,
                                                  _r.reduce_prod, _r.reduce_any, _r.reduce_all,
                                                  _r.reduce_logsumexp)}
    names.update(random_normal=_random.normal, truncated_normal=_random.truncated_normal,
                 random_uniform=_random.uniform, to_float=_cast_to(_dtypes.float32, "to_float"),
                 to_double=_cast_to(_dtypes.float64, "to_double"), to_int32=_cast_to(_dtypes.int32, "to_int32"),
                 to_int64=_cast_to(_dtypes.int64, "to_int64"), arg_max=_arg(_r.argmax, "arg_max"),
                 arg_min=_arg(_r.argmin, "arg_min"), assign=assign, assign_add=assign_add, assign_sub=assign_sub)
    return names


TF1_ALIASES = _tf1_aliases()
