"""``tf.data.experimental``: the constants, ``AutoShardPolicy``, ``Counter``, ``cardinality``, ``ignore_errors``, ``save``/``load``,
the CSV readers (``CsvDataset``, ``make_csv_dataset``), and the transformations for ``dataset.apply``
(``group_by_window``, ``group_by_reducer``, ``assert_cardinality``, ``rejection_resample``, ...), sources
(``from_list``, ``RandomDataset``, ``sample_from_datasets``) and readers/writers
(``make_batched_features_dataset``, ``TFRecordWriter``) that programs still import from here, and
``DatasetInitializer`` (a ``tf.lookup`` table's pairs from a dataset).

>>> import tapegrad as tf
>>> tf.data.experimental.AUTOTUNE, int(tf.data.experimental.cardinality(tf.data.Dataset.range(3)))
(-1, 3)
"""
from __future__ import annotations

import enum
from typing import Any, Callable

from .. import dtypes as _dt
from .._tensor import Tensor
from ..errors import OutOfRangeError, UnimplementedError
from ..experimental._optional import Optional
from ..lookup._tables import DatasetInitializer, FastHashSpec, IdTableWithHashBuckets, StaticHashTable
from ._dataset import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset, Options
from . import _structure as _s
from ._dataset import (_AssertCardinality, _Fn, _FromList, _GroupByReducer, _Passthrough,  # (the ones below)
                       _Random, _int, _op_seeds)
from ._records import CsvDataset, make_csv_dataset

__all__ = ["AUTOTUNE", "AutoShardPolicy", "Counter", "CsvDataset", "DatasetInitializer", "index_table_from_dataset", "table_from_dataset", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "cardinality",
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


# ----------------------------------------------------------------------------- the transformations for
# ``dataset.apply(...)``, sources and helpers that TensorFlow 2.21 still exports here (issue #24)
__all__ += ["Reducer", "RandomDataset", "TFRecordWriter", "assert_cardinality", "bucket_by_sequence_length",
            "choose_from_datasets", "copy_to_device", "dense_to_ragged_batch", "dense_to_sparse_batch",
            "enable_debug_mode", "enumerate_dataset", "from_list", "get_next_as_optional", "get_single_element",
            "group_by_reducer", "group_by_window", "make_batched_features_dataset", "map_and_batch",
            "parallel_interleave", "parse_example_dataset", "prefetch_to_device", "rejection_resample",
            "sample_from_datasets", "scan", "shuffle_and_repeat", "snapshot", "take_while", "unbatch", "unique"]


def assert_cardinality(expected_cardinality: Any) -> Callable[[Dataset], Dataset]:
    """For ``dataset.apply``: the same elements, with ``cardinality()`` ``expected_cardinality``
    (an int, or ``tf.data.INFINITE_CARDINALITY``), and a ``FailedPreconditionError`` while
    iterating if the dataset turns out to have another number of elements.

    >>> import tapegrad as tf
    >>> ds = tf.data.Dataset.range(10).filter(lambda x: x < 5)
    >>> int(ds.apply(tf.data.experimental.assert_cardinality(5)).cardinality())
    5
    """
    n = _int(expected_cardinality, "expected_cardinality")
    if n < 0 and n != INFINITE_CARDINALITY:
        raise ValueError(f"assert_cardinality: `expected_cardinality` must be >= 0 or tf.data.INFINITE_CARDINALITY; "
                         f"got {n}.")
    return lambda dataset: _AssertCardinality(dataset, n)


def bucket_by_sequence_length(element_length_func: Callable, bucket_boundaries: Any, bucket_batch_sizes: Any,
                              padded_shapes: Any = None, padding_values: Any = None, pad_to_bucket_boundary: bool = False,
                              no_padding: bool = False, drop_remainder: bool = False) -> Callable[[Dataset], Dataset]:
    """For ``dataset.apply``: ``dataset.bucket_by_sequence_length(...)``.

    >>> import tapegrad as tf
    >>> ds = tf.data.Dataset.from_tensor_slices([1, 3, 2]).map(lambda n: tf.fill([n], n))
    >>> ds = ds.apply(tf.data.experimental.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3], [2, 2]))
    >>> [b.numpy().tolist() for b in ds]
    [[[1, 0], [2, 2]], [[3, 3, 3]]]
    """
    return lambda dataset: dataset.bucket_by_sequence_length(
        element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes, padding_values,
        pad_to_bucket_boundary, no_padding, drop_remainder)


def choose_from_datasets(datasets: Any, choice_dataset: Dataset, stop_on_empty_dataset: bool = False) -> Dataset:
    """``tf.data.Dataset.choose_from_datasets``, but by default an exhausted dataset's choices
    are skipped (``stop_on_empty_dataset=False``), as here in TensorFlow.

    >>> import tapegrad as tf
    >>> choices = tf.data.Dataset.from_tensor_slices([0, 1, 0, 1, 1]).map(lambda c: tf.cast(c, tf.int64))
    >>> ds = tf.data.experimental.choose_from_datasets([tf.data.Dataset.range(1), tf.data.Dataset.range(10, 13)], choices)
    >>> [int(x) for x in ds]
    [0, 10, 11, 12]
    """
    return Dataset.choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)


