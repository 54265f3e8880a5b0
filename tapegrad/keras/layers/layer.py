"""``keras.Layer``: Keras 3's layer on tapegrad's ``Module`` and ``Variable``.

A layer creates its weights in ``build(input_shape)`` on its first call, then runs ``call``.
``__call__`` converts array inputs to tensors (floats in the layer's compute dtype), builds,
checks ``input_spec``, passes ``training`` on as Keras 3.15's call context, carries masks from layer
to layer, and, given symbolic inputs (``keras.Input``), records a node of the functional graph
instead of computing.
"""
from __future__ import annotations

import difflib
import functools
import inspect
import threading
import weakref
from typing import Any, Callable, Iterator

import numpy as np

from .._engine import convert_to_tensor
from .._engine import Tensor
from .._engine import Variable
from .._engine import _recorders, innermost_graph, warn_outside
from ...errors import InvalidArgumentError
from ...module import Module
from ...ops.math import cast
from .. import backend, constraints, initializers, regularizers
from .._keras_tensor import KerasTensor, _is_shape, _masks, get_mask, set_mask, shapes_to_specs
from .._tree import flatten, map_structure
from .._scopes import get_stateless_scope
from .._variables import (KerasVariable, _MIXED, _autocast_read, _enter_autocast, _exit_autocast,
                          _scope_path, name_scope)
from ..metrics.metric import Metric
from ..random import SeedGenerator
from .input_spec import _check_input_spec
from .operation import Operation, _placeholder, spec_of_runs

__all__ = ["Layer"]


_ALLOWED_KWARGS = ("input_dim", "input_shape", "batch_input_shape", "batch_size", "weights")


class UnknownArgumentError(TypeError, ValueError):
    """An unknown keyword argument to a layer's constructor (Keras raises ValueError; Python's
    convention is TypeError: both catch it)."""


def _policy(dtype: Any) -> Any:
    """A layer's ``dtype`` argument (or the global policy) as a mixed DTypePolicy, else None."""
    from ..mixed_precision import DTypePolicy
    if isinstance(dtype, DTypePolicy):
        return dtype
    if isinstance(dtype, dict) and dtype.get("class_name") == "DTypePolicy":  # (Keras's config form)
        dtype = dtype["config"]["name"]
    if isinstance(dtype, str) and dtype.startswith("mixed_"):
        return DTypePolicy(dtype)
    if isinstance(dtype, dict) or isinstance(dtype, str) and "_from_" in dtype:  # (a quantized policy)
        from .. import dtype_policies
        return dtype_policies.get(dtype)
    return None


_untracked_warned: set = set()


def _warn_untracked(layer: "Layer", attr: str) -> None:
    key = (type(layer), attr)
    if key not in _untracked_warned:
        _untracked_warned.add(key)
        warn_outside(f"{type(layer).__name__}.{attr} holds a tf.Variable, which Keras 3 does not "
                     "track: it is not in the layer's weights, so fit() does not train it and "
                     "save_weights() does not save it. Create it with self.add_weight(...) or "
                     "keras.Variable(...) instead.")


# ---- call context --------------------------------------------------------------------------------

_holding_losses: "weakref.WeakSet[Layer]" = weakref.WeakSet()  # layers whose _losses is not empty
_context = threading.local()


def _call_stack() -> list:
    stack = getattr(_context, "stack", None)
    if stack is None:
        stack = _context.stack = []
    return stack


def _to_input(x: Any, layer: "Layer") -> Any:
    if isinstance(x, (str, bytes)) or isinstance(x, (np.ndarray, np.generic)) and x.dtype.kind in "USO":
        if layer._string_inputs:  # models and text preprocessing layers: a tf.string tensor
            from .._engine import to_bytes
            return convert_to_tensor(to_bytes(x))
        given = f"a NumPy array of dtype {x.dtype}" if isinstance(x, (np.ndarray, np.generic)) else repr(x)
        raise ValueError(f"Layer {layer.name!r} ({type(layer).__name__}) was called on {given}: "
                         "string inputs are not supported by tapegrad's Keras layers; "
                         f"expected numbers (this layer computes in {layer.compute_dtype}).")
    dtype, autocast = layer.compute_dtype, layer.autocast
    if isinstance(x, (np.ndarray, np.generic, list, float, int)) and not isinstance(x, bool):
        x = convert_to_tensor(x)
    elif not isinstance(x, (Tensor, Variable)):
        return x
    if autocast and x.dtype.is_floating and x.dtype.name != dtype:
        out = cast(x, dtype)
        mask = get_mask(x)
        if mask is not None:  # (the cast is the same sequence)
            set_mask(out, mask)
        return out
    return x


def _tensor_arg(x: Any) -> bool:
    """Keras's test for a tensor argument of ``call``: a tensor (arrays are converted to
    tensors), or a non-empty structure of tensors and Nones."""
    if isinstance(x, (Tensor, KerasTensor, Variable, np.ndarray, np.generic)):
        return True
    if isinstance(x, (list, tuple, dict)) and len(x):
        leaves = flatten(x)
        return all(v is None or isinstance(v, (Tensor, KerasTensor, Variable, np.ndarray, np.generic))
                   for v in leaves)
    return False


def _populate_masks(layer: "Layer", args: tuple, kwargs: dict) -> None:
    """Keras 3's mask arguments: a ``call`` with one tensor argument gets its mask as ``mask``;
    with more, each ``<name>_mask`` argument gets the mask of the tensor argument ``<name>``
    (so ``call(self, x, context, mask=None)`` gets no mask). Sets them in ``kwargs``."""
    try:
        bound = layer._call_signature.bind(*args, **kwargs)
    except TypeError:
        return  # (the call itself says what is wrong)
    bound.apply_defaults()
    given = bound.arguments
    tensors = {k: v for k, v in given.items() if _tensor_arg(v)}
    if len(tensors) == 1:
        names = {"mask": next(iter(tensors.values()))} if "mask" in given else {}
    else:
        names = {k + "_mask": v for k, v in tensors.items() if k + "_mask" in given}
    for name, value in names.items():
        if given[name] is None:
            masks = map_structure(get_mask, value)
            if any(m is not None for m in flatten(masks)):
                kwargs[name] = masks


def _previous_mask(first: Any, kwargs: dict) -> Any:
    """The mask the outputs inherit: the ``mask`` given (or populated), else the first input's,
    read before ``call`` (which may take it off, as MultiHeadAttention does); None when none."""
    mask = kwargs.get("mask")
    if mask is None and _masks:
        mask = map_structure(get_mask, first)
    return None if mask is None or all(m is None for m in flatten(mask)) else mask


