"""The intersection-over-union metrics: ``IoU``, ``MeanIoU``, ``BinaryIoU`` and the one-hot ones."""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._engine import constant
from .._engine import Tensor
from ..losses import _EPSILON
from .metric import Metric
from .metrics_utils import _array, _np_dtype


class IoU(Metric):
    """Intersection over union, ``tp / (tp + fp + fn)`` per class from a confusion matrix
    accumulated over every batch, averaged over ``target_class_ids`` (classes that never occur
    are left out of the mean).

    ``y_true`` and ``y_pred`` hold class ids, or scores whose argmax along ``axis`` is taken with
    ``sparse_y_true=False`` / ``sparse_y_pred=False``. Labels equal to ``ignore_class`` and ids
    outside ``[0, num_classes)`` are not counted. The matrix is int64 unless ``dtype`` says
    otherwise, as in Keras: fractional sample weights are then truncated (a warning says so).

    >>> from tapegrad import keras
    >>> m = keras.metrics.IoU(num_classes=2, target_class_ids=[0])
    >>> m.update_state([0, 0, 1, 1], [0, 1, 0, 1]); print(m.result().numpy().round(4))
    0.3333
    """

    def __init__(self, num_classes: int, target_class_ids: Any, name: str | None = None,
                 dtype: Any = None, ignore_class: int | None = None, sparse_y_true: bool = True,
                 sparse_y_pred: bool = True, axis: int = -1) -> None:
        super().__init__(name=name, dtype=dtype or "int64")
        self.num_classes, self.ignore_class, self.axis = num_classes, ignore_class, axis
        self.sparse_y_true, self.sparse_y_pred = sparse_y_true, sparse_y_pred
        if max(target_class_ids) >= num_classes:
            raise ValueError(f"Target class id {max(target_class_ids)} is out of range, which is "
                             f"[0, {num_classes}).")
        self.target_class_ids = list(target_class_ids)
        self.total_cm = self.add_variable((num_classes, num_classes), name="total_confusion_matrix")

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        dt = _np_dtype(self)
        yt, yp = _array(y_true, None), _array(y_pred, None)
        if not self.sparse_y_true:
            yt = np.argmax(yt, axis=self.axis)
        if not self.sparse_y_pred:
            yp = np.argmax(yp, axis=self.axis)
        yt, yp = yt.astype(dt).reshape(-1), yp.astype(dt).reshape(-1)
        if sample_weight is None:
            sw = np.ones_like(yt)
        else:
            if (hasattr(sample_weight, "dtype") and "float" in str(sample_weight.dtype)
                    and dt.kind in "iu"):
                warnings.warn("You are passing weight as `float`, but dtype is `int`. This may "
                              "result in an incorrect weight due to type casting Consider using "
                              "integer weights.", stacklevel=2)
            sw = np.broadcast_to(_array(sample_weight, None).astype(dt).reshape(-1), yt.shape)
        keep = (yt >= 0) & (yt < self.num_classes) & (yp >= 0) & (yp < self.num_classes)
        if self.ignore_class is not None:
            keep &= yt != self.ignore_class
        cm = np.zeros((self.num_classes, self.num_classes), dt)
        np.add.at(cm, (np.where(keep, yt, 0).astype(np.int64), np.where(keep, yp, 0).astype(np.int64)),
                  np.where(keep, sw, 0).astype(dt))
        self.total_cm.assign_add(cm)

    def result(self) -> Tensor:
        cm = self.total_cm.numpy()
        dt = _np_dtype(self)
        tp = np.diag(cm).astype(dt)
        denominator = cm.sum(0).astype(dt) + cm.sum(1).astype(dt) - tp
        ids = self.target_class_ids
        f = np.float32
        tp, denominator = tp[ids].astype(f), denominator[ids].astype(f)
        valid = denominator > 1e-9
        iou = np.where(valid, tp / (denominator + f(_EPSILON)), f(0))
        return constant(f(iou.sum(dtype=f) / (f(valid.sum()) + f(_EPSILON))))

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype, "num_classes": self.num_classes,
                "target_class_ids": self.target_class_ids, "ignore_class": self.ignore_class,
                "sparse_y_true": self.sparse_y_true, "sparse_y_pred": self.sparse_y_pred,
                "axis": self.axis}


class BinaryIoU(IoU):
    """:class:`IoU` of two classes from scores: a prediction is class 1 when ``>= threshold``.

    >>> from tapegrad import keras
    >>> m = keras.metrics.BinaryIoU(target_class_ids=[0, 1], threshold=0.3)
    >>> m.update_state([0, 1, 0, 1], [0.1, 0.2, 0.4, 0.7]); print(m.result().numpy().round(4))
    0.3333
    """

    def __init__(self, target_class_ids: Any = (0, 1), threshold: float = 0.5,
                 name: str | None = None, dtype: Any = None) -> None:
        super().__init__(num_classes=2, target_class_ids=target_class_ids, name=name, dtype=dtype)
        self.threshold = threshold

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        super().update_state(y_true, _array(y_pred, np.float32) >= np.float32(self.threshold),
                             sample_weight)

    def get_config(self) -> dict:
        return {"target_class_ids": self.target_class_ids, "threshold": self.threshold,
                "name": self.name, "dtype": self.dtype}


class MeanIoU(IoU):
    """:class:`IoU` averaged over every class.

    >>> from tapegrad import keras
    >>> m = keras.metrics.MeanIoU(num_classes=2)
    >>> m.update_state([0, 0, 1, 1], [0, 1, 0, 1]); print(m.result().numpy().round(4))
    0.3333
    """

    def __init__(self, num_classes: int, name: str | None = None, dtype: Any = None,
                 ignore_class: int | None = None, sparse_y_true: bool = True,
                 sparse_y_pred: bool = True, axis: int = -1) -> None:
        super().__init__(num_classes, list(range(num_classes)), name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=sparse_y_true,
                         sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["target_class_ids"]
        return config


class OneHotIoU(IoU):
    """:class:`IoU` of one-hot labels (and, unless ``sparse_y_pred``, score predictions)."""

    def __init__(self, num_classes: int, target_class_ids: Any, name: str | None = None,
                 dtype: Any = None, ignore_class: int | None = None, sparse_y_pred: bool = False,
                 axis: int = -1) -> None:
        super().__init__(num_classes, target_class_ids, name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=False,
                         sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["sparse_y_true"]
        return config


class OneHotMeanIoU(MeanIoU):
    """:class:`MeanIoU` of one-hot labels (and, unless ``sparse_y_pred``, score predictions)."""

    def __init__(self, num_classes: int, name: str | None = None, dtype: Any = None,
                 ignore_class: int | None = None, sparse_y_pred: bool = False,
                 axis: int = -1) -> None:
        super().__init__(num_classes, name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["sparse_y_true"]
        return config