def sample_from_datasets(datasets: Any, weights: Any = None, seed: Any = None,
                         stop_on_empty_dataset: bool = False) -> Dataset:
    """``tf.data.Dataset.sample_from_datasets`` (same draws).

    >>> import tapegrad as tf
    >>> ds = tf.data.experimental.sample_from_datasets([tf.data.Dataset.range(2), tf.data.Dataset.range(5, 7)], seed=1)
    >>> sorted(int(x) for x in ds)
    [0, 1, 5, 6]
    """
    return Dataset.sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset)


def group_by_window(key_func: Callable, reduce_func: Callable, window_size: Any = None,
                    window_size_func: Callable | None = None) -> Callable[[Dataset], Dataset]:
    """For ``dataset.apply``: ``dataset.group_by_window(...)``.

    >>> import tapegrad as tf
    >>> ds = tf.data.Dataset.range(5).apply(tf.data.experimental.group_by_window(
    ...     lambda x: x % 2, lambda key, window: window.batch(2), window_size=2))
    >>> [b.numpy().tolist() for b in ds]
    [[0, 2], [1, 3], [4]]
    """
    return lambda dataset: dataset.group_by_window(key_func, reduce_func, window_size, window_size_func)


class Reducer:
    """How ``group_by_reducer`` reduces a group: ``init_func(key)`` gives the group's first
    state, ``reduce_func(state, element)`` the next, ``finalize_func(state)`` the output (a tuple
    state is passed to ``init``'s and ``finalize``'s callers as separate arguments)."""

    def __init__(self, init_func: Callable, reduce_func: Callable, finalize_func: Callable) -> None:
        self._init_func, self._reduce_func, self._finalize_func = init_func, reduce_func, finalize_func

    @property
    def init_func(self) -> Callable:
        return self._init_func

    @property
    def reduce_func(self) -> Callable:
        return self._reduce_func

    @property
    def finalize_func(self) -> Callable:
        return self._finalize_func


def group_by_reducer(key_func: Callable, reducer: Reducer) -> Callable[[Dataset], Dataset]:
    """For ``dataset.apply``: one element per key (a scalar int64 of ``key_func``), the
    ``reducer``'s finalized state of that key's elements, in increasing order of key (as
    TensorFlow), once the input is exhausted.

    >>> import tapegrad as tf, numpy as np
    >>> r = tf.data.experimental.Reducer(lambda k: np.int64(0), lambda s, x: s + x, lambda s: s)
    >>> ds = tf.data.Dataset.range(10).apply(tf.data.experimental.group_by_reducer(lambda x: x % 2, r))
    >>> [int(x) for x in ds]
    [20, 25]
    """
    if not isinstance(reducer, Reducer):
        raise TypeError(f"group_by_reducer: `reducer` must be a tf.data.experimental.Reducer; got {type(reducer).__name__}.")
    return lambda dataset: _GroupByReducer(dataset, _Fn(key_func), _Fn(reducer.init_func), _Fn(reducer.reduce_func),
                                           _Fn(reducer.finalize_func))


def get_single_element(dataset: Dataset) -> Any:
    """``dataset.get_single_element()``.

    >>> import tapegrad as tf
    >>> int(tf.data.experimental.get_single_element(tf.data.Dataset.range(7, 8)))
    7
    """
    if not isinstance(dataset, Dataset):
        raise TypeError(f"Invalid `dataset`. Expected a `tf.data.Dataset` object but got {type(dataset)}.")
    return dataset.get_single_element()


