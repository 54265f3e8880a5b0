"""``FBetaScore`` and ``F1Score``."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._engine import constant
from .._engine import Tensor
from ..losses import _EPSILON
from .metric import Metric
from .metrics_utils import _array, _np_dtype, _two_d


class FBetaScore(Metric):
    """The F-beta score of multi-label or one-hot data: ``(1 + beta**2) * precision * recall /
    (beta**2 * precision + recall)`` per class.

    A prediction counts as positive above ``threshold``, or, with ``threshold=None``, where it is
    the largest of its row (and not 0). ``average``: ``None`` (one score per class), ``"micro"``
    (counts pooled over classes), ``"macro"`` (mean of the class scores) or ``"weighted"`` (mean
    weighted by each class's number of true instances).

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> m = keras.metrics.FBetaScore(beta=2.0, threshold=0.5)
    >>> m.update_state(np.array([[1, 1, 1], [1, 0, 0], [1, 1, 0]], np.int32),
    ...                np.array([[0.2, 0.6, 0.7], [0.2, 0.6, 0.6], [0.6, 0.8, 0.0]], np.float32))
    >>> m.result().numpy().round(4)
    array([0.3846, 0.9091, 0.8333], dtype=float32)
    """

    def __init__(self, average: str | None = None, beta: float = 1.0, threshold: float | None = None,
                 name: str = "fbeta_score", dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        if average not in (None, "micro", "macro", "weighted"):
            raise ValueError("Invalid `average` argument value. Expected one of: {None, 'micro', "
                             f"'macro', 'weighted'}}. Received: average={average}")
        if not isinstance(beta, float):
            raise ValueError("Invalid `beta` argument value. It should be a Python float. "
                             f"Received: beta={beta} of type '{type(beta)}'")
        if beta <= 0.0:
            raise ValueError(f"Invalid `beta` argument value. It should be > 0. Received: beta={beta}")
        if threshold is not None:
            if not isinstance(threshold, float):
                raise ValueError("Invalid `threshold` argument value. It should be a Python float. "
                                 f"Received: threshold={threshold} of type '{type(threshold)}'")
            if threshold > 1.0 or threshold <= 0.0:
                raise ValueError("Invalid `threshold` argument value. It should verify "
                                 f"0 < threshold <= 1. Received: threshold={threshold}")
        self.average, self.beta, self.threshold = average, beta, threshold
        self.axis = None if average == "micro" else 0
        self._built = False

    def _build(self, t_shape: tuple, p_shape: tuple) -> None:
        n = _two_d("FBetaScore", t_shape, p_shape)
        shape = () if self.average == "micro" else (n,)
        for name in ("true_positives", "false_positives", "false_negatives", "intermediate_weights"):
            setattr(self, name, self.add_variable(shape, name=name))
        self._built = True

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        dt = _np_dtype(self)
        yt, yp = _array(y_true, dt), _array(y_pred, dt)
        if not self._built:
            self._build(yt.shape, yp.shape)
        if self.threshold is None:
            yp = (yp >= yp.max(-1, keepdims=True)) & (np.abs(yp) > 1e-9)
        else:
            yp = yp > self.threshold
        yp = yp.astype(dt)
        sw = None if sample_weight is None else _array(sample_weight, dt)

        def total(v: np.ndarray) -> np.ndarray:
            if sw is not None:
                v = v * np.expand_dims(sw, 1)
            return v.sum(self.axis, dtype=dt)

        self.true_positives.assign_add(total(yp * yt))
        self.false_positives.assign_add(total(yp * (1 - yt)))
        self.false_negatives.assign_add(total((1 - yp) * yt))
        self.intermediate_weights.assign_add(total(yt))

    def result(self) -> Tensor:
        if not self._built:
            raise ValueError(f"{type(self).__name__}.result(): no data yet; call update_state "
                             "first (the number of classes comes from the first batch).")
        dt = _np_dtype(self)
        eps = dt.type(_EPSILON)
        tp, fp = self.true_positives.numpy(), self.false_positives.numpy()
        fn, w = self.false_negatives.numpy(), self.intermediate_weights.numpy()
        precision, recall = tp / (tp + fp + eps), tp / (tp + fn + eps)
        b2 = dt.type(self.beta ** 2)
        score = precision * recall / (b2 * precision + recall + eps) * (dt.type(1) + b2)
        if self.average == "weighted":
            score = np.sum(score * (w / (np.sum(w) + eps)))
        elif self.average is not None:
            score = np.mean(score)
        return constant(np.asarray(score, dt))

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype, "beta": self.beta,
                "average": self.average, "threshold": self.threshold}


class F1Score(FBetaScore):
    """The F1 score: :class:`FBetaScore` with ``beta=1``, ``2 * precision * recall / (precision +
    recall)``.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> m = keras.metrics.F1Score(threshold=0.5)
    >>> m.update_state(np.array([[1, 1, 1], [1, 0, 0], [1, 1, 0]], np.int32),
    ...                np.array([[0.2, 0.6, 0.7], [0.2, 0.6, 0.6], [0.6, 0.8, 0.0]], np.float32))
    >>> m.result().numpy().round(4)
    array([0.5   , 0.8   , 0.6667], dtype=float32)
    """

    def __init__(self, average: str | None = None, threshold: float | None = None,
                 name: str = "f1_score", dtype: Any = None) -> None:
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name, dtype=dtype)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["beta"]
        return config
