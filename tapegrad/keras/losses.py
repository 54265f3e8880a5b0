"""``tapegrad.keras.losses``: Keras 3's losses, as classes (reduced, with ``sample_weight``) and
as functions (one loss per sample), with Keras's names, arguments, defaults and numerics.

Probabilities are clipped to ``[epsilon, 1 - epsilon]`` (``epsilon = 1e-7``) exactly as Keras
clips them. A crossentropy given values outside ``[0, 1]`` with ``from_logits=False`` computes what
Keras computes (a clipped, meaningless value), and warns once: those values look like logits.

>>> from tapegrad import keras
>>> loss = keras.losses.BinaryCrossentropy()
>>> print(loss([[0.0, 1.0], [0.0, 0.0]], [[0.6, 0.4], [0.4, 0.6]]).numpy().round(4))
0.8149
>>> keras.losses.mean_squared_error([[0.0, 1.0]], [[1.0, 1.0]]).numpy()
array([0.5], dtype=float32)
"""
from __future__ import annotations

import difflib
import inspect
import re
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from .. import dtypes as _dt
from ._engine import convert_to_tensor
from ._engine import Tensor
from ._engine import warn_outside
from ..distribute import _strategy as _distribute
from ..ops.array import expand_dims, eye, one_hot, reshape, shape, squeeze, transpose
from ..ops.linalg import matmul
from ..ops.math import (abs as _abs, cast, clip_by_value, equal, greater, log, logical_and,
                        logical_not, maximum, not_equal, pow as _pow, rsqrt, minimum, sigmoid,
                        square, where)
from ..ops.nn import (ctc_loss, sigmoid_cross_entropy_with_logits, softmax, softmax_cross_entropy_with_logits,
                      sparse_softmax_cross_entropy_with_logits)
from ..ops.reduction import reduce_logsumexp, reduce_max, reduce_mean, reduce_sum
from ..ops.special import divide_no_nan, softplus
from . import _logits
from ._mask_table import get_mask, set_mask

__all__ = [
    "Reduction", "Loss", "LossFunctionWrapper", "MeanSquaredError", "MeanAbsoluteError",
    "MeanAbsolutePercentageError", "MeanSquaredLogarithmicError", "CosineSimilarity", "Huber",
    "LogCosh", "Hinge", "SquaredHinge", "CategoricalHinge", "KLDivergence", "Poisson",
    "BinaryCrossentropy", "BinaryFocalCrossentropy", "CategoricalCrossentropy",
    "CategoricalFocalCrossentropy", "SparseCategoricalCrossentropy",
    "mean_squared_error", "mean_absolute_error", "mean_absolute_percentage_error",
    "mean_squared_logarithmic_error", "cosine_similarity", "huber", "log_cosh", "hinge",
    "squared_hinge", "categorical_hinge", "kl_divergence", "poisson", "binary_crossentropy",
    "binary_focal_crossentropy", "categorical_crossentropy", "categorical_focal_crossentropy",
    "sparse_categorical_crossentropy", "mse", "mae", "mape", "msle", "kld", "logcosh",
    "CTC", "Circle", "Dice", "Tversky", "ctc", "circle", "dice", "tversky",
    "CategoricalGeneralizedCrossEntropy", "categorical_generalized_cross_entropy",
    "get", "serialize", "deserialize",
]

# keras.backend.epsilon() and floatx() (read here until keras.backend is on main).
_EPSILON = 1e-7
_FLOATX = "float32"

_REDUCTIONS = ("sum_over_batch_size", "sum", None, "none", "mean", "mean_with_sample_weight")


def _to(x: Any, dtype: Any = None) -> Tensor:
    """``keras.ops.convert_to_tensor(x, dtype)``: a tensor, cast to ``dtype`` when one is given."""
    t = x if type(x) is Tensor else convert_to_tensor(x)
    if dtype is not None and t.dtype != _dt.as_dtype(dtype):
        t = cast(t, dtype)
    return t


def _pred(y_pred: Any) -> Tensor:
    """``y_pred`` as a tensor; integers and bools become floats (Keras's means do that)."""
    t = _to(y_pred)
    return t if t.dtype.is_floating else cast(t, _FLOATX)


def _same_rank(x1: Tensor, x2: Tensor, expand_rank_1: bool = True) -> tuple[Tensor, Tensor]:
    """Keras's ``squeeze_or_expand_to_same_rank``: drop (or add) a trailing length-1 axis when the
    ranks differ by one."""
    r1, r2 = x1.shape.rank, x2.shape.rank
    if r1 == r2 + 1 and x1.shape[-1] == 1:
        if r2 == 1 and expand_rank_1:
            x2 = expand_dims(x2, -1)
        else:
            x1 = squeeze(x1, -1)
    if r2 == r1 + 1 and x2.shape[-1] == 1:
        if r1 == 1 and expand_rank_1:
            x1 = expand_dims(x1, -1)
        else:
            x2 = squeeze(x2, -1)
    return x1, x2


class Reduction:
    """The legacy ``tf.keras.losses.Reduction`` names of the ``reduction=`` strings, as Keras 3
    keeps them: ``NONE``, ``SUM``, ``SUM_OVER_BATCH_SIZE`` and ``AUTO`` (which Keras 3's losses
    refuse, as tapegrad's do: it meant ``SUM_OVER_BATCH_SIZE``).

    >>> from tapegrad import keras
    >>> loss = keras.losses.Huber(reduction=keras.losses.Reduction.SUM)
    >>> print(loss([[0.0], [0.0]], [[1.0], [3.0]]).numpy())
    3.0
    >>> keras.losses.Reduction.all()
    ('auto', 'none', 'sum', 'sum_over_batch_size')
    """

    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls) -> tuple[str, ...]:
        """The four names' values."""
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

    @classmethod
    def validate(cls, key: Any) -> None:
        """Raise ``ValueError`` unless ``key`` is one of :meth:`all`."""
        if key not in cls.all():
            raise ValueError(f"Invalid Reduction Key: {key!r}. Expected keys are {cls.all()}")


def _standardize_reduction(reduction: Any) -> Any:
    if reduction not in _REDUCTIONS:
        hint = (" (Reduction.AUTO is TF 2's Keras default; Keras 3 spells it "
                "'sum_over_batch_size')" if reduction == Reduction.AUTO else "")
        raise ValueError(f"Invalid value for argument `reduction`: {reduction!r}{hint}. Expected "
                         f"one of {', '.join(repr(r) for r in _REDUCTIONS)}.")
    return reduction


def _mask_weight(sample_weight: Tensor | None, mask: Tensor, dtype: Any,
                 reduction: Any) -> Tensor:
    """Keras's ``apply_mask``: masked entries weigh 0; under a mean the valid ones weigh
    ``total / valid`` so that the mean is over the valid entries."""
    if reduction in ("mean", "sum_over_batch_size"):
        total = float(np.prod(mask.shape.as_list()))
        valid = reduce_sum(cast(mask, dtype))
        float_mask = where(mask, divide_no_nan(_to(total, dtype), valid), _to(0.0, dtype))
    else:
        float_mask = cast(mask, dtype)
    if sample_weight is None:
        return float_mask
    float_mask, sample_weight = _same_rank(float_mask, cast(sample_weight, dtype))
    return sample_weight * float_mask


def _combined_mask(in_mask: Any, mask: Any) -> Any:
    """The mask a masking layer put on y_pred (``in_mask``) and a loss's own, combined as Keras's
    ``Loss.__call__`` does; None when neither is set."""
    if in_mask is None:
        return mask
    return in_mask if mask is None else logical_and(_to(in_mask, "bool"), _to(mask, "bool"))