def get_next_as_optional(iterator: Any) -> Any:
    """``iterator.get_next_as_optional()``: the next element as a ``tf.experimental.Optional``.

    >>> import tapegrad as tf
    >>> it = iter(tf.data.Dataset.range(1))
    >>> [bool(tf.data.experimental.get_next_as_optional(it).has_value()) for _ in range(2)]
    [True, False]
    """
    return iterator.get_next_as_optional()


def dense_to_ragged_batch(batch_size: Any, drop_remainder: bool = False,
                          row_splits_dtype: Any = None) -> Callable[[Dataset], Dataset]:
    """For ``dataset.apply``: ``dataset.ragged_batch(...)``.

    >>> import tapegrad as tf
    >>> ds = tf.data.Dataset.range(1, 3).map(lambda x: tf.fill([x], x))
    >>> [b.to_list() for b in ds.apply(tf.data.experimental.dense_to_ragged_batch(2))]
    [[[1], [2, 2]]]
    """
    return lambda dataset: dataset.ragged_batch(batch_size, drop_remainder, row_splits_dtype)


def dense_to_sparse_batch(batch_size: Any, row_shape: Any) -> Callable[[Dataset], Dataset]:
    """For ``dataset.apply``: ``dataset.sparse_batch(batch_size, row_shape)``.

    >>> import tapegrad as tf
    >>> ds = tf.data.Dataset.from_tensor_slices([[1], [2]]).apply(tf.data.experimental.dense_to_sparse_batch(2, [3]))
    >>> next(iter(ds)).dense_shape.numpy().tolist()
    [2, 3]
    """
    return lambda dataset: dataset.sparse_batch(batch_size, row_shape)


def enumerate_dataset(start: Any = 0) -> Callable[[Dataset], Dataset]:
    """For ``dataset.apply``: ``dataset.enumerate(start)``.

    >>> import tapegrad as tf
    >>> [(int(i), int(x)) for i, x in tf.data.Dataset.range(7, 9).apply(tf.data.experimental.enumerate_dataset(1))]
    [(1, 7), (2, 8)]
    """
    return lambda dataset: dataset.enumerate(start)


def unbatch() -> Callable[[Dataset], Dataset]:
    """For ``dataset.apply``: ``dataset.unbatch()``.

    >>> import tapegrad as tf
    >>> [int(x) for x in tf.data.Dataset.range(3).batch(2).apply(tf.data.experimental.unbatch())]
    [0, 1, 2]
    """
    return lambda dataset: dataset.unbatch()


def unique() -> Callable[[Dataset], Dataset]:
    """For ``dataset.apply``: ``dataset.unique()``.

    >>> import tapegrad as tf
    >>> [int(x) for x in tf.data.Dataset.from_tensor_slices([2, 1, 2]).apply(tf.data.experimental.unique())]
    [2, 1]
    """
    return lambda dataset: dataset.unique()


def scan(initial_state: Any, scan_func: Callable) -> Callable[[Dataset], Dataset]:
    """For ``dataset.apply``: ``dataset.scan(initial_state, scan_func)``.

    >>> import tapegrad as tf, numpy as np
    >>> ds = tf.data.Dataset.range(4).apply(tf.data.experimental.scan(np.int64(0), lambda s, x: (s + x, s + x)))
    >>> [int(x) for x in ds]
    [0, 1, 3, 6]
    """
    return lambda dataset: dataset.scan(initial_state, scan_func)


def take_while(predicate: Callable) -> Callable[[Dataset], Dataset]:
    """For ``dataset.apply``: ``dataset.take_while(predicate)``.

    >>> import tapegrad as tf
    >>> [int(x) for x in tf.data.Dataset.range(9).apply(tf.data.experimental.take_while(lambda x: x < 3))]
    [0, 1, 2]
    """
    return lambda dataset: dataset.take_while(predicate)


