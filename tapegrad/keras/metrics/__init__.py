"""``tapegrad.keras.metrics``: Keras 3's metrics. A metric keeps its state in non-trainable
tapegrad Variables (``variables``); ``update_state(y_true, y_pred, sample_weight=None)`` adds a
batch, ``result()`` reads the value so far, ``reset_state()`` starts again. Also the metric
functions (``binary_accuracy``, ``categorical_accuracy``, ... and the loss functions),
:func:`get`, and :func:`resolve_metric`, which gives ``"accuracy"`` the meaning ``Model.compile``
gives it.

>>> from tapegrad import keras
>>> m = keras.metrics.BinaryAccuracy()
>>> m.update_state([[1], [1], [0], [0]], [[0.98], [1], [0], [0.6]])
>>> print(m.result().numpy())
0.75
>>> m.update_state([[1], [0]], [[0.2], [0.3]], sample_weight=[1.0, 3.0])
>>> print(m.result().numpy().round(4))
0.75
"""
from __future__ import annotations

import difflib
import inspect
from typing import TYPE_CHECKING, Any

from ..losses import (_missing_name, _snake, binary_crossentropy, binary_focal_crossentropy,
                      categorical_crossentropy, categorical_focal_crossentropy, categorical_hinge, hinge,
                      huber, kl_divergence, log_cosh, mean_absolute_error, mean_absolute_percentage_error,
                      mean_squared_error, mean_squared_logarithmic_error, poisson,
                      sparse_categorical_crossentropy, squared_hinge)
from .accuracy_metrics import (Accuracy, BinaryAccuracy, CategoricalAccuracy, SparseCategoricalAccuracy,
                               SparseTopKCategoricalAccuracy, TopKCategoricalAccuracy, binary_accuracy,
                               categorical_accuracy, sparse_categorical_accuracy,
                               sparse_top_k_categorical_accuracy, top_k_categorical_accuracy)
from .confusion_metrics import (AUC, FalseNegatives, FalsePositives, Precision, PrecisionAtRecall, Recall,
                                RecallAtPrecision, SensitivityAtSpecificity, SpecificityAtSensitivity,
                                TrueNegatives, TruePositives)
from .correlation_metrics import (ConcordanceCorrelation, PearsonCorrelation, concordance_correlation,
                                  pearson_correlation)
from .f_score_metrics import F1Score, FBetaScore
from .hinge_metrics import CategoricalHinge, Hinge, SquaredHinge
from .iou_metrics import BinaryIoU, IoU, MeanIoU, OneHotIoU, OneHotMeanIoU
from .metric import Metric
from .probabilistic_metrics import (BinaryCrossentropy, CategoricalCrossentropy, KLDivergence, Poisson,
                                    SparseCategoricalCrossentropy)
from .reduction_metrics import Mean, MeanMetricWrapper, Sum
from .regression_metrics import (CosineSimilarity, LogCoshError, MeanAbsoluteError,
                                 MeanAbsolutePercentageError, MeanSquaredError, MeanSquaredLogarithmicError,
                                 R2Score, RootMeanSquaredError)