def reduce_weighted_values(values: Any, sample_weight: Any = None, mask: Any = None,
                           reduction: Any = "sum_over_batch_size", dtype: Any = None) -> Tensor:
    """Weight per-sample ``values`` by ``sample_weight`` (and a boolean ``mask``), then reduce them
    as ``reduction`` says (Keras's ``reduce_weighted_values``)."""
    reduction = _standardize_reduction(reduction)
    values = _to(values, dtype)
    if sample_weight is not None:
        sample_weight = _to(sample_weight, values.dtype)
    if mask is not None:
        sample_weight = _mask_weight(sample_weight, mask, values.dtype, reduction)
    if sample_weight is not None:
        values, sample_weight = _same_rank(values, sample_weight)
        values = values * sample_weight
    shape = tuple(values.shape.as_list())
    if reduction in (None, "none") or shape in ((), (0,)):
        return values
    loss = reduce_sum(values)
    if reduction == "sum":
        return loss
    if reduction == "mean_with_sample_weight" and sample_weight is not None:
        return _scale_for_replicas(divide_no_nan(loss, reduce_sum(sample_weight)))
    return _scale_for_replicas(divide_no_nan(loss, _to(float(np.prod(shape)), loss.dtype)))


def _scale_for_replicas(value: Tensor) -> Tensor:
    """``value / num_replicas_in_sync`` under a strategy with several replicas (Keras's mean
    losses are scaled so, and the replicas' gradients summed), else ``value``."""
    n = _distribute.get_strategy().num_replicas_in_sync
    return value if n == 1 else value * np.asarray(1.0 / n, value.dtype.name)


def _unscale_for_replicas(value: Tensor) -> Tensor:
    """``value * num_replicas_in_sync`` (the loss a replica reports: its own batch's mean)."""
    n = _distribute.get_strategy().num_replicas_in_sync
    return value if n == 1 else value * np.asarray(n, value.dtype.name)


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()


class Loss:
    """Base class of the losses: ``__call__(y_true, y_pred, sample_weight=None)`` computes
    :meth:`call` (one loss per sample), weights it and reduces it.

    ``reduction``: ``"sum_over_batch_size"`` (the default; also ``"mean"``: the sum divided by
    the number of entries), ``"sum"``, ``"mean_with_sample_weight"`` (the sum divided by the sum
    of the weights) or ``None``/``"none"`` (no reduction). Inputs are cast to ``dtype``
    (``"float32"`` by default).

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> class Squares(keras.losses.Loss):
    ...     def call(self, y_true, y_pred):
    ...         return tf.reduce_sum(tf.square(y_pred - y_true), axis=-1)
    >>> print(Squares()([[1.0, 2.0]], [[0.0, 0.0]]).numpy().round(4))
    5.0
    """

    def __init__(self, name: str | None = None, reduction: Any = "sum_over_batch_size",
                 dtype: Any = None) -> None:
        self.name = name or _snake(type(self).__name__)
        self.reduction = _standardize_reduction(reduction)
        self._dtype = _dt.as_dtype(dtype or _FLOATX).name

    @property
    def dtype(self) -> str:
        return self._dtype

    def __call__(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Tensor:
        in_mask = get_mask(y_pred)
        y_pred = _to(y_pred, self.dtype)
        y_true = _to(y_true, self.dtype)
        losses, mask = self._losses_and_mask(y_true, y_pred)
        if mask is None:
            mask = get_mask(losses)  # a loss function's own mask (circle's positive losses)
        return reduce_weighted_values(losses, sample_weight, _combined_mask(in_mask, mask), self.reduction,
                                      self.dtype)

    def _losses_and_mask(self, y_true: Tensor, y_pred: Tensor) -> tuple[Tensor, Tensor | None]:
        return self.call(y_true, y_pred), None

    def call(self, y_true: Any, y_pred: Any) -> Tensor:
        """The loss of each sample; subclasses write it."""
        raise NotImplementedError(f"{type(self).__name__} must define call(y_true, y_pred)")

    def get_config(self) -> dict:
        return {"name": self.name, "reduction": self.reduction}

    @classmethod
    def from_config(cls, config: dict) -> Loss:
        return cls(**config)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}>"


class LossFunctionWrapper(Loss):
    """A :class:`Loss` made of a loss function ``fn(y_true, y_pred, **kwargs)``.

    >>> from tapegrad import keras
    >>> loss = keras.losses.LossFunctionWrapper(keras.losses.huber, delta=0.5, reduction="sum")
    >>> print(loss([[0.0, 0.0]], [[1.0, 0.2]]).numpy().round(4))
    0.1975
    """

    def __init__(self, fn: Callable, reduction: Any = "sum_over_batch_size", name: str | None = None,
                 dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true: Any, y_pred: Any) -> Tensor:
        y_true, y_pred = _same_rank(_to(y_true), _to(y_pred))
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self) -> dict:
        return {**super().get_config(), **self._fn_kwargs}

    @classmethod
    def from_config(cls, config: dict) -> Loss:
        if cls is LossFunctionWrapper:
            raise ValueError("A LossFunctionWrapper's config has no function to rebuild it from; "
                             "pass the function: LossFunctionWrapper(fn, **config).")
        return cls(**config)



# ---- the functions: one loss per sample --------------------------------------------------------

def _pair(y_true: Any, y_pred: Any) -> tuple[Tensor, Tensor]:
    y_pred = _pred(y_pred)
    return _same_rank(_to(y_true, y_pred.dtype), y_pred)


def mean_squared_error(y_true: Any, y_pred: Any) -> Tensor:
    """``mean(square(y_true - y_pred), axis=-1)``.

    >>> from tapegrad import keras
    >>> keras.losses.mean_squared_error([[0.0, 1.0], [1.0, 1.0]], [[1.0, 1.0], [1.0, 0.0]]).numpy()
    array([0.5, 0.5], dtype=float32)
    """
    y_true, y_pred = _pair(y_true, y_pred)
    return reduce_mean(square(y_true - y_pred), axis=-1)


def mean_absolute_error(y_true: Any, y_pred: Any) -> Tensor:
    """``mean(abs(y_true - y_pred), axis=-1)``.

    >>> from tapegrad import keras
    >>> keras.losses.mean_absolute_error([[0.0, 1.0]], [[1.0, 3.0]]).numpy()
    array([1.5], dtype=float32)
    """
    y_true, y_pred = _pair(y_true, y_pred)
    return reduce_mean(_abs(y_true - y_pred), axis=-1)


def mean_absolute_percentage_error(y_true: Any, y_pred: Any) -> Tensor:
    """``100 * mean(abs((y_true - y_pred) / max(abs(y_true), epsilon)), axis=-1)``.

    >>> from tapegrad import keras
    >>> keras.losses.mean_absolute_percentage_error([[2.0, 4.0]], [[1.0, 5.0]]).numpy()
    array([37.5], dtype=float32)
    """
    y_true, y_pred = _pair(y_true, y_pred)
    diff = _abs((y_true - y_pred) / maximum(_abs(y_true), _to(_EPSILON, y_pred.dtype)))
    return 100.0 * reduce_mean(diff, axis=-1)


def mean_squared_logarithmic_error(y_true: Any, y_pred: Any) -> Tensor:
    """``mean(square(log(max(y_pred, eps) + 1) - log(max(y_true, eps) + 1)), axis=-1)``.

    >>> from tapegrad import keras
    >>> keras.losses.mean_squared_logarithmic_error([[0.0, 1.0]], [[1.0, 1.0]]).numpy().round(4)
    array([0.2402], dtype=float32)
    """
    y_true, y_pred = _pair(y_true, y_pred)
    eps = _to(_EPSILON, y_pred.dtype)
    first = log(maximum(y_pred, eps) + 1.0)
    second = log(maximum(y_true, eps) + 1.0)
    return reduce_mean(square(first - second), axis=-1)