def parallel_interleave(map_func: Callable, cycle_length: Any, block_length: Any = 1, sloppy: bool | None = False,
                        buffer_output_elements: Any = None,
                        prefetch_input_elements: Any = None) -> Callable[[Dataset], Dataset]:
    """For ``dataset.apply``: ``dataset.interleave(map_func, cycle_length, block_length)``, in
    that deterministic order (``sloppy`` orders are one of TensorFlow's possible ones).

    >>> import tapegrad as tf
    >>> ds = tf.data.Dataset.range(1, 3).apply(tf.data.experimental.parallel_interleave(
    ...     lambda x: tf.data.Dataset.range(10 * x, 10 * x + 2), cycle_length=2))
    >>> [int(x) for x in ds]
    [10, 20, 11, 21]
    """
    return lambda dataset: dataset.interleave(map_func, cycle_length, block_length)


def map_and_batch(map_func: Callable, batch_size: Any, num_parallel_batches: Any = None, drop_remainder: bool = False,
                  num_parallel_calls: Any = None) -> Callable[[Dataset], Dataset]:
    """For ``dataset.apply``: ``dataset.map(map_func).batch(batch_size, drop_remainder)``.

    >>> import tapegrad as tf
    >>> ds = tf.data.Dataset.range(5).apply(tf.data.experimental.map_and_batch(lambda x: x * 2, 2))
    >>> [b.numpy().tolist() for b in ds]
    [[0, 2], [4, 6], [8]]
    """
    if num_parallel_batches is not None and num_parallel_calls is not None:
        raise ValueError("`map_and_batch` allows only one of `num_parallel_batches` and `num_parallel_calls` to be "
                         "set.")
    return lambda dataset: dataset.map(map_func).batch(batch_size, drop_remainder)


def shuffle_and_repeat(buffer_size: Any, count: Any = None, seed: Any = None) -> Callable[[Dataset], Dataset]:
    """For ``dataset.apply``: ``dataset.shuffle(buffer_size, seed).repeat(count)`` (TensorFlow's
    fused op gives the same order).

    >>> import tapegrad as tf
    >>> ds = tf.data.Dataset.range(3).apply(tf.data.experimental.shuffle_and_repeat(3, count=2, seed=1))
    >>> sorted(int(x) for x in ds)
    [0, 0, 1, 1, 2, 2]
    """
    return lambda dataset: dataset.shuffle(buffer_size, seed).repeat(count)


def rejection_resample(class_func: Callable, target_dist: Any, initial_dist: Any = None,
                       seed: Any = None) -> Callable[[Dataset], Dataset]:
    """For ``dataset.apply``: ``dataset.rejection_resample(...)``."""
    return lambda dataset: dataset.rejection_resample(class_func, target_dist, initial_dist, seed)


def snapshot(path: str, compression: str | None = "AUTO", reader_func: Callable | None = None,
             shard_func: Callable | None = None) -> Callable[[Dataset], Dataset]:
    """For ``dataset.apply``: ``dataset.snapshot(...)``."""
    return lambda dataset: dataset.snapshot(path, compression, reader_func, shard_func)


def copy_to_device(target_device: str, source_device: str = "/cpu:0") -> Callable[[Dataset], Dataset]:
    """For ``dataset.apply``: the same dataset (tapegrad's elements live in this process's memory).

    >>> import tapegrad as tf
    >>> [int(x) for x in tf.data.Dataset.range(2).apply(tf.data.experimental.copy_to_device("/gpu:0"))]
    [0, 1]
    """
    return lambda dataset: _Passthrough(dataset, "_CopyToDeviceDataset")


def prefetch_to_device(device: str, buffer_size: Any = None) -> Callable[[Dataset], Dataset]:
    """For ``dataset.apply``: the same dataset (tapegrad's elements live in this process's memory)."""
    return lambda dataset: _Passthrough(dataset, "_PrefetchToDeviceDataset")


def from_list(elements: list, name: str | None = None) -> Dataset:
    """A dataset of the elements of the list ``elements`` (nests of one structure and dtypes; the
    shapes may differ, their spec is the most specific one compatible with all).

    >>> import tapegrad as tf
    >>> list(tf.data.experimental.from_list([(1, "a"), (2, "b")]).as_numpy_iterator())
    [(np.int32(1), b'a'), (np.int32(2), b'b')]
    """
    return _FromList(list(elements))


def enable_debug_mode() -> None:
    """Accepted: tapegrad's dataset functions already run eagerly, one element at a time, in
    order, which is what TensorFlow's debug mode makes its own do."""