__all__ = [
    "Metric", "Mean", "Sum", "MeanMetricWrapper", "MeanSquaredError", "MeanAbsoluteError",
    "MeanAbsolutePercentageError", "MeanSquaredLogarithmicError", "RootMeanSquaredError",
    "CosineSimilarity", "LogCoshError", "Accuracy", "BinaryAccuracy", "CategoricalAccuracy",
    "SparseCategoricalAccuracy", "TopKCategoricalAccuracy", "SparseTopKCategoricalAccuracy",
    "TruePositives", "TrueNegatives", "FalsePositives", "FalseNegatives", "Precision", "Recall",
    "AUC", "BinaryCrossentropy", "CategoricalCrossentropy", "SparseCategoricalCrossentropy",
    "KLDivergence", "Poisson", "Hinge", "SquaredHinge", "CategoricalHinge",
    "binary_accuracy", "categorical_accuracy", "sparse_categorical_accuracy",
    "top_k_categorical_accuracy", "sparse_top_k_categorical_accuracy",
    "binary_crossentropy", "binary_focal_crossentropy", "categorical_crossentropy",
    "categorical_focal_crossentropy", "sparse_categorical_crossentropy", "categorical_hinge",
    "hinge", "squared_hinge", "huber", "kl_divergence", "log_cosh", "mean_absolute_error",
    "mean_absolute_percentage_error", "mean_squared_error", "mean_squared_logarithmic_error",
    "poisson", "get", "serialize", "deserialize", "resolve_metric",
    "FBetaScore", "F1Score", "R2Score", "IoU", "MeanIoU", "BinaryIoU", "OneHotIoU", "OneHotMeanIoU",
    "SensitivityAtSpecificity", "SpecificityAtSensitivity", "PrecisionAtRecall",
    "RecallAtPrecision", "PearsonCorrelation", "ConcordanceCorrelation", "pearson_correlation",
    "concordance_correlation", "KLD", "MAE", "MAPE", "MSE", "MSLE", "kld",
    "kullback_leibler_divergence", "logcosh", "mae", "mape", "mse", "msle",
]

# tf.keras.metrics's short names of the loss functions (functions, not classes: tf.keras.metrics.mae(y, p)
# gives one value per sample; the string "mae" given to get() or compile() names the MeanAbsoluteError class).
KLD = kld = kullback_leibler_divergence = kl_divergence
MAE = mae = mean_absolute_error
MAPE = mape = mean_absolute_percentage_error
MSE = mse = mean_squared_error
MSLE = msle = mean_squared_logarithmic_error
logcosh = log_cosh


# ---- look-up by name ---------------------------------------------------------------------------

_CLASSES = (Metric, Mean, Sum, MeanMetricWrapper, MeanSquaredError, RootMeanSquaredError,
            MeanAbsoluteError, MeanAbsolutePercentageError, MeanSquaredLogarithmicError,
            CosineSimilarity, LogCoshError, AUC, FalseNegatives, FalsePositives, Precision, Recall,
            TrueNegatives, TruePositives, Hinge, SquaredHinge, CategoricalHinge, KLDivergence,
            Poisson, BinaryCrossentropy, CategoricalCrossentropy, SparseCategoricalCrossentropy,
            Accuracy, BinaryAccuracy, CategoricalAccuracy, SparseCategoricalAccuracy,
            TopKCategoricalAccuracy, SparseTopKCategoricalAccuracy, FBetaScore, F1Score, R2Score,
            IoU, MeanIoU, BinaryIoU, OneHotIoU, OneHotMeanIoU, SensitivityAtSpecificity,
            SpecificityAtSensitivity, PrecisionAtRecall, RecallAtPrecision, PearsonCorrelation,
            ConcordanceCorrelation)
ALL_OBJECTS_DICT: dict[str, Any] = {c.__name__: c for c in _CLASSES}
ALL_OBJECTS_DICT.update({_snake(c.__name__): c for c in _CLASSES})
ALL_OBJECTS_DICT.update({"bce": BinaryCrossentropy, "BCE": BinaryCrossentropy,
                         "mse": MeanSquaredError, "MSE": MeanSquaredError,
                         "mae": MeanAbsoluteError, "MAE": MeanAbsoluteError,
                         "mape": MeanAbsolutePercentageError, "MAPE": MeanAbsolutePercentageError,
                         "msle": MeanSquaredLogarithmicError, "MSLE": MeanSquaredLogarithmicError})


def serialize(metric: Metric) -> dict:
    """A metric as ``{"class_name": ..., "config": ...}``."""
    return {"module": "keras.metrics", "class_name": type(metric).__name__,
            "config": metric.get_config(), "registered_name": None}