def _l2_normalize(x: Tensor, axis: int) -> Tensor:
    """Keras's ``ops.normalize``: ``x * min(rsqrt(Σ x²), 1/epsilon)``."""
    inv = minimum(rsqrt(reduce_sum(square(x), axis=axis, keepdims=True)), 1.0 / _EPSILON)
    return x * inv


def cosine_similarity(y_true: Any, y_pred: Any, axis: int = -1) -> Tensor:
    """Minus the cosine of the angle between ``y_true`` and ``y_pred`` along ``axis``: ``-1`` when
    they point the same way (a loss to minimise).

    >>> from tapegrad import keras
    >>> keras.losses.cosine_similarity([[0.0, 1.0], [1.0, 1.0]], [[1.0, 0.0], [1.0, 1.0]]).numpy().round(4)
    array([-0., -1.], dtype=float32)
    """
    y_true, y_pred = _pair(y_true, y_pred)
    return -reduce_sum(_l2_normalize(y_true, axis) * _l2_normalize(y_pred, axis), axis=axis)


def huber(y_true: Any, y_pred: Any, delta: float = 1.0) -> Tensor:
    """Mean over the last axis of ``e²/2`` where ``|e| <= delta``, ``delta |e| - delta²/2``
    elsewhere (``e = y_pred - y_true``).

    >>> from tapegrad import keras
    >>> keras.losses.huber([[0.0, 0.0]], [[0.5, 3.0]]).numpy()
    array([1.3125], dtype=float32)
    """
    y_true, y_pred = _pair(y_true, y_pred)
    delta = _to(delta, y_pred.dtype)
    error = y_pred - y_true
    abs_error = _abs(error)
    return reduce_mean(where(abs_error <= delta, 0.5 * square(error),
                             delta * abs_error - 0.5 * square(delta)), axis=-1)


def log_cosh(y_true: Any, y_pred: Any) -> Tensor:
    """``mean(log(cosh(y_pred - y_true)), axis=-1)``, computed as ``x + softplus(-2x) - log 2``.

    >>> from tapegrad import keras
    >>> keras.losses.log_cosh([[0.0, 0.0]], [[1.0, -2.0]]).numpy().round(4)
    array([0.8794], dtype=float32)
    """
    y_true, y_pred = _pair(y_true, y_pred)
    x = y_pred - y_true
    return reduce_mean(x + softplus(x * -2.0) - _to(np.log(2.0), y_pred.dtype), axis=-1)


def _hinge_labels(y_true: Tensor) -> Tensor:
    """Labels in {0, 1} become {-1, 1}; other labels are kept."""
    v = y_true.numpy()
    return 2.0 * y_true - 1.0 if bool(np.all((v == 0) | (v == 1))) else y_true


def hinge(y_true: Any, y_pred: Any) -> Tensor:
    """``mean(max(1 - y_true * y_pred, 0), axis=-1)``; labels 0/1 are taken as -1/1.

    >>> from tapegrad import keras
    >>> keras.losses.hinge([[0.0, 1.0]], [[0.5, 0.2]]).numpy()
    array([1.15], dtype=float32)
    """
    y_pred = _pred(y_pred)
    y_true = _hinge_labels(_to(y_true, y_pred.dtype))
    return reduce_mean(maximum(1.0 - y_true * y_pred, 0.0), axis=-1)


def squared_hinge(y_true: Any, y_pred: Any) -> Tensor:
    """``mean(square(max(1 - y_true * y_pred, 0)), axis=-1)``; labels 0/1 are taken as -1/1.

    >>> from tapegrad import keras
    >>> keras.losses.squared_hinge([[0.0, 1.0]], [[0.5, 0.2]]).numpy()
    array([1.445], dtype=float32)
    """
    y_pred = _pred(y_pred)
    y_true = _hinge_labels(_to(y_true, y_pred.dtype))
    return reduce_mean(square(maximum(1.0 - y_true * y_pred, 0.0)), axis=-1)


def categorical_hinge(y_true: Any, y_pred: Any) -> Tensor:
    """``max(neg - pos + 1, 0)`` with ``pos = Σ y_true·y_pred`` and ``neg = max((1 - y_true)·y_pred)``
    over the last axis.

    >>> from tapegrad import keras
    >>> keras.losses.categorical_hinge([[0.0, 1.0]], [[0.5, 0.2]]).numpy()
    array([1.3], dtype=float32)
    """
    y_pred = _pred(y_pred)
    y_true = _to(y_true, y_pred.dtype)
    pos = reduce_sum(y_true * y_pred, axis=-1)
    neg = reduce_max((1.0 - y_true) * y_pred, axis=-1)
    return maximum(neg - pos + 1.0, _to(0.0, y_pred.dtype))


def kl_divergence(y_true: Any, y_pred: Any) -> Tensor:
    """``Σ y_true · log(y_true / y_pred)`` over the last axis, both clipped to ``[epsilon, 1]``.

    >>> from tapegrad import keras
    >>> keras.losses.kl_divergence([[0.5, 0.5]], [[0.25, 0.75]]).numpy().round(4)
    array([0.1438], dtype=float32)
    """
    y_pred = _pred(y_pred)
    y_true = clip_by_value(_to(y_true, y_pred.dtype), _EPSILON, 1.0)
    y_pred = clip_by_value(y_pred, _EPSILON, 1.0)
    return reduce_sum(y_true * log(y_true / y_pred), axis=-1)


def poisson(y_true: Any, y_pred: Any) -> Tensor:
    """``mean(y_pred - y_true * log(y_pred + epsilon), axis=-1)``.

    >>> from tapegrad import keras
    >>> keras.losses.poisson([[1.0, 2.0]], [[1.0, 1.0]]).numpy().round(4)
    array([1.], dtype=float32)
    """
    y_pred = _pred(y_pred)
    y_true = _to(y_true, y_pred.dtype)
    return reduce_mean(y_pred - y_true * log(y_pred + _to(_EPSILON, y_pred.dtype)), axis=-1)


_warned_logits: set = set()


def _warn_if_logits(fn_name: str, y_pred: Tensor, activation: str, loss_class: str) -> None:
    """Warn (once per loss function and process) when ``from_logits=False`` is given values
    outside ``[0, 1]``: they are logits, and the clipped loss is meaningless."""
    if fn_name in _warned_logits:
        return
    # (read without telling a tf.function's tracer: a check made when tracing, as Keras's Python
    # checks are, not a guard that would trace the step again for every batch)
    v = getattr(y_pred, "_value", None)
    v = v if type(v) is np.ndarray else y_pred.numpy()
    if v.size == 0 or (v.min() >= 0 and v.max() <= 1):
        return
    _warned_logits.add(fn_name)
    warn_outside(
        f"{fn_name} was given y_pred with values outside [0, 1] (min {v.min():.4g}, max "
        f"{v.max():.4g}) and from_logits=False: these look like logits, not probabilities. "
        f"The loss clips them to [{_EPSILON:g}, 1 - {_EPSILON:g}] as Keras does, which gives a "
        f"meaningless value and zero gradients where clipped. Pass from_logits=True "
        f"(e.g. keras.losses.{loss_class}(from_logits=True)) or apply a {activation} first. "
        f"(This warning is shown once.)")


def _check_axis(axis: Any) -> None:
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise ValueError(f"`axis` must be of type `int`. Received: axis={axis!r} of type {type(axis)}")