class RandomDataset(_Random):
    """``tf.data.Dataset.random(seed, rerandomize_each_iteration)``: TensorFlow's pseudorandom
    int64 values in ``[0, 2**32)``, forever.

    >>> import tapegrad as tf
    >>> ds = tf.data.experimental.RandomDataset(seed=4)
    >>> isinstance(ds, tf.data.Dataset), int(ds.cardinality())
    (True, -1)
    """

    def __init__(self, seed: Any = None, rerandomize_each_iteration: bool | None = None) -> None:
        seeds, fresh = _op_seeds(seed)
        super().__init__(seeds, bool(rerandomize_each_iteration))
        self._fresh = fresh


def parse_example_dataset(features: dict, num_parallel_calls: Any = 1,
                          deterministic: Any = None) -> Callable[[Dataset], Dataset]:
    """For ``dataset.apply``: each element, a vector of serialized ``tf.train.Example`` protos, parsed
    with ``tf.io.parse_example(element, features)``.

    >>> import tapegrad as tf
    >>> ex = tf.train.Example(features=tf.train.Features(feature={
    ...     "a": tf.train.Feature(int64_list=tf.train.Int64List(value=[3]))})).SerializeToString()
    >>> ds = tf.data.Dataset.from_tensors([ex, ex]).apply(
    ...     tf.data.experimental.parse_example_dataset({"a": tf.io.FixedLenFeature([], tf.int64)}))
    >>> next(iter(ds))["a"].numpy().tolist()
    [3, 3]
    """
    if features is None:
        raise ValueError("Argument `features` is required, but not specified.")
    from ..io import parse_example

    return lambda dataset: dataset.map(lambda serialized: parse_example(serialized, features))


def make_batched_features_dataset(file_pattern: Any, batch_size: int, features: dict, reader: Any = None,
                                  label_key: str | None = None, reader_args: Any = None, num_epochs: Any = None,
                                  shuffle: bool = True, shuffle_buffer_size: int = 10000, shuffle_seed: Any = None,
                                  prefetch_buffer_size: Any = None, reader_num_threads: Any = None,
                                  parser_num_threads: Any = None, sloppy_ordering: bool = False,
                                  drop_final_batch: bool = False) -> Dataset:
    """Batches of features parsed from the ``tf.train.Example`` records of the files matching
    ``file_pattern``, as TensorFlow builds them: the files listed (shuffled with
    ``shuffle_seed`` unless ``shuffle=False``) and read ``reader_num_threads`` (default 1) at a
    time, the records shuffled (buffer ``shuffle_buffer_size``) and repeated ``num_epochs`` times
    (forever by default, the last smaller batch then dropped), batched, parsed with
    ``features``; with ``label_key``, elements ``(features, label)``.
    """
    from ._records import TFRecordDataset

    reader = TFRecordDataset if reader is None else reader
    args = list(reader_args or [])
    dataset = Dataset.list_files(file_pattern, shuffle=shuffle, seed=shuffle_seed)
    cycle = 1 if reader_num_threads is None or reader_num_threads == AUTOTUNE else reader_num_threads
    dataset = dataset.interleave(lambda filename: reader(filename, *args), cycle_length=cycle, block_length=1)
    spec = dataset.element_spec
    if isinstance(spec, tuple) and len(spec) == 2 and all(getattr(s, "dtype", None) == _dt.string for s in spec):
        dataset = dataset.map(lambda _, v: v)
    if shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
    if num_epochs != 1:
        dataset = dataset.repeat(num_epochs)
    dataset = dataset.batch(batch_size, drop_remainder=drop_final_batch or num_epochs is None)
    dataset = dataset.apply(parse_example_dataset(features))
    if label_key:
        if label_key not in features:
            raise ValueError(f"The `label_key` provided ({label_key}) must be one of the `features` keys: "
                             f"{features.keys()}.")
        dataset = dataset.map(lambda x: (x, x.pop(label_key)))
    return dataset.prefetch(AUTOTUNE if prefetch_buffer_size is None else prefetch_buffer_size)