def deserialize(config: Any, custom_objects: dict | None = None) -> Any:
    """The metric a config (from :func:`serialize`) or a name describes.

    >>> from tapegrad import keras
    >>> keras.metrics.deserialize({"class_name": "BinaryAccuracy", "config": {"threshold": 0.3}}).threshold
    0.3
    """
    table = {**ALL_OBJECTS_DICT, **(custom_objects or {})}
    name = config if isinstance(config, str) else (config or {}).get("class_name")
    if name not in table:
        raise ValueError(_unknown(name, table))
    if isinstance(config, str):
        return table[name]
    return table[name].from_config(config.get("config") or {})


def _unknown(name: Any, table: dict) -> str:
    close = difflib.get_close_matches(str(name), list(table), n=3)
    hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    return f"Could not interpret metric identifier: {name!r}: no keras metric has this name.{hint}"


def get(identifier: Any) -> Any:
    """The metric ``identifier`` names: a class name or its snake_case (``"mse"``,
    ``"binary_accuracy"``, ``"accuracy"``) gives a new instance; a config dict, a function or a
    :class:`Metric` are returned as they are; ``None`` gives ``None``.

    >>> from tapegrad import keras
    >>> keras.metrics.get("mse")
    <MeanSquaredError name=mean_squared_error>
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
        raise ValueError(f"Could not interpret metric identifier: {identifier!r}")
    return obj() if inspect.isclass(obj) else obj


def _binary_or_sparse(y_true_shape: Any, y_pred_shape: Any) -> tuple[bool, bool]:
    """Keras's ``is_binary_or_sparse_categorical`` on the shapes of ``y_true`` and ``y_pred``."""
    t, p = tuple(y_true_shape), tuple(y_pred_shape)
    p_last = p[-1] if p else None
    t_last = t[-1] if t else None
    return p_last == 1, len(t) < len(p) or (t_last == 1 and p_last is not None and p_last > 1)


def resolve_metric(identifier: Any, y_true_shape: Any, y_pred_shape: Any) -> Metric:
    """The metric ``Model.compile(metrics=[identifier])`` makes for outputs of these shapes (Keras's
    ``compile_utils.get_metric``): ``"accuracy"``/``"acc"`` become :class:`BinaryAccuracy` when
    ``y_pred`` has one column, :class:`SparseCategoricalAccuracy` when ``y_true`` holds class
    indices (a lower rank, or one column against several), :class:`CategoricalAccuracy`
    otherwise; any other identifier goes through :func:`get`, and a function is wrapped in a
    :class:`MeanMetricWrapper`. The metric is named after the identifier.

    >>> from tapegrad import keras
    >>> keras.metrics.resolve_metric("accuracy", (32,), (32, 10))
    <SparseCategoricalAccuracy name=accuracy>
    >>> keras.metrics.resolve_metric("acc", (32, 1), (32, 1))
    <BinaryAccuracy name=acc>
    >>> keras.metrics.resolve_metric(keras.metrics.mean_absolute_error, (32, 1), (32, 1))
    <MeanMetricWrapper name=mean_absolute_error>
    """
    if identifier is None:
        raise ValueError("Expected metric, received `None`")
    if str(identifier).lower() in ("accuracy", "acc"):
        binary, sparse = _binary_or_sparse(y_true_shape, y_pred_shape)
        cls = BinaryAccuracy if binary else SparseCategoricalAccuracy if sparse else CategoricalAccuracy
        metric: Any = cls(name=str(identifier))
    else:
        metric = get(identifier)
    if not isinstance(metric, Metric):
        metric = MeanMetricWrapper(metric)
    if isinstance(identifier, str):
        metric.name = identifier
    return metric


if not TYPE_CHECKING:  # hidden from type checkers: they report a missing name
    def __getattr__(name: str) -> object:  # "did you mean" for a typo
        raise _missing_name(__name__, name, __all__)