def _check_same_shape(fn: str, target: Tensor, output: Tensor) -> None:
    if target.shape.as_list() != output.shape.as_list():
        raise ValueError(f"{fn}: `y_true` and `y_pred` must have the same shape. Received: "
                         f"y_true.shape={tuple(target.shape.as_list())}, "
                         f"y_pred.shape={tuple(output.shape.as_list())}")


def _bce_elementwise(target: Tensor, output: Tensor, from_logits: bool) -> Tensor:
    _check_same_shape("binary_crossentropy", target, output)
    if from_logits:
        return sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    output = clip_by_value(output, _EPSILON, 1.0 - _EPSILON)
    return -(target * log(output) + (1.0 - target) * log(1.0 - output))


def binary_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False,
                        label_smoothing: float = 0.0, axis: int = -1) -> Tensor:
    """The binary crossentropy, averaged over ``axis``. ``y_pred`` is a probability (clipped to
    ``[epsilon, 1 - epsilon]``) or, with ``from_logits=True``, a logit. ``label_smoothing``
    moves the labels towards 0.5: ``y_true (1 - s) + s / 2``.

    >>> from tapegrad import keras
    >>> keras.losses.binary_crossentropy([[0.0, 1.0]], [[0.4, 0.6]]).numpy().round(4)
    array([0.5108], dtype=float32)
    >>> keras.losses.binary_crossentropy([[0.0, 1.0]], [[-1.0, 2.0]], from_logits=True).numpy().round(4)
    array([0.2201], dtype=float32)
    """
    y_pred = _pred(y_pred)
    y_true = _to(y_true, y_pred.dtype)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    y_pred, from_logits = _logits.get_logits(y_pred, from_logits, "Sigmoid", "binary_crossentropy")
    if not from_logits:
        _warn_if_logits("binary_crossentropy", y_pred, "sigmoid", "BinaryCrossentropy")
    return reduce_mean(_bce_elementwise(y_true, y_pred, from_logits), axis=axis)


def binary_focal_crossentropy(y_true: Any, y_pred: Any, apply_class_balancing: bool = False,
                              alpha: float = 0.25, gamma: float = 2.0, from_logits: bool = False,
                              label_smoothing: float = 0.0, axis: int = -1) -> Tensor:
    """The binary crossentropy scaled by ``(1 - p_t)^gamma`` (and by ``alpha``/``1 - alpha`` for
    positive/negative labels with ``apply_class_balancing``), averaged over ``axis``.

    >>> from tapegrad import keras
    >>> keras.losses.binary_focal_crossentropy([[0.0, 1.0]], [[0.4, 0.6]]).numpy().round(4)
    array([0.0817], dtype=float32)
    """
    y_pred = _pred(y_pred)
    y_true = _to(y_true, y_pred.dtype)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:   # (Keras's sigmoid keeps its input: the crossentropy term is from the logits)
        bce = _bce_elementwise(y_true, y_pred, True)
        y_pred = sigmoid(y_pred)
    else:
        _warn_if_logits("binary_focal_crossentropy", y_pred, "sigmoid", "BinaryFocalCrossentropy")
        logits, from_output = _logits.get_logits(y_pred, False, "Sigmoid", "binary_crossentropy")
        bce = _bce_elementwise(y_true, logits, from_output)
    p_t = y_true * y_pred + (1.0 - y_true) * (1.0 - y_pred)
    focal = _pow(1.0 - p_t, gamma) * bce
    if apply_class_balancing:
        focal = (y_true * alpha + (1.0 - y_true) * (1.0 - alpha)) * focal
    return reduce_mean(focal, axis=axis)


def _smooth_categorical(y_true: Tensor, y_pred: Tensor, label_smoothing: float, fn: str) -> Tensor:
    if y_pred.shape.rank and y_pred.shape[-1] == 1:
        warn_outside(f"In loss {fn}, expected y_pred.shape to be (batch_size, num_classes) with "
                     f"num_classes > 1. Received: y_pred.shape={tuple(y_pred.shape.as_list())}. "
                     "Consider using 'binary_crossentropy' if you only have 2 classes.",
                     SyntaxWarning)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / y_true.shape[-1]
    return y_true


def categorical_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False,
                             label_smoothing: float = 0.0, axis: int = -1) -> Tensor:
    """``-Σ y_true · log(p)`` over ``axis``, with ``p`` = ``y_pred`` divided by its sum and clipped
    to ``[epsilon, 1 - epsilon]``, or ``softmax(y_pred)`` with ``from_logits=True``.
    ``label_smoothing`` mixes the labels with the uniform distribution.

    >>> from tapegrad import keras
    >>> keras.losses.categorical_crossentropy([[0.0, 1.0, 0.0]], [[0.05, 0.95, 0.0]]).numpy().round(4)
    array([0.0513], dtype=float32)
    """
    _check_axis(axis)
    y_pred = _pred(y_pred)
    y_true = _smooth_categorical(_to(y_true, y_pred.dtype), y_pred, label_smoothing,
                                 "categorical_crossentropy")
    if y_true.shape.rank < 1:
        raise ValueError("categorical_crossentropy: `y_true` and `y_pred` must be at least rank 1. "
                         f"Received: y_true.shape={tuple(y_true.shape.as_list())}")
    _check_same_shape("categorical_crossentropy", y_true, y_pred)
    y_pred, from_logits = _logits.get_logits(y_pred, from_logits, "Softmax", "categorical_crossentropy")
    if from_logits:
        return softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred, axis=axis)
    _warn_if_logits("categorical_crossentropy", y_pred, "softmax", "CategoricalCrossentropy")
    output = y_pred / reduce_sum(y_pred, axis=axis, keepdims=True)
    output = clip_by_value(output, _EPSILON, 1.0 - _EPSILON)
    return -reduce_sum(y_true * log(output), axis=axis)


def categorical_focal_crossentropy(y_true: Any, y_pred: Any, alpha: float = 0.25, gamma: float = 2.0,
                                   from_logits: bool = False, label_smoothing: float = 0.0,
                                   axis: int = -1) -> Tensor:
    """The categorical crossentropy with each class's term scaled by ``alpha (1 - p)^gamma``.

    >>> from tapegrad import keras
    >>> keras.losses.categorical_focal_crossentropy([[0.0, 1.0]], [[0.4, 0.6]]).numpy().round(4)
    array([0.0204], dtype=float32)
    """
    _check_axis(axis)
    y_pred = _pred(y_pred)
    y_true = _smooth_categorical(_to(y_true, y_pred.dtype), y_pred, label_smoothing,
                                 "categorical_focal_crossentropy")
    if from_logits:
        y_pred = softmax(y_pred, axis=axis)
    else:
        _warn_if_logits("categorical_focal_crossentropy", y_pred, "softmax",
                        "CategoricalFocalCrossentropy")
    output = clip_by_value(y_pred / reduce_sum(y_pred, axis=axis, keepdims=True),
                           _EPSILON, 1.0 - _EPSILON)
    focal = _pow(1.0 - output, gamma) * alpha * (-y_true * log(output))
    return reduce_sum(focal, axis=axis)