class TFRecordWriter:
    """Writes a dataset of scalar strings to a TFRecord file (``compression_type``: None, ``""``,
    ``"ZLIB"`` or ``"GZIP"``), for ``tf.data.TFRecordDataset``.

    >>> import os, tempfile, tapegrad as tf
    >>> path = os.path.join(tempfile.mkdtemp(), "r.tfrecord")
    >>> tf.data.experimental.TFRecordWriter(path).write(tf.data.Dataset.from_tensor_slices(["a", "bc"]))
    >>> [x.numpy() for x in tf.data.TFRecordDataset(path)]
    [b'a', b'bc']
    """

    def __init__(self, filename: str, compression_type: str | None = None) -> None:
        self._filename, self._compression = filename, compression_type

    def write(self, dataset: Dataset) -> None:
        """Write ``dataset``'s elements, one record each."""
        from ..io import TFRecordOptions, TFRecordWriter as _Writer

        if not isinstance(dataset, Dataset):
            raise TypeError(f"Invalid `dataset.` Expected a `tf.data.Dataset` object but got {type(dataset)}.")
        spec = dataset.element_spec
        if not (type(spec) is _s.TensorSpec and spec.dtype == _dt.string and spec.shape.is_compatible_with([])):
            raise TypeError("Invalid `dataset.` Expected a dataset that contains a single `tf.string` component, "
                            f"but got {spec}.")
        with _Writer(self._filename, TFRecordOptions(compression_type=self._compression or "")) as w:
            for record in dataset.as_numpy_iterator():
                w.write(record)


__all__ += ["AutotuneOptions", "DistributeOptions", "ExternalStatePolicy", "OptimizationOptions", "Optional",
            "SHARD_HINT", "ThreadingOptions", "at", "get_structure", "pad_to_cardinality"]

SHARD_HINT = -1


class ExternalStatePolicy(enum.Enum):
    """How a saved iterator treats external state (``options.experimental_external_state_policy``);
    stored and unused."""

    WARN = 0
    IGNORE = 1
    FAIL = 2


class AutotuneOptions(Options):
    """``options.autotune``'s group (stored; see ``tf.data.Options``)."""


class DistributeOptions(Options):
    """``options.experimental_distribute``'s group (stored; see ``tf.data.Options``)."""


class OptimizationOptions(Options):
    """``options.experimental_optimization``'s group (stored; see ``tf.data.Options``)."""


class ThreadingOptions(Options):
    """``options.threading``'s group (stored; see ``tf.data.Options``)."""


def get_structure(dataset_or_iterator: Any) -> Any:
    """The element spec of a dataset or of an iterator's dataset.

    >>> import tapegrad as tf
    >>> tf.data.experimental.get_structure(iter(tf.data.Dataset.range(2)))
    TensorSpec(shape=(), dtype=tf.int64, name=None)
    """
    spec = getattr(dataset_or_iterator, "element_spec", None)
    if spec is None:
        raise TypeError("Invalid `dataset_or_iterator`. `dataset_or_iterator` must be a `tf.data.Dataset` or an "
                        f"iterator over one; got {type(dataset_or_iterator).__name__}.")
    return spec


def at(dataset: Dataset, index: Any) -> Any:
    """The element at ``index`` of a dataset of known cardinality (TensorFlow's random access;
    tapegrad reads the elements before it).

    Raises:
        OutOfRangeError: ``index`` outside ``[0, cardinality)``.
        UnimplementedError: a dataset of unknown cardinality (``filter``, ``flat_map``, ...), for
            which TensorFlow has no random access either.

    >>> import tapegrad as tf
    >>> int(tf.data.experimental.at(tf.data.Dataset.range(10).map(lambda x: x * 3), 4))
    12
    """
    i = _int(index, "index")
    n = dataset._card()
    if n == UNKNOWN_CARDINALITY:
        raise UnimplementedError(f"Random access is not implemented for dataset {dataset._tf_name.strip('_')} (its "
                                 "cardinality is unknown).")
    if i < 0 or (n != INFINITE_CARDINALITY and i >= n):
        raise OutOfRangeError(f"Index out of range [0, {n}):{i}")
    return dataset.skip(i).take(1).get_single_element()


