"""``tf.data.experimental``: the constants, ``AutoShardPolicy``, ``Counter``, ``cardinality``, ``ignore_errors``, ``save``/``load`` and the CSV readers
(``CsvDataset``, ``make_csv_dataset``) that programs still import from here.

>>> import tapegrad as tf
>>> tf.data.experimental.AUTOTUNE, int(tf.data.experimental.cardinality(tf.data.Dataset.range(3)))
(-1, 3)
"""
from __future__ import annotations

import enum
from typing import Any, Callable

from .._tensor import Tensor
from ._dataset import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset
from ._records import CsvDataset, make_csv_dataset

__all__ = ["AUTOTUNE", "AutoShardPolicy", "Counter", "CsvDataset", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "cardinality",
           "ignore_errors", "load", "make_csv_dataset", "save"]


class AutoShardPolicy(enum.IntEnum):
    """How a multi-worker strategy shards a dataset among its workers
    (``options.experimental_distribute.auto_shard_policy``; TensorFlow's values). Stored and
    unused: tapegrad's strategies read every dataset in one process and split its batches."""

    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


def Counter(start: Any = 0, step: Any = 1, dtype: Any = "int64") -> Dataset:
    """``tf.data.Dataset.counter(start, step, dtype)``, under its older name (deprecated in
    TensorFlow, which warns; tapegrad does not).

    >>> import tapegrad as tf
    >>> [int(x) for x in tf.data.experimental.Counter(start=2, step=5).take(3)]
    [2, 7, 12]
    """
    return Dataset.counter(start, step, dtype)


def ignore_errors(log_warning: bool = False) -> Callable[[Any], Any]:
    """For ``dataset.apply``: ``dataset.ignore_errors(log_warning)`` (see ``Dataset.ignore_errors``)."""
    return lambda dataset: dataset.ignore_errors(log_warning)


def save(dataset: Any, path: str, compression: str | None = None, shard_func: Callable | None = None,
         checkpoint_args: Any = None) -> None:
    """``dataset.save(path, ...)`` (see ``Dataset.save``)."""
    return dataset.save(path, compression, shard_func, checkpoint_args)


def load(path: str, element_spec: Any = None, compression: str | None = None,
         reader_func: Callable | None = None) -> Any:
    """``tf.data.Dataset.load(path, ...)`` (see ``Dataset.load``)."""
    return Dataset.load(path, element_spec, compression, reader_func)


def cardinality(dataset: Any) -> Tensor:
    """``dataset.cardinality()``: the number of elements, -1 if infinite, -2 if unknown."""
    return dataset.cardinality()