def _sparse_cce(y_true: Any, y_pred: Any, from_logits: bool, ignore_class: Any,
                axis: int) -> tuple[Tensor, Tensor | None]:
    """The sparse crossentropy and the mask of the entries kept (None without ``ignore_class``)."""
    y_pred = _pred(y_pred)
    y_true = _to(y_true)
    rank = y_pred.shape.rank
    if rank < 1:
        raise ValueError("sparse_categorical_crossentropy: `y_pred` must be at least rank 1. "
                         f"Received: y_pred.shape={tuple(y_pred.shape.as_list())}")
    if axis not in (-1, rank - 1):
        raise ValueError(f"sparse_categorical_crossentropy: only axis=-1 is supported. Received: axis={axis}")
    if y_true.shape.rank == rank and y_true.shape[-1] == 1:
        y_true = squeeze(y_true, -1)
    if y_true.shape.as_list() != y_pred.shape.as_list()[:-1]:
        raise ValueError("sparse_categorical_crossentropy: `y_true` must have the shape of `y_pred` "
                         "without its last (class) axis. Received: "
                         f"y_true.shape={tuple(y_true.shape.as_list())}, "
                         f"y_pred.shape={tuple(y_pred.shape.as_list())}")
    if y_true.dtype.is_floating:
        y_true = cast(y_true, "int64")
    valid = None
    if ignore_class is not None:
        valid = not_equal(y_true, _to(ignore_class, y_true.dtype))
        y_true = where(valid, y_true, _to(0, y_true.dtype))
        y_pred = where(expand_dims(valid, -1), y_pred, _to(0.0, y_pred.dtype))
    y_pred, from_logits = _logits.get_logits(y_pred, from_logits, "Softmax",
                                             "sparse_categorical_crossentropy")
    if not from_logits:
        _warn_if_logits("sparse_categorical_crossentropy", y_pred, "softmax",
                        "SparseCategoricalCrossentropy")
        y_pred = log(clip_by_value(y_pred, _EPSILON, 1.0 - _EPSILON))
    res = sparse_softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    if valid is not None:
        res = where(valid, res, _to(0.0, res.dtype))
    return res, valid


def sparse_categorical_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False,
                                    ignore_class: int | None = None, axis: int = -1) -> Tensor:
    """The categorical crossentropy against integer class labels ``y_true`` (shape of ``y_pred``
    without its last axis, or with it of length 1). Entries labelled ``ignore_class`` give 0.

    >>> from tapegrad import keras
    >>> keras.losses.sparse_categorical_crossentropy([1, 2], [[0.05, 0.95, 0.0], [0.1, 0.8, 0.1]]).numpy().round(4)
    array([0.0513, 2.3026], dtype=float32)
    """
    return _sparse_cce(y_true, y_pred, from_logits, ignore_class, axis)[0]


def dice(y_true: Any, y_pred: Any, axis: Any = None) -> Tensor:
    """``1 - 2 Σ y_true·y_pred / (Σ y_true + Σ y_pred + epsilon)``, the sums over ``axis`` (all
    axes by default: one value for the batch).

    >>> from tapegrad import keras
    >>> y_true = [[1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0]]
    >>> y_pred = [[0.0, 1.0, 0.0, 1.0], [0.4, 0.0, 0.0, 0.9]]
    >>> keras.losses.dice(y_true, y_pred, axis=1).numpy().round(4)
    array([0.5   , 0.7576], dtype=float32)
    """
    y_pred = _pred(y_pred)
    y_true = _to(y_true, y_pred.dtype)
    intersection = reduce_sum(y_true * y_pred, axis=axis)
    union = reduce_sum(y_true, axis=axis) + reduce_sum(y_pred, axis=axis) + _to(_EPSILON, y_pred.dtype)
    return 1.0 - (2.0 * intersection) / union


def tversky(y_true: Any, y_pred: Any, alpha: float = 0.5, beta: float = 0.5, axis: Any = None) -> Tensor:
    """``1 - TP / (TP + alpha FP + beta FN + epsilon)`` with the soft counts ``TP = Σ y_true·y_pred``,
    ``FP = Σ (1 - y_pred)·y_true``, ``FN = Σ y_pred·(1 - y_true)`` over ``axis`` (Keras's
    naming of FP and FN; all axes by default). ``alpha = beta = 0.5`` is the Dice loss.

    >>> from tapegrad import keras
    >>> print(keras.losses.tversky([[1.0, 1.0, 0.0]], [[0.5, 1.0, 1.0]], alpha=0.7, beta=0.3).numpy().round(4))
    0.3023
    """
    y_pred = _pred(y_pred)
    y_true = _to(y_true, y_pred.dtype)
    intersection = reduce_sum(y_true * y_pred, axis=axis)
    fp = reduce_sum((1.0 - y_pred) * y_true, axis=axis)
    fn = reduce_sum(y_pred * (1.0 - y_true), axis=axis)
    return 1.0 - intersection / (intersection + fp * alpha + fn * beta + _to(_EPSILON, y_pred.dtype))


def categorical_generalized_cross_entropy(y_true: Any, y_pred: Any, q: float) -> Tensor:
    """The generalized cross entropy (Zhang & Sabuncu, 2018) of integer labels ``y_true`` and
    class probabilities ``y_pred``: ``(1 - p ** q) / q`` for ``p`` the true class's probability
    (``q -> 0`` is the cross entropy, ``q = 1`` the mean absolute error).

    >>> from tapegrad import keras
    >>> keras.losses.categorical_generalized_cross_entropy([0, 1], [[0.64, 0.36], [0.19, 0.81]], 0.5).numpy().round(4)
    array([0.4, 0.2], dtype=float32)
    """
    y_pred = _pred(y_pred)
    y_true = convert_to_tensor(y_true)
    labels = y_true if y_true.dtype.is_integer else cast(y_true, "int64")
    y_true_one_hot = cast(one_hot(labels, shape(y_pred)[-1]), y_pred.dtype)
    p = reduce_sum(y_pred * y_true_one_hot, axis=-1)
    return (1 - _pow(p, _to(q, y_pred.dtype))) / _to(q, y_pred.dtype)


def _pos_neg_masks(query: Tensor, key: Tensor, remove_diagonal: bool) -> tuple[Tensor, Tensor]:
    """Keras's ``build_pos_neg_masks``: same-label pairs (less the diagonal), different-label pairs."""
    query = reshape(query, [-1, 1]) if query.shape.rank == 1 else query
    key = reshape(key, [-1, 1]) if key.shape.rank == 1 else key
    positive = equal(query, transpose(key))
    negative = logical_not(positive)
    if remove_diagonal:
        n, m = int(np.prod(query.shape.as_list())), int(np.prod(key.shape.as_list()))
        positive = logical_and(positive, logical_not(cast(eye(n, m), "bool")))
    return positive, negative


def circle(y_true: Any, y_pred: Any, ref_labels: Any = None, ref_embeddings: Any = None,
           remove_diagonal: bool = True, gamma: float = 80, margin: float = 0.4) -> Tensor:
    """The Circle loss (Sun et al., 2020) of L2-normalised embeddings ``y_pred`` ``(batch, dim)``
    with integer labels ``y_true`` ``(batch,)``, against ``ref_embeddings``/``ref_labels``
    (default: the batch itself): per sample, ``softplus(logsumexp_pos + logsumexp_neg)`` of the
    weighted cosine distances to the same-label and other-label references. The result carries a
    mask (the positive losses) that a :class:`Loss` reduction uses, as Keras's does.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> emb = np.array([[1.0, 0.0], [0.8, 0.6], [0.0, 1.0], [-0.6, 0.8]], np.float32)
    >>> keras.losses.circle([0, 0, 1, 1], emb, gamma=2.0).numpy().round(4)
    array([0.8577, 1.0097, 1.0097, 0.8577], dtype=float32)
    """
    y_pred = _to(y_pred)
    y_true = _to(y_true, "int32")
    ref_embeddings = y_pred if ref_embeddings is None else _to(ref_embeddings)
    ref_labels = y_true if ref_labels is None else _to(ref_labels, "int32")
    dt = y_pred.dtype
    distances = maximum(1.0 - matmul(y_pred, transpose(ref_embeddings)), _to(0.0, dt))
    positive, negative = _pos_neg_masks(y_true, ref_labels, remove_diagonal)
    pos_f, neg_f = cast(positive, dt), cast(negative, dt)
    pos_weights = maximum((margin + distances) * pos_f, _to(0.0, dt))
    neg_weights = maximum((1.0 + margin - distances) * neg_f, _to(0.0, dt))
    pos_wdists = -1.0 * gamma * pos_weights * (margin - distances)
    neg_wdists = gamma * neg_weights * ((1.0 - margin) - distances)
    minus_inf = _to(-np.inf, dt)
    p_loss = reduce_logsumexp(where(positive, pos_wdists, minus_inf), axis=1)
    n_loss = reduce_logsumexp(where(negative, neg_wdists, minus_inf), axis=1)
    loss = softplus(p_loss + n_loss)
    set_mask(loss, greater(loss, _to(0.0, dt)))
    return loss