def pad_to_cardinality(cardinality: int, mask_key: str = "valid") -> Callable[[Dataset], Dataset]:
    """For ``dataset.apply``: a dataset of dicts padded to ``cardinality`` elements with
    all-zero elements, each element's ``mask_key`` True for the real ones and False for the
    padding.

    >>> import tapegrad as tf
    >>> ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2]}).apply(tf.data.experimental.pad_to_cardinality(3))
    >>> [(int(e["a"]), bool(e["valid"])) for e in ds]
    [(1, True), (2, True), (0, False)]
    """
    import numpy as np

    def apply(dataset: Dataset) -> Dataset:
        n = dataset._card()
        if n < 0:
            raise ValueError("The dataset passed into `pad_to_cardinality` must have a known cardinalty, but has "
                             f"cardinality {n}")
        if n > cardinality:
            raise ValueError("The dataset passed into `pad_to_cardinality` must have a cardinalty less than the target "
                             f"cardinality ({cardinality}), but has cardinality {n}")
        spec = dataset.element_spec
        if not isinstance(spec, dict):
            raise ValueError("`pad_to_cardinality` requires its input dataset to be a dictionary.")
        filler = {k: np.zeros(s.shape, object if s.dtype == _dt.string else s.dtype._np) for k, s in spec.items()}
        filler[mask_key] = np.False_
        return dataset.map(lambda x: {**x, mask_key: True}).concatenate(
            Dataset.from_tensors(filler).repeat(cardinality - n))

    return apply


def table_from_dataset(dataset: Any = None, num_oov_buckets: int = 0, vocab_size: Any = None,
                       default_value: Any = None, hasher_spec: Any = FastHashSpec, key_dtype: Any = _dt.string,
                       name: str | None = None) -> Any:
    """A ``tf.lookup`` table of the ``(key, value)`` pairs of ``dataset`` (its first ``vocab_size``,
    which it must have): a ``StaticHashTable`` with ``default_value`` (-1 by default, for number
    values), or with ``num_oov_buckets``, the keys not in it hashed into ids after them.

    >>> import tapegrad as tf
    >>> keys = tf.data.Dataset.range(100)
    >>> values = keys.map(lambda x: tf.strings.as_string(x * 2))
    >>> table = tf.data.experimental.table_from_dataset(tf.data.Dataset.zip((keys, values)),
    ...                                                 default_value="n/a", key_dtype=tf.int64)
    >>> table.lookup(tf.constant([0, 1, 200], dtype=tf.int64)).numpy()
    array([b'0', b'2', b'n/a'], dtype=object)
    """
    value_dtype = DatasetInitializer(dataset).value_dtype
    key_dtype = _dt.as_dtype(key_dtype)
    if default_value is None:
        default_value = -1
        if not (value_dtype.is_integer or value_dtype.is_floating):
            raise ValueError("`default_value` must be specified when creating a table from a dataset that "
                             f"produces values of type {value_dtype}.")
    if num_oov_buckets < 0:
        raise ValueError(f"`num_oov_buckets` must be greater than or equal to 0, got {num_oov_buckets}.")
    if not isinstance(vocab_size, Tensor) and vocab_size is not None and vocab_size < 1:
        raise ValueError(f"`vocab_size` must be greater than 0, got {vocab_size}.")
    if not key_dtype.is_integer and key_dtype != _dt.string:
        raise TypeError(f"`key_dtype` must be either an integer or string type, but got {key_dtype}")
    if vocab_size is not None:
        dataset = dataset.take(vocab_size).apply(assert_cardinality(vocab_size))
    table = StaticHashTable(DatasetInitializer(dataset), default_value)
    if num_oov_buckets:
        return IdTableWithHashBuckets(table, num_oov_buckets, hasher_spec, key_dtype=key_dtype)
    return table


def index_table_from_dataset(dataset: Any = None, num_oov_buckets: int = 0, vocab_size: Any = None,
                             default_value: Any = -1, hasher_spec: Any = FastHashSpec, key_dtype: Any = _dt.string,
                             name: str | None = None) -> Any:
    """A ``tf.lookup`` table from each key of ``dataset`` to its position (int64), as
    :func:`table_from_dataset` of the pairs ``(key, position)``.

    >>> import tapegrad as tf
    >>> words = tf.data.Dataset.from_tensor_slices(["a", "b", "c"])
    >>> tf.data.experimental.index_table_from_dataset(words).lookup(tf.constant(["c", "q"])).numpy()
    array([ 2, -1])
    """
    return table_from_dataset(dataset.enumerate().map(lambda i, k: (k, i)), num_oov_buckets, vocab_size,
                              default_value, hasher_spec, key_dtype, name)