@functools.lru_cache(maxsize=None)
def _first_call_arg(cls: type) -> str | None:
    """The name of the first argument of ``cls.call`` (after ``self``), or None."""
    params = [p for p in inspect.signature(cls.call).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return params[1].name if len(params) > 1 else None


def _sets_built(build: Callable) -> Callable:
    """A layer's ``build`` that marks the layer built when it returns, also when a program calls
    it directly (as Keras 3 wraps it): the first call then builds nothing again."""
    @functools.wraps(build)
    def build_then_built(self: Layer, *args: Any, **kwargs: Any) -> Any:
        out = build(self, *args, **kwargs)
        self.built = True
        return out
    build_then_built._sets_built = True
    return build_then_built


def _checks_quantize_args(quantize: Callable) -> Callable:
    """A layer's ``quantize`` that first resolves the config and checks the layer can be
    quantized in that mode, as Keras 3 wraps it."""
    @functools.wraps(quantize)
    def checked(self: Layer, mode: Any = None, config: Any = None, **kwargs: Any) -> Any:
        from ..quantizers.quantization_config import validate_and_resolve_config
        config = validate_and_resolve_config(mode, config)
        self._check_quantize_args(config.mode, self.compute_dtype)
        return quantize(self, mode=config.mode, config=config, **kwargs)
    checked._checks_args = True
    return checked


def _in_tf_graph() -> bool:
    """Whether a TensorFlow graph runs now: a tf.function (traced, or run eagerly in its place),
    a tf.data function, a Keras step (Keras's ``in_tf_graph``)."""
    return innermost_graph() is not None or _recorders.graph_runs()


class Layer(Operation, Module):
    """The base class of Keras layers: weights made in ``build``, computation in ``call``.

    Subclass it, create weights with :meth:`add_weight` in ``build(input_shape)`` (run on the
    first call) and compute in ``call(inputs, training=None, mask=None)``. Layers assigned to
    attributes (also inside lists and dicts) are tracked: their weights and losses are this
    layer's too.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> class Scale(keras.Layer):
    ...     def build(self, input_shape):
    ...         self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")
    ...     def call(self, x):
    ...         return x * self.w
    >>> layer = Scale()
    >>> layer(np.array([[1.0, 2.0]])).numpy()
    array([[1., 2.]], dtype=float32)
    >>> [w.name for w in layer.weights], layer.built
    (['w'], True)
    """

    _string_inputs = False  # True: string arrays become tf.string tensors (models, text layers)
    # True: Keras's DataLayer (the image preprocessing layers, Rescaling): in a TensorFlow graph
    # (a tf.data function, a tf.function) its inputs are first cast to its compute dtype
    _data_layer = False
    _tf_module = False  # (a tf.Module's variables and submodules leave a Keras layer out)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        build = cls.__dict__.get("build")
        if build is not None and not hasattr(build, "_sets_built"):
            cls.build = _sets_built(build)
        quantize = cls.__dict__.get("quantize")
        if quantize is not None and not hasattr(quantize, "_checks_args"):
            cls.quantize = _checks_quantize_args(quantize)

    def __new__(cls, *args: Any, **kwargs: Any) -> Layer:
        obj = super().__new__(cls)
        if not cls.__module__.startswith("tapegrad."):  # for the default get_config of your layers
            _init_args[obj] = (args, kwargs)
        return obj

    def __init__(self, *, activity_regularizer: Any = None, trainable: bool = True,
                 dtype: Any = None, autocast: bool = True, name: str | None = None,
                 **kwargs: Any) -> None:
        unknown = [k for k in kwargs if k not in _ALLOWED_KWARGS]
        if unknown:
            raise self._unknown_arguments(unknown)
        Operation.__init__(self, name=name)
        name = self.name
        d = self.__dict__
        d["_trainable"] = bool(trainable)
        d["_own_weights"] = []
        d["_weight_regularizers"] = []  # (variable, regularizer): kept by copies and pickles, as ids are not
        d["_losses"] = []
        d["built"] = False
        d["input_spec"] = None
        d["supports_masking"] = False
        if isinstance(dtype, dict) and dtype.get("class_name") == "DTypePolicy":  # (Keras's config form)
            dtype = dtype["config"]["name"]
        spec = dtype if dtype is not None else backend._state.get("dtype_policy")  # (keras.mixed_precision's)
        policy = _policy(spec)
        if policy is not None:
            dt = policy.variable_dtype
        else:
            dt = backend.standardize_dtype(getattr(spec, "name", spec) if not isinstance(spec, np.dtype) else spec)
            if dt not in ("float16", "bfloat16", "float32", "float64", "string", "bool") and dtype is not None and \
                    not np.issubdtype(np.dtype(dt), np.number):
                raise ValueError(f"Layer {name!r}: `dtype` must be a numeric dtype; received dtype={dtype!r}")
        d["_dtype"] = dt
        d["_compute_dtype"] = dt if policy is None else policy.compute_dtype
        d["_dtype_policy"] = policy
        if policy is not None and policy.compute_dtype != dt and not _MIXED[0]:
            _MIXED[0] = True
            KerasVariable._read = _autocast_read  # (until now, reads paid nothing for autocasting)
        d["autocast"] = bool(autocast)
        d["activity_regularizer"] = regularizers.get(activity_regularizer)
        shape = kwargs.get("batch_input_shape")
        if shape is None and "input_shape" in kwargs:
            shape = (kwargs.get("batch_size"),) + tuple(kwargs["input_shape"])
        if shape is None and "input_dim" in kwargs:
            shape = (kwargs.get("batch_size"), kwargs["input_dim"])
        d["_batch_input_shape"] = None if shape is None else tuple(shape)
        d["_initial_weights"] = kwargs.get("weights")
        sig = inspect.signature(self.call)
        d["_call_has_training"] = "training" in sig.parameters
        default = sig.parameters["training"].default if "training" in sig.parameters else None
        d["_training_default"] = None if default is inspect.Parameter.empty else default
        d["_call_has_mask"] = "mask" in sig.parameters
        d["_call_signature"] = sig
        d["_call_mask_args"] = any(n == "mask" or n.endswith("_mask") for n in sig.parameters)
        d["_build_params"] = [p for p in inspect.signature(self.build).parameters]

    def _unknown_arguments(self, unknown: list) -> UnknownArgumentError:
        known = set(_ALLOWED_KWARGS) | {"activity_regularizer", "trainable", "dtype", "autocast", "name"}
        for cls in type(self).__mro__:
            if "__init__" in vars(cls):
                known |= {p for p in inspect.signature(vars(cls)["__init__"]).parameters
                          if p not in ("self", "kwargs", "args")}
        hints = []
        for k in unknown:
            close = difflib.get_close_matches(k, sorted(known), n=1)
            hints.append(f"{k!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
        return UnknownArgumentError(
            f"Unrecognized keyword argument{'s' if len(unknown) > 1 else ''} passed to "
            f"{type(self).__name__}: {', '.join(hints)}. Its arguments are: {', '.join(sorted(known))}.")

    # -- attributes and tracking ------------------------------------------------------------------

    def _sublayers(self) -> Iterator["Layer"]:
        """Layers held by attributes (in the order they were set, inside lists and dicts)."""
        seen = {id(self)}
        for k, v in self.__dict__.items():
            if k.startswith("_own") or k == "_inbound_nodes":
                continue
            for leaf in flatten(v) if isinstance(v, (list, tuple, dict)) else [v]:
                if isinstance(leaf, Layer) and id(leaf) not in seen:
                    seen.add(id(leaf))
                    yield leaf

    def _flatten_layers(self, include_self: bool = True, recursive: bool = True) -> list:
        out, seen = [], set()

        def visit(layer: Layer) -> None:
            for sub in layer._sublayers():
                if id(sub) not in seen:
                    seen.add(id(sub))
                    out.append(sub)
                    if recursive:
                        visit(sub)
        visit(self)
        return [self] + out if include_self else out

    _UNTRACKED_ATTRS: frozenset = frozenset({"_inbound_nodes"})

    def _tracked_metrics(self) -> list:
        """The metrics this layer's attributes hold (inside lists and dicts too), as Keras tracks them."""
        out, seen = [], set()
        for k, v in self.__dict__.items():
            if k.startswith("_own") or k in self._UNTRACKED_ATTRS:
                continue
            for leaf in flatten(v) if isinstance(v, (list, tuple, dict)) else [v]:
                if isinstance(leaf, Metric) and id(leaf) not in seen:
                    seen.add(id(leaf))
                    out.append(leaf)
        return out

    @property
    def metrics(self) -> list:
        """The ``keras.metrics.Metric`` objects this layer's attributes hold, then each sublayer's
        (``fit`` reports and resets them with the model's own).

        >>> from tapegrad import keras
        >>> class Scored(keras.layers.Layer):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.total = keras.metrics.Sum(name="total")
        >>> [m.name for m in Scored().metrics]
        ['total']
        """
        out = self._tracked_metrics()
        for layer in self._sublayers():
            out.extend(layer.metrics)
        return out

    @property
    def metrics_variables(self) -> list:
        """The state variables of :attr:`metrics`, metric by metric (Keras 3's list)."""
        return [v for m in self.metrics for v in m.variables]

    # -- tf.train.Checkpoint ------------------------------------------------------------------------
    # attribute -> the name Keras 3's own layer gives that weight (its Dense keeps `_kernel`)
    _checkpoint_names: dict = {}
    # tapegrad's bookkeeping, which Keras 3 keeps in its tracker, out of TensorFlow's sight
    _NOT_CHECKPOINTED = frozenset({"_own_weights", "_weight_regularizers", "_losses", "_layers_list",
                                   "_operations_list", "_stack", "_input", "_inbound_nodes",
                                   "_initial_weights"})

    def _trackable_children(self) -> dict:
        """What ``tf.train.Checkpoint`` saves under this layer, named as TensorFlow names a Keras 3
        layer's children: each attribute holding a variable, a layer, an optimizer (a compiled
        model's) or a ``tf.Module``, by attribute name; a functional model's layers as
        ``_operations/<i>`` and a Sequential's as ``_functional/_operations/<i>``. Lists and dicts
        of them are kept by index and key, and a weight no attribute holds as
        ``_own_weights/<i>``, where TensorFlow drops both (docs/differences.md)."""
        children: dict = {}
        reached: set = set()

        def keep(v: Any) -> Any:
            if isinstance(v, (Variable, Layer, Module)) or (hasattr(v, "apply_gradients")
                                                          and hasattr(v, "iterations")):
                if isinstance(v, Variable):
                    reached.add(id(v))
                return v
            if isinstance(v, (list, tuple)):
                kept = {str(i): k for i, k in ((i, keep(x)) for i, x in enumerate(v)) if k is not None}
                return kept or None
            if isinstance(v, dict):
                kept = {k: c for k, c in ((k, keep(x)) for k, x in v.items() if isinstance(k, str))
                        if c is not None}
                return kept or None
            return None

        d = self.__dict__
        if d.get("_functional") is True and "_operations_list" in d:
            children["_operations"] = {str(i): op for i, op in enumerate(d["_operations_list"])
                                       if isinstance(op, Layer)}
        elif "_stack" in d and self.built:  # (a Sequential: its layers after Keras's InputLayer)
            children["_functional"] = {"_operations": {str(i + 1): layer
                                                       for i, layer in enumerate(d["_stack"])}}
        for name in sorted(d):
            if name in self._NOT_CHECKPOINTED:
                continue
            value = keep(d[name])
            if value is not None:
                children[self._checkpoint_names.get(name, name)] = value
        for i, v in enumerate(d.get("_own_weights", ())):
            if id(v) not in reached:
                children[f"_own_weights/{i}"] = v
        return children

    def _own_variables(self) -> list:
        own = list(self._own_weights)
        ids = {id(v) for v in own}
        for k, v in self.__dict__.items():
            if k.startswith("_"):
                continue
            for leaf in flatten(v) if isinstance(v, (list, tuple, dict)) else [v]:
                if isinstance(leaf, KerasVariable):
                    if id(leaf) not in ids:
                        ids.add(id(leaf))
                        own.append(leaf)
                elif isinstance(leaf, Variable):
                    _warn_untracked(self, k)
        return own

    # -- properties -------------------------------------------------------------------------------

    @property
    def name(self) -> str:
        return self._name

    @property
    def trainable(self) -> bool:  # type: ignore[override]
        """Whether the optimizer updates this layer's weights (setting it sets the sublayers')."""
        return self._trainable

    @trainable.setter
    def trainable(self, value: bool) -> None:
        self.__dict__["_trainable"] = bool(value)
        for layer in self._sublayers():
            layer.trainable = value

    @property
    def dtype(self) -> str:
        """The dtype of the layer's weights (its policy's ``variable_dtype``)."""
        return self._dtype

    @property
    def variable_dtype(self) -> str:
        return self._dtype

    @property
    def compute_dtype(self) -> str:
        """The dtype the layer computes in; float inputs are cast to it (with
        ``"mixed_float16"``, float16 while the weights are float32)."""
        return self._compute_dtype

    @property
    def input_dtype(self) -> str:
        return self.compute_dtype

    @property
    def dtype_policy(self) -> Any:
        """The layer's :class:`~tapegrad.keras.mixed_precision.DTypePolicy`; setting a quantized
        policy (``"int8_from_float32"``) on a built layer quantizes it."""
        from ..mixed_precision import DTypePolicy
        return self.__dict__.get("_dtype_policy") or DTypePolicy(self._dtype)

    @dtype_policy.setter
    def dtype_policy(self, value: Any) -> None:
        from .. import dtype_policies
        policy = dtype_policies.get(value)
        d = self.__dict__
        d["_dtype_policy"], d["_dtype"], d["_compute_dtype"] = policy, policy.variable_dtype, policy.compute_dtype
        if policy.compute_dtype != policy.variable_dtype and not _MIXED[0]:
            _MIXED[0] = True
            KerasVariable._read = _autocast_read
        if policy.quantization_mode is not None and self.built and not d.get("_is_quantized"):
            self.quantize(policy.quantization_mode)

    # -- quantization (Keras 3's hooks; Dense, EinsumDense and Embedding implement them) ---------

    @property
    def quantization_mode(self) -> str | None:
        """The quantization mode of this layer (``"int8"``, ...), ``None`` if not quantized."""
        policy = self.__dict__.get("_dtype_policy")
        return None if policy is None else policy.quantization_mode

    def quantize(self, mode: str | None = None, type_check: bool = True, config: Any = None) -> None:
        """Quantize the layer's weights in ``mode`` (``"int8"``, ``"int4"``, ``"float8"``), or as
        ``config`` (a ``keras.quantizers.QuantizationConfig``) says; the layer must be built.
        Dense, EinsumDense and Embedding implement it; other layers raise NotImplementedError.

        >>> from tapegrad import keras
        >>> layer = keras.layers.Dense(2)
        >>> layer.build((None, 3))
        >>> layer.quantize("int8")
        >>> layer.quantization_mode, [w.name for w in layer.weights]
        ('int8', ['bias', 'kernel', 'kernel_scale'])
        """
        raise self._not_implemented_error(self.quantize)

    def quantized_build(self, input_shape: Any, mode: str) -> None:
        raise self._not_implemented_error(self.quantized_build)

    def _check_quantize_args(self, mode: str, compute_dtype: str) -> None:
        from ..dtype_policies import QUANTIZATION_MODES
        if not self.built:
            raise ValueError(f"Cannot quantize a layer that isn't yet built. Layer '{self.name}' (of type "
                             f"'{type(self).__name__}') is not built yet.")
        if self.__dict__.get("_is_quantized"):
            raise ValueError(f"Layer '{self.name}' is already quantized with dtype_policy="
                             f"'{self.dtype_policy.name}'. Received: mode={mode}")
        if mode not in QUANTIZATION_MODES:
            raise ValueError(f"Invalid quantization mode. Expected one of {QUANTIZATION_MODES}. Received: mode={mode}")
        if mode == "int8" and compute_dtype == "float16":
            raise ValueError(f"Quantization mode='{mode}' doesn't work well with compute_dtype='float16'. "
                             "Consider loading model/layer with another dtype policy such as 'mixed_bfloat16' "
                             "or 'mixed_float16' before calling `quantize()`.")

    def quantized_call(self, *args: Any, **kwargs: Any) -> Any:
        """``call`` of a quantized layer: its ``_int8_call`` (``_int4_call``, ``_float8_call``)."""
        mode = self.quantization_mode
        if mode == "int8":
            return self._int8_call(*args, **kwargs)
        if mode == "float8":
            return self._float8_call(*args, **kwargs)
        if mode == "int4":
            return self._int4_call(*args, **kwargs)
        raise self._quantization_mode_error(mode)

    def _int8_call(self, *args: Any, **kwargs: Any) -> Any:
        raise self._not_implemented_error(self._int8_call)

    def _int4_call(self, *args: Any, **kwargs: Any) -> Any:
        raise self._not_implemented_error(self._int4_call)

    def _float8_call(self, *args: Any, **kwargs: Any) -> Any:
        raise self._not_implemented_error(self._float8_call)

    def __delattr__(self, name: str) -> None:
        value = self.__dict__.get(name)
        super().__delattr__(name)
        if isinstance(value, KerasVariable):  # (as Keras 3: `del self.kernel` drops the weight)
            self._untrack_weight(value)

    def _untrack_weight(self, v: Any) -> None:
        """Stop tracking the weight ``v`` (``del self.kernel``, as before a quantized build)."""
        d = self.__dict__
        d["_own_weights"] = [w for w in d["_own_weights"] if w is not v]
        d["_weight_regularizers"] = [(w, r) for w, r in d["_weight_regularizers"] if w is not v]

    def _weights_trainable_first(self) -> None:
        """Order the own weights as Keras 3 lists them (trainable, then the rest): a quantized
        layer's kernel is made after its bias when quantized in place, before it when built."""
        self.__dict__["_own_weights"] = _trainable_first(self.__dict__["_own_weights"])

    def _float8_weights_first(self) -> None:
        """Put a float8 layer's scales and amax histories first, where building it from its
        policy puts them (docs/differences.md: Keras puts them last when quantizing in place)."""
        own = self.__dict__["_own_weights"]
        first = [v for v in own if getattr(v, "overwrite_with_gradient", False)]
        self.__dict__["_own_weights"] = first + [v for v in own if not getattr(v, "overwrite_with_gradient", False)]

    def _not_implemented_error(self, attr: Any, msg: str | None = None) -> NotImplementedError:
        kind, name = ("method", attr.__name__) if callable(attr) else ("attribute", str(attr))
        return NotImplementedError(f"Layer {type(self).__name__} does not have a `{name}` {kind} "
                                   f"implemented.{'' if msg is None else ' ' + msg}")

    def _quantization_mode_error(self, mode: Any) -> NotImplementedError:
        from ..dtype_policies import QUANTIZATION_MODES
        return NotImplementedError(f"Invalid quantization mode. Expected one of {QUANTIZATION_MODES}. "
                                   f"Received: quantization_mode={mode}")

    @property
    def weights(self) -> list:
        """Every weight: this layer's own (the trainable ones, then the others, each in creation
        order, as Keras 3 lists them), then each sublayer's."""
        out, seen = [], set()
        own = self._own_variables()
        own = [v for v in own if v.trainable] + [v for v in own if not v.trainable]
        for v in own + [v for layer in self._sublayers() for v in layer.weights]:
            if id(v) not in seen:
                seen.add(id(v))
                out.append(v)
        return out

    @property
    def trainable_weights(self) -> list:
        """The weights the optimizer updates (none if the layer is not trainable)."""
        if not self._trainable:
            return []
        out, seen = [], set()
        for v in ([v for v in self._own_variables() if v.trainable]
                  + [v for layer in self._sublayers() for v in layer.trainable_weights]):
            if id(v) not in seen:
                seen.add(id(v))
                out.append(v)
        return out

    @property
    def non_trainable_weights(self) -> list:
        """The weights the optimizer leaves alone (all of them if the layer is not trainable)."""
        trainable = {id(v) for v in self.trainable_weights}
        return [v for v in self.weights if id(v) not in trainable]

    @property
    def variables(self) -> list:
        """Every variable: the weights, and the state of each ``keras.random.SeedGenerator`` the
        layers hold (Keras 3: ``variables`` is the layer's whole state; :attr:`weights` leaves
        the seeds out). This layer's own, its seed generators', then each sublayer's."""
        out, seen = [], set()
        for v in (self._own_variables() + self._seed_states()
                  + [v for layer in self._sublayers() for v in layer.variables]):
            if id(v) not in seen:
                seen.add(id(v))
                out.append(v)
        return out

    trainable_variables = trainable_weights  # type: ignore[assignment]

    @property
    def non_trainable_variables(self) -> list:
        """The variables the optimizer leaves alone: the non-trainable weights and the seed
        generators' states (all of :attr:`variables` if the layer is not trainable)."""
        trainable = {id(v) for v in self.trainable_weights}
        return [v for v in self.variables if id(v) not in trainable]

    def _seed_states(self) -> list:
        """The states of the seed generators held by attributes (private ones too, as Keras
        tracks every attribute), in the order they were set."""
        out = []
        for k, v in self.__dict__.items():
            if k.startswith("_own") or k == "_inbound_nodes":
                continue
            for leaf in flatten(v) if isinstance(v, (list, tuple, dict)) else [v]:
                if isinstance(leaf, SeedGenerator):
                    out.append(leaf.state)
        return out

    @property
    def submodules(self) -> tuple:
        return tuple(self._flatten_layers(include_self=False))

    # -- weights ----------------------------------------------------------------------------------

    def add_weight(self, shape: Any = None, initializer: Any = None, dtype: Any = None,
                   trainable: bool = True, autocast: bool = True, regularizer: Any = None,
                   constraint: Any = None, aggregation: str = "none",
                   overwrite_with_gradient: bool = False, name: str | None = None) -> Variable:
        """Create a weight of ``shape``, initialised by ``initializer`` (a name, an initializer or
        a callable; default ``"glorot_uniform"`` for floats, ``"zeros"`` otherwise), and track it.
        ``regularizer`` adds its penalty to :attr:`losses`; ``constraint`` is applied after each
        optimizer update.
        """
        if isinstance(shape, str):
            raise ValueError("`name` must be passed as a keyword argument. Received: "
                             f"add_weight({shape!r}, ...). Use: add_weight(shape=..., name={shape!r}).")
        shape = () if shape is None else tuple(int(d) for d in shape)
        dt = self._dtype if dtype is None else backend.standardize_dtype(dtype)
        if initializer is None:
            initializer = "glorot_uniform" if "float" in dt else "zeros"
        init = initializers.get(initializer)
        value = init(shape, dtype=dt)
        if isinstance(constraint, (str, dict, type)):
            constraint = constraints.get(constraint)
        if constraint is not None and not callable(constraint):
            raise ValueError(f"Layer {self.name!r}: `constraint` must be a callable; got {constraint!r}")
        with name_scope(self):  # (also when `build` is called directly)
            v = KerasVariable(value, trainable=trainable, name=name, dtype=dt, constraint=constraint,
                              autocast=autocast, aggregation=aggregation)
        if overwrite_with_gradient:
            v.overwrite_with_gradient = True
        reg = regularizers.get(regularizer)
        if reg is not None:
            self._weight_regularizers.append((v, reg))
        self._own_weights.append(v)
        return v

    def save_own_variables(self, store: dict) -> None:
        """Put this layer's own variables (trainable first) in ``store`` as ``store["0"]``,
        ``store["1"]``, ... (Keras's hook, which ``model.save`` calls for a layer that overrides
        it, with a store of its own per layer path; override both it and
        :meth:`load_own_variables` to save other state)."""
        for i, v in enumerate(_trainable_first(self._own_variables())):
            store[f"{i}"] = v.numpy()

    def load_own_variables(self, store: dict) -> None:
        """Assign this layer's own variables from ``store`` (as :meth:`save_own_variables` wrote
        it)."""
        own = _trainable_first(self._own_variables())
        if len(store) != len(own):
            raise ValueError(f"Layer '{self.name}' expected {len(own)} variables, but received "
                             f"{len(store)} variables during loading. Expected: {[v.name for v in own]}")
        for i, v in enumerate(own):
            v.assign(store[f"{i}"])

    def get_weights(self) -> list:
        """The weights' values as NumPy arrays, in the order of :attr:`weights`."""
        return [v.numpy() for v in self.weights]

    def set_weights(self, weights: Any) -> None:
        """Assign NumPy arrays to the weights, in the order of :attr:`weights`."""
        mine = self.weights
        weights = list(weights)
        if len(weights) != len(mine):
            raise ValueError(f"You called `set_weights(weights)` on layer {self.name!r} with a weight "
                             f"list of length {len(weights)}, but the layer was expecting "
                             f"{len(mine)} weights.")
        for v, w in zip(mine, weights):
            w = np.asarray(w)
            if tuple(v.shape) != w.shape:
                raise ValueError(f"Layer {self.name} weight shape {tuple(v.shape)} is not compatible "
                                 f"with provided weight shape {w.shape}.")
        for v, w in zip(mine, weights):
            v.assign(np.asarray(w).astype(v.dtype.name))

    def count_params(self) -> int:
        """The number of scalars in the weights (the layer must be built)."""
        if not self.built:
            raise ValueError(f"You tried to call `count_params` on layer '{self.name}', but the layer "
                             "isn't built. You can build it manually via: "
                             f"`layer.build(input_shape)`.")
        return int(sum(int(np.prod(v.shape)) for v in self.weights))

    # -- losses -----------------------------------------------------------------------------------

    def add_loss(self, loss: Any) -> None:
        """Add a scalar (or a tensor, summed) to :attr:`losses` for this call."""
        scope = get_stateless_scope()
        if scope is not None:  # (as Keras: kept by a collecting scope, else dropped)
            if scope.collect_losses:
                for x in flatten(loss):
                    scope.add_loss(x)
            return
        for x in flatten(loss):
            self._losses.append(x)
        _holding_losses.add(self)

    def _clear_losses(self) -> None:
        if not _holding_losses:  # no layer holds losses: no need to walk the sublayers
            return
        for layer in self._flatten_layers():
            layer._losses.clear()
            _holding_losses.discard(layer)

    @property
    def losses(self) -> list:
        """Losses from ``add_loss`` in the last call (this layer's and its sublayers'), then the
        penalties of the weights' regularizers (recomputed now, so a tape records them)."""
        out = []
        for layer in self._flatten_layers():
            out.extend(layer._losses)
        regs = {id(v): r for layer in self._flatten_layers() for v, r in layer._weight_regularizers}
        out.extend(regs[id(v)](v) for v in self.trainable_weights if id(v) in regs)
        return out

    # -- building and calling ---------------------------------------------------------------------

    def build(self, input_shape: Any = None) -> None:
        """Create the weights for inputs of ``input_shape`` (run on the first call)."""
        self.built = True
    build._default_build = True  # (Keras's build by tracing applies: see _build_by_tracing)

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        """The computation; a subclass overrides it."""
        raise NotImplementedError(f"Layer {type(self).__name__} does not have a `call()` method "
                                  "implemented.")

    def _maybe_build(self, args: tuple, kwargs: dict) -> None:
        if self.built:
            return
        shapes = map_structure(lambda x: tuple(x.shape) if hasattr(x, "shape") else x, args[0])
        self.__dict__["_build_input_shape"] = shapes  # a saved model's build_config
        params = self._build_params
        if getattr(type(self).build, "_default_build", False):
            pass  # (Keras: no build of its own, built by tracing call on all its arguments above)
        elif len(params) <= 1:
            self.build(*([shapes] if params else []))
        else:  # build(self, a_shape, b_shape): shapes of call's arguments a and b
            names = list(inspect.signature(self.call).parameters)
            bound = dict(zip(names, args), **kwargs)
            shapes_dict = {p: map_structure(lambda x: tuple(x.shape), bound[p[:-6]])
                           for p in params if p.endswith("_shape") and bound.get(p[:-6]) is not None}
            self.__dict__["_build_shapes_dict"] = shapes_dict  # Keras's build_config of such a layer
            self.build(**shapes_dict)
        self.built = True
        if self._initial_weights is not None:
            self.set_weights(self._initial_weights)
            self.__dict__["_initial_weights"] = None

    def _build_by_tracing(self, args: tuple, kwargs: dict) -> None:
        """Keras 3 builds a layer that has no ``build`` of its own and holds unbuilt layers by
        tracing ``call`` once on the call's own arguments in a ``StatelessScope``: the sublayers
        get their weights, and what ``call`` does to its argument objects stays (a
        MultiHeadAttention takes their masks off). A trace that fails is left to the call."""
        if not getattr(type(self).build, "_default_build", False) or self.__dict__.get("_functional") \
                or all(sub.built for sub in self._sublayers()):
            return
        layers = self._flatten_layers()
        losses = [list(layer._losses) for layer in layers]
        try:
            with backend.StatelessConstruction(self.weights):
                self.call(*args, **kwargs)
        except Exception:  # (Keras: an eager call builds the state itself)
            pass
        finally:
            for layer, kept in zip(layers, losses):  # (a trace's add_loss goes to its scope)
                layer._losses[:] = kept
                if not kept:
                    _holding_losses.discard(layer)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if "_own_weights" not in self.__dict__:
            raise RuntimeError(f"{type(self).__name__}.__init__ did not call super().__init__().")
        if not args:  # (Keras's CallSpec: call's first argument given by its name)
            first = _first_call_arg(type(self))
            key = first if first in kwargs else "inputs" if "inputs" in kwargs else None
            if key is None:
                raise TypeError(f"Layer {self.name!r} was called without inputs: pass them positionally, "
                                f"or as the keyword {first or 'inputs'!r} (call's first argument).")
            args = (kwargs.pop(key),)
        if (len(args) > 1 or kwargs or type(args[0]) is not Tensor) and \
                any(isinstance(x, KerasTensor) for x in flatten((args, kwargs))):
            return self.symbolic_call(*args, **kwargs)
        first = args[0]
        first = _to_input(first, self) if type(first) is Tensor else \
            map_structure(lambda x: _to_input(x, self), first)
        if self._data_layer and _in_tf_graph():  # (Keras's DataLayer in a TF graph: tf.data, a tf.function)
            first = map_structure(lambda x: cast(convert_to_tensor(x), self.compute_dtype), first)
        args = (first,) + tuple(args[1:])
        stack = _call_stack()
        if not stack:   # (the outermost call starts Keras's call context)
            _context.training = None
        if "training" in kwargs:   # (Keras 3.15: given, else the context's, else call's default;
            training = kwargs.pop("training") if not self._call_has_training else kwargs["training"]
        else:                      # stashed in the context for every layer called after it)
            training = _context.training if _context.training is not None else self._training_default
        _context.training = training
        if self._call_has_training and training is not None:
            kwargs["training"] = bool(training) if not isinstance(training, Tensor) else training
        if not stack:
            self._clear_losses()
        path = _scope_path()
        path.append(self)
        try:
            if not self.built:
                self._build_by_tracing(args, kwargs)
                _context.training = training   # (Keras traces before its call context is set)
            self._maybe_build(args, kwargs)
            if self._call_mask_args and _masks:  # (as Keras, after building: a build run that
                _populate_masks(self, args, kwargs)  # takes masks off, as MultiHeadAttention does,
            previous_mask = _previous_mask(args[0], kwargs)  # leaves none to the first call)
            _check_input_spec(self.input_spec, args[0], self.name)
            stack.append(self)
            cast_state = _enter_autocast(self) if _MIXED[0] else None
            try:
                policy = self._dtype_policy
                outputs = (self.call if policy is None or policy.quantization_mode is None
                           else self.quantized_call)(*args, **kwargs)
            except InvalidArgumentError as e:
                raise self._dtype_error(args[0], e) from e
            finally:
                if cast_state is not None:
                    _exit_autocast(cast_state)
                stack.pop()
        finally:
            path.pop()
        if self.activity_regularizer is not None:
            for out in flatten(outputs):
                if isinstance(out, Tensor):  # divided by the batch size, as Keras 3
                    loss = self.activity_regularizer(out)
                    self.add_loss(loss / out.shape[0] if out.ndim and out.shape[0] else loss)
        self._set_output_masks(args[0], previous_mask, outputs)
        return outputs

    def _dtype_error(self, inputs: Any, error: InvalidArgumentError) -> InvalidArgumentError:
        """``error`` with the layer named, when the inputs' dtypes disagree with each other or
        with the layer's (Keras would promote them; tapegrad, like TF ops, does not)."""
        dts = [(i, t.dtype.name) for i, t in enumerate(flatten(inputs)) if isinstance(t, (Tensor, Variable))]
        names = {d for _, d in dts}
        if not names or names == {self.compute_dtype} or "dtype" not in error.message or \
                getattr(error, "layer", None) is not None:
            return error  # (not a dtype clash, or an inner layer has named itself already)
        given = ", ".join(f"{d} (input {i})" for i, d in dts) if len(dts) > 1 else dts[0][1]
        want = self.compute_dtype if any(d == self.compute_dtype or "float" in d for d in names) \
            or len(names) == 1 else "one dtype"
        cast_to = want if want != "one dtype" else sorted(names)[0]
        named = InvalidArgumentError(
            f"Layer {self.name!r} ({type(self).__name__}) was called on inputs of dtype {given}; "
            f"expected {want if want == 'one dtype' else 'dtype ' + want} (float inputs are cast "
            f"to the layer's {self.compute_dtype}, other dtypes are not converted). Cast them "
            f"first, e.g. tf.cast(x, tf.{cast_to}). The op said: {error.message}")
        named.layer = self.name
        return named

    def _set_output_masks(self, inputs: Any, mask: Any, outputs: Any) -> None:
        if type(self).compute_mask is Layer.compute_mask and (not self.supports_masking or
                                                              mask is None and not _masks):
            return  # (no mask anywhere: every output's mask is None already)
        if all(get_mask(o) is not None for o in flatten(outputs)):
            return  # (as Keras: masks that call set stay)
        if mask is None:
            mask = map_structure(get_mask, inputs)
            if all(m is None for m in flatten(mask)):
                mask = None
        out_mask = self.compute_mask(inputs, mask)
        outs, masks = flatten(outputs), flatten(out_mask) if isinstance(out_mask, (list, tuple)) \
            else [out_mask] * len(flatten(outputs))
        for o, m in zip(outs, masks):
            set_mask(o, m)

    def compute_mask(self, inputs: Any, previous_mask: Any = None) -> Any:
        """The mask of the outputs: the input's mask if ``supports_masking``, else None."""
        return previous_mask if self.supports_masking else None

    # -- shapes -----------------------------------------------------------------------------------

    def compute_output_shape(self, input_shape: Any) -> Any:
        """The output shape for ``input_shape`` (``None`` for unknown dims).

        Found by running ``call`` on zeros twice, with unknown dims 2 then 3: output dims that
        differ are unknown.
        """
        return map_structure(lambda t: t.shape, self.compute_output_spec(shapes_to_specs(input_shape)))

    def compute_output_spec(self, *args: Any, **kwargs: Any) -> Any:
        """KerasTensors with the shapes, dtypes and masks ``call`` gives for KerasTensor inputs.

        As Keras 3 (which calls ``call`` on symbolic placeholders in a ``StatelessScope``), this
        changes nothing: ``call`` runs on zeros (unknown dims 2, then 3: output dims that differ
        are unknown) inside :class:`~tapegrad.keras.backend.StatelessConstruction`, so variables
        it assigns and ``SeedGenerator`` s it advances keep their values, its random ops leave the
        eager stream alone, and Python's and NumPy's generators move on by one run's draws (Keras
        runs the Python code once)."""
        if type(self).compute_output_shape is not Layer.compute_output_shape:
            shapes = map_structure(lambda x: x.shape if isinstance(x, KerasTensor) else x, args[0])
            out = self.compute_output_shape(shapes)
            dt = self.compute_dtype
            outs = (KerasTensor(out, dt) if _is_shape(out)
                    else map_structure(lambda s: KerasTensor(s.shape, dt), _shapes_as_lists(out)))
            return self._symbolic_masks(args, kwargs, outs)

        def run(a: tuple, k: dict) -> Any:
            a = (map_structure(lambda x: _to_input(x, self), a[0]),) + tuple(a[1:])  # (as __call__)
            stack, outer = _call_stack(), getattr(_context, "training", None)
            stack.append(self)
            _context.training = False
            try:
                with name_scope(self):
                    self._maybe_build(a, k)
                    if self._call_mask_args:
                        _populate_masks(self, a, k)
                    previous_mask = _previous_mask(a[0], k)
                    cast_state = _enter_autocast(self)
                    try:
                        policy = self._dtype_policy
                        out = (self.call if policy is None or policy.quantization_mode is None
                               else self.quantized_call)(*a, **k)
                    finally:
                        _exit_autocast(cast_state)
                    self._set_output_masks(a[0], previous_mask, out)
            finally:
                stack.pop()
                _context.training = outer
            return out

        def spec(o2: Any, o3: Any) -> KerasTensor:
            t = KerasTensor([d2 if d2 == d3 else None for d2, d3 in zip(o2.shape, o3.shape)],
                            o2.dtype.name)
            m2, m3 = get_mask(o2), get_mask(o3)
            if m2 is not None and m3 is not None:
                t._keras_mask = KerasTensor([d2 if d2 == d3 else None for d2, d3 in zip(m2.shape, m3.shape)], "bool")
            return t
        return spec_of_runs(run, args, kwargs, lambda: self.weights, spec)

    def _symbolic_masks(self, args: tuple, kwargs: dict, outputs: Any) -> Any:
        """``outputs`` (KerasTensors) with the masks Keras's ``compute_mask`` gives them for the
        symbolic inputs (bool KerasTensors), found on placeholders as ``compute_output_spec``."""
        supports = type(self).compute_mask is not Layer.compute_mask or self.supports_masking
        inputs = args[0]
        masks = kwargs.get("mask")
        if masks is None:
            masks = map_structure(lambda x: getattr(x, "_keras_mask", None), inputs)
        if not supports or (type(self).compute_mask is Layer.compute_mask and
                            all(m is None for m in flatten(masks))):
            return outputs
        with backend.StatelessConstruction(self.weights):
            x = map_structure(lambda t: _placeholder(t, 2), inputs)
            m = map_structure(lambda t: _placeholder(t, 2), masks)
            out_masks = self.compute_mask(x, m if any(v is not None for v in flatten(m)) else None)
        outs = flatten(outputs)
        ms = flatten(out_masks) if isinstance(out_masks, (list, tuple)) else [out_masks] * len(outs)
        for o, mask in zip(outs, ms):
            if mask is not None:
                o._keras_mask = KerasTensor([None if i < len(o.shape) and o.shape[i] is None else d
                                             for i, d in enumerate(mask.shape)], "bool")
        return outputs

    def symbolic_call(self, *args: Any, **kwargs: Any) -> Any:
        if not self.built:
            shapes = map_structure(lambda x: x.shape if isinstance(x, KerasTensor) else x, args[0])
            with name_scope(self):
                self._maybe_build((shapes_to_specs(shapes),) + tuple(args[1:]), kwargs)
        _check_input_spec(self.input_spec, args[0], self.name)
        return self._record_node(args, kwargs, self.compute_output_spec(*args, **kwargs))

    # -- config -----------------------------------------------------------------------------------

    def get_config(self) -> dict:
        """The constructor arguments that remake this layer (``from_config``).

        A layer class of your own that does not define ``get_config`` gets, as in Keras 3, the
        arguments it was created with when they are plain values (strings, numbers, booleans,
        ``None``, and lists, tuples and dicts of them); otherwise ``NotImplementedError`` asks
        for a ``get_config``."""
        policy = self.__dict__.get("_dtype_policy")
        config = {"name": self.name, "trainable": self.trainable,  # (the dtype policy as Keras 3 serializes it)
                  "dtype": {"module": "keras", "class_name": "DTypePolicy",
                            "config": {"name": self.dtype if policy is None else policy.name}, "registered_name": None}}
        if policy is not None and policy.quantization_mode is not None:
            from ..dtype_policies import serialize
            config["dtype"] = serialize(policy)
        # (no batch_input_shape, as Keras 3: a layer made with input_shape= passes it to the
        # Sequential model it starts, whose config holds it as an InputLayer; a clone of the
        # layer has none, so a Sequential begun with the clone is built only when called)
        return auto_config(self, config)

    @classmethod
    def from_config(cls, config: dict) -> "Layer":
        return cls(**config)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"


_init_args: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # user layer -> its arguments


def _plain(x: Any) -> bool:
    if isinstance(x, (list, tuple)):
        return all(_plain(v) for v in x)
    if isinstance(x, dict):
        return all(_plain(v) for v in x.values())
    return x is None or isinstance(x, (str, int, float, bool))


_DEFAULT_GET_CONFIG = {(__name__, "Layer"), ("tapegrad.keras.models.model", "Model")}


def auto_config(layer: Layer, base: dict) -> dict:
    """``base``, or for a class of the user's without ``get_config``, Keras 3's default config:
    ``name``, then every ``__init__`` argument with its default filled in when all are plain
    values, then the rest of ``base``.

    As in Keras 3, a subclassed Model's config holds its ``__init__`` defaults, not the values it
    was created with (``Model.__new__`` passes no arguments on), so such a model whose
    ``__init__`` has an argument without a default cannot be configured."""
    cls = type(layer)
    own = [k for k in cls.__mro__ if k is not object and not k.__module__.startswith("tapegrad.")]
    definer = next(k for k in cls.__mro__ if "get_config" in vars(k))
    if not own or (definer.__module__, definer.__name__) not in _DEFAULT_GET_CONFIG:
        return base  # (Keras: only a get_config that is still Layer's or Model's own gives the auto config)
    args, kwargs = _init_args.get(layer, ((), {}))
    if layer.__dict__.get("_functional") is False:
        args, kwargs = (), {}
    sig = inspect.signature(cls.__init__)
    params = list(sig.parameters.values())
    given: dict | None = None
    positional = False
    try:
        bound = sig.bind(None, *args, **kwargs)
    except TypeError:
        bound = None
    if bound is not None and any(p.kind is p.POSITIONAL_ONLY for p in params[1:]):
        positional = True
    elif bound is not None:
        bound.apply_defaults()
        given = dict(bound.arguments)
        given.pop(params[0].name)
        var_kw = next((p.name for p in params if p.kind is p.VAR_KEYWORD), None)
        given.update(given.pop(var_kw, {}) if var_kw else {})
        given.pop("name", None)
        var_pos = next((p.name for p in params if p.kind is p.VAR_POSITIONAL), None)
        if var_pos is not None and given.pop(var_pos):
            given, positional = None, True
    if given is None or not _plain(given):
        if positional:
            raise NotImplementedError(
                f"Object {cls.__name__} was created by passing positional only or variadic positional "
                "arguments (e.g., `*args`) to `__init__()`, which is not supported by the automatic "
                "config generation. Please remove all positional only and variadic arguments from "
                "`__init__()` or override `get_config()` and `from_config()` to make the object "
                "serializable.")
        raise NotImplementedError(
            f"Object {cls.__name__} was created by passing non-serializable argument values in "
            "`__init__()`, and therefore the object must override `get_config()` in order to be "
            "serializable. Please implement `get_config()`: return super().get_config() updated "
            "with the constructor arguments.")
    head = {"name": base["name"], **given}
    init = inspect.signature(layer.__init__).parameters
    if "name" not in init and not ("kwargs" in init and init["kwargs"].kind is inspect.Parameter.VAR_KEYWORD):
        head.pop("name", None)  # (Keras: it could not be passed back to __init__)
    return {**head, **{k: v for k, v in base.items() if k != "name"}}


def _shapes_as_lists(x: Any) -> Any:
    if _is_shape(x):
        return _ShapeLeaf(x)
    if isinstance(x, dict):
        return {k: _shapes_as_lists(v) for k, v in x.items()}
    return [_shapes_as_lists(v) for v in x]


class _ShapeLeaf:
    def __init__(self, shape: Any) -> None:
        self.shape = tuple(shape)


def _trainable_first(variables: list) -> list:
    return [v for v in variables if v.trainable] + [v for v in variables if not v.trainable]
