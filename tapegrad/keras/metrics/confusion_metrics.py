"""The confusion-matrix metrics: true/false positive and negative counts, precision, recall,
AUC, and one rate at a constraint on another (``SensitivityAtSpecificity``, ...)."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._engine import constant
from .._engine import Tensor
from ..losses import _EPSILON
from .metric import Metric
from .metrics_utils import _array, _np_same_rank


NEG_INF = -1e10


# ---- confusion-matrix metrics -------------------------------------------------------------------
# Counts are not differentiable: they are computed in NumPy, in float32 as Keras computes them.


def _filter_top_k(x: np.ndarray, k: int) -> np.ndarray:
    idx = np.argsort(-x, axis=-1, kind="stable")[..., :k]
    mask = np.zeros_like(x)
    np.put_along_axis(mask, idx, 1.0, axis=-1)
    return x * mask + np.float32(NEG_INF) * (1 - mask)


def _is_evenly_distributed(thresholds: Any) -> bool:
    n = len(thresholds)
    return n >= 3 and bool(np.allclose(thresholds, np.arange(n, dtype=np.float32) / (n - 1),
                                       atol=_EPSILON))


def _confusion_counts(y_true: Any, y_pred: Any, thresholds: np.ndarray, evenly: bool,
                      top_k: int | None = None, class_id: int | None = None, sample_weight: Any = None,
                      multi_label: bool = False, label_weights: Any = None) -> dict:
    """Keras's ``update_confusion_matrix_variables``: the counts ``tp, fp, tn, fn`` per threshold
    (per threshold and label with ``multi_label``) of one batch."""
    f = np.float32
    yt, yp = _array(y_true, f), _array(y_pred, f)
    yp, yt = _np_same_rank(yp, yt)
    sw = None
    if sample_weight is not None:
        sw = _array(sample_weight, f)[..., None]
        _, sw = _np_same_rank(yt, sw, expand_rank_1=False)
    if top_k is not None:
        yp = _filter_top_k(yp, top_k)
    if class_id is not None:
        if yp.ndim == 1:
            raise ValueError("When class_id is provided, y_pred must be a 2D array with shape "
                             f"(num_samples, num_classes), found shape: {yp.shape}")
        yt, yp = yt[..., class_id, None], yp[..., class_id, None]
    weights = np.ones_like(yp) if sw is None else np.broadcast_to(sw, yp.shape).astype(f)
    if label_weights is not None:
        weights = weights * np.broadcast_to(_array(label_weights, f)[None], yp.shape)
    is_true = (yt != 0).astype(f)
    if not multi_label:
        is_true, yp, weights = is_true.reshape(-1), yp.reshape(-1), weights.reshape(-1)
    true_w, false_w = is_true * weights, (1 - is_true) * weights
    n = len(thresholds)
    if evenly:  # Keras's bucketing: each prediction counts at the thresholds below it
        bucket = np.ceil(np.clip(yp, 0, 1) * f(n - 1)) - 1
        if thresholds[0] < 0 or thresholds[-1] > 1:
            bucket = np.maximum(bucket, 0)
        bucket = bucket.astype(np.int64)
        keep = bucket >= 0
        if multi_label:
            cols = np.broadcast_to(np.arange(yp.shape[1]), yp.shape)
            tp_b, fp_b = np.zeros((n, yp.shape[1]), f), np.zeros((n, yp.shape[1]), f)
            np.add.at(tp_b, (bucket[keep], cols[keep]), true_w[keep])
            np.add.at(fp_b, (bucket[keep], cols[keep]), false_w[keep])
        else:
            tp_b = np.bincount(bucket[keep], true_w[keep], minlength=n).astype(f)
            fp_b = np.bincount(bucket[keep], false_w[keep], minlength=n).astype(f)
        tp = np.cumsum(tp_b[::-1], axis=0, dtype=f)[::-1]
        fp = np.cumsum(fp_b[::-1], axis=0, dtype=f)[::-1]
        axis = 0 if multi_label else None
        return {"tp": tp, "fp": fp, "tn": false_w.sum(axis, dtype=f) - fp,
                "fn": true_w.sum(axis, dtype=f) - tp}
    th = np.asarray(thresholds, f).reshape((n,) + (1,) * yp.ndim)
    pos = yp[None] > th
    label = is_true[None] > 0
    axis = 1
    return {"tp": np.where(label & pos, weights, 0).sum(axis, dtype=f),
            "fp": np.where(~label & pos, weights, 0).sum(axis, dtype=f),
            "tn": np.where(~label & ~pos, weights, 0).sum(axis, dtype=f),
            "fn": np.where(label & ~pos, weights, 0).sum(axis, dtype=f)}


def _div_no_nan(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    y = np.asarray(y)
    return np.where(y == 0, np.float32(0), x / np.where(y == 0, 1, y)).astype(np.float32)


def _parse_thresholds(thresholds: Any, default: float) -> list:
    if thresholds is None:
        return [default]
    values = list(thresholds) if isinstance(thresholds, (list, tuple, np.ndarray)) else [thresholds]
    bad = [t for t in values if t is None or t < 0 or t > 1]
    if bad:
        raise ValueError(f"Threshold values must be in [0, 1]. Received: {bad}")
    return values


_COUNT_NAMES = {"tp": "true_positives", "fp": "false_positives", "tn": "true_negatives",
                "fn": "false_negatives"}


class _Confusion(Metric):
    """State: the counts named in ``_COUNTS``, one per threshold."""

    _COUNTS: tuple = ()

    def __init__(self, thresholds: Any = None, top_k: int | None = None, class_id: int | None = None,
                 name: str | None = None, dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds = thresholds
        self.top_k = top_k
        self.class_id = class_id
        self.thresholds = _parse_thresholds(thresholds, 0.5 if top_k is None else NEG_INF)
        self._evenly = _is_evenly_distributed(self.thresholds)
        for key in self._COUNTS:
            name = _COUNT_NAMES[key]
            setattr(self, name, self.add_variable((len(self.thresholds),), name=name))

    def _count(self, key: str) -> np.ndarray:
        return getattr(self, _COUNT_NAMES[key]).numpy()

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        counts = _confusion_counts(y_true, y_pred, np.asarray(self.thresholds, np.float32), self._evenly,
                                   self.top_k, self.class_id, sample_weight)
        for key in self._COUNTS:
            getattr(self, _COUNT_NAMES[key]).assign_add(counts[key])

    def _scalar_or_vector(self, value: np.ndarray) -> Tensor:
        return constant(value[0] if len(self.thresholds) == 1 else value)

    def get_config(self) -> dict:
        return {**super().get_config(), "thresholds": self.init_thresholds, "top_k": self.top_k,
                "class_id": self.class_id}


class _Count(_Confusion):
    def __init__(self, thresholds: Any = None, name: str | None = None, dtype: Any = None) -> None:
        super().__init__(thresholds=thresholds, name=name, dtype=dtype)

    def result(self) -> Tensor:
        return self._scalar_or_vector(self._count(self._COUNTS[0]))

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype, "thresholds": self.init_thresholds}


class TruePositives(_Count):
    """The weighted number of positives predicted positive (``y_pred > threshold``).

    >>> from tapegrad import keras
    >>> m = keras.metrics.TruePositives(); m.update_state([0, 1, 1, 1], [1, 0, 1, 1])
    >>> print(m.result().numpy())
    2.0
    """
    _COUNTS = ("tp",)


class TrueNegatives(_Count):
    """The weighted number of negatives predicted negative."""
    _COUNTS = ("tn",)


class FalsePositives(_Count):
    """The weighted number of negatives predicted positive."""
    _COUNTS = ("fp",)


class FalseNegatives(_Count):
    """The weighted number of positives predicted negative."""
    _COUNTS = ("fn",)


class Precision(_Confusion):
    """``tp / (tp + fp)``: of the predictions above the threshold (default 0.5; with ``top_k``,
    the ``k`` largest of each row), the fraction that are positive. ``class_id`` looks at one
    class of multi-label data; several ``thresholds`` give one value each.

    >>> from tapegrad import keras
    >>> m = keras.metrics.Precision(); m.update_state([0, 1, 1, 1], [1, 0, 1, 1])
    >>> print(m.result().numpy().round(4))
    0.6667
    """
    _COUNTS = ("tp", "fp")

    def result(self) -> Tensor:
        tp = self._count("tp")
        return self._scalar_or_vector(_div_no_nan(tp, tp + self._count("fp")))


class Recall(_Confusion):
    """``tp / (tp + fn)``: the fraction of the positives predicted above the threshold.

    >>> from tapegrad import keras
    >>> m = keras.metrics.Recall(); m.update_state([0, 1, 1, 1], [1, 0, 1, 1])
    >>> print(m.result().numpy().round(4))
    0.6667
    """
    _COUNTS = ("tp", "fn")

    def result(self) -> Tensor:
        tp = self._count("tp")
        return self._scalar_or_vector(_div_no_nan(tp, tp + self._count("fn")))


class AUC(Metric):
    """The area under the ROC or precision-recall curve, summed over ``num_thresholds`` buckets as
    Keras sums it (``summation_method``: ``"interpolation"``, ``"minoring"``, ``"majoring"``;
    the PR curve with interpolation uses Davis & Goadrich's interpolation).

    >>> from tapegrad import keras
    >>> m = keras.metrics.AUC(num_thresholds=3); m.update_state([0, 0, 1, 1], [0, 0.5, 0.3, 0.9])
    >>> print(m.result().numpy().round(4))
    0.75
    """

    def __init__(self, num_thresholds: int = 200, curve: str = "ROC", summation_method: str = "interpolation",
                 name: str | None = None, dtype: Any = None, thresholds: Any = None,
                 multi_label: bool = False, num_labels: int | None = None, label_weights: Any = None,
                 from_logits: bool = False) -> None:
        curves = {"roc": "ROC", "pr": "PR", "prgain": "PRGAIN"}
        methods = ("interpolation", "majoring", "minoring")
        if str(curve).lower() not in curves:
            raise ValueError(f'Invalid AUC curve value: "{curve}". Expected values are ["PR", "ROC", "PRGAIN"]')
        if str(summation_method).lower() not in methods:
            raise ValueError(f'Invalid AUC summation method value: "{summation_method}". '
                             'Expected values are ["interpolation", "majoring", "minoring"]')
        self._init_from_thresholds = thresholds is not None
        if thresholds is not None:
            self.num_thresholds = len(thresholds) + 2
            inner = sorted(thresholds)
            self._evenly = _is_evenly_distributed(np.array([0.0] + inner + [1.0]))
        else:
            if num_thresholds <= 1:
                raise ValueError(f"Argument `num_thresholds` must be an integer > 1. Received: "
                                 f"num_thresholds={num_thresholds}")
            self.num_thresholds = num_thresholds
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
            self._evenly = True
        self._thresholds = np.array([0.0 - _EPSILON] + inner + [1.0 + _EPSILON])
        self.curve = curves[str(curve).lower()]
        self.summation_method = str(summation_method).lower()
        super().__init__(name=name, dtype=dtype)
        self.multi_label = multi_label
        self.num_labels = num_labels
        self.label_weights = None if label_weights is None else np.asarray(label_weights, np.float32)
        self._from_logits = from_logits
        self._built = False
        if multi_label:
            if num_labels:
                self._build([None, num_labels])
        elif num_labels:
            raise ValueError("`num_labels` is needed only when `multi_label` is True.")
        else:
            self._build(None)

    @property
    def thresholds(self) -> list:
        return list(self._thresholds)

    def _build(self, shape: Any) -> None:
        if self.multi_label:
            if len(shape) != 2:
                raise ValueError(f"`y_pred` must have rank 2 when `multi_label=True`. Found rank "
                                 f"{len(shape)}. Full shape received for `y_pred`: {tuple(shape)}")
            self._num_labels = shape[1]
            vshape: tuple = (self.num_thresholds, self._num_labels)
        else:
            vshape = (self.num_thresholds,)
        self.true_positives = self.add_variable(vshape, name="true_positives")
        self.false_positives = self.add_variable(vshape, name="false_positives")
        self.true_negatives = self.add_variable(vshape, name="true_negatives")
        self.false_negatives = self.add_variable(vshape, name="false_negatives")
        self._built = True

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        y_pred = _array(y_pred, np.float32)
        if not self._built:
            self._build(y_pred.shape)
        if self._from_logits:
            y_pred = (1 / (1 + np.exp(-y_pred))).astype(np.float32)
        counts = _confusion_counts(y_true, y_pred, self._thresholds.astype(np.float32), self._evenly,
                                   sample_weight=sample_weight, multi_label=self.multi_label,
                                   label_weights=None if self.multi_label else self.label_weights)
        self.true_positives.assign_add(counts["tp"])
        self.false_positives.assign_add(counts["fp"])
        self.true_negatives.assign_add(counts["tn"])
        self.false_negatives.assign_add(counts["fn"])

    def _by_label(self, terms: np.ndarray) -> Tensor:
        if not self.multi_label:
            return constant(terms.sum(dtype=np.float32))
        by_label = terms.sum(0, dtype=np.float32)
        if self.label_weights is None:
            return constant(by_label.mean(dtype=np.float32))
        w = self.label_weights
        return constant(_div_no_nan((by_label * w).sum(dtype=np.float32), w.sum(dtype=np.float32)))

    def _interpolate_pr_auc(self, tp: np.ndarray, fp: np.ndarray, fn: np.ndarray) -> Tensor:
        n = self.num_thresholds
        dtp = tp[: n - 1] - tp[1:]
        p = tp + fp
        dp = p[: n - 1] - p[1:]
        slope = _div_no_nan(dtp, np.maximum(dp, 0))
        intercept = tp[1:] - slope * p[1:]
        ratio = np.where((p[: n - 1] > 0) & (p[1:] > 0), _div_no_nan(p[: n - 1], np.maximum(p[1:], 0)),
                         np.ones_like(p[1:]))
        with np.errstate(divide="ignore", invalid="ignore"):
            inc = _div_no_nan(slope * (dtp + intercept * np.log(ratio)), np.maximum(tp[1:] + fn[1:], 0))
        return self._by_label(inc)

    def result(self) -> Tensor:
        tp, fp = self.true_positives.numpy(), self.false_positives.numpy()
        tn, fn = self.true_negatives.numpy(), self.false_negatives.numpy()
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self._interpolate_pr_auc(tp, fp, fn)
        recall = _div_no_nan(tp, tp + fn)
        if self.curve == "ROC":
            x, y = _div_no_nan(fp, fp + tn), recall
        elif self.curve == "PR":
            x, y = recall, _div_no_nan(tp, tp + fp)
        else:
            scale = _div_no_nan(tp + fn, tn + fp)
            x = np.maximum(np.where(tp == 0, 0, 1 - scale * _div_no_nan(fn, tp)), 0).astype(np.float32)
            y = np.where(tp == 0, 1, 1 - scale * _div_no_nan(fp, tp)).astype(np.float32)
        n = self.num_thresholds
        if self.summation_method == "interpolation":
            heights = (y[: n - 1] + y[1:]) / np.float32(2)
        elif self.summation_method == "minoring":
            heights = np.minimum(y[: n - 1], y[1:])
        else:
            heights = np.maximum(y[: n - 1], y[1:])
        return self._by_label((x[: n - 1] - x[1:]) * heights)

    def reset_state(self) -> None:
        if self._built:
            super().reset_state()

    def get_config(self) -> dict:
        config = {**super().get_config(), "num_thresholds": self.num_thresholds, "curve": self.curve,
                  "summation_method": self.summation_method, "multi_label": self.multi_label,
                  "num_labels": self.num_labels,
                  "label_weights": None if self.label_weights is None else self.label_weights.tolist(),
                  "from_logits": self._from_logits}
        if self._init_from_thresholds:
            config["thresholds"] = self.thresholds[1:-1]
        return config


# ---- one rate at a constraint on another -------------------------------------------------------

class _AtConstraint(Metric):
    """Counts at ``num_thresholds`` evenly spaced thresholds in [0, 1] (0.5 alone when 1); the
    result is the largest value of one rate where another is at least ``value``."""

    _ARG = ""

    def __init__(self, value: float, num_thresholds: int = 200, class_id: int | None = None,
                 name: str | None = None, dtype: Any = None) -> None:
        if value < 0 or value > 1:
            raise ValueError(f"Argument `{self._ARG}` must be in the range [0, 1]. Received: "
                             f"{self._ARG}={value}")
        super().__init__(name=name, dtype=dtype)
        if num_thresholds <= 0:
            raise ValueError("Argument `num_thresholds` must be an integer > 0. Received: "
                             f"num_thresholds={num_thresholds}")
        setattr(self, self._ARG, value)
        self.value, self.num_thresholds, self.class_id = value, num_thresholds, class_id
        if num_thresholds == 1:
            self.thresholds, self._evenly = [0.5], False
        else:
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
            self.thresholds, self._evenly = [0.0] + inner + [1.0], True
        for count in ("true_positives", "false_positives", "true_negatives", "false_negatives"):
            setattr(self, count, self.add_variable((len(self.thresholds),), name=count))

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        counts = _confusion_counts(y_true, y_pred, np.asarray(self.thresholds, np.float32),
                                   self._evenly, class_id=self.class_id, sample_weight=sample_weight)
        self.true_positives.assign_add(counts["tp"])
        self.false_positives.assign_add(counts["fp"])
        self.true_negatives.assign_add(counts["tn"])
        self.false_negatives.assign_add(counts["fn"])

    def _rates(self) -> dict:
        tp, fp = self.true_positives.numpy(), self.false_positives.numpy()
        tn, fn = self.true_negatives.numpy(), self.false_negatives.numpy()
        return {"recall": _div_no_nan(tp, tp + fn), "specificity": _div_no_nan(tn, tn + fp),
                "precision": _div_no_nan(tp, tp + fp)}

    def _best(self, constrained: str, dependent: str) -> Tensor:
        r = self._rates()
        feasible = r[constrained] >= np.float32(self.value)
        return constant(np.max(np.where(feasible, r[dependent], np.float32(0)), initial=np.float32(0)))

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype, "class_id": self.class_id,
                "num_thresholds": self.num_thresholds, self._ARG: self.value}


class SensitivityAtSpecificity(_AtConstraint):
    """The best sensitivity (recall) over the thresholds where specificity ``tn / (tn + fp)`` is
    at least ``specificity``.

    >>> from tapegrad import keras
    >>> m = keras.metrics.SensitivityAtSpecificity(0.5)
    >>> m.update_state([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8]); print(m.result().numpy())
    0.5
    """

    _ARG = "specificity"

    def __init__(self, specificity: float, num_thresholds: int = 200, class_id: int | None = None,
                 name: str | None = None, dtype: Any = None) -> None:
        super().__init__(specificity, num_thresholds, class_id, name, dtype)

    def result(self) -> Tensor:
        return self._best("specificity", "recall")


class SpecificityAtSensitivity(_AtConstraint):
    """The best specificity over the thresholds where sensitivity (recall) is at least
    ``sensitivity``.

    >>> from tapegrad import keras
    >>> m = keras.metrics.SpecificityAtSensitivity(0.5)
    >>> m.update_state([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8]); print(m.result().numpy().round(4))
    0.6667
    """

    _ARG = "sensitivity"

    def __init__(self, sensitivity: float, num_thresholds: int = 200, class_id: int | None = None,
                 name: str | None = None, dtype: Any = None) -> None:
        super().__init__(sensitivity, num_thresholds, class_id, name, dtype)

    def result(self) -> Tensor:
        return self._best("recall", "specificity")


class PrecisionAtRecall(_AtConstraint):
    """The best precision over the thresholds where recall is at least ``recall``.

    >>> from tapegrad import keras
    >>> m = keras.metrics.PrecisionAtRecall(0.5)
    >>> m.update_state([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8]); print(m.result().numpy())
    0.5
    """

    _ARG = "recall"

    def __init__(self, recall: float, num_thresholds: int = 200, class_id: int | None = None,
                 name: str | None = None, dtype: Any = None) -> None:
        super().__init__(recall, num_thresholds, class_id, name, dtype)

    def result(self) -> Tensor:
        return self._best("recall", "precision")


class RecallAtPrecision(_AtConstraint):
    """The best recall over the thresholds where precision is at least ``precision``.

    >>> from tapegrad import keras
    >>> m = keras.metrics.RecallAtPrecision(0.8)
    >>> m.update_state([0, 0, 1, 1], [0, 0.5, 0.3, 0.9]); print(m.result().numpy())
    0.5
    """

    _ARG = "precision"

    def __init__(self, precision: float, num_thresholds: int = 200, class_id: int | None = None,
                 name: str | None = None, dtype: Any = None) -> None:
        super().__init__(precision, num_thresholds, class_id, name, dtype)

    def result(self) -> Tensor:
        return self._best("precision", "recall")