def ctc(y_true: Any, y_pred: Any) -> Tensor:
    """The CTC loss of integer label sequences ``y_true`` ``(batch, max_length)`` (0 is the blank,
    which also pads) under logits ``y_pred`` ``(batch, frames, classes)``, every frame counted;
    one ``-log p(labels)`` per sample.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.losses.ctc([[1, 0]], np.zeros((1, 3, 2), np.float32)).numpy().round(4)
    array([0.2877], dtype=float32)
    """
    y_true, y_pred = _to(y_true), _to(y_pred)
    if y_true.shape.rank != 2:
        raise ValueError("Targets `y_true` are expected to be a tensor of shape `(batch_size, max_length)` "
                         f"in integer format. Received: y_true.shape={tuple(y_true.shape.as_list())}")
    if y_pred.shape.rank != 3:
        raise ValueError("Logits `y_pred` are expected to be a tensor of shape `(batch_size, max_length, "
                         f"num_classes)`. Received: y_pred.shape={tuple(y_pred.shape.as_list())}")
    batch, frames = y_pred.shape[0], y_pred.shape[1]
    label_length = cast(reduce_sum(cast(not_equal(y_true, _to(0, y_true.dtype)), "int32"), axis=-1), "int32")
    logit_length = _to(np.full((batch,), frames, np.int32))
    # Keras's TensorFlow backend computes in float32 and returns result_type(y_pred, float32)
    logits = _to(y_pred, "float32")
    loss = ctc_loss(cast(y_true, "int32"), logits, label_length, logit_length, logits_time_major=False,
                    blank_index=0)
    return cast(loss, "float64") if y_pred.dtype == _dt.float64 else loss


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = kl_divergence
logcosh = log_cosh


# ---- the classes -------------------------------------------------------------------------------

class MeanSquaredError(LossFunctionWrapper):
    """The mean of the squares of the errors (:func:`mean_squared_error`), reduced.

    >>> from tapegrad import keras
    >>> print(keras.losses.MeanSquaredError()([[0.0, 1.0]], [[1.0, 1.0]]).numpy().round(4))
    0.5
    """

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "mean_squared_error",
                 dtype: Any = None) -> None:
        super().__init__(mean_squared_error, name=name, reduction=reduction, dtype=dtype)


class MeanAbsoluteError(LossFunctionWrapper):
    """The mean of the absolute errors (:func:`mean_absolute_error`), reduced.

    >>> from tapegrad import keras
    >>> print(keras.losses.MeanAbsoluteError()([[0.0, 1.0]], [[1.0, 3.0]]).numpy().round(4))
    1.5
    """

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "mean_absolute_error",
                 dtype: Any = None) -> None:
        super().__init__(mean_absolute_error, name=name, reduction=reduction, dtype=dtype)


class MeanAbsolutePercentageError(LossFunctionWrapper):
    """:func:`mean_absolute_percentage_error`, reduced.

    >>> from tapegrad import keras
    >>> print(keras.losses.MeanAbsolutePercentageError()([[2.0, 4.0]], [[1.0, 5.0]]).numpy().round(4))
    37.5
    """

    def __init__(self, reduction: Any = "sum_over_batch_size",
                 name: str = "mean_absolute_percentage_error", dtype: Any = None) -> None:
        super().__init__(mean_absolute_percentage_error, name=name, reduction=reduction, dtype=dtype)


class MeanSquaredLogarithmicError(LossFunctionWrapper):
    """:func:`mean_squared_logarithmic_error`, reduced.

    >>> from tapegrad import keras
    >>> print(keras.losses.MeanSquaredLogarithmicError()([[0.0, 1.0]], [[1.0, 1.0]]).numpy().round(4))
    0.2402
    """

    def __init__(self, reduction: Any = "sum_over_batch_size",
                 name: str = "mean_squared_logarithmic_error", dtype: Any = None) -> None:
        super().__init__(mean_squared_logarithmic_error, name=name, reduction=reduction, dtype=dtype)


class CosineSimilarity(LossFunctionWrapper):
    """Minus the cosine similarity along ``axis`` (:func:`cosine_similarity`), reduced.

    >>> from tapegrad import keras
    >>> print(keras.losses.CosineSimilarity()([[0.0, 1.0], [1.0, 1.0]], [[1.0, 0.0], [1.0, 1.0]]).numpy().round(4))
    -0.5
    """

    def __init__(self, axis: int = -1, reduction: Any = "sum_over_batch_size",
                 name: str = "cosine_similarity", dtype: Any = None) -> None:
        super().__init__(cosine_similarity, name=name, reduction=reduction, dtype=dtype, axis=axis)


class Huber(LossFunctionWrapper):
    """The Huber loss (:func:`huber`): quadratic for errors up to ``delta``, linear beyond.

    >>> from tapegrad import keras
    >>> print(keras.losses.Huber()([[0.0, 0.0]], [[0.5, 3.0]]).numpy().round(4))
    1.3125
    """

    def __init__(self, delta: float = 1.0, reduction: Any = "sum_over_batch_size",
                 name: str = "huber_loss", dtype: Any = None) -> None:
        super().__init__(huber, name=name, reduction=reduction, dtype=dtype, delta=delta)


class LogCosh(LossFunctionWrapper):
    """The mean of ``log(cosh(error))`` (:func:`log_cosh`), reduced.

    >>> from tapegrad import keras
    >>> print(keras.losses.LogCosh()([[0.0, 0.0]], [[1.0, -2.0]]).numpy().round(4))
    0.8794
    """

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "log_cosh",
                 dtype: Any = None) -> None:
        super().__init__(log_cosh, name=name, reduction=reduction, dtype=dtype)


class Hinge(LossFunctionWrapper):
    """The hinge loss (:func:`hinge`), reduced.

    >>> from tapegrad import keras
    >>> print(keras.losses.Hinge()([[0.0, 1.0]], [[0.5, 0.2]]).numpy().round(4))
    1.15
    """

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "hinge",
                 dtype: Any = None) -> None:
        super().__init__(hinge, name=name, reduction=reduction, dtype=dtype)


class SquaredHinge(LossFunctionWrapper):
    """The squared hinge loss (:func:`squared_hinge`), reduced.

    >>> from tapegrad import keras
    >>> print(keras.losses.SquaredHinge()([[0.0, 1.0]], [[0.5, 0.2]]).numpy().round(4))
    1.445
    """

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "squared_hinge",
                 dtype: Any = None) -> None:
        super().__init__(squared_hinge, name=name, reduction=reduction, dtype=dtype)


class CategoricalHinge(LossFunctionWrapper):
    """The categorical hinge loss (:func:`categorical_hinge`), reduced.

    >>> from tapegrad import keras
    >>> print(keras.losses.CategoricalHinge()([[0.0, 1.0]], [[0.5, 0.2]]).numpy().round(4))
    1.3
    """

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "categorical_hinge",
                 dtype: Any = None) -> None:
        super().__init__(categorical_hinge, name=name, reduction=reduction, dtype=dtype)


class KLDivergence(LossFunctionWrapper):
    """The Kullback-Leibler divergence (:func:`kl_divergence`), reduced.

    >>> from tapegrad import keras
    >>> print(keras.losses.KLDivergence()([[0.5, 0.5]], [[0.25, 0.75]]).numpy().round(4))
    0.1438
    """

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "kl_divergence",
                 dtype: Any = None) -> None:
        super().__init__(kl_divergence, name=name, reduction=reduction, dtype=dtype)


class Poisson(LossFunctionWrapper):
    """The Poisson loss (:func:`poisson`), reduced.

    >>> from tapegrad import keras
    >>> print(keras.losses.Poisson()([[1.0, 2.0]], [[1.0, 1.0]]).numpy().round(4))
    1.0
    """

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "poisson",
                 dtype: Any = None) -> None:
        super().__init__(poisson, name=name, reduction=reduction, dtype=dtype)


class BinaryCrossentropy(LossFunctionWrapper):
    """The binary crossentropy (:func:`binary_crossentropy`), reduced.

    >>> from tapegrad import keras
    >>> bce = keras.losses.BinaryCrossentropy(from_logits=True)
    >>> print(bce([[0.0, 1.0], [0.0, 0.0]], [[-18.6, 0.51], [2.94, -12.8]]).numpy().round(4))
    0.8655
    """

    def __init__(self, from_logits: bool = False, label_smoothing: float = 0.0, axis: int = -1,
                 reduction: Any = "sum_over_batch_size", name: str = "binary_crossentropy",
                 dtype: Any = None) -> None:
        super().__init__(binary_crossentropy, name=name, reduction=reduction, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis


class BinaryFocalCrossentropy(LossFunctionWrapper):
    """The binary focal crossentropy (:func:`binary_focal_crossentropy`), reduced.

    >>> from tapegrad import keras
    >>> loss = keras.losses.BinaryFocalCrossentropy(gamma=2.0, from_logits=True)
    >>> print(loss([[0.0, 1.0], [0.0, 0.0]], [[-18.6, 0.51], [2.94, -12.8]]).numpy().round(4))
    0.6912
    """

    def __init__(self, apply_class_balancing: bool = False, alpha: float = 0.25, gamma: float = 2.0,
                 from_logits: bool = False, label_smoothing: float = 0.0, axis: int = -1,
                 reduction: Any = "sum_over_batch_size", name: str = "binary_focal_crossentropy",
                 dtype: Any = None) -> None:
        super().__init__(binary_focal_crossentropy, name=name, reduction=reduction, dtype=dtype,
                         apply_class_balancing=apply_class_balancing, alpha=alpha, gamma=gamma,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis
        self.apply_class_balancing = apply_class_balancing
        self.alpha = alpha
        self.gamma = gamma


class CategoricalCrossentropy(LossFunctionWrapper):
    """The categorical crossentropy against one-hot (or soft) labels
    (:func:`categorical_crossentropy`), reduced.

    >>> from tapegrad import keras
    >>> cce = keras.losses.CategoricalCrossentropy()
    >>> print(cce([[0, 1, 0], [0, 0, 1]], [[0.05, 0.95, 0], [0.1, 0.8, 0.1]]).numpy().round(4))
    1.1769
    """

    def __init__(self, from_logits: bool = False, label_smoothing: float = 0.0, axis: int = -1,
                 reduction: Any = "sum_over_batch_size", name: str = "categorical_crossentropy",
                 dtype: Any = None) -> None:
        super().__init__(categorical_crossentropy, name=name, reduction=reduction, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis


class CategoricalFocalCrossentropy(LossFunctionWrapper):
    """The categorical focal crossentropy (:func:`categorical_focal_crossentropy`), reduced.

    >>> from tapegrad import keras
    >>> loss = keras.losses.CategoricalFocalCrossentropy()
    >>> print(loss([[0, 1, 0], [0, 0, 1]], [[0.05, 0.95, 0], [0.1, 0.8, 0.1]]).numpy().round(4))
    0.2332
    """

    def __init__(self, alpha: float = 0.25, gamma: float = 2.0, from_logits: bool = False,
                 label_smoothing: float = 0.0, axis: int = -1, reduction: Any = "sum_over_batch_size",
                 name: str = "categorical_focal_crossentropy", dtype: Any = None) -> None:
        super().__init__(categorical_focal_crossentropy, name=name, reduction=reduction, dtype=dtype,
                         alpha=alpha, gamma=gamma, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis
        self.alpha = alpha
        self.gamma = gamma


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    """The crossentropy against integer labels (:func:`sparse_categorical_crossentropy`), reduced;
    entries labelled ``ignore_class`` are left out of the sum and of the count.

    >>> from tapegrad import keras
    >>> scce = keras.losses.SparseCategoricalCrossentropy()
    >>> print(scce([1, 2], [[0.05, 0.95, 0], [0.1, 0.8, 0.1]]).numpy().round(4))
    1.1769
    >>> scce = keras.losses.SparseCategoricalCrossentropy(ignore_class=2)
    >>> print(scce([1, 2], [[0.05, 0.95, 0], [0.1, 0.8, 0.1]]).numpy().round(4))
    0.0513
    """

    def __init__(self, from_logits: bool = False, ignore_class: int | None = None,
                 reduction: Any = "sum_over_batch_size", axis: int = -1,
                 name: str = "sparse_categorical_crossentropy", dtype: Any = None) -> None:
        super().__init__(sparse_categorical_crossentropy, name=name, reduction=reduction, dtype=dtype,
                         from_logits=from_logits, ignore_class=ignore_class, axis=axis)
        self.from_logits = from_logits
        self.ignore_class = ignore_class
        self.axis = axis

    def _losses_and_mask(self, y_true: Tensor, y_pred: Tensor) -> tuple[Tensor, Tensor | None]:
        y_true, y_pred = _same_rank(y_true, y_pred)
        return _sparse_cce(y_true, y_pred, self.from_logits, self.ignore_class, self.axis)


class CTC(LossFunctionWrapper):
    """The CTC loss (:func:`ctc`), reduced.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> print(keras.losses.CTC()([[1, 0], [1, 1]], np.zeros((2, 3, 2), np.float32)).numpy().round(4))
    1.1836
    """

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "ctc", dtype: Any = None) -> None:
        super().__init__(ctc, name=name, reduction=reduction, dtype=dtype)


class Dice(LossFunctionWrapper):
    """The Dice loss (:func:`dice`) over ``axis`` (all axes by default), reduced.

    >>> from tapegrad import keras
    >>> y_true = [[1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0]]
    >>> y_pred = [[0.0, 1.0, 0.0, 1.0], [0.4, 0.0, 0.0, 0.9]]
    >>> print(keras.losses.Dice()(y_true, y_pred).numpy().round(4))
    0.6164
    """

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "dice", axis: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(dice, name=name, reduction=reduction, dtype=dtype, axis=axis)
        self.axis = axis


class Tversky(LossFunctionWrapper):
    """The Tversky loss (:func:`tversky`): ``alpha`` weighs false positives, ``beta`` false
    negatives; reduced.

    >>> from tapegrad import keras
    >>> print(keras.losses.Tversky(alpha=0.7, beta=0.3)([[1.0, 1.0, 0.0]], [[0.5, 1.0, 1.0]]).numpy().round(4))
    0.3023
    """

    def __init__(self, alpha: float = 0.5, beta: float = 0.5, reduction: Any = "sum_over_batch_size",
                 name: str = "tversky", axis: Any = None, dtype: Any = None) -> None:
        super().__init__(tversky, name=name, reduction=reduction, dtype=dtype, alpha=alpha, beta=beta,
                         axis=axis)
        self.alpha = alpha
        self.beta = beta
        self.axis = axis


class Circle(LossFunctionWrapper):
    """The Circle loss (:func:`circle`) of integer labels and L2-normalised embeddings, reduced
    over the samples whose loss is positive (the mask :func:`circle` sets).

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> emb = np.array([[1.0, 0.0], [0.8, 0.6], [0.0, 1.0], [-0.6, 0.8]], np.float32)
    >>> print(keras.losses.Circle(gamma=2.0)([0, 0, 1, 1], emb).numpy().round(4))
    0.9337
    """

    def __init__(self, gamma: float = 80.0, margin: float = 0.4, remove_diagonal: bool = True,
                 reduction: Any = "sum_over_batch_size", name: str = "circle", dtype: Any = None) -> None:
        super().__init__(circle, name=name, reduction=reduction, dtype=dtype, gamma=gamma, margin=margin,
                         remove_diagonal=remove_diagonal)
        self.gamma = gamma
        self.margin = margin
        self.remove_diagonal = remove_diagonal


class CategoricalGeneralizedCrossEntropy(LossFunctionWrapper):
    """The generalized cross entropy (:func:`categorical_generalized_cross_entropy`), robust to
    noisy labels, with ``q`` in (0, 1); reduced.

    >>> from tapegrad import keras
    >>> loss = keras.losses.CategoricalGeneralizedCrossEntropy(q=0.5)
    >>> print(loss([0, 1], [[0.64, 0.36], [0.19, 0.81]]).numpy().round(4))
    0.3
    """

    def __init__(self, q: float = 0.5, reduction: Any = "sum_over_batch_size",
                 name: str = "categorical_generalized_cross_entropy", dtype: Any = None) -> None:
        if not 0 < q < 1:
            raise ValueError("q must be in the interval (0, 1)")
        super().__init__(categorical_generalized_cross_entropy, name=name, reduction=reduction, dtype=dtype,
                         q=q)
        self.q = q

    def get_config(self) -> dict:
        return {**Loss.get_config(self), "q": self.q}


# ---- look-up by name ---------------------------------------------------------------------------

_CLASSES = (Loss, LossFunctionWrapper, KLDivergence, Poisson, BinaryCrossentropy,
            BinaryFocalCrossentropy, CategoricalCrossentropy, CategoricalFocalCrossentropy,
            SparseCategoricalCrossentropy, MeanSquaredError, MeanAbsoluteError,
            MeanAbsolutePercentageError, MeanSquaredLogarithmicError, CosineSimilarity, LogCosh,
            Huber, Hinge, SquaredHinge, CategoricalHinge, CTC, Circle, Dice, Tversky,
            CategoricalGeneralizedCrossEntropy)
_FUNCTIONS = (kl_divergence, poisson, binary_crossentropy, binary_focal_crossentropy,
              categorical_crossentropy, categorical_focal_crossentropy,
              sparse_categorical_crossentropy, mean_squared_error, mean_absolute_error,
              mean_absolute_percentage_error, mean_squared_logarithmic_error, cosine_similarity,
              log_cosh, huber, hinge, squared_hinge, categorical_hinge, ctc, circle, dice, tversky,
              categorical_generalized_cross_entropy)
ALL_OBJECTS_DICT: dict[str, Any] = {o.__name__: o for o in _CLASSES + _FUNCTIONS}
ALL_OBJECTS_DICT.update({"bce": binary_crossentropy, "BCE": binary_crossentropy,
                         "kld": kl_divergence, "KLD": kl_divergence,
                         "mae": mean_absolute_error, "MAE": mean_absolute_error,
                         "mse": mean_squared_error, "MSE": mean_squared_error,
                         "mape": mean_absolute_percentage_error,
                         "MAPE": mean_absolute_percentage_error,
                         "msle": mean_squared_logarithmic_error,
                         "MSLE": mean_squared_logarithmic_error})


def serialize(loss: Any) -> Any:
    """A loss as a config: ``{"class_name": ..., "config": ...}`` for a :class:`Loss`, the
    function's name for a loss function.

    >>> from tapegrad import keras
    >>> keras.losses.serialize(keras.losses.Huber(delta=2.0))
    {'module': 'keras.losses', 'class_name': 'Huber', 'config': {'name': 'huber_loss', 'reduction': 'sum_over_batch_size', 'delta': 2.0}, 'registered_name': None}
    """
    if isinstance(loss, Loss):
        return {"module": "keras.losses", "class_name": type(loss).__name__,
                "config": loss.get_config(), "registered_name": None}
    if callable(loss) and getattr(loss, "__name__", None) in ALL_OBJECTS_DICT:
        return loss.__name__
    raise ValueError(f"Cannot serialize {loss!r}: expected a keras.losses.Loss or one of "
                     "keras.losses' functions.")


def deserialize(config: Any, custom_objects: dict | None = None) -> Any:
    """The loss a config (from :func:`serialize`) or a name describes.

    >>> from tapegrad import keras
    >>> keras.losses.deserialize({"class_name": "Huber", "config": {"delta": 2.0}}).fn.__name__
    'huber'
    """
    table = {**ALL_OBJECTS_DICT, **(custom_objects or {})}
    if isinstance(config, str):
        if config not in table:
            raise ValueError(_unknown(config, table))
        return table[config]
    if not isinstance(config, dict) or "class_name" not in config:
        raise ValueError(f"Could not interpret loss config: {config!r} (expected a name or a dict "
                         "with 'class_name' and 'config').")
    name = config["class_name"]
    if name == "function" and isinstance(config.get("config"), str):   # a loss function's serialization
        return deserialize(config["config"], custom_objects)
    if name not in table or not inspect.isclass(table[name]):
        raise ValueError(_unknown(name, table))
    return table[name].from_config(config.get("config") or {})


def _unknown(name: str, table: dict) -> str:
    close = difflib.get_close_matches(name, list(table), n=3)
    hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    return f"Could not interpret loss identifier: {name!r}: no keras loss has this name.{hint}"


def get(identifier: Any) -> Any:
    """The loss ``identifier`` names: a string (a function's name such as ``"mse"`` gives the
    function, a class name gives a new instance), a config dict, a function or a :class:`Loss`
    (returned as they are); ``None`` gives ``None``.

    >>> from tapegrad import keras
    >>> keras.losses.get("mse").__name__
    'mean_squared_error'
    >>> keras.losses.get("CategoricalCrossentropy")
    <CategoricalCrossentropy name=categorical_crossentropy>
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        obj = deserialize(identifier)
    elif isinstance(identifier, str):
        if identifier not in ALL_OBJECTS_DICT:
            raise ValueError(_unknown(identifier, ALL_OBJECTS_DICT))
        obj = ALL_OBJECTS_DICT[identifier]
    else:
        obj = identifier
    if not callable(obj):
        raise ValueError(f"Could not interpret loss identifier: {identifier!r}")
    return obj() if inspect.isclass(obj) else obj


def _missing_name(module: str, name: str, names: list) -> AttributeError:
    """The AttributeError of a keras namespace for a name it lacks, with a "did you mean"."""
    msg = f"module {module!r} has no attribute {name!r}"
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.8) if not name.startswith("_") else []
    return AttributeError(f"{msg}. Did you mean: {', '.join(repr(c) for c in close)}?" if close else msg)


if not TYPE_CHECKING:  # hidden from type checkers: they report a missing name
    def __getattr__(name: str) -> object:  # "did you mean" for a typo
        raise _missing_name(__name__, name, __all__)
