"""``Dataset`` and its transformations.

A dataset is a description: nothing runs until it is iterated, and every ``iter`` starts over.
Each class yields raw elements (see :mod:`._structure`) from ``_iter``. Datasets whose elements
are rows of a few arrays (``from_tensor_slices``, and ``take``, ``skip``, ``repeat``, ``shard``,
``shuffle``, ``cache``, ``prefetch`` over one) also answer ``_rows``: the arrays, the element
template and a stream of index chunks (``range`` objects where contiguous, index arrays where
not). ``batch`` over such a dataset slices or gathers the arrays once per batch instead of
handling each element.
"""
from __future__ import annotations

import copy
import itertools
import os
import threading
import warnings
from collections import deque
from typing import Any, Callable, Iterator

import numpy as np

from .. import _nest, _philox, _recorders as _rec, _trace, dtypes as _dt
from .._backend import Boxed
from .._tensor import Tensor, TensorShape, wrap
from .._variable import restoring_variables
from ..errors import DataLossError, FailedPreconditionError, InternalError, InvalidArgumentError, OpError
from ..experimental._optional import Optional, next_as_optional
from ..ragged import RaggedTensorSpec
from . import _iterator_state as _state, _save, _structure as _s

INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2
AUTOTUNE = -1

_INF, _UNK = INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
_CHUNK = 4096  # indices per chunk of a row stream


class Options:
    """Accepted for compatibility (``tf.data.Options``): tapegrad's pipelines run in order, in
    the calling thread, so every option is stored and none changes the results.

    >>> import tapegrad as tf
    >>> o = tf.data.Options(); o.deterministic = False
    >>> list(tf.data.Dataset.range(2).with_options(o).as_numpy_iterator())
    [np.int64(0), np.int64(1)]
    """

    # TensorFlow's top-level options that are values, unset (others are groups, made when read)
    deterministic = experimental_deterministic = experimental_external_state_policy = None
    experimental_symbolic_checkpoint = experimental_warm_start = dataset_name = framework_type = None
    experimental_slack = False

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        # nested option groups (options.threading.private_threadpool_size = 1)
        sub = ThreadingOptions() if name == "threading" else Options()
        object.__setattr__(self, name, sub)
        return sub

    def merge(self, options: "Options") -> "Options":
        out = Options()
        out.__dict__.update(self.__dict__)
        out.__dict__.update(options.__dict__)
        return out


class ThreadingOptions:
    """``tf.data.ThreadingOptions`` (``Options().threading``): the thread-pool sizes of a
    pipeline, stored (tapegrad runs a pipeline in the calling thread).

    >>> import tapegrad as tf
    >>> o = tf.data.Options(); o.threading.private_threadpool_size = 4
    >>> o.threading.private_threadpool_size, o.threading.max_intra_op_parallelism
    (4, None)
    """

    max_intra_op_parallelism = private_threadpool_size = None

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in ("max_intra_op_parallelism", "private_threadpool_size"):
            raise AttributeError(f"ThreadingOptions has no option {name!r} (max_intra_op_parallelism, "
                                 "private_threadpool_size).")
        object.__setattr__(self, name, value)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ThreadingOptions) and vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]


def _int(x: Any, what: str) -> int:
    v = x._value if isinstance(x, Tensor) else x
    if isinstance(v, np.ndarray) and v.ndim == 0:
        v = v[()]
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"`{what}` must be an integer (a Python int or a scalar integer tensor); "
                        f"got {x!r} of type {type(x).__name__}.")
    return int(v)


def _args(e: Any) -> tuple:
    """The arguments a user function gets for element ``e``: a tuple's components one by one."""
    t = _s.to_tensors(e)
    return t if type(t) is tuple else (t,)


class _Fn:
    """A dataset's function (``map``'s, ``filter``'s, ...). TensorFlow traces it into a graph when
    the dataset is made, so its random ops take that graph's op seeds (0, 1, ... under the global
    seed of that moment) and each iterator instantiates their kernels afresh: every epoch draws
    the same numbers, and eager random ops before or after draw as if it were not there.
    :meth:`instance` gives one iterator's function, which runs eagerly with those seeds: one
    instance for all the passes of one ``iter(dataset)`` (TF instantiates it once in the
    iterator's function library, so a ``repeat`` goes on drawing where the last pass stood)."""

    def __init__(self, fn: Callable, parallel: bool = False) -> None:
        from .. import random as _random

        self.fn, self.parallel, self._seeds = fn, parallel, _random.FunctionSeeds()
        self.stateful = ""  # what stateful thing a call ran, if any (an iterator cannot be saved then)
        self._owner: Any = None  # (the iterator whose instance _graph is)
        self._graph: Any = None

    def instance(self) -> Callable:
        from .. import random as _random

        owner = _iterating.owner
        if owner is None:
            graph = self._seeds.instance()
        else:
            if owner is not self._owner:
                self._owner, self._graph = owner, self._seeds.instance()
            graph = self._graph
        fn, parallel, run, tls = self.fn, self.parallel, _random.call_in_graph, _rec.tls

        def call(*args: Any) -> Any:
            before = tls.stateful
            out, drew = run(graph, fn, args)
            if drew:
                self.stateful = "a random op"
                if parallel:
                    _warn_parallel_random()
            elif tls.stateful != before:
                self.stateful = "a py_function or a Variable update"
            elif isinstance(out, Dataset) and any(getattr(d, "_fresh", False) for d in _state.nodes(out)):
                self.stateful = "a shuffle without a seed"
            return out
        return call


def _warn_parallel_random() -> None:
    if not _warned_parallel[0]:
        _warned_parallel[0] = True
        warnings.warn("A random op ran in a Dataset.map function with num_parallel_calls: TensorFlow's "
                      "kernel serves the parallel calls in the order its threads reach it, so TF's numbers "
                      "vary from run to run; tapegrad draws in element order, as TF does without "
                      "num_parallel_calls (see 'Random numbers in dataset functions' in docs/data.md).",
                      stacklevel=4)


_warned_parallel = [False]


class _Iterating(threading.local):
    owner: Any = None  # the iterator (iter(dataset), as_numpy_iterator) running in this thread


_iterating = _Iterating()


def _owned_elements(owner: Any, dataset: "Dataset") -> Iterator:
    """``dataset._elements()`` for iterator ``owner`` (see :func:`_owned_next`)."""
    prev, _iterating.owner = _iterating.owner, owner
    try:
        return dataset._elements()
    finally:
        _iterating.owner = prev


def _owned_next(owner: Any, it: Iterator) -> Any:
    """``next(it)`` with ``owner`` the iterator running (its functions' instances are its own)."""
    prev, _iterating.owner = _iterating.owner, owner
    try:
        return next(it)
    finally:
        _iterating.owner = prev


class Dataset:
    """A sequence of elements, each a nest (tuple, dict) of tensors, built from sources and
    transformations and iterated lazily, with TensorFlow 2's ``tf.data.Dataset`` API.

    Make one from data with a source (:meth:`from_tensor_slices`, :meth:`from_tensors`,
    :meth:`from_generator`, :meth:`range`, ``tf.data.TextLineDataset``,
    ``tf.data.TFRecordDataset``), transform it with methods that each return a new dataset
    (:meth:`map`, :meth:`filter`, :meth:`shuffle`, :meth:`batch`, :meth:`repeat`,
    :meth:`prefetch`, ...), and iterate it with ``for``, :meth:`as_numpy_iterator` or by passing it
    to ``Model.fit``. Nothing is computed until an element is asked for, and each iteration
    starts afresh (a new shuffle order, a new call of a generator). The elements come one at a
    time in this process: ``prefetch`` and ``num_parallel_calls`` change nothing but are
    accepted.

    The order of elements, and the random numbers drawn in ``map`` functions, are TensorFlow's
    for a seeded program (see docs/data.md).

    >>> import tapegrad as tf, numpy as np
    >>> x = np.arange(12.0, dtype=np.float32).reshape(6, 2); y = np.arange(6)
    >>> ds = tf.data.Dataset.from_tensor_slices((x, y)).map(lambda a, b: (a * 2, b)).batch(4)
    >>> ds.element_spec
    (TensorSpec(shape=(None, 2), dtype=tf.float32, name=None), TensorSpec(shape=(None,), dtype=tf.int64, name=None))
    >>> [b.numpy().tolist() for _, b in ds]
    [[0, 1, 2, 3], [4, 5]]
    """

    _tf_name = "_Dataset"
    _unsaveable = ""  # why an iterator over it cannot be checkpointed, if it cannot

    # -- what each dataset class defines
    def _iter(self) -> Iterator:
        raise NotImplementedError

    def _spec(self) -> Any:
        raise NotImplementedError

    def _card(self) -> int:
        return _UNK

    def _rows(self) -> tuple | None:
        return None

    def _tolerant(self) -> Iterator | None:
        """The elements, with a :class:`_Failed` in place of each one whose making raised a
        TensorFlow runtime error, the stream going on after it (what ``ignore_errors`` reads);
        ``None`` where this dataset cannot go on after an error."""
        return None

    def _elements(self) -> Iterator:
        rows = self._rows()
        if rows is None:
            return self._iter()
        return _row_elements(*rows)

    # -- description
    @property
    def _type_spec(self) -> Any:
        return _s.DatasetSpec(self.element_spec)

    @property
    def element_spec(self) -> Any:
        """The structure of an element: a nest of ``TensorSpec`` (shape and dtype)."""
        spec = self.__dict__.get("_element_spec")
        if spec is None:
            # (a first element run for its spec must not use up a shuffle's seeds, nor move on a
            # Variable its functions update, such as a Keras layer's SeedGenerator: TF only traces)
            _probing[0] += 1
            owner, _iterating.owner = _iterating.owner, None  # (and runs its functions' own instances)
            try:
                with restoring_variables():
                    spec = self.__dict__["_element_spec"] = self._spec()
            finally:
                _probing[0] -= 1
                _iterating.owner = owner
        return spec

    def cardinality(self) -> Tensor:
        """The number of elements as an int64 scalar tensor: ``INFINITE_CARDINALITY`` (-1) for an
        infinite dataset, ``UNKNOWN_CARDINALITY`` (-2) when it cannot be known without iterating.

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.range(10)
        >>> int(ds.batch(3).cardinality()), int(ds.repeat().cardinality()), int(ds.filter(lambda x: x > 2).cardinality())
        (4, -1, -2)
        """
        return wrap(np.array(self._card(), dtype=np.int64))

    def __len__(self) -> int:
        c = self._card()
        if c == _INF:
            raise TypeError("The dataset is infinite (it repeats forever), so it has no length; "
                            "take(n) gives a finite dataset.")
        if c == _UNK:
            raise TypeError("The dataset length is unknown: it cannot be known without iterating "
                            "(filter, flat_map, from_generator, ...); cardinality() says -2.")
        return c

    def __bool__(self) -> bool:
        return True

    def __repr__(self) -> str:
        return f"<{self._tf_name} element_spec={self.element_spec!r}>"

    # -- iteration
    def __iter__(self) -> "OwnedIterator":
        return OwnedIterator(self)

    def as_numpy_iterator(self) -> Iterator:
        """Iterate with NumPy values in place of tensors (bytes for strings).

        >>> import tapegrad as tf
        >>> list(tf.data.Dataset.from_tensor_slices({"a": [1, 2]}).as_numpy_iterator())
        [{'a': np.int32(1)}, {'a': np.int32(2)}]
        >>> tf.data.Dataset.range(3).as_numpy_iterator().next()  # (TF's iterator has next() too)
        np.int64(0)
        """
        return _NumpyIterator(self)

    def reduce(self, initial_state: Any, reduce_func: Callable) -> Any:
        """Fold the elements: ``state = reduce_func(state, element)`` from ``initial_state``.

        >>> import tapegrad as tf, numpy as np
        >>> tf.data.Dataset.range(5).reduce(np.int64(0), lambda s, x: s + x).numpy()
        np.int64(10)
        """
        state = _s.to_tensors(_s.normalize(initial_state, True))
        spec = _s.spec_of(_s.normalize(initial_state, True))
        fn = _Fn(reduce_func).instance()
        for e in self._elements():
            new = _s.normalize(fn(state, _s.to_tensors(e)), True)
            _check_state(spec, new, "reduce")
            state = _s.to_tensors(new)
        return state

    def save(self, path: str, compression: str | None = None, shard_func: Callable | None = None,
             checkpoint_args: Any = None) -> None:
        """Write the elements to the folder ``path`` (``compression``: None or ``"GZIP"``;
        ``shard_func(element)``: the shard, an integer, each element goes to), for
        :meth:`Dataset.load`. tapegrad's own format (NumPy ``.npz`` shards, no pickle): TensorFlow
        cannot read it, nor tapegrad TensorFlow's.

        >>> import os, tempfile, tapegrad as tf
        >>> path = os.path.join(tempfile.mkdtemp(), "saved")
        >>> tf.data.Dataset.from_tensor_slices({"x": [1.0, 2.0], "s": ["a", "bc"]}).save(path)
        >>> ds = tf.data.Dataset.load(path)
        >>> [(float(e["x"]), e["s"].numpy()) for e in ds], ds.element_spec["s"]
        ([(1.0, b'a'), (2.0, b'bc')], TensorSpec(shape=(), dtype=tf.string, name=None))
        """
        if checkpoint_args is not None:
            raise NotImplementedError("Dataset.save(checkpoint_args=...) is not covered: tapegrad writes the whole "
                                      "dataset in one go.")
        if self._card() == _INF:
            raise ValueError("Dataset.save: the dataset is infinite (it repeats forever); take(n) first.")
        fn = None if shard_func is None else _Fn(shard_func).instance()
        items = ((0 if fn is None else _save.shard_index(fn(*_args(e))), e) for e in self._elements())
        _save.write(os.fspath(path), self.element_spec, items, compression)

    @staticmethod
    def load(path: str, element_spec: Any = None, compression: str | None = None,
             reader_func: Callable | None = None) -> "Dataset":
        """The dataset :meth:`save` wrote to ``path``: its shards in order (``reader_func``, given
        a dataset of the shards' datasets, returns the dataset to use instead)."""
        spec, leaves, shards = _save.read_meta(os.fspath(path), element_spec)
        parts = [_Loaded(f, spec, leaves, n) for f, n in shards] or [_Loaded(None, spec, leaves, 0)]
        if reader_func is not None:
            out = reader_func(_Parts(parts))
            if not isinstance(out, Dataset):
                raise TypeError(f"Dataset.load: `reader_func` must return a Dataset; it returned {type(out).__name__}.")
            return out
        out = parts[0]
        for p in parts[1:]:
            out = out.concatenate(p)
        return out

    # -- sources
    @staticmethod
    def from_tensor_slices(tensors: Any, name: str | None = None) -> "Dataset":
        """A dataset of the slices of ``tensors`` along their first dimension (every component
        of a tuple or dict must have the same first dimension).

        Args:
            tensors: an array, tensor, Python list, or a nest of them (a tuple ``(x, y)``, a dict
                ``{"image": ..., "label": ...}``); the elements have the same structure, each
                component one row. NumPy arrays keep their dtype; Python floats become float32
                and ints int32, as in ``tf.constant``. Rows are sliced as they are asked for (a
                Dask array larger than memory is computed one chunk at a time).
            name: accepted for TensorFlow compatibility; unused.

        Returns:
            A dataset with ``len(tensors)`` elements.

        Raises:
            ValueError: components with different first dimensions, or a scalar (nothing to
                slice).

        >>> import tapegrad as tf
        >>> list(tf.data.Dataset.from_tensor_slices(([1, 2], [3.0, 4.0])).as_numpy_iterator())
        [(np.int32(1), np.float32(3.0)), (np.int32(2), np.float32(4.0))]
        """
        return _Slices(_s.normalize(tensors, False, lazy=True))

    @staticmethod
    def list_files(file_pattern: Any, shuffle: bool | None = None, seed: int | None = None,
                   name: str | None = None) -> "Dataset":
        """A dataset of the file names matching ``file_pattern`` (a glob, or a list of them), as
        TensorFlow's ``Dataset.list_files``: the names sorted, then shuffled (``shuffle`` is True
        unless False) with a buffer of all of them and ``seed``, reshuffled on each iteration.

        Raises:
            InvalidArgumentError: nothing matches.

        >>> import os, tempfile, tapegrad as tf
        >>> d = tempfile.mkdtemp()
        >>> for n in "ba":
        ...     open(os.path.join(d, n + ".txt"), "w").close()
        >>> [os.path.basename(f.decode()) for f in
        ...  tf.data.Dataset.list_files(os.path.join(d, "*.txt"), shuffle=False).as_numpy_iterator()]
        ['a.txt', 'b.txt']
        """
        from ..io._files import _strings, matching_files   # (io's file ops load on first use)
        names = np.asarray(matching_files(file_pattern).numpy())
        pats = _strings(file_pattern).reshape(-1)
        patterns = ", ".join(p.decode() if isinstance(p, bytes) else str(p) for p in pats)
        if not names.size:
            raise InvalidArgumentError("Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
                                       f"Summarized data: b'No files matched pattern: {patterns}'")
        ds = Dataset.from_tensor_slices(names)
        return ds.shuffle(max(names.size, 1), seed=seed) if shuffle is None or shuffle else ds

    @staticmethod
    def from_tensors(tensors: Any, name: str | None = None) -> "Dataset":
        """A dataset of one element, ``tensors``.

        >>> import tapegrad as tf
        >>> list(tf.data.Dataset.from_tensors([1, 2]))
        [<tapegrad.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>]
        """
        return _Tensors(_s.normalize(tensors, False, lazy=True))

    @staticmethod
    def from_generator(generator: Callable, output_types: Any = None, output_shapes: Any = None,
                       args: Any = None, output_signature: Any = None, name: str | None = None) -> "Dataset":
        """A dataset of what ``generator(*args)`` yields, called anew on every iteration. Say
        what it yields with ``output_signature`` (a nest of ``tf.TensorSpec``), or with the older
        ``output_types`` and ``output_shapes``.

        Args:
            generator: a callable (not a generator object) returning an iterator; it is called
                once per iteration of the dataset, so each epoch starts it again.
            output_types: a dtype, or a nest of dtypes with the structure of the yielded values.
            output_shapes: the shapes that go with ``output_types`` (``None`` for an unknown
                dimension); default unknown.
            args: a tuple of arguments for ``generator``.
            output_signature: a nest of ``tf.TensorSpec`` (instead of the two above).
            name: accepted for TensorFlow compatibility; unused.

        Raises:
            TypeError: ``generator`` not callable, or neither or both of ``output_signature`` and
                ``output_types`` given.

        >>> import tapegrad as tf
        >>> def gen():
        ...     yield 1, [1.0]
        ...     yield 2, [2.0, 3.0]
        >>> ds = tf.data.Dataset.from_generator(gen, output_types=(tf.int32, tf.float32),
        ...                                     output_shapes=((), (None,)))
        >>> [b.numpy().tolist() for a, b in ds]
        [[1.0], [2.0, 3.0]]
        """
        if not callable(generator):
            raise TypeError(f"`generator` must be a callable that returns an iterator; got "
                            f"{type(generator).__name__}.")
        if output_signature is not None:
            if output_types is not None or output_shapes is not None:
                raise TypeError("Give either `output_signature` or `output_types` (with "
                                "`output_shapes`), not both.")
            spec = _nest.map_structure(lambda s: s if hasattr(s, "_component_specs") else  # (an extension type's)
                                       _s.tensor_spec(s.shape, s.dtype), _tuples(output_signature))
        elif output_types is not None:
            types = _tuples(output_types)
            flat_types = _nest.flatten(types)
            shapes = [None] * len(flat_types) if output_shapes is None else _shape_leaves(types, output_shapes)
            spec = _nest.pack_sequence_as(types, [_s.tensor_spec(TensorShape(sh), t) for t, sh in
                                                  zip(flat_types, shapes)])
        else:
            raise TypeError("from_generator needs `output_signature` (a nest of tf.TensorSpec "
                            "describing what the generator yields), or `output_types`.")
        return _Generator(generator, () if args is None else tuple(args), spec)

    @staticmethod
    def range(*args: Any, output_type: Any = _dt.int64, name: str | None = None) -> "Dataset":
        """``range(stop)``, ``range(start, stop[, step])``: integers as Python's ``range``,
        int64 unless ``output_type`` says otherwise. Lazy: ``range(10**12)`` costs nothing.

        >>> import tapegrad as tf
        >>> list(tf.data.Dataset.range(2, 10, 3).as_numpy_iterator())
        [np.int64(2), np.int64(5), np.int64(8)]
        """
        if not 1 <= len(args) <= 3:
            raise TypeError(f"range takes 1 to 3 positional arguments (stop, or start, stop[, "
                            f"step]); got {len(args)}.")
        r = [_int(a, "range argument") for a in args]
        if len(r) == 3 and r[2] == 0:
            raise InvalidArgumentError("Dataset.range: step must be a non-zero integer; got 0.")
        return _Range(range(*r), _dt.as_dtype(output_type))

    @staticmethod
    def counter(start: Any = 0, step: Any = 1, dtype: Any = _dt.int64,
                name: str | None = None) -> "Dataset":
        """An infinite dataset counting from ``start`` in steps of ``step``: scalars of
        ``dtype`` (int64 by default; an integer count wraps around at the end of the type, as
        TensorFlow's). ``tf.data.experimental.Counter`` is the older name.

        >>> import tapegrad as tf
        >>> [int(x) for x in tf.data.Dataset.counter(start=10, step=-3).take(4)]
        [10, 7, 4, 1]
        >>> tf.data.Dataset.counter(dtype=tf.int32).element_spec
        TensorSpec(shape=(), dtype=tf.int32, name=None)
        """
        dtype = _dt.as_dtype(dtype)
        if not (dtype.is_integer or dtype.is_floating):
            raise TypeError(f"Dataset.counter counts in an integer or float dtype; got dtype={dtype.name}.")
        return _Counter(_s.host_scalar(start, dtype, "start"), _s.host_scalar(step, dtype, "step"), dtype)

    @staticmethod
    def zip(*datasets: Any, name: str | None = None) -> "Dataset":
        """A dataset of tuples (or the nest given) of the datasets' elements, as long as the
        shortest.

        >>> import tapegrad as tf
        >>> a, b = tf.data.Dataset.range(3), tf.data.Dataset.range(10, 12)
        >>> list(tf.data.Dataset.zip(a, b).as_numpy_iterator())
        [(np.int64(0), np.int64(10)), (np.int64(1), np.int64(11))]
        """
        structure = datasets[0] if len(datasets) == 1 else tuple(datasets)
        flat = _nest.flatten(structure)
        bad = [d for d in flat if not isinstance(d, Dataset)]
        if bad or not flat:
            raise TypeError("zip takes datasets, or one tuple or dict of datasets; got "
                            f"{type(bad[0]).__name__ if bad else 'nothing'}.")
        return _Zip(structure)

    # -- transformations
    def apply(self, transformation_func: Callable) -> "Dataset":
        """``transformation_func(self)``, which must return a dataset."""
        out = transformation_func(self)
        if not isinstance(out, Dataset):
            raise TypeError(f"apply: `transformation_func` must return a Dataset; it returned "
                            f"{type(out).__name__}.")
        return out

    def batch(self, batch_size: Any, drop_remainder: bool = False, num_parallel_calls: Any = None,
              deterministic: Any = None, name: str | None = None) -> "Dataset":
        """Stack consecutive elements into batches of ``batch_size`` (the last one smaller
        unless ``drop_remainder``).

        Every component gains a leading dimension (``None`` in :attr:`element_spec` unless
        ``drop_remainder``). Elements of different shapes cannot be stacked: use
        :meth:`padded_batch` or :meth:`ragged_batch`.

        Args:
            batch_size: elements per batch, a positive integer.
            drop_remainder: drop a last batch smaller than ``batch_size`` (the batches then have
                a static first dimension).
            num_parallel_calls: accepted; batches are made in order, one at a time.
            deterministic: accepted; the order is always deterministic.
            name: accepted for TensorFlow compatibility; unused.

        Raises:
            InvalidArgumentError: ``batch_size`` not positive.

        >>> import tapegrad as tf
        >>> [b.numpy().tolist() for b in tf.data.Dataset.range(7).batch(3)]
        [[0, 1, 2], [3, 4, 5], [6]]
        """
        return _Batch(self, _positive(batch_size, "batch_size", "Batch"), bool(drop_remainder))

    def ragged_batch(self, batch_size: Any, drop_remainder: bool = False, row_splits_dtype: Any = None,
                     name: str | None = None) -> "Dataset":
        """Batch elements of different lengths into RaggedTensors (every component of rank >= 1;
        scalars stack into a Tensor).

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.range(1, 4).map(lambda x: tf.fill([x], x))
        >>> [b.to_list() for b in ds.ragged_batch(2)]
        [[[1], [2, 2]], [[3, 3, 3]]]
        """
        return _RaggedBatch(self, _positive(batch_size, "batch_size", "RaggedBatch"), bool(drop_remainder))

    def padded_batch(self, batch_size: Any, padded_shapes: Any = None, padding_values: Any = None,
                     drop_remainder: bool = False, name: str | None = None) -> "Dataset":
        """Batch elements of different shapes, padding each component to ``padded_shapes``
        (``None`` dimensions: the longest in the batch) with ``padding_values`` (default 0).

        Args:
            batch_size: elements per batch, a positive integer.
            padded_shapes: a shape per component (a nest like the element's), ``None`` or -1 for
                a dimension padded to the batch's longest; default: every dimension padded to
                the batch's longest.
            padding_values: a scalar per component (a nest like the element's); default 0 for
                numbers and ``b""`` for strings.
            drop_remainder: drop a last batch smaller than ``batch_size``.
            name: accepted for TensorFlow compatibility; unused.

        Raises:
            InvalidArgumentError: ``batch_size`` not positive.

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.range(1, 4).map(lambda x: tf.fill([x], x))
        >>> [b.numpy().tolist() for b in ds.padded_batch(2)]
        [[[1, 0], [2, 2]], [[3, 3, 3]]]
        """
        return _PaddedBatch(self, _positive(batch_size, "batch_size", "PaddedBatch"), padded_shapes,
                            padding_values, bool(drop_remainder))

    def unbatch(self, name: str | None = None) -> "Dataset":
        """Split each element along its first dimension into elements (``batch`` undone)."""
        return _Unbatch(self)

    def cache(self, filename: str = "", name: str | None = None) -> "Dataset":
        """Keep the elements of the first complete iteration in memory and replay them after.

        Put it after expensive steps (``map``) and before ``shuffle``/``repeat``, so that later
        epochs replay the results. An iteration that stops early caches nothing.

        Args:
            filename: must be ``""`` (only the in-memory cache exists).
            name: accepted for TensorFlow compatibility; unused.

        Raises:
            NotImplementedError: a ``filename``.

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.range(3).map(lambda x: x * 10).cache()
        >>> list(ds.as_numpy_iterator()) == list(ds.as_numpy_iterator())
        True
        """
        if filename:
            raise NotImplementedError(
                f"cache(filename={filename!r}): tapegrad caches in memory only; call cache() without "
                "a filename (see docs/data.md).")
        return _Cache(self)

    def concatenate(self, dataset: "Dataset", name: str | None = None) -> "Dataset":
        """This dataset's elements, then ``dataset``'s (same structure and dtypes)."""
        return _Concatenate(self, dataset)

    def enumerate(self, start: Any = 0, name: str | None = None) -> "Dataset":
        """Pairs ``(index, element)``, the index an int64 counting from ``start``."""
        return _Enumerate(self, _int(start, "start"))

    def filter(self, predicate: Callable, name: str | None = None) -> "Dataset":
        """The elements for which ``predicate`` (given a tuple's components as arguments)
        returns True.

        Args:
            predicate: a function of the element returning a scalar bool tensor (or a Python
                bool); it runs eagerly for every element, as :meth:`map`'s function does.
            name: accepted for TensorFlow compatibility; unused.

        >>> import tapegrad as tf
        >>> list(tf.data.Dataset.range(10).filter(lambda x: x % 3 == 0).as_numpy_iterator())
        [np.int64(0), np.int64(3), np.int64(6), np.int64(9)]
        """
        return _Filter(self, _Fn(predicate))

    def flat_map(self, map_func: Callable, name: str | None = None) -> "Dataset":
        """The elements of the datasets ``map_func`` returns for each element, one after another."""
        return _FlatMap(self, _Fn(map_func))

    def interleave(self, map_func: Callable, cycle_length: Any = None, block_length: Any = None,
                   num_parallel_calls: Any = None, deterministic: Any = None,
                   name: str | None = None) -> "Dataset":
        """Like ``flat_map``, but ``cycle_length`` of the datasets are open at once and their
        elements are taken ``block_length`` at a time from each in turn (TensorFlow's order).

        The usual use: many files read in turn,
        ``Dataset.from_tensor_slices(files).interleave(tf.data.TFRecordDataset)``.

        Args:
            map_func: a function of the element returning a dataset.
            cycle_length: datasets open at once (default, and ``tf.data.AUTOTUNE``: as
                TensorFlow, the number of schedulable CPUs, or with ``num_parallel_calls`` that
                many (at most the CPUs), or with ``num_parallel_calls=AUTOTUNE`` a third of the
                CPUs, rounded up).
            block_length: elements taken from each dataset before moving to the next (default
                1).
            num_parallel_calls: accepted; the datasets are read in this thread, in order.
            deterministic: accepted; the order is always deterministic.
            name: accepted for TensorFlow compatibility; unused.

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.range(1, 3).interleave(
        ...     lambda x: tf.data.Dataset.range(10 * x, 10 * x + 3), cycle_length=2)
        >>> [int(v) for v in ds]
        [10, 20, 11, 21, 12, 22]
        """
        if cycle_length in (None, AUTOTUNE):  # (TF's ComputeCycleLength, of the schedulable cores)
            cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
            if num_parallel_calls is None:
                cycle = cores
            elif num_parallel_calls == AUTOTUNE:  # (a third of them: TF keeps 2 prefetching per cycle element)
                cycle = -(-cores // 3)
            else:
                cycle = min(_positive(num_parallel_calls, "num_parallel_calls", "Interleave"), cores)
        else:
            cycle = _positive(cycle_length, "cycle_length", "Interleave")
            if num_parallel_calls not in (None, AUTOTUNE) and int(num_parallel_calls) > cycle:
                raise InvalidArgumentError(
                    "If `cycle_length` is set to a fixed value, `num_parallel_calls` must be either "
                    "`tf.data.AUTOTUNE` or a value less than or equal to `cycle_length`. However, "
                    f"`num_parallel_calls` is {int(num_parallel_calls)} and `cycle_length` is {cycle}")
        block = 1 if block_length is None else _positive(block_length, "block_length", "Interleave")
        return _Interleave(self, _Fn(map_func, num_parallel_calls is not None), cycle, block)

    def ignore_errors(self, log_warning: bool = False, name: str | None = None) -> "Dataset":
        """Drop the elements whose making raises a TensorFlow runtime error
        (``tf.errors.OpError``: a malformed CSV record, a failed ``tf.debugging`` check in a map
        function) and go on with the next, as TensorFlow does; ``log_warning`` warns for each.
        A batch that meets an error is dropped whole. Other exceptions (a Python bug in a map
        function) still propagate.

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.from_tensor_slices([1., 0., 2.]).map(
        ...     lambda x: tf.debugging.check_numerics(1. / x, "error"))
        >>> [float(x) for x in ds.ignore_errors()]
        [1.0, 0.5]
        """
        return _IgnoreErrors(self, bool(log_warning))

    def map(self, map_func: Callable, num_parallel_calls: Any = None, deterministic: Any = None,
            name: str | None = None) -> "Dataset":
        """Apply ``map_func`` to each element (a tuple's components are its arguments; a list it
        returns becomes a tuple). ``num_parallel_calls`` is accepted; calls run in order.

        ``map_func`` runs eagerly on tensors, once per element, each time the element is
        produced (after a :meth:`cache`, once). As in TensorFlow, where it is traced into a
        graph, its random ops (``tf.random.uniform``, ...) draw TensorFlow's numbers for the
        function's graph seeds: every epoch draws the same numbers unless a seed changes, and
        eager random ops outside it are not shifted by it. Python side effects (``print``, a
        list append) run for every element, where TensorFlow runs them once, at tracing.

        Args:
            map_func: a function of the element's components returning a tensor or a nest of
                tensors (arrays and Python numbers are converted).
            num_parallel_calls: accepted (``tf.data.AUTOTUNE`` too); the calls run one at a time,
                in element order. A random op in such a function warns once: TensorFlow's
                parallel calls draw in a varying order.
            deterministic: accepted; the order is always deterministic.
            name: accepted for TensorFlow compatibility; unused.

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.from_tensor_slices(([1, 2], [10, 20])).map(lambda a, b: a + b)
        >>> list(ds.as_numpy_iterator())
        [np.int32(11), np.int32(22)]
        """
        return _Map(self, _Fn(map_func, num_parallel_calls is not None))

    def prefetch(self, buffer_size: Any, name: str | None = None) -> "Dataset":
        """The same elements, read ``buffer_size`` ahead of the consumer from the second one asked for.

        TensorFlow's prefetch thread fills its buffer while the consumer (a training step) works
        on an element; tapegrad reads as far ahead at once, with no thread, so what reading ahead
        changes is TensorFlow's: an iterator left early (a ``fit`` with ``steps_per_epoch``) has
        begun the passes of a ``shuffle().repeat()`` below it, and has run the functions of a
        ``map``, for ``buffer_size`` more elements (docs/data.md). ``tf.data.AUTOTUNE``
        (TensorFlow tunes the size as it runs) reads nothing ahead; keep it at the end of a
        pipeline written for TensorFlow: it costs nothing here.

        >>> import tapegrad as tf
        >>> seen = []
        >>> ds = tf.data.Dataset.range(6).map(lambda x: tf.py_function(lambda v: seen.append(int(v)) or v, [x], tf.int64))
        >>> print([int(x) for x in ds.prefetch(2).take(2)], seen)
        [0, 1] [0, 1, 2, 3]

        Args:
            buffer_size: elements to read ahead (``tf.data.AUTOTUNE``: none).
            name: accepted for TensorFlow compatibility; unused.
        """
        size = int(buffer_size)
        if size < AUTOTUNE:
            raise ValueError(f"prefetch: buffer_size must be >= 0 or tf.data.AUTOTUNE (-1); got {size}.")
        return _Prefetch(self, size)

    def with_options(self, options: Options, name: str | None = None) -> "Dataset":
        """The same elements; ``options`` are stored and change nothing (see :class:`Options`)."""
        if not isinstance(options, Options):
            raise TypeError(f"with_options takes a tf.data.Options; got {type(options).__name__}.")
        out = _Passthrough(self, "_OptionsDataset")
        out._options = options
        return out

    def repeat(self, count: Any = None, name: str | None = None) -> "Dataset":
        """The elements ``count`` times over (``None`` or -1: forever).

        Each repetition is a new iteration of the dataset before it: a :meth:`shuffle` before
        ``repeat`` reshuffles each time (with ``reshuffle_each_iteration``), one after it mixes
        elements across repetitions. For ``Model.fit(..., steps_per_epoch=n)`` repeat forever.

        Args:
            count: the number of repetitions; ``None`` or -1 repeats forever (the cardinality
                becomes ``tf.data.INFINITE_CARDINALITY``).
            name: accepted for TensorFlow compatibility; unused.

        >>> import tapegrad as tf
        >>> list(tf.data.Dataset.range(2).repeat(2).as_numpy_iterator())
        [np.int64(0), np.int64(1), np.int64(0), np.int64(1)]
        """
        n = -1 if count is None else _int(count, "count")
        return _Repeat(self, n)

    def scan(self, initial_state: Any, scan_func: Callable, name: str | None = None) -> "Dataset":
        """Carry a state: ``scan_func(state, element)`` returns ``(new_state, output)``; the
        dataset's elements are the outputs."""
        return _Scan(self, _s.normalize(initial_state, True), _Fn(scan_func))

    def shard(self, num_shards: Any, index: Any, name: str | None = None) -> "Dataset":
        """Every ``num_shards``-th element, starting at ``index``."""
        n = _positive(num_shards, "num_shards", "Shard")
        i = _int(index, "index")
        if not 0 <= i < n:
            raise InvalidArgumentError(f"shard: `index` must be in [0, num_shards={n}); got {i}.")
        return _Shard(self, n, i)

    def shuffle(self, buffer_size: Any, seed: Any = None, reshuffle_each_iteration: Any = True,
                name: str | None = None) -> "Dataset":
        """Shuffle with TensorFlow's buffer: fill a buffer of ``buffer_size`` elements, emit one
        at random and put the next element in its place. With a ``seed`` (or after
        ``tf.random.set_seed``) the order is the same run to run; with
        ``reshuffle_each_iteration`` each iteration (each ``repeat``) draws a new order. Seeded
        orders are TensorFlow's (its Philox streams and buffer).

        A buffer smaller than the dataset shuffles only locally: an element can move at most
        ``buffer_size`` places ahead. Shuffle the whole dataset with a buffer at least its size
        (``tf.data.UNKNOWN_CARDINALITY`` holds all of it), before :meth:`batch`.

        Args:
            buffer_size: elements in the buffer, positive, or ``tf.data.UNKNOWN_CARDINALITY``
                for a buffer that holds the whole dataset.
            seed: the op seed (an int). With ``tf.random.set_seed`` and no ``seed``, the op seed
                comes from the global seed, as in TensorFlow; with neither, each dataset draws
                its own order from fresh entropy.
            reshuffle_each_iteration: draw a new order on each iteration (each epoch of ``fit``,
                each repetition of a later :meth:`repeat`); ``False`` repeats the first order.
            name: accepted for TensorFlow compatibility; unused.

        Raises:
            InvalidArgumentError: ``buffer_size`` not positive (and not
                ``UNKNOWN_CARDINALITY``).

        >>> import tapegrad as tf
        >>> sorted(tf.data.Dataset.range(5).shuffle(5, seed=1).as_numpy_iterator())
        [np.int64(0), np.int64(1), np.int64(2), np.int64(3), np.int64(4)]
        """
        size = _int(buffer_size, "buffer_size")
        if size <= 0 and size != _UNK:
            raise InvalidArgumentError(f"shuffle: `buffer_size` must be greater than zero (or "
                                       f"tf.data.UNKNOWN_CARDINALITY for the whole dataset); got {size}.")
        seeds, fresh = _op_seeds(seed)
        out = _Shuffle(self, size, seeds, bool(reshuffle_each_iteration))
        out._fresh = fresh
        return out

    def skip(self, count: Any, name: str | None = None) -> "Dataset":
        """All but the first ``count`` elements (-1: none).

        Args:
            count: the number of elements to skip (an int or a scalar tensor); -1 skips them all.
            name: accepted for TensorFlow compatibility; unused.

        >>> import tapegrad as tf
        >>> list(tf.data.Dataset.range(5).skip(3).as_numpy_iterator())
        [np.int64(3), np.int64(4)]
        """
        return _Skip(self, _int(count, "count"))

    def take(self, count: Any, name: str | None = None) -> "Dataset":
        """The first ``count`` elements (-1: all).

        Args:
            count: the number of elements (an int or a scalar tensor); -1 takes them all.
            name: accepted for TensorFlow compatibility; unused.

        >>> import tapegrad as tf
        >>> list(tf.data.Dataset.range(10 ** 12).take(3).as_numpy_iterator())
        [np.int64(0), np.int64(1), np.int64(2)]
        """
        return _Take(self, _int(count, "count"))

    def take_while(self, predicate: Callable, name: str | None = None) -> "Dataset":
        """The elements up to the first for which ``predicate`` is False."""
        return _TakeWhile(self, _Fn(predicate))

    def window(self, size: Any, shift: Any = None, stride: Any = 1, drop_remainder: bool = False,
               name: str | None = None) -> "Dataset":
        """Windows of ``size`` elements (every ``stride``-th), starting every ``shift`` (default
        ``size``) elements; each window is a dataset (a nest of datasets for a nest).

        >>> import tapegrad as tf
        >>> [list(w.as_numpy_iterator()) for w in tf.data.Dataset.range(5).window(2)]
        [[np.int64(0), np.int64(1)], [np.int64(2), np.int64(3)], [np.int64(4)]]
        """
        n = _positive(size, "size", "Window")
        return _Window(self, n, n if shift is None else _positive(shift, "shift", "Window"),
                       _positive(stride, "stride", "Window"), bool(drop_remainder))

    # -- grouping, sampling and the rest of TensorFlow 2.21's methods (classes near the end of the file)
    def group_by_window(self, key_func: Callable, reduce_func: Callable, window_size: Any = None,
                        window_size_func: Callable | None = None, name: str | None = None) -> "Dataset":
        """Group the elements by ``key_func`` and reduce each window of a group with
        ``reduce_func``, as TensorFlow's ``group_by_window``.

        Each element goes to the group of its key; when a group holds its window size of
        elements, ``reduce_func(key, window)`` (``window`` a dataset of those elements) gives a
        dataset whose elements come next, and the group starts empty again. When the input runs
        out, the groups left are reduced in increasing order of their keys.

        Args:
            key_func: a function of the element returning a scalar ``tf.int64`` (a Python int
                too); an int32 tensor is refused, as TensorFlow refuses it.
            reduce_func: a function of ``(key, window)`` returning a dataset (``window.batch(n)``).
            window_size: the size of every group's windows, a positive integer; or
            window_size_func: a function of the key returning the window size of that key's group
                (called once per key).
            name: accepted for TensorFlow compatibility; unused.

        Raises:
            ValueError: neither or both of ``window_size`` and ``window_size_func``.
            InvalidArgumentError: a window size not positive (when the key first appears).

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.range(10).group_by_window(
        ...     key_func=lambda x: x % 2, reduce_func=lambda key, window: window.batch(4), window_size=4)
        >>> [b.numpy().tolist() for b in ds]
        [[0, 2, 4, 6], [1, 3, 5, 7], [8], [9]]
        """
        if (window_size is None) == (window_size_func is None):
            raise ValueError("Either the `window_size` argument or the `window_size_func` argument must be "
                             "specified.")
        size = None if window_size is None else _int(window_size, "window_size")
        out = _GroupByWindow(self, _Fn(key_func), _Fn(reduce_func),
                             None if window_size_func is None else _Fn(window_size_func), size)
        out.element_spec  # (TF traces reduce_func here: one that returns no dataset fails now)
        return out

    def bucket_by_sequence_length(self, element_length_func: Callable, bucket_boundaries: Any,
                                  bucket_batch_sizes: Any, padded_shapes: Any = None, padding_values: Any = None,
                                  pad_to_bucket_boundary: bool = False, no_padding: bool = False,
                                  drop_remainder: bool = False, name: str | None = None) -> "Dataset":
        """Batch elements of similar lengths together: an element of length ``L`` goes to the
        bucket ``i`` with ``bucket_boundaries[i-1] <= L < bucket_boundaries[i]``, and each
        bucket is batched by ``bucket_batch_sizes[i]`` (padded as :meth:`padded_batch`), as
        TensorFlow's ``bucket_by_sequence_length`` (a :meth:`group_by_window`).

        Args:
            element_length_func: a function of the element returning its length (a scalar).
            bucket_boundaries: increasing upper bounds (exclusive) of the buckets.
            bucket_batch_sizes: the batch size of each bucket (``len(bucket_boundaries) + 1``).
            padded_shapes: as :meth:`padded_batch`'s (default: the element shapes, unknown
                dimensions padded to the batch's longest).
            padding_values: as :meth:`padded_batch`'s.
            pad_to_bucket_boundary: pad unknown dimensions to the bucket's boundary minus one
                (an element in the last bucket is then an error).
            no_padding: batch with :meth:`batch` (elements of a bucket must have one shape).
            drop_remainder: drop each bucket's last, smaller, batch.
            name: accepted for TensorFlow compatibility; unused.

        Raises:
            ValueError: ``len(bucket_batch_sizes) != len(bucket_boundaries) + 1``.

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.from_tensor_slices([1, 3, 2, 4, 1]).map(lambda n: tf.fill([n], n))
        >>> ds = ds.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3], [2, 2])
        >>> [b.numpy().tolist() for b in ds]
        [[[1, 0], [2, 2]], [[3, 3, 3, 0], [4, 4, 4, 4]], [[1]]]
        """
        bounds = [_int(b, "bucket_boundaries") for b in _s.value(bucket_boundaries).reshape(-1).tolist()] \
            if isinstance(bucket_boundaries, Tensor) else [_int(b, "bucket_boundaries") for b in bucket_boundaries]
        sizes = [_int(b, "bucket_batch_sizes") for b in (_s.value(bucket_batch_sizes).reshape(-1).tolist()
                                                          if isinstance(bucket_batch_sizes, Tensor) else bucket_batch_sizes)]
        if len(sizes) != len(bounds) + 1:
            raise ValueError(f"`len(bucket_batch_sizes)` must equal `len(bucket_boundaries) + 1` but "
                             f"`len(bucket_batch_sizes)={len(sizes)}` and `len(bucket_boundaries)={len(bounds)}`.")
        return _bucket_by_length(self, _Fn(element_length_func), bounds, sizes, padded_shapes, padding_values,
                                 bool(pad_to_bucket_boundary), bool(no_padding), bool(drop_remainder))

    @staticmethod
    def random(seed: Any = None, rerandomize_each_iteration: bool | None = None,
               name: str | None = None) -> "Dataset":
        """An infinite dataset of TensorFlow's pseudorandom int64 values (uniform in ``[0, 2**32)``).

        Args:
            seed: the op seed; with ``tf.random.set_seed`` and no ``seed`` it comes from the
                global seed, with neither the values come from fresh entropy.
            rerandomize_each_iteration: draw another sequence on each iteration (default: every
                iteration gives the same one).
            name: accepted for TensorFlow compatibility; unused.

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.random(seed=4).take(3)
        >>> list(ds.as_numpy_iterator()) == list(ds.as_numpy_iterator())
        True
        """
        seeds, fresh = _op_seeds(seed)
        out = _Random(seeds, bool(rerandomize_each_iteration))
        out._fresh = fresh
        return out

    @staticmethod
    def sample_from_datasets(datasets: Any, weights: Any = None, seed: Any = None,
                             stop_on_empty_dataset: bool = False,
                             rerandomize_each_iteration: bool | None = None) -> "Dataset":
        """The elements of ``datasets`` in a random order: each next element comes from dataset
        ``i`` with probability ``weights[i]`` (TensorFlow's draws for a seeded program: a
        :meth:`random` dataset's values as seeds of ``tf.random.stateless_categorical``).

        Args:
            datasets: a non-empty list of datasets with compatible elements.
            weights: a list or tensor of ``len(datasets)`` float weights (default uniform),
                or a dataset of such lists (one per element drawn). Datasets of weight 0 in a
                list are left out.
            seed: the op seed of the draws (see :meth:`random`).
            stop_on_empty_dataset: end when the dataset drawn is exhausted; by default it is
                skipped and the draws go on among the others.
            rerandomize_each_iteration: another sequence of draws on each iteration.

        Raises:
            ValueError: no datasets, or weights of another length.
            TypeError: weights neither float32 nor float64, or incompatible datasets.

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.sample_from_datasets(
        ...     [tf.data.Dataset.range(3), tf.data.Dataset.range(100, 103)], seed=1)
        >>> sorted(int(x) for x in ds)
        [0, 1, 2, 100, 101, 102]
        """
        return _sample_from_datasets(list(datasets), weights, seed, stop_on_empty_dataset, rerandomize_each_iteration)

    @staticmethod
    def choose_from_datasets(datasets: Any, choice_dataset: "Dataset",
                             stop_on_empty_dataset: bool = True) -> "Dataset":
        """Each next element from ``datasets[c]``, ``c`` the next element of ``choice_dataset``
        (scalar int64). By default the result ends when a chosen dataset is exhausted; with
        ``stop_on_empty_dataset=False`` that choice is skipped.

        Raises:
            ValueError: no datasets.
            TypeError: ``choice_dataset`` not a dataset of scalar int64.
            InvalidArgumentError: a choice out of range (when it is met).

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.choose_from_datasets(
        ...     [tf.data.Dataset.from_tensors("a").repeat(), tf.data.Dataset.from_tensors("b").repeat()],
        ...     tf.data.Dataset.range(2).repeat(2))
        >>> [x.numpy() for x in ds]
        [b'a', b'b', b'a', b'b']
        """
        datasets = list(datasets)
        if not datasets:
            raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
        if not isinstance(choice_dataset, Dataset):
            raise TypeError("Invalid `choice_dataset`. `choice_dataset` should be a `tf.data.Dataset` but is "
                            f"{type(choice_dataset)}.")
        spec = choice_dataset.element_spec
        if not (type(spec) is _s.TensorSpec and spec.dtype == _dt.int64 and spec.shape.is_compatible_with([])):
            raise TypeError("Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar `tf.int64` "
                            f"tensors but are {spec}.")
        return _DirectedInterleave(choice_dataset, datasets, bool(stop_on_empty_dataset))

    def get_single_element(self, name: str | None = None) -> Any:
        """The one element of a dataset of one element.

        Raises:
            InvalidArgumentError: the dataset is empty, or has more than one element.

        >>> import tapegrad as tf
        >>> tf.data.Dataset.range(5).batch(5).get_single_element().numpy()
        array([0, 1, 2, 3, 4])
        """
        it = self._elements()
        first = next(it, _END)
        if first is _END:
            raise InvalidArgumentError("Dataset was empty.")
        if next(it, _END) is not _END:
            raise InvalidArgumentError("Dataset had more than one element.")
        return _s.to_tensors(first)

    def unique(self, name: str | None = None) -> "Dataset":
        """Each distinct element once, at its first occurrence (elements of one int32, int64 or
        string component).

        Raises:
            TypeError: a component of another dtype.

        >>> import tapegrad as tf
        >>> list(tf.data.Dataset.from_tensor_slices([1, 37, 2, 37, 2, 1]).unique().as_numpy_iterator())
        [np.int32(1), np.int32(37), np.int32(2)]
        """
        return _Unique(self)

    def rebatch(self, batch_size: Any, drop_remainder: bool = False, name: str | None = None) -> "Dataset":
        """The same rows in batches of ``batch_size`` (an int, or a list cycled through; a 0
        gives an empty batch): ``unbatch().batch(batch_size)``.

        Raises:
            ValueError: scalar elements (nothing to rebatch), or ``batch_size`` of rank > 1.

        >>> import tapegrad as tf
        >>> [b.numpy().tolist() for b in tf.data.Dataset.range(6).batch(4).rebatch(3)]
        [[0, 1, 2], [3, 4, 5]]
        """
        return _Rebatch(self, batch_size, bool(drop_remainder))

    def options(self) -> Options:
        """The options set by :meth:`with_options` along the pipeline (later ones win).

        >>> import tapegrad as tf
        >>> o = tf.data.Options(); o.deterministic = False
        >>> tf.data.Dataset.range(3).with_options(o).map(lambda x: x).options().deterministic
        False
        """
        out = Options()
        for d in reversed(_state.nodes(self)):
            given = d.__dict__.get("_options")
            if given is not None:
                out = out.merge(given)
        return out

    def rejection_resample(self, class_func: Callable, target_dist: Any, initial_dist: Any = None,
                           seed: Any = None, name: str | None = None) -> "Dataset":
        """Resample the elements so that their classes follow ``target_dist``, as TensorFlow
        does: elements are rejected at random (``tf.random.uniform`` with ``seed``) and mixed
        with unrejected ones; the elements become pairs ``(class, element)``. Without
        ``initial_dist`` the class distribution is estimated as the elements go (in batches of 32,
        from counts starting at 10 per class). Seeded draws are TensorFlow's.

        Args:
            class_func: a function of the element returning its class, a scalar int32 or int64 in
                ``[0, len(target_dist))``.
            target_dist: the wanted probability of each class.
            initial_dist: the classes' probabilities in the input, when known.
            seed: the op seed of the draws.
            name: accepted for TensorFlow compatibility; unused.

        >>> import tapegrad as tf, numpy as np
        >>> ds = tf.data.Dataset.from_tensor_slices(np.array([0, 0, 0, 1] * 50, np.int64))
        >>> ds = ds.rejection_resample(lambda x: x, [0.5, 0.5], initial_dist=[0.75, 0.25], seed=1)
        >>> classes = [int(c) for c, x in ds]
        >>> bool(0.3 < np.mean(classes) < 0.7)
        True
        """
        return _rejection_resample(self, class_func, target_dist, initial_dist, seed)

    def sparse_batch(self, batch_size: Any, row_shape: Any, name: str | None = None) -> "Dataset":
        """Batch the elements (one dense component each) into ``tf.sparse.SparseTensor`` values of
        dense shape ``[batch, *row_shape]``: every entry of an element becomes a value (zeros
        included); a ``None`` in ``row_shape`` is the batch's largest size of that dimension.

        Raises:
            ValueError: a negative dimension in ``row_shape``.
            InvalidArgumentError: an element of another rank than ``row_shape``.
            DataLossError: an element larger than ``row_shape`` (TensorFlow's error class).

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4]]).sparse_batch(2, [3])
        >>> st = next(iter(ds)); st.indices.numpy().tolist(), st.dense_shape.numpy().tolist()
        ([[0, 0], [0, 1], [1, 0], [1, 1]], [2, 3])
        """
        return _SparseBatch(self, _positive(batch_size, "batch_size", "SparseBatch"), row_shape)

    def snapshot(self, path: str, compression: str | None = "AUTO", reader_func: Callable | None = None,
                 shard_func: Callable | None = None, name: str | None = None) -> "Dataset":
        """The same elements, written to the folder ``path`` by the first complete iteration and
        read from it by every later one (and by later programs making the same pipeline).

        tapegrad writes :meth:`save`'s format under ``path/<fingerprint>`` (the pipeline's
        :meth:`fingerprint`), so a changed pipeline writes a new snapshot; TensorFlow's snapshot
        files are not read. ``compression``: ``"AUTO"``/``"GZIP"``/``None``/``""``;
        ``reader_func`` and ``shard_func`` as :meth:`load`'s and :meth:`save`'s.

        >>> import os, tempfile, tapegrad as tf
        >>> path = tempfile.mkdtemp()
        >>> ds = tf.data.Dataset.range(3).map(lambda x: x * 2).snapshot(path)
        >>> list(ds.as_numpy_iterator()) == list(ds.as_numpy_iterator()) == [0, 2, 4]
        True
        """
        comp = None if compression in (None, "", "AUTO", "NONE") else compression
        return _Snapshot(self, os.fspath(path), comp, reader_func, shard_func)

    def fingerprint(self) -> Tensor:
        """A uint64 scalar that identifies the pipeline's definition (its datasets, their
        parameters and the code of its functions). Not TensorFlow's number: TensorFlow hashes
        its graph.

        >>> import tapegrad as tf
        >>> a, b = tf.data.Dataset.range(3), tf.data.Dataset.range(3)
        >>> int(a.fingerprint()) == int(b.fingerprint()) != int(tf.data.Dataset.range(4).fingerprint())
        True
        """
        return wrap(np.array(_fingerprint(self), dtype=np.uint64))


class OwnedIterator:
    """An iterator over a dataset (what ``iter(dataset)`` returns): ``next`` gives the next
    element as tensors, and raises ``StopIteration`` at the end. A ``tf.train.Checkpoint`` saves
    where it stands and restores it there, shuffle buffers and later epochs included (see
    :mod:`tapegrad.data._iterator_state` for how, and for the pipelines it refuses, as TensorFlow
    does: ``from_generator``, functions with random ops, ``py_function`` or Variable updates).

    >>> import os, tempfile, tapegrad as tf
    >>> ds = tf.data.Dataset.range(6).shuffle(6, seed=1).repeat()
    >>> it = iter(ds)
    >>> first = [int(next(it)) for _ in range(4)]
    >>> path = tf.train.Checkpoint(it=it).save(os.path.join(tempfile.mkdtemp(), "ckpt"))
    >>> after = [int(next(it)) for _ in range(5)]
    >>> again = iter(ds)
    >>> _ = tf.train.Checkpoint(it=again).restore(path)
    >>> [int(next(again)) for _ in range(5)] == after
    True
    """

    def __init__(self, dataset: Dataset) -> None:
        self._dataset = dataset
        self._start = _state.random_start(dataset)
        self._it = _owned_elements(self, dataset)
        self._n = 0

    def __iter__(self) -> "OwnedIterator":
        return self

    def __next__(self) -> Any:
        if _rec.active and (tr := _trace.current()) is not None:
            tr.fail("a tf.data.Dataset is iterated inside it (TensorFlow's AutoGraph makes such a "
                    "loop part of the graph; tapegrad runs the function eagerly, with the same "
                    "results). For a replayed step, iterate outside and decorate the step: "
                    "`for batch in dataset: step(batch)` with `step` a tf.function")
        e = _owned_next(self, self._it)
        self._n += 1
        return _s.to_tensors(e)

    # TensorFlow's saveable protocol (tf.train.Checkpoint saves "<name>/.ATTRIBUTES/ITERATOR_STATE")
    def _serialize_to_tensors(self) -> dict:
        return {"ITERATOR_STATE": _state.save(self)}

    def _restore_from_tensors(self, restored_tensors: dict) -> None:
        _state.restore(self, restored_tensors["ITERATOR_STATE"])

    def get_next(self) -> Any:
        """The next element (``next(iterator)``)."""
        return self.__next__()

    def next(self) -> Any:
        """The next element (``next(iterator)``; TensorFlow's Python 2 name, still there)."""
        return self.__next__()

    def get_next_as_optional(self) -> "Optional":
        """The next element as an :class:`Optional`, empty at the end (no ``StopIteration``)."""
        return next_as_optional(self)

    @property
    def _type_spec(self) -> Any:
        return _s.IteratorSpec(self.element_spec)

    @property
    def element_spec(self) -> Any:
        return self._dataset.element_spec


_s.DatasetSpec._VALUE_TYPE, _s.IteratorSpec._VALUE_TYPE = Dataset, OwnedIterator


# ----------------------------------------------------------------------------- helpers
def _op_seeds(seed: Any) -> tuple[tuple[int, int], bool]:
    """A random dataset's (seed, seed2) as TF's: the op seed, or tf.random.set_seed's; and whether
    it is unseeded (its kernel then seeds itself from fresh entropy)."""
    from .. import random as _random
    seeds = _random.op_seeds(None if seed is None else _int(seed, "seed"))
    if seeds == (0, 0):
        return tuple(int(v) for v in np.random.SeedSequence().generate_state(2, np.uint64)), True
    return seeds, False


class _NumpyIterator:
    """What ``as_numpy_iterator`` returns: the elements as NumPy values (TF's ``_NumpyIterator``,
    with its ``next()``)."""

    __slots__ = ("_it", "_dataset")

    def __init__(self, dataset: Dataset) -> None:
        self._dataset = dataset
        self._it = _owned_elements(self, dataset)

    def __iter__(self) -> "_NumpyIterator":
        return self

    def __next__(self) -> Any:
        return _s.to_numpy(_owned_next(self, self._it))

    def next(self) -> Any:
        return self.__next__()

    def __repr__(self) -> str:
        return "<tapegrad.data NumpyIterator>"


def _positive(x: Any, what: str, op: str) -> int:
    n = _int(x, what)
    if n <= 0:
        raise InvalidArgumentError(f"{op}: `{what}` must be greater than zero; got {n}.")
    return n


def _tuples(x: Any) -> Any:
    """A user's nest of specs, types or shapes with lists read as tuples (TF's reading)."""
    if isinstance(x, list):
        return tuple(_tuples(v) for v in x)
    if isinstance(x, tuple) and not hasattr(x, "_fields"):
        return tuple(_tuples(v) for v in x)
    if isinstance(x, dict):
        return {k: _tuples(v) for k, v in x.items()}
    return x


def _shape_leaves(types: Any, shapes: Any) -> list:
    """The leaves of ``shapes`` read against the structure of ``types`` (``shapes``' own lists,
    such as a shape or a yielded list, are leaves where ``types`` has one)."""
    if not isinstance(types, (tuple, dict)):
        return [shapes]
    keys = _nest.sorted_keys(types) if isinstance(types, dict) else range(len(types))
    out: list = []
    for k in keys:
        out.extend(_shape_leaves(types[k], shapes[k]))
    return out


def _check_state(spec: Any, new: Any, where: str) -> None:
    got = _s.spec_of(new)
    flat_a, flat_b = _nest.flatten(spec), _nest.flatten(got)
    if len(flat_a) != len(flat_b) or any(a.dtype != b.dtype for a, b in zip(flat_a, flat_b)):
        raise TypeError(f"{where}: the function must return a state with the structure and dtypes "
                        f"of the initial state {spec}; it returned {got}.")


def _row_elements(arrays: list, template: Any, chunks: Callable) -> Iterator:
    pack = _s.packer(template)
    if len(arrays) == 1 and pack is _s._first:
        a = arrays[0]
        for ch in chunks():
            for i in (ch if type(ch) is range else ch.tolist()):
                yield a[i]
        return
    for ch in chunks():
        for i in (ch if type(ch) is range else ch.tolist()):
            yield pack([a[i] for a in arrays])


def _later(make: Callable) -> Iterator:
    """The elements of ``make()``, called when the first is asked for."""
    yield from make()


def _indices(chunks: Callable) -> Iterator[int]:
    return itertools.chain.from_iterable(ch if type(ch) is range else ch.tolist() for ch in chunks())


def _buffer_shuffle(it: Iterator, size: int, draws: _philox.Stream,
                    last: Callable | None = None) -> Iterator[list]:
    """TF's shuffle buffer, in blocks: a ring of ``size`` slots is filled; each output takes the
    slot ``oldest + u % live`` (``u`` the stream's next uint32), moves the oldest element into
    it, and the next input element takes the oldest's place. ``last()`` runs as the last element
    is asked for."""
    ring = list(itertools.islice(it, size)) if size > 0 else list(it)
    n = len(ring)
    st = 0  # the oldest element's slot
    while True:
        block = list(itertools.islice(it, _CHUNK))
        if not block:
            break
        out = []
        m = len(block)
        olds = (np.arange(st, st + m) % n).tolist()  # the oldest slot moves on by one each step
        for x, i, j in zip(block, olds, ((draws.take(m) % n + st + np.arange(m)) % n).tolist()):
            out.append(ring[j])
            ring[j] = ring[i]
            ring[i] = x
        st = (st + m) % n
        yield out
    out = []
    for k, u in zip(range(n, 0, -1), draws.take(n).tolist()):
        j = (st + u % k) % n
        out.append(ring[j])
        ring[j] = ring[st]
        st = st + 1 if st + 1 < n else 0
    if last is None or not out:
        yield out
        return
    yield out[:-1]
    last()
    yield out[-1:]


# ----------------------------------------------------------------------------- sources
class _Slices(Dataset):
    _tf_name = "_TensorSliceDataset"

    def __init__(self, tensors: Any) -> None:
        flat = _nest.flatten(tensors)
        for v in flat:
            if isinstance(v, Dataset):
                raise TypeError("from_tensor_slices takes tensors (arrays, nests of them); got a Dataset.")
            if type(v) in _s.COMPOSITE_VALUES:  # (its rows, as TensorFlow slices a Ragged/SparseTensor)
                continue
            if np.ndim(v) == 0:
                raise ValueError(
                    "from_tensor_slices slices its input along the first dimension, so every "
                    f"component needs rank >= 1; got a scalar ({v!r}). Use from_tensors for one element.")
        n = _nrows(flat[0])
        for path, v in zip(_paths(tensors), flat):
            if _nrows(v) != n:
                raise ValueError(
                    "from_tensor_slices: every component must have the same first dimension (the "
                    f"number of elements); component {_paths(tensors)[0]} has {n} but component "
                    f"{path} has {_nrows(v)}.")
        arrays = []
        for v in flat:
            if type(v) in _s.COMPOSITE_VALUES:
                arrays.append(v)
                continue
            if type(v) is Boxed:
                arrays.append(_DaskRows(v.a) if v.backend.name == "dask" else _s.computed(v))
                continue
            a = np.array(v, copy=True) if type(v) is np.ndarray else np.asarray(v)
            a.flags.writeable = False
            arrays.append(a)
        self._arrays, self._template, self._n = arrays, tensors, n

    def _rows(self) -> tuple:
        n = self._n
        return self._arrays, self._template, lambda: (range(i, min(i + _CHUNK * 16, n)) for i in range(0, n, _CHUNK * 16))

    def _spec(self) -> Any:
        return _nest.pack_sequence_as(self._template, [
            a.spec(rows=True) if type(a) in _s.COMPOSITE_VALUES else
            _s.leaf_spec(a[0] if len(a) and type(a) is not _DaskRows else _empty_row(a)) for a in self._arrays])

    def _card(self) -> int:
        return self._n


class _Loaded(Dataset):
    """A shard written by :meth:`Dataset.save`, read when iterated."""

    _tf_name = "_LoadDataset"

    def __init__(self, file: str | None, spec: Any, leaves: list, n: int) -> None:
        self._file, self._spec_nest, self._leaves, self._n = file, spec, leaves, n

    def _iter(self) -> Iterator:
        if self._file is None or not self._n:
            return
        cols = _save.read_shard(self._file, self._leaves, self._n)
        pack = _s.packer(self._spec_nest)
        for i in range(self._n):
            yield pack([c[i] for c in cols])

    def _spec(self) -> Any:
        return self._spec_nest

    def _card(self) -> int:
        return self._n


class _Parts(Dataset):
    """A dataset whose elements are datasets (``Dataset.load``'s shards, for its ``reader_func``)."""

    _tf_name = "_TensorSliceDataset"

    def __init__(self, parts: list) -> None:
        self._parts = parts

    def _iter(self) -> Iterator:
        return iter(self._parts)

    def _spec(self) -> Any:
        return _s.DatasetSpec(self._parts[0].element_spec)

    def _card(self) -> int:
        return len(self._parts)


class _DaskRows:
    """A Dask array as ``from_tensor_slices``' rows: taking rows computes them, nothing before.
    Rows within one chunk (of the first axis) come from that chunk, computed once and kept until
    rows of another chunk are taken; rows across chunks are computed together."""

    __slots__ = ("a", "shape", "dtype", "_ends", "_block", "_at")

    def __init__(self, a: Any) -> None:
        self.a, self.shape, self.dtype = a, tuple(a.shape), np.dtype(a.dtype)
        self._ends = np.cumsum(a.chunks[0])
        self._block, self._at = None, -1

    def __len__(self) -> int:
        return self.shape[0]

    def __getitem__(self, key: Any) -> np.ndarray:
        if type(key) is slice:
            lo, hi = key.start, key.start + max(len(range(key.start, key.stop, key.step or 1)) - 1, 0) * (key.step or 1)
        else:
            lo, hi = (int(np.min(key)), int(np.max(key))) if np.size(key) else (0, 0)
        b = int(np.searchsorted(self._ends, lo, side="right"))
        if b >= len(self._ends) or hi >= self._ends[b]:
            return np.asarray(self.a[key].compute())
        if b != self._at:
            self._block, self._at = np.asarray(self.a.blocks[b].compute()), b
        off = int(self._ends[b] - self.a.chunks[0][b])
        if type(key) is slice:
            return self._block[key.start - off:key.stop - off:key.step]
        return self._block[key - off]


def _nrows(v: Any) -> int:
    return len(v) if type(v) in _s.COMPOSITE_VALUES else np.shape(v)[0]


def _empty_row(a: np.ndarray) -> np.ndarray:
    return np.zeros(a.shape[1:], dtype=a.dtype)


def _paths(x: Any, prefix: str = "") -> list:
    if isinstance(x, dict):
        return [p for k in _nest.sorted_keys(x) for p in _paths(x[k], f"{prefix}[{k!r}]")]
    if isinstance(x, tuple):
        return [p for i, v in enumerate(x) for p in _paths(v, f"{prefix}[{i}]")]
    return [prefix or "0"]


class _Tensors(Dataset):
    _tf_name = "_TensorDataset"

    def __init__(self, element: Any) -> None:
        self._element = element

    def _iter(self) -> Iterator:
        yield _nest.map_structure(_s.computed, self._element)  # (a Dask value: computed now)

    def _spec(self) -> Any:
        return _s.spec_of(self._element)

    def _card(self) -> int:
        return 1


class _Range(Dataset):
    _tf_name = "_RangeDataset"

    def __init__(self, r: range, dtype: _dt.DType) -> None:
        self._range, self._dtype = r, dtype

    def _iter(self) -> Iterator:
        return map(self._dtype._np.type, self._range)

    def _spec(self) -> Any:
        return _s.tensor_spec((), self._dtype)

    def _card(self) -> int:
        return len(self._range)


class _Counter(Dataset):
    _tf_name = "_ScanDataset"  # (TensorFlow's counter: a scan over from_tensors(0).repeat())

    def __init__(self, start: Any, step: Any, dtype: _dt.DType) -> None:
        self._start, self._step, self._dtype = start, step, dtype  # (Python numbers)

    def _iter(self) -> Iterator:
        state = np.array(self._start, self._dtype._np)
        step = np.array(self._step, self._dtype._np)
        with np.errstate(over="ignore"):  # (an integer count wraps around, as TensorFlow's)
            while True:
                yield state[()]
                state = state + step

    def _spec(self) -> Any:
        return _s.tensor_spec((), self._dtype)

    def _card(self) -> int:
        return _INF


class _Generator(Dataset):
    _tf_name = "_FlatMapDataset"
    _unsaveable = ("its source is Dataset.from_generator, whose Python generator's state cannot be saved "
                   "(TensorFlow: 'PyFunc is stateful')")

    def __init__(self, fn: Callable, args: tuple, spec: Any) -> None:
        self._fn, self._args, self._spec_nest = fn, args, spec
        self._flat = _nest.flatten(spec)

    def _iter(self) -> Iterator:
        args = [_s.to_numpy(_s.value(a)) for a in self._args]
        flat_spec, template = self._flat, self._spec_nest
        pack = _s.packer(template)
        for y in self._fn(*args):
            try:
                leaves = _shape_leaves(template, y)
            except (TypeError, KeyError, IndexError):
                leaves = []
            if len(leaves) != len(flat_spec) or (isinstance(template, tuple) and len(y) != len(template)):
                raise TypeError(f"from_generator: the generator yielded {y!r}, which does not match "
                                f"the structure of the declared output {template}.")
            yield pack([_conform(v, s) for v, s in zip(leaves, flat_spec)])

    def _spec(self) -> Any:
        return self._spec_nest


def _conform(v: Any, spec: Any) -> Any:
    if hasattr(spec, "_component_specs"):  # (an extension type's spec)
        if not spec.is_compatible_with(v):
            raise TypeError(f"from_generator: the generator yielded {v!r}, which does not fit the declared "
                            f"{spec!r}.")
        return _s.ExtensionValue(v._type_spec, [_conform(c, s) for c, s in zip(v._components(),
                                                                                spec._component_specs)])
    if spec.dtype == _dt.string:
        out = _s.value(v)
    else:
        a = v._value if isinstance(v, Tensor) else np.asarray(v)
        want = spec.dtype._np
        if a.dtype != want and not np.can_cast(a.dtype, want, "same_kind"):
            raise TypeError(f"from_generator: the generator yielded {v!r} (dtype {a.dtype}), which "
                            f"cannot be converted to the declared dtype {spec.dtype.name}.")
        out = a.astype(want, copy=False)
    if not TensorShape(np.shape(out)).is_compatible_with(spec.shape):
        raise InvalidArgumentError(f"from_generator: the generator yielded an element of shape "
                                   f"{list(np.shape(out))} where an element of shape {spec.shape} "
                                   "was expected.")
    return out


# ----------------------------------------------------------------------------- transformations
class _Unary(Dataset):
    """A transformation of one input dataset; same spec and cardinality unless overridden."""

    def __init__(self, input: Dataset) -> None:
        if not isinstance(input, Dataset):
            raise TypeError(f"expected a Dataset; got {type(input).__name__}.")
        self._input = input

    def _spec(self) -> Any:
        return self._input.element_spec

    def _card(self) -> int:
        return self._input._card()


class _Passthrough(_Unary):
    def __init__(self, input: Dataset, tf_name: str) -> None:
        super().__init__(input)
        self._tf_name = tf_name

    def _iter(self) -> Iterator:
        return self._input._elements()

    def _rows(self) -> tuple | None:
        return self._input._rows()

    def _tolerant(self) -> Iterator | None:
        return self._input._tolerant()


class _Prefetch(_Passthrough):
    def __init__(self, input: Dataset, size: int) -> None:
        super().__init__(input, "_PrefetchDataset")
        self._size = size

    def _iter(self) -> Iterator:
        it = self._input._elements()
        return _read_ahead(it, self._size) if self._size > 0 else it

    def _rows(self) -> tuple | None:
        return self._input._rows() if self._size <= 0 else None


def _read_ahead(it: Iterator, size: int) -> Iterator:
    """``it``'s elements, ``size`` of them read ahead of each one given after the first (TF's
    prefetch buffer, which its thread fills while the consumer works on an element); an error is
    raised when its turn comes."""
    buffer: deque = deque()
    ahead = 0   # (the first element is given as soon as it is made)
    while True:
        while it is not None and len(buffer) <= ahead:
            try:
                buffer.append((next(it), None))
            except StopIteration:
                it = None
            except Exception as error:  # noqa: BLE001 (raised in its turn, as TF's buffer keeps it)
                buffer.append((None, error))
                it = None
        if not buffer:
            return
        value, error = buffer.popleft()
        if error is not None:
            raise error
        yield value
        ahead = size


class _Respecified(_Passthrough):
    """Its input's elements, with the spec TensorFlow's trace gives them (``spec``, compatible with
    the probed one): for a library function whose map TensorFlow cannot see through, such as
    Keras's ``timeseries_dataset_from_array`` (windows of a ``tf.range`` with tensor bounds)."""

    def __init__(self, input: Dataset, spec: Any) -> None:
        super().__init__(input, input._tf_name)
        self._given = spec

    def _spec(self) -> Any:
        return self._given


class _Failed:
    """An element whose making raised ``error`` (in a :meth:`Dataset._tolerant` stream)."""

    __slots__ = ("error",)

    def __init__(self, error: Exception) -> None:
        self.error = error


def _tolerant_or_strict(ds: Dataset) -> Iterator:
    t = ds._tolerant()
    return ds._elements() if t is None else t


class _IgnoreErrors(_Unary):
    _tf_name = "_IgnoreErrorsDataset"

    def __init__(self, input: Dataset, log: bool) -> None:
        super().__init__(input)
        self._log = log

    def _iter(self) -> Iterator:
        t = self._input._tolerant()
        return self._guard(self._input._elements() if t is None else self._drop(t))

    def _tolerant(self) -> Iterator | None:
        return self._iter()

    def _drop(self, it: Iterator) -> Iterator:
        for e in it:
            if type(e) is _Failed:
                if self._log:
                    warnings.warn(f"ignore_errors: ignoring error: {type(e.error).__name__}: {e.error}", stacklevel=2)
                continue
            yield e

    def _guard(self, it: Iterator) -> Iterator:
        """``it``, with an error that no tolerant dataset caught explained."""
        try:
            yield from it
        except OpError as e:
            raise NotImplementedError(
                f"ignore_errors: {type(e).__name__} ({e}) was raised where tapegrad cannot go on after an "
                "error (TensorFlow drops the element and goes on). tapegrad goes on after errors raised in CSV "
                "records and in map and filter functions, through batch, prefetch and other ignore_errors: "
                "put ignore_errors() right after where the errors arise.") from e

    def _card(self) -> int:
        return _UNK


class _Batch(_Unary):
    _tf_name = "_BatchDataset"

    def __init__(self, input: Dataset, n: int, drop: bool) -> None:
        super().__init__(input)
        self._n, self._drop = n, drop

    _by_rows = True  # (batches of rows sliced straight from a from_tensor_slices source)

    def _iter(self) -> Iterator:
        rows = self._input._rows() if self._by_rows else None
        if rows is not None:
            return self._row_batches(*rows)
        return self._batches(self._input._elements())

    def _batches(self, it: Iterator) -> Iterator:
        n = self._n
        ragged = self._ragged()
        while True:
            items = list(itertools.islice(it, n))
            if not items or (self._drop and len(items) < n):
                return
            yield _stack_elements(items, ragged)

    def _tolerant(self) -> Iterator | None:
        t = self._input._tolerant()
        return None if t is None else self._tolerant_batches(t)

    def _tolerant_batches(self, it: Iterator) -> Iterator:  # (TF's: an error drops the batch being filled)
        n, ragged = self._n, self._ragged()
        items: list = []
        for e in it:
            if type(e) is _Failed:
                items = []
                yield e
                continue
            items.append(e)
            if len(items) == n:
                yield _stack_elements(items, ragged)
                items = []
        if items and not self._drop:
            yield _stack_elements(items, ragged)

    def _ragged(self) -> list:
        """Per component, whether batches of it are RaggedTensors (its spec is ragged)."""
        return [isinstance(s, RaggedTensorSpec) for s in _nest.flatten(self._input.element_spec)]

    def _row_batches(self, arrays: list, template: Any, chunks: Callable) -> Iterator:
        pack, n = _s.packer(template), self._n
        pending: list = []
        have = 0
        for ch in chunks():
            start = 0
            if not pending and type(ch) is range:  # whole batches straight from a contiguous run
                full = len(ch) - len(ch) % n
                for i in range(0, full, n):
                    r = ch[i:i + n]
                    s = slice(r.start, r.start + n * r.step, r.step)
                    yield pack([a[s] for a in arrays])
                start = full
            rest = ch[start:]
            while len(rest):
                take = rest[:n - have]
                pending.append(np.asarray(take) if type(take) is range else take)
                have += len(take)
                rest = rest[len(take):]
                if have == n:
                    idx = np.concatenate(pending)
                    yield pack([a[idx] for a in arrays])
                    pending, have = [], 0
        if pending and not self._drop:
            idx = np.concatenate(pending)
            yield pack([a[idx] for a in arrays])

    def _spec(self) -> Any:
        dim = self._n if self._drop else None
        return _nest.map_structure(lambda s: _s.batched_spec(s, dim), self._input.element_spec)

    def _card(self) -> int:
        c = self._input._card()
        if c < 0:
            return c
        return c // self._n if self._drop else -(-c // self._n)


class _RaggedBatch(_Batch):
    """``ragged_batch``: every component of rank >= 1 whose spec leaves a dimension unknown batched
    as a RaggedTensor (TensorFlow's: one of fully known shape is batched dense)."""
    _tf_name = "_DenseToRaggedDataset"
    _by_rows = False

    def _ragged(self) -> list:
        return [isinstance(s, RaggedTensorSpec) or not s.shape.is_fully_defined()
                for s in _nest.flatten(self._input.element_spec)]

    def _spec(self) -> Any:
        dim = self._n if self._drop else None

        def one(s: Any) -> Any:
            if s.shape.is_fully_defined() or isinstance(s, RaggedTensorSpec):
                return _s.batched_spec(s, dim)
            return RaggedTensorSpec([dim, None, *s.shape[1:]], s.dtype, 1)
        return _nest.map_structure(one, self._input.element_spec)


def _stack_elements(items: list, ragged: Any = None) -> Any:
    """A batch of ``items``; ``ragged``: per component, whether to batch it as a RaggedTensor."""
    first = items[0]
    rag = ragged or [False] * len(_nest.flatten(first))
    if type(first) is tuple and not any(isinstance(c, (tuple, dict)) for c in first):
        return tuple(_s.stack(list(col), f"component {i}", rag[i]) for i, col in enumerate(zip(*items)))
    if not isinstance(first, (tuple, dict)):
        return _s.stack(items, "component 0", rag[0])
    cols = zip(*[_nest.flatten(e) for e in items])
    return _nest.pack_sequence_as(first, [_s.stack(list(c), f"component {i}", rag[i]) for i, c in enumerate(cols)])


class _PaddedBatch(_Unary):
    _tf_name = "_PaddedBatchDataset"

    def __init__(self, input: Dataset, n: int, shapes: Any, values: Any, drop: bool) -> None:
        super().__init__(input)
        self._n, self._drop = n, drop
        spec = input.element_spec
        flat = _nest.flatten(spec)
        if any(s.shape.rank is None for s in flat) and shapes is None:
            raise ValueError("padded_batch: a component has an unknown rank, so `padded_shapes` is needed.")
        # without padded_shapes every dimension pads to the batch's longest (the spec's sizes
        # come from map's first element, so they cannot be trusted to hold for all)
        self._shapes = ([TensorShape([None] * s.shape.rank) for s in flat] if shapes is None else
                        [_padded_shape(sh) for sh in _shape_leaves(spec, _tuples(shapes))])
        self._spec_shapes = [s.shape for s in flat] if shapes is None else self._shapes
        for s, sh in zip(flat, self._shapes):  # (TensorFlow's check when the dataset is made)
            if s.shape.rank is not None and sh.rank is not None and (sh.rank != s.shape.rank or any(
                    p is not None and d is not None and p < d for p, d in zip(sh, s.shape))):
                raise ValueError(f"The padded shape {sh} is not compatible with the shape {s.shape} "
                                 "of the corresponding input component.")
        if values is None:
            self._values = [b"" if s.dtype == _dt.string else np.zeros((), s.dtype._np) for s in flat]
        else:
            vals = _tuples(values)
            leaves = _shape_leaves(spec, vals) if isinstance(vals, (tuple, dict)) else [vals] * len(flat)
            self._values = [_s.value(v) for v in leaves]
        self._flat_spec = flat

    def _iter(self) -> Iterator:
        return self._batches(self._input._elements())

    def _batches(self, it: Iterator) -> Iterator:
        n = self._n
        template = None
        while True:
            items = list(itertools.islice(it, n))
            if not items or (self._drop and len(items) < n):
                return
            template = items[0]
            cols = list(zip(*[_nest.flatten(e) for e in items]))
            out = [self._pad(list(c), k) for k, c in enumerate(cols)]
            yield _nest.pack_sequence_as(template, out)

    def _pad(self, col: list, k: int) -> np.ndarray:
        want = self._shapes[k]
        shapes = [np.shape(v) for v in col]
        dims = [max(s[d] for s in shapes) if want[d] is None else want[d] for d in range(len(want))]
        for s in shapes:
            if len(s) != len(dims):
                raise InvalidArgumentError(f"padded_batch: component {k} has shape {list(s)}, which does "
                                           f"not fit the padded shape {dims}.")
            if any(a > b for a, b in zip(s, dims)):  # (TensorFlow's class for it)
                raise DataLossError(f"Attempted to pad to a smaller size than the input element: "
                                    f"padded_batch's component {k} has shape {list(s)}, the padded "
                                    f"shape is {dims}.")
        fill = self._values[k]
        dtype = object if _s.is_text(col[0]) else np.asarray(col[0]).dtype
        out = np.full([len(col), *dims], fill, dtype=dtype)
        for i, v in enumerate(col):
            out[(i,) + tuple(slice(0, d) for d in np.shape(v))] = v[()] if type(v) is np.ndarray and not v.ndim else v
        return out

    def _spec(self) -> Any:
        dim = self._n if self._drop else None
        flat = [_s.tensor_spec([dim, *sh], s.dtype) for sh, s in zip(self._spec_shapes, self._flat_spec)]
        return _nest.pack_sequence_as(self._input.element_spec, flat)

    def _card(self) -> int:
        c = self._input._card()
        if c < 0:
            return c
        return c // self._n if self._drop else -(-c // self._n)


def _padded_shape(sh: Any) -> TensorShape:
    if isinstance(sh, Tensor):
        sh = sh._value.tolist()
    return TensorShape([None if d is None or d == -1 else d for d in sh])


class _Unbatch(_Unary):
    _tf_name = "_UnbatchDataset"

    def __init__(self, input: Dataset) -> None:
        super().__init__(input)
        flat = _nest.flatten(input.element_spec)
        if any(s.shape.rank == 0 for s in flat):
            raise ValueError("unbatch: every component must have rank >= 1 (it is split along its first "
                             f"dimension); the element spec is {input.element_spec}.")
        firsts = {s.shape[0] for s in flat if s.shape.rank is not None and s.shape[0] is not None}
        if len(firsts) > 1:
            raise ValueError("unbatch: the components must have the same first dimension; the element "
                             f"spec is {input.element_spec}.")

    def _iter(self) -> Iterator:
        return self._split(self._input._elements())

    @staticmethod
    def _split(it: Iterator) -> Iterator:
        for e in it:
            flat = _nest.flatten(e)
            n = len(flat[0])
            if any(len(v) != n for v in flat):
                raise InvalidArgumentError("unbatch: the components of an element have different first "
                                           f"dimensions: {[len(v) for v in flat]}.")
            pack = _s.packer(e)
            for i in range(n):
                yield pack([v[i] for v in flat])

    def _spec(self) -> Any:
        return _nest.map_structure(_s.unbatched_spec, self._input.element_spec)

    def _card(self) -> int:
        # (TensorFlow's: the input's count times a first dimension every component's spec knows
        # to be the same positive size; an infinite or unknown input stays so)
        c = self._input._card()
        if c < 0:
            return c
        firsts = {s.shape[0] if s.shape.rank else None for s in _nest.flatten(self._input.element_spec)}
        n = firsts.pop() if len(firsts) == 1 else None
        return c * n if n else _UNK


class _Map(_Unary):
    _tf_name = "_MapDataset"

    def __init__(self, input: Dataset, fn: _Fn) -> None:
        super().__init__(input)
        self._fn = fn

    def _iter(self) -> Iterator:
        fn = self._fn.instance()
        return (_result(fn(*_args(e))) for e in self._input._elements())

    def _tolerant(self) -> Iterator:
        fn = self._fn.instance()
        for e in _tolerant_or_strict(self._input):
            if type(e) is not _Failed:
                try:
                    e = _result(fn(*_args(e)))
                except OpError as err:
                    e = _Failed(err)
            yield e

    def _spec(self) -> Any:
        return _probed_spec(self._input, lambda e: _s.spec_of(_result(self._fn.instance()(*_args(e)), lazy=True)),
                            "map")


def _probed_spec(input: Dataset, spec_for: Callable, what: str) -> Any:
    """The spec of a function's outputs as TensorFlow's trace of it gives it, found by running it
    (tapegrad does not trace): on the first element, then on that element with each dimension
    the input spec leaves unknown doubled (tiled), on the second element and on stand-ins of the
    input spec (zeros, ones: ``_stand_in``); an output dimension that differs between the runs is
    unknown (None), as it is in the traced graph (a size that depends on the values)."""
    it = input._elements()
    first = next(it, _END)
    if first is _END:
        return _stand_in_spec(input.element_spec, spec_for, what)
    spec = spec_for(first)
    probes = [lambda: _grown(first, input.element_spec), lambda: next(it, _END),
              lambda: _stand_in(input.element_spec, 0, 1), lambda: _stand_in(input.element_spec, 1, 2)]
    for probe in probes:
        try:
            e = probe()
            if e is not _END and e is not None:
                spec = _relaxed(spec, spec_for(e))
        except Exception:  # noqa: BLE001  (a probe the function cannot take tells nothing)
            continue
    return spec


def _stand_in_spec(in_spec: Any, spec_for: Callable, what: str) -> Any:
    """The spec of a function over an empty dataset (TensorFlow knows it from its trace): the
    function run on stand-in elements of the input spec, zeros with unknown dimensions 1 and ones
    with unknown dimensions 2; an output dimension that differs between the two is unknown."""
    specs = []
    for fill, size in ((0, 1), (1, 2)):
        e = _stand_in(in_spec, fill, size)
        if e is _END:
            raise ValueError(f"element_spec of {what} over an empty dataset of ragged, sparse or "
                             "unknown-rank components: tapegrad learns it by calling the function "
                             "on the first element (see docs/data.md).")
        try:
            specs.append(spec_for(e))
        except Exception:  # noqa: BLE001  (a stand-in the function cannot take tells nothing)
            continue
    if not specs:
        raise ValueError(f"element_spec of {what} over an empty dataset: tapegrad learns it by calling "
                         "the function on the first element, and it fails on stand-in zeros of "
                         "the input spec (see docs/data.md).")
    return specs[0] if len(specs) == 1 else _relaxed(specs[0], specs[1])


def _stand_in(spec: Any, fill: int, size: int) -> Any:
    """An element of ``spec``: ``fill`` (zeros or ones, empty or one-letter strings) with unknown
    dimensions ``size``; a window's dataset holds one such element. ``_END`` for a component of
    another kind (ragged, sparse, unknown rank)."""
    flat = []
    for s in _nest.flatten(spec):
        if type(s) is _s.DatasetSpec:
            inner = _stand_in(s.element_spec, fill, size)
            if inner is _END:
                return _END
            flat.append(_Tensors(inner))
            continue
        if type(s) is not _s.TensorSpec or s.shape.rank is None:
            return _END
        shape = tuple(size if n is None else n for n in s.shape)
        if s.dtype == _dt.string:
            v = np.full(shape, b"a" * fill, dtype=object)
            flat.append(v[()] if v.ndim == 0 else v)
        else:
            flat.append(np.full(shape, fill, dtype=s.dtype._np))
    return _nest.pack_sequence_as(spec, flat)


def _grown(e: Any, spec: Any) -> Any:
    """Element ``e`` with each array component tiled along the dimensions ``spec`` leaves unknown
    (None when there are none)."""
    flat, specs, grew = _nest.flatten(e), _nest.flatten(spec), False
    out = []
    for v, sp in zip(flat, specs):
        if type(v) is np.ndarray and isinstance(sp, _s.TensorSpec) and sp.shape.rank == v.ndim:
            for d, n in enumerate(sp.shape):
                if n is None:
                    v, grew = np.concatenate([v, v], axis=d), True
        out.append(v)
    return _nest.pack_sequence_as(e, out) if grew else None


def _relaxed(a: Any, b: Any) -> Any:
    fa, fb = _nest.flatten(a), _nest.flatten(b)
    if len(fa) != len(fb):
        return a
    return _nest.pack_sequence_as(a, [_relaxed_leaf(x, y) for x, y in zip(fa, fb)])


def _relaxed_leaf(x: Any, y: Any) -> Any:
    if type(x) is not type(y) or x.dtype != y.dtype:
        return x
    if type(x) is _s.TensorSpec:
        return _s.tensor_spec(x.shape.most_specific_compatible_shape(y.shape), x.dtype)
    if type(x) is RaggedTensorSpec and x.ragged_rank == y.ragged_rank:
        return RaggedTensorSpec(x.shape.most_specific_compatible_shape(y.shape), x.dtype, x.ragged_rank,
                                x.row_splits_dtype)
    return x


def _result(y: Any, lazy: bool = False) -> Any:
    if type(y) is Tensor:
        return y._value
    return _s.normalize(y, True, lazy)


def _predicate(fn: Callable, e: Any, where: str) -> bool:
    r = fn(*_args(e))
    v = r._value if isinstance(r, Tensor) else r
    if not (isinstance(v, (bool, np.bool_)) or (isinstance(v, np.ndarray) and v.dtype == bool and v.ndim == 0)):
        raise TypeError(f"{where}: `predicate` must return a scalar bool (a tf.bool scalar tensor or "
                        f"a Python bool); it returned {r!r}.")
    return bool(v)


class _Filter(_Unary):
    _tf_name = "_FilterDataset"

    def __init__(self, input: Dataset, fn: _Fn) -> None:
        super().__init__(input)
        self._fn = fn

    def _iter(self) -> Iterator:
        fn = self._fn.instance()
        return (e for e in self._input._elements() if _predicate(fn, e, "filter"))

    def _tolerant(self) -> Iterator:
        fn = self._fn.instance()
        for e in _tolerant_or_strict(self._input):
            if type(e) is not _Failed:
                try:
                    if not _predicate(fn, e, "filter"):
                        continue
                except OpError as err:
                    e = _Failed(err)
            yield e

    def _card(self) -> int:
        return _UNK


class _TakeWhile(_Filter):
    _tf_name = "_TakeWhileDataset"

    def _iter(self) -> Iterator:
        fn = self._fn.instance()
        return itertools.takewhile(lambda e: _predicate(fn, e, "take_while"), self._input._elements())

    def _tolerant(self) -> None:
        return None


class _Repeat(_Unary):
    _tf_name = "_RepeatDataset"

    def __init__(self, input: Dataset, count: int) -> None:
        super().__init__(input)
        self._count = count

    def _passes(self, make: Callable, ahead: bool = False) -> Iterator:
        # the first pass's iterator is made with the repeat's (TF makes it then: a shuffle
        # below draws its seeds now), each next one when the pass before has run out
        if self._count == 0:
            return iter(())
        return self._ahead(make(), make) if ahead else self._more(make(), make)

    def _finite(self) -> bool:
        """TF's FiniteIterator (``count`` > 1: TF drops ``repeat(1)``, and fuses a shuffle right
        below into ShuffleAndRepeat): it goes through every pass, empty ones too, and makes the
        input's iterator once more after the last pass (a seed drawn then is used up)."""
        return self._count > 1 and type(self._input) is not _Shuffle

    def _more(self, it: Iterator, make: Callable) -> Iterator:
        done, finite = 0, self._finite()
        while True:
            empty = True
            for x in it:
                empty = False
                yield x
            done += 1
            if finite:
                it = make()
                if done == self._count:
                    return
                continue
            if empty or done == self._count:
                return
            it = make()

    def _ahead(self, it: Iterator, make: Callable) -> Iterator:
        """The passes with TF's default injected prefetch, which runs an element ahead of a
        consumer slower than the pipeline (a training step): the next pass begins (a shuffle in
        it draws its seeds) as the last element of the pass before is taken. An error of the
        element ahead is raised when that element is asked for."""
        finite, count, done = self._finite(), self._count, 0

        def first_of(it: Iterator) -> tuple:
            """A pass's first element; a finite repeat goes on through empty passes."""
            nonlocal done
            while True:
                y = _pull(it)
                if y is not _END or not finite:
                    return it, y
                done += 1
                it = make()  # (the next pass's; after the last, the one more TF makes)
                if done == count:
                    return it, _END

        it, x = first_of(it)
        while x is not _END:
            y = _pull(it)
            if y is _END:
                done += 1
                if done != count or finite:
                    it = make()
            if isinstance(x, _Failed):
                raise x.error
            yield x
            if y is _END and done != count:
                it, y = first_of(it)
            x = y

    def _prefetched(self) -> bool:
        """Whether the pipeline being iterated has TF's injected prefetch (unless its options
        set ``experimental_optimization.inject_prefetch = False``)."""
        owner = getattr(_iterating.owner, "_dataset", None)
        return owner is None or owner.options().experimental_optimization.inject_prefetch is not False

    def _fused(self, make: Callable) -> Callable:
        """:meth:`_ahead` for the passes of a reshuffling shuffle read in blocks of rows: each
        pass but the last draws the next one's seeds as its own last element is taken."""
        if not (type(self._input) is _Shuffle and self._input._seeder is not None and self._prefetched()):
            return make
        drawn, done = [], [0]

        def next_pass() -> Iterator:
            done[0] += 1
            last = None if done[0] == self._count else lambda: drawn.append(self._input._rng())
            return make(drawn.pop() if drawn else None, last)
        return next_pass

    def _iter(self) -> Iterator:
        return self._passes(self._input._elements, self._prefetched())

    def _rows(self) -> tuple | None:
        rows = self._input._rows()
        if rows is None:
            return None
        arrays, template, chunks = rows
        return arrays, template, lambda: self._passes(self._fused(chunks))

    def _card(self) -> int:
        c = self._input._card()
        if self._count == 0 or c == 0:
            return 0
        if self._count < 0:
            return _INF
        return c if c < 0 else c * self._count


class _Take(_Unary):
    _tf_name = "_TakeDataset"

    def __init__(self, input: Dataset, count: int) -> None:
        super().__init__(input)
        self._count = count

    def _iter(self) -> Iterator:
        if self._count == 0:   # (TF makes no iterator of the input: a shuffle below draws no seeds)
            return iter(())
        it = self._input._elements()
        return it if self._count < 0 else itertools.islice(it, self._count)

    def _rows(self) -> tuple | None:
        rows = None if self._count == 0 else self._input._rows()
        if rows is None:
            return None
        arrays, template, chunks = rows
        return arrays, template, lambda: _take_chunks(chunks(), self._count)

    def _card(self) -> int:
        c = self._input._card()
        if self._count < 0:
            return c
        if c == _INF:
            return self._count
        return c if c == _UNK else min(c, self._count)


def _take_chunks(chunks: Iterator, n: int) -> Iterator:
    if n < 0:
        yield from chunks
        return
    for ch in chunks:   # (ends as the n-th row is given, asking for no chunk after it: a repeat
        yield ch[:n]    # below would begin its next pass, and a shuffle draw that pass's seeds)
        n -= len(ch)
        if n <= 0:
            return


class _Skip(_Unary):
    _tf_name = "_SkipDataset"

    def __init__(self, input: Dataset, count: int) -> None:
        super().__init__(input)
        self._count = count

    def _iter(self) -> Iterator:
        it = self._input._elements()
        if self._count < 0:
            return iter(())
        return itertools.islice(it, self._count, None)

    def _rows(self) -> tuple | None:
        rows = self._input._rows()
        if rows is None:
            return None
        arrays, template, chunks = rows
        return arrays, template, lambda: _skip_chunks(chunks(), self._count)

    def _card(self) -> int:
        c = self._input._card()
        if c < 0:
            return c
        return 0 if self._count < 0 else max(0, c - self._count)


def _skip_chunks(chunks: Iterator, n: int) -> Iterator:
    if n < 0:
        return
    for ch in chunks:
        if n >= len(ch):
            n -= len(ch)
            continue
        yield ch[n:]
        n = 0


class _Shard(_Unary):
    _tf_name = "_ShardDataset"

    def __init__(self, input: Dataset, n: int, index: int) -> None:
        super().__init__(input)
        self._n, self._index = n, index

    def _iter(self) -> Iterator:
        return itertools.islice(self._input._elements(), self._index, None, self._n)

    def _rows(self) -> tuple | None:
        rows = self._input._rows()
        if rows is None:
            return None
        arrays, template, chunks = rows

        def sharded() -> Iterator:
            pos = 0
            for ch in chunks():
                first = (self._index - pos) % self._n
                pos += len(ch)
                part = ch[first::self._n]
                if len(part):
                    yield part
        return arrays, template, sharded

    def _card(self) -> int:
        c = self._input._card()
        if c < 0:
            return c
        return c // self._n + (1 if self._index < c % self._n else 0)


_probing = [0]  # > 0 while element_spec runs functions on a first element


class _Shuffle(_Unary):
    _tf_name = "_ShuffleDataset"

    def __init__(self, input: Dataset, size: int, seeds: tuple[int, int], reshuffle: bool) -> None:
        super().__init__(input)
        self._size, self._seeds = size, seeds
        # TF's RandomSeedGenerator: each iteration's seeds are the next two draws of a stream
        self._seeder = _philox.Stream(seeds[0], seeds[1] << 64) if reshuffle else None

    def _rng(self) -> _philox.Stream:
        seeder = copy.copy(self._seeder) if _probing[0] and self._seeder is not None else self._seeder
        s1, s2 = self._seeds if seeder is None else (int(v) for v in seeder.take(2))
        return _philox.Stream(s1, s2 << 64)

    def _iter(self) -> Iterator:
        return itertools.chain.from_iterable(_buffer_shuffle(self._input._elements(), self._size, self._rng()))

    def _rows(self) -> tuple | None:
        rows = self._input._rows()
        if rows is None:
            return None
        arrays, template, chunks = rows
        first = [self._rng()]  # (drawn as the iterator is made, as TF's; a later pass draws when it starts)

        def shuffled(rng: _philox.Stream | None = None, last: Callable | None = None) -> Iterator:
            rng = rng or (first.pop() if first else self._rng())
            return (np.array(b, dtype=np.intp)
                    for b in _buffer_shuffle(_indices(chunks), self._size, rng, last) if b)
        return arrays, template, shuffled


class _Cache(_Unary):
    _tf_name = "_CacheDataset"

    def __init__(self, input: Dataset) -> None:
        super().__init__(input)
        self._done: list | None = None

    def _replay(self, source: Callable) -> Iterator:
        return iter(self._done) if self._done is not None else self._fill(source())

    def _fill(self, it: Iterator) -> Iterator:
        seen = []
        for x in it:
            seen.append(x)
            yield x
        self._done = seen

    def _iter(self) -> Iterator:
        return self._replay(self._input._elements)

    def _rows(self) -> tuple | None:
        rows = self._input._rows()
        if rows is None:
            return None
        arrays, template, chunks = rows
        return arrays, template, lambda: self._replay(chunks)


class _Enumerate(_Unary):
    _tf_name = "_EnumerateDataset"

    def __init__(self, input: Dataset, start: int) -> None:
        super().__init__(input)
        self._start = start

    def _iter(self) -> Iterator:
        return zip(map(np.int64, itertools.count(self._start)), self._input._elements())

    def _spec(self) -> Any:
        return (_s.tensor_spec((), _dt.int64), self._input.element_spec)


class _Scan(_Unary):
    _tf_name = "_ScanDataset"

    def __init__(self, input: Dataset, state: Any, fn: _Fn) -> None:
        super().__init__(input)
        self._state, self._fn = state, fn

    def _iter(self) -> Iterator:
        return self._outputs(self._input._elements())

    def _outputs(self, it: Iterator) -> Iterator:
        state, spec, fn = self._state, _s.spec_of(self._state), self._fn.instance()
        for e in it:
            out = fn(_s.to_tensors(state), _s.to_tensors(e))
            if not (isinstance(out, (tuple, list)) and len(out) == 2):
                raise TypeError(f"scan: `scan_func` must return a pair (new_state, output); it returned {out!r}.")
            state = _result(out[0])
            _check_state(spec, state, "scan")
            yield _result(out[1])

    def _spec(self) -> Any:
        fn = self._fn.instance()
        state = _s.to_tensors(self._state)

        def spec_for(e: Any) -> Any:
            return _s.spec_of(_result(fn(state, _s.to_tensors(e))[1], lazy=True))
        return _probed_spec(self._input, spec_for, "scan")


class _FlatMap(_Unary):
    _tf_name = "_FlatMapDataset"

    def __init__(self, input: Dataset, fn: _Fn) -> None:
        super().__init__(input)
        self._fn = fn

    @staticmethod
    def _open(fn: Callable, e: Any) -> Dataset:
        ds = fn(*_args(e))
        if not isinstance(ds, Dataset):
            raise TypeError(f"`map_func` must return a Dataset; it returned {type(ds).__name__}.")
        return ds

    def _iter(self) -> Iterator:
        fn = self._fn.instance()
        return itertools.chain.from_iterable(self._open(fn, e)._elements() for e in self._input._elements())

    def _spec(self) -> Any:
        return _probed_spec(self._input, lambda e: self._open(self._fn.instance(), e).element_spec, "flat_map")

    def _card(self) -> int:
        return _UNK


class _Interleave(_FlatMap):
    _tf_name = "_InterleaveDataset"

    def __init__(self, input: Dataset, fn: _Fn, cycle: int, block: int) -> None:
        super().__init__(input, fn)
        self._cycle, self._block = cycle, block

    def _iter(self) -> Iterator:
        return self._cycles(self._input._elements())

    def _cycles(self, inputs: Iterator) -> Iterator:  # TensorFlow's order: a slot is refilled where it emptied
        fn = self._fn.instance()
        slots: list = [None] * self._cycle
        k = block = opened = 0
        more = True
        while more or opened:
            if slots[k] is not None:
                x = next(slots[k], _END)
                if x is not _END:
                    yield x
                    block += 1
                    if block < self._block:
                        continue
                else:
                    slots[k] = None
                    opened -= 1
            elif more:
                e = next(inputs, _END)
                if e is _END:
                    more = False
                else:
                    slots[k] = self._open(fn, e)._elements()
                    opened += 1
                continue
            k, block = (k + 1) % self._cycle, 0


_END = object()


class _Failed:
    """An error met while reading an element ahead (raised when the element is asked for)."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


def _pull(it: Iterator) -> Any:
    """``next(it)``; ``_END`` at its end, a ``_Failed`` for an error."""
    try:
        return next(it, _END)
    except Exception as e:  # noqa: BLE001 (raised again when the element is asked for)
        return _Failed(e)


class _Zip(Dataset):
    _tf_name = "_ZipDataset"

    def __init__(self, structure: Any) -> None:
        self._structure = structure
        self._flat = _nest.flatten(structure)

    def _iter(self) -> Iterator:
        pack = _s.packer(self._structure)
        return (pack(list(es)) for es in zip(*[d._elements() for d in self._flat]))

    def _spec(self) -> Any:
        return _nest.pack_sequence_as(self._structure, [d.element_spec for d in self._flat])

    def _card(self) -> int:
        cs = [d._card() for d in self._flat]
        if _UNK in cs:
            return _UNK
        finite = [c for c in cs if c >= 0]
        return min(finite) if finite else _INF


class _Concatenate(Dataset):
    _tf_name = "_ConcatenateDataset"

    def __init__(self, a: Dataset, b: Dataset) -> None:
        if not isinstance(b, Dataset):
            raise TypeError(f"concatenate takes a Dataset; got {type(b).__name__}.")
        self._a, self._b = a, b
        self._element_spec = _common_spec(a.element_spec, b.element_spec)

    def _iter(self) -> Iterator:
        # (the second dataset's iterator is made when the first runs out, as TF makes it)
        return itertools.chain(self._a._elements(), _later(self._b._elements))

    def _spec(self) -> Any:
        return self._element_spec

    def _card(self) -> int:
        a, b = self._a._card(), self._b._card()
        if _INF in (a, b):
            return _INF
        return _UNK if _UNK in (a, b) else a + b


def _common_spec(a: Any, b: Any) -> Any:
    fa, fb = _nest.flatten(a), _nest.flatten(b)
    same = len(fa) == len(fb) and _nest.pack_sequence_as(a, list(range(len(fa)))) == \
        _nest.pack_sequence_as(b, list(range(len(fb))))
    if not same or any(x.dtype != y.dtype for x, y in zip(fa, fb)):
        raise TypeError(f"concatenate: the datasets' elements differ in structure or dtype: {a} "
                        f"and {b}.")
    return _nest.pack_sequence_as(a, [_s.tensor_spec(x.shape.most_specific_compatible_shape(y.shape), x.dtype)
                                      for x, y in zip(fa, fb)])


class _Window(_Unary):
    _tf_name = "_WindowDataset"

    def __init__(self, input: Dataset, size: int, shift: int, stride: int, drop: bool) -> None:
        super().__init__(input)
        self._size, self._shift, self._stride, self._drop = size, shift, stride, drop

    def _iter(self) -> Iterator:
        return self._windows(self._input._elements())

    def _windows(self, it: Iterator) -> Iterator:
        span = (self._size - 1) * self._stride + 1
        buf: deque = deque()
        while True:
            buf.extend(itertools.islice(it, span - len(buf)))
            if not buf:
                return
            items = list(itertools.islice(buf, 0, span, self._stride))
            if self._drop and len(items) < self._size:
                return
            yield _window_element(items, self._input.element_spec)
            for _ in range(self._shift):
                if buf:
                    buf.popleft()
                elif next(it, _END) is _END:
                    return

    def _spec(self) -> Any:
        return _nest.map_structure(lambda s: _s.DatasetSpec(s), self._input.element_spec)

    def _card(self) -> int:
        c = self._input._card()
        if c < 0:
            return c
        if self._drop:
            span = (self._size - 1) * self._stride + 1
            return 0 if c < span else (c - span) // self._shift + 1
        return -(-c // self._shift)


def _window_element(items: list, spec: Any) -> Any:
    """One window: a dataset per component, of the input's component spec (as TensorFlow's: a
    window of elements of different lengths is no error until it is batched)."""
    cols = list(zip(*[_nest.flatten(e) for e in items]))
    return _nest.pack_sequence_as(spec, [_Group(list(c), s) for c, s in zip(cols, _nest.flatten(spec))])


# ----------------------------------------------------------------------------- grouping, sampling, more
class _Group(Dataset):
    """The window a ``group_by_window`` gives its ``reduce_func``: the elements of one group, with
    the input's element spec."""

    _tf_name = "_WindowDataset"

    def __init__(self, items: list, spec: Any) -> None:
        self._items, self._element_spec = items, spec

    def _iter(self) -> Iterator:
        return iter(self._items)

    def _spec(self) -> Any:
        return self._element_spec

    def _card(self) -> int:
        return len(self._items)


def _int64_scalar(v: Any, what: str) -> int:
    """What a ``key_func`` or ``window_size_func`` returned, read as TF's ``convert_to_tensor(v,
    dtype=tf.int64)`` reads it."""
    if isinstance(v, Tensor):
        a = v._value
        if a.dtype != np.int64:
            raise ValueError(f"Invalid `{what}`. `{what}` must return a single `tf.int64` scalar tensor but it "
                             f"returned a tensor of dtype {v.dtype.name} (cast it with tf.cast(..., tf.int64)).")
    else:
        a = np.asarray(v)
        if a.dtype.kind not in "iu":
            raise TypeError(f"Invalid `{what}`. `{what}` must return a single `tf.int64` scalar tensor but it "
                            f"returned {v!r}.")
    if a.shape != ():
        raise ValueError(f"Invalid `{what}`. `{what}` must return a single `tf.int64` scalar tensor but its "
                         f"result has shape {list(a.shape)}.")
    return int(a)


class _GroupByWindow(_Unary):
    _tf_name = "_GroupByWindowDataset"

    def __init__(self, input: Dataset, key_fn: _Fn, reduce_fn: _Fn, size_fn: _Fn | None, size: int | None,
                 spec: Any = None) -> None:
        super().__init__(input)
        self._fn, self._reduce_fn, self._size_fn, self._size = key_fn, reduce_fn, size_fn, size
        if spec is not None:
            self._element_spec = spec

    def _iter(self) -> Iterator:
        it = self._input._elements()
        key_fn, reduce_fn = self._fn.instance(), self._reduce_fn.instance()
        return self._groups(it, key_fn, reduce_fn, None if self._size_fn is None else self._size_fn.instance())

    def _groups(self, it: Iterator, key_fn: Callable, reduce_fn: Callable, size_fn: Callable | None) -> Iterator:
        groups: dict = {}
        sizes: dict = {}
        for e in it:
            key = _int64_scalar(key_fn(*_args(e)), "key_func")
            if key not in sizes:  # (TF calls window_size_func once per key, and keeps the size)
                n = self._size if size_fn is None else _int64_scalar(size_fn(wrap(np.int64(key))), "window_size_func")
                if n <= 0:
                    raise InvalidArgumentError(f"Window size must be greater than zero, but got {n}.")
                sizes[key] = n
            group = groups.setdefault(key, [])
            group.append(e)
            if len(group) == sizes[key]:
                del groups[key]
                yield from self._reduced(reduce_fn, key, group)
        for key in sorted(groups):  # (TF's std::map: what is left goes in increasing order of key)
            yield from self._reduced(reduce_fn, key, groups[key])

    def _reduced(self, reduce_fn: Callable, key: int, items: list) -> Iterator:
        ds = reduce_fn(wrap(np.int64(key)), _Group(items, self._input.element_spec))
        if not isinstance(ds, Dataset):
            raise TypeError("Invalid `reduce_func`. `reduce_func` must return a single `tf.data.Dataset` object "
                            f"but it returned {type(ds).__name__}.")
        return ds._elements()

    def _spec(self) -> Any:
        # TF traces reduce_func on a window of unknown elements; tapegrad runs it on a full window of the
        # first element, under that element's key (a window of one could leave a batch(n, drop_remainder=True)
        # in it empty, and a map after it with nothing to learn its spec from)
        first = next(self._input._elements(), _END)
        key, items = 0, []
        if first is not _END:
            try:
                key = _int64_scalar(self._fn.instance()(*_args(first)), "key_func")
                n = self._size if self._size_fn is None else \
                    _int64_scalar(self._size_fn.instance()(wrap(np.int64(key))), "window_size_func")
            except Exception:  # noqa: BLE001  (the error is raised again, clearly, while iterating)
                n = 1
            items = [first] * (n if 0 < n <= _CHUNK * 16 else 1)
        window = _Group(items, self._input.element_spec)
        ds = self._reduce_fn.instance()(wrap(np.int64(key)), window)
        if not isinstance(ds, Dataset):
            raise TypeError("Invalid `reduce_func`. `reduce_func` must return a single `tf.data.Dataset` object "
                            f"but it returned {type(ds).__name__}.")
        spec = ds.element_spec
        try:  # (and under another key: a dimension that depends on the key is unknown, as in TF's trace)
            spec = _relaxed(spec, self._reduce_fn.instance()(wrap(np.int64(key ^ 1)), window).element_spec)
        except Exception:  # noqa: BLE001  (a key the function cannot take tells nothing)
            pass
        return spec

    def _card(self) -> int:
        return _UNK


def _bucket_by_length(ds: Dataset, length_fn: _Fn, bounds: list, sizes: list, padded_shapes: Any,
                      padding_values: Any, to_boundary: bool, no_padding: bool, drop: bool) -> Dataset:
    """``bucket_by_sequence_length`` as TF builds it: a ``group_by_window`` keyed by the bucket."""
    bounds, sizes = tuple(bounds), tuple(sizes)  # (constants of the functions: in the fingerprint)
    lows = (int(np.iinfo(np.int32).min),) + bounds
    highs = bounds + (int(np.iinfo(np.int32).max),)
    length = length_fn.fn

    def bucket(*args: Any) -> Any:
        r = length(*args)
        n = _s.value(r)
        if not (isinstance(r, Tensor) and r.dtype == _dt.int32 or type(r) is int):
            raise TypeError("bucket_by_sequence_length: `element_length_func` must return an int32 scalar (as "
                            "tf.shape(x)[0] gives; TensorFlow compares it with the int32 bucket boundaries); it "
                            f"returned {r!r}. Cast it with tf.cast(..., tf.int32).")
        if np.ndim(n) != 0:
            raise ValueError(f"bucket_by_sequence_length: `element_length_func` must return a scalar; it returned "
                             f"shape {list(np.shape(n))}.")
        ids = [i for i, (lo, hi) in enumerate(zip(lows, highs)) if lo <= n < hi]
        return np.int64(min(ids) if ids else np.iinfo(np.int64).max)

    def size(bucket_id: Tensor) -> Any:
        return np.int64(sizes[_bucket_index(int(bucket_id._value), len(sizes))])

    spec = ds.element_spec
    if no_padding:
        shapes = None
        out_spec = _nest.map_structure(lambda s: _s.batched_spec(s, None), spec)
    else:
        flat = _nest.flatten(spec)
        shapes = ([TensorShape(s.shape) for s in flat] if not padded_shapes else
                  [_padded_shape(sh) for sh in _shape_leaves(spec, _tuples(padded_shapes))])
        out_spec = _nest.pack_sequence_as(spec, [_s.tensor_spec([None, *sh], s.dtype) for sh, s in zip(shapes, flat)])

    def batches(bucket_id: Tensor, window: Dataset) -> Dataset:
        i = _bucket_index(int(bucket_id._value), len(sizes))
        if no_padding:
            return window.batch(sizes[i], drop_remainder=drop)
        fill = None
        if to_boundary:
            if i >= len(sizes) - 1:  # (TF's assertion fails in reduce_func, whose errors it reports as internal)
                raise InternalError("assertion failed: [When pad_to_bucket_boundary=True, elements must have length "
                                    f"< max(bucket_boundaries).] (an element has length >= {bounds[-1]}).")
            fill = bounds[i] - 1
        want = [[fill if d is None else d for d in sh] for sh in shapes]
        return window.padded_batch(sizes[i], _nest.pack_sequence_as(spec, [tuple(w) for w in want])
                                   if isinstance(spec, (tuple, dict)) else want[0], padding_values, drop_remainder=drop)

    return _GroupByWindow(ds, _Fn(bucket), _Fn(batches), _Fn(size), None, out_spec)


def _bucket_index(i: int, n: int) -> int:
    if not 0 <= i < n:
        raise InvalidArgumentError(f"bucket_by_sequence_length: an element's length is in no bucket (bucket id {i}, "
                                   f"{n} buckets).")
    return i


class _Random(Dataset):
    _tf_name = "_RandomDataset"

    def __init__(self, seeds: tuple[int, int], rerandomize: bool) -> None:
        self._seeds = seeds
        # TF's RandomSeedGenerator when rerandomizing (as shuffle's), its FixedSeedGenerator if not
        self._seeder = _philox.Stream(seeds[0], seeds[1] << 64) if rerandomize else None

    _rng = _Shuffle._rng

    def _iter(self) -> Iterator:
        return self._draws(self._rng())  # (seeds drawn as the iterator is made, as TF's)

    @staticmethod
    def _draws(rng: _philox.Stream) -> Iterator:
        while True:
            yield from map(np.int64, rng.take(256).tolist())

    def _spec(self) -> Any:
        return _s.tensor_spec((), _dt.int64)

    def _card(self) -> int:
        return _INF


def _supertype(a: Any, b: Any) -> Any:
    """TF's ``most_specific_common_supertype`` of two specs; None where there is none."""
    if type(a) is not type(b) or a.dtype != b.dtype:
        return None
    if type(a) is _s.TensorSpec:
        return _s.tensor_spec(a.shape.most_specific_compatible_shape(b.shape), a.dtype)
    return a if a == b else None


class _DirectedInterleave(Dataset):
    """``choose_from_datasets`` and ``sample_from_datasets``: each next element from the input
    the selector's next element names."""

    _tf_name = "_DirectedInterleaveDataset"

    def __init__(self, selector: Dataset, datasets: list, stop: bool) -> None:
        bad = [d for d in datasets if not isinstance(d, Dataset)]
        if bad:
            raise TypeError(f"Invalid `datasets`. `datasets` must be a list of tf.data.Dataset; got {type(bad[0]).__name__}.")
        self._selector, self._datasets, self._stop = selector, datasets, stop
        spec = datasets[0].element_spec
        for i, d in enumerate(datasets[1:]):
            other = d.element_spec
            fa, fb = _nest.flatten(spec), _nest.flatten(other)
            same = len(fa) == len(fb) and _nest.pack_sequence_as(spec, list(range(len(fa)))) == \
                _nest.pack_sequence_as(other, list(range(len(fb))))
            common = [_supertype(x, y) for x, y in zip(fa, fb)] if same else [None]
            if any(c is None for c in common):
                raise TypeError("Invalid `datasets`. `datasets` must have compatible element specs.\n Dataset 0 "
                                f"element_spec={datasets[0].element_spec}.\nDataset {i + 1} element_spec={other}.")
            spec = _nest.pack_sequence_as(spec, common)
        self._element_spec = spec

    def _iter(self) -> Iterator:
        selector = self._selector._elements()  # (TF makes the selector's iterator first, then the inputs')
        return self._picks(selector, [d._elements() for d in self._datasets])

    def _picks(self, selector: Iterator, inputs: list) -> Iterator:
        n = active = len(inputs)
        for s in selector:
            i = int(s)
            if not 0 <= i < n:
                raise InvalidArgumentError(f"Selector index out of range: {i} >= {n}")
            if inputs[i] is None:
                continue
            x = next(inputs[i], _END)
            if x is not _END:
                yield x
                continue
            if self._stop:
                return
            inputs[i] = None
            active -= 1
            if not active:
                return

    def _spec(self) -> Any:
        return self._element_spec

    def _card(self) -> int:
        return _INF if any(d._card() == _INF for d in self._datasets) else _UNK


def _sample_from_datasets(datasets: list, weights: Any, seed: Any, stop: bool, rerandomize: Any) -> Dataset:
    """TF's ``sample_from_datasets``: a directed interleave whose selector draws
    ``stateless_categorical(logits, 1, seed=pair)``, ``pair`` two values of ``Dataset.random``."""
    from .. import math as _math

    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")

    def draw(logits: Any, seed: Any) -> Any:
        lg = _s.value(logits)
        if lg.ndim != 2:
            raise InvalidArgumentError(f"sample_from_datasets: the logits of the weights must be a matrix; got shape "
                                       f"{list(lg.shape)}.")
        return np.int64(_categorical_draws(_s.value(seed)[None], lg[:1])[0])

    random = Dataset.random(seed=seed, rerandomize_each_iteration=rerandomize)
    if isinstance(weights, Dataset):
        logits = weights.map(lambda *p: _math.log(p))
        selector = Dataset.zip(logits, random.batch(2)).map(draw)
        return _DirectedInterleave(selector, datasets, bool(stop))
    if weights is None:
        logits_value = np.ones((1, len(datasets)), np.float32)  # (TF's logits [[1.0] * n]: uniform)
    else:
        if isinstance(weights, Tensor):
            if not weights.shape.is_compatible_with([len(datasets)]):
                raise ValueError("Invalid `weights`. The shape of `weights` should be compatible with "
                                 f"`[len(datasets)]` but is {weights.shape}.")
            w = weights._value
        else:
            if len(weights) != len(datasets):
                raise ValueError("Invalid `weights`. `weights` should have the same length as `datasets` but got "
                                 f"`len(weights)={len(weights)}` vs. `len(datasets)={len(datasets)}`.")
            kept = [(d, x) for d, x in zip(datasets, weights) if _s.value(x) > 0]
            datasets, weights = ([d for d, _ in kept], [x for _, x in kept]) if kept else ([datasets[0].take(0)], [1.0])
            w = _s.normalize(weights, False)
            w = np.asarray(w) if not isinstance(w, tuple) else np.stack([np.asarray(v) for v in w])
        if w.dtype not in (np.float32, np.float64):
            raise TypeError("Invalid `weights`. `weights` type must be either `tf.float32` or `tf.float64` but is "
                            f"{_dt.as_dtype(w.dtype).name}.")
        with np.errstate(divide="ignore"):
            logits_value = np.log(w)[None]
    if len(datasets) == 1:
        return datasets[0]
    return _DirectedInterleave(_Choices(random, np.asarray(logits_value, np.float32)), datasets, bool(stop))


def _categorical_draws(pairs: np.ndarray, logits: np.ndarray) -> np.ndarray:
    """``stateless_categorical(logits, 1, seed=pair)[0, 0]`` for each row ``pair`` of ``pairs``
    (int64, ``(k, 2)``), all at once: TF's seed scrambling, then the first two uint32 of each
    pair's Philox stream as a double ``u``, the class the first whose cumulative
    ``exp(logit - max)`` exceeds ``u * total`` (``_philox.categorical``, one row and one sample)."""
    p = pairs.astype(np.uint64)
    m32, s32 = np.uint64(0xFFFFFFFF), np.uint64(32)
    m = _philox.bijection(np.stack([p[:, 0] & m32, p[:, 0] >> s32, p[:, 1] & m32, p[:, 1] >> s32]),
                          0x02461E293EC8F720).astype(np.uint64)
    key = m[:, 0] | m[:, 1] << s32
    zero = np.zeros(len(p), np.uint64)
    x = _philox.bijection(np.stack([zero, zero, m[:, 2], m[:, 3]]), key)
    u = _philox.uint_to_double(x[:, 0], x[:, 1])
    row = logits[0]
    finite = np.isfinite(row)
    mx = np.max(np.where(finite, row, -np.inf)).astype(np.float64)
    if not np.isfinite(mx):
        mx = np.float64(np.finfo(row.dtype).min)
    cdf = np.cumsum(np.where(finite, np.exp(row.astype(np.float64) - mx), 0.0))
    return np.array([np.searchsorted(cdf, v * cdf[-1], side="right") for v in u.tolist()], np.int64)


class _Choices(_Unary):
    """``sample_from_datasets``' selector for constant weights: TF's
    ``random.batch(2).map(lambda pair: stateless_categorical(logits, 1, seed=pair)[0, 0])``,
    drawn for many pairs at once."""

    _tf_name = "_MapDataset"

    def __init__(self, input: Dataset, logits: np.ndarray) -> None:
        super().__init__(input)
        self._logits = logits

    def _iter(self) -> Iterator:
        return self._draws(self._input._elements())  # (the random dataset's iterator made now, as TF's)

    def _draws(self, it: Iterator) -> Iterator:
        while True:
            vals = np.fromiter(itertools.islice(it, 512), np.int64)
            if len(vals) < 2:
                return
            yield from map(np.int64, _categorical_draws(vals[:len(vals) // 2 * 2].reshape(-1, 2), self._logits).tolist())

    def _spec(self) -> Any:
        return _s.tensor_spec((), _dt.int64)


class _Unique(_Unary):
    _tf_name = "_UniqueDataset"

    def __init__(self, input: Dataset) -> None:
        super().__init__(input)
        for s in _nest.flatten(input.element_spec):
            if s.dtype not in (_dt.int32, _dt.int64, _dt.string):
                raise TypeError(f"`tf.data.Dataset.unique` does not support type {s.dtype} -- only `tf.int32`, "
                                "`tf.int64`, and `tf.string` are supported.")
        if len(_nest.flatten(input.element_spec)) != 1:
            raise InvalidArgumentError("UniqueDataset only supports inputs with a single component; the element "
                                       f"spec is {input.element_spec}.")

    def _iter(self) -> Iterator:  # (the input's iterator made now, as TF's MakeIterator does)
        return self._firsts(self._input._elements())

    @staticmethod
    def _firsts(it: Iterator) -> Iterator:
        seen: set = set()
        for e in it:
            a = np.asarray(_s.value(e))
            key = (a.shape, tuple(a.ravel().tolist()) if a.dtype == object else a.tobytes())
            if key not in seen:
                seen.add(key)
                yield e

    def _card(self) -> int:
        return _UNK


class _AssertCardinality(_Unary):
    _tf_name = "_AssertCardinalityDataset"

    def __init__(self, input: Dataset, expected: int) -> None:
        super().__init__(input)
        self._expected = expected

    def _iter(self) -> Iterator:  # (the input's iterator made now, as TF's MakeIterator does)
        return self._checked(self._input._elements())

    def _checked(self, it: Iterator) -> Iterator:
        want, n = self._expected, 0
        for e in it:
            n += 1
            if want != _INF and n > want:
                raise FailedPreconditionError(f"Input dataset was expected to contain {_count_text(want)} but "
                                              f"contained at least {_count_text(n)}.")
            yield e
        if n != want:
            expected = "an infinite number of elements" if want == _INF else _count_text(want)
            raise FailedPreconditionError(f"Input dataset was expected to contain {expected} but contained only "
                                          f"{_count_text(n)}.")

    def _card(self) -> int:
        return self._expected


def _count_text(n: int) -> str:
    return f"{n} element" + ("" if n == 1 else "s")


class _Rebatch(_Unary):
    _tf_name = "_RebatchDataset"

    def __init__(self, input: Dataset, batch_sizes: Any, drop: bool) -> None:
        super().__init__(input)
        sizes = np.asarray(_s.value(batch_sizes))
        if sizes.ndim > 1:
            raise ValueError("Invalid `batch_sizes`. Expected `batch_sizes` to be a scalar or a vector. Received "
                             f"`batch_sizes` of rank {sizes.ndim}.")
        if sizes.dtype.kind not in "iu" or sizes.size == 0 or (sizes < 0).any():
            raise InvalidArgumentError(f"rebatch: `batch_size` must be a non-negative integer or a non-empty list of "
                                       f"them; got {batch_sizes!r}.")
        self._sizes, self._drop = [int(v) for v in sizes.reshape(-1)], drop
        flat = _nest.flatten(input.element_spec)
        if any(s.shape.rank == 0 for s in flat):
            raise ValueError("Invalid `batch_sizes`. Expected dataset with rank of >= 1 but found a dataset with "
                             "scalar elements. Fix the issue by adding the `batch` transformation to the dataset.")
        dims = {s.shape[0] for s in flat if s.shape.rank is not None and s.shape[0] is not None}
        if len(dims) > 1:
            raise ValueError(f"Invalid `input_dataset.` The batch dimensions of its components differ: {sorted(dims)}.")
        dim = None
        if len(set(self._sizes)) == 1:
            want = self._sizes[0]
            if drop or (dims and want and next(iter(dims)) % want == 0):
                dim = want
        self._dim = dim

    def _iter(self) -> Iterator:
        return self._batches(_Unbatch._split(self._input._elements()))

    def _batches(self, rows: Iterator) -> Iterator:
        for k in itertools.count():
            n = self._sizes[k % len(self._sizes)]
            if n == 0:  # (TF's: an empty batch, even once the rows have run out)
                yield self._empty()
                continue
            items = list(itertools.islice(rows, n))
            if not items or (self._drop and len(items) < n):
                return
            yield _stack_elements(items)

    def _empty(self) -> Any:
        return _nest.pack_sequence_as(self._input.element_spec, [
            np.zeros([0, *[d or 0 for d in s.shape[1:]]], object if s.dtype == _dt.string else s.dtype._np)
            for s in _nest.flatten(self._input.element_spec)])

    def _spec(self) -> Any:
        return _nest.map_structure(lambda s: _s.batched_spec(_s.unbatched_spec(s), self._dim), self._input.element_spec)

    def _card(self) -> int:
        return _UNK


def _rejection_resample(ds: Dataset, class_func: Callable, target_dist: Any, initial_dist: Any, seed: Any) -> Dataset:
    """TF's ``rejection_resample``, built from the same datasets: the acceptance probabilities
    (from ``initial_dist``, or estimated by a ``scan`` over batches of 32 classes), a ``filter``
    drawing ``tf.random.uniform([], seed=seed)`` per element, and a ``sample_from_datasets`` mixing
    the filtered elements with unfiltered ones."""
    from .. import random as _random

    target = np.asarray(_s.value(target_dist), np.float64).astype(np.float32)
    n_classes = target.shape[0]

    def pair(*x: Any) -> Any:
        return (class_func(*x), x[0]) if len(x) == 1 else (class_func(*x), x)

    if initial_dist is not None:
        initial = np.asarray(_s.value(initial_dist), np.float64).astype(np.float32)
        accept, original = _acceptance(initial, target)
        initial_ds, accept_ds = Dataset.from_tensors(initial).repeat(), Dataset.from_tensors(accept).repeat()
        original_ds = Dataset.from_tensors(original).repeat()
        with np.errstate(divide="ignore", invalid="ignore"):
            static = np.min(target / initial)
    else:
        def estimate(counts: Any, c: Any) -> Any:
            classes = np.asarray(_s.value(c)).astype(np.int64)
            counts = _s.value(counts) + np.array([(classes == k).sum() for k in range(n_classes)], np.int64)
            dist = (counts / counts.sum()).astype(np.float32)
            return counts, np.tile(dist[None], [32, 1])
        initial_ds = ds.map(class_func).batch(32).scan(np.full([n_classes], 10, np.int64), estimate).unbatch()
        both = initial_ds.map(lambda initial: _acceptance(_s.value(initial), target))
        accept_ds, original_ds = both.map(lambda a, _: a), both.map(lambda _, m: m)
        static = None

    def gather(accept: Any, data: Any) -> Any:
        c = class_func(*data) if isinstance(data, tuple) else class_func(data)
        k = int(_s.value(c))
        if not 0 <= k < n_classes:
            raise InvalidArgumentError(f"rejection_resample: `class_func` returned {k}, not in [0, {n_classes}).")
        return c, _s.value(accept)[k], data

    def keep(c: Any, p: Any, data: Any) -> Any:
        return _random.uniform([], seed=seed, dtype=_dt.float32) < p

    accept_ds = Dataset.zip((accept_ds, initial_ds)).map(lambda a, _: a)
    filtered = Dataset.zip((accept_ds, ds)).map(gather).filter(keep).map(lambda c, _, data: (c, data))
    filtered._element_spec = (ds.map(class_func).element_spec, ds.element_spec)  # (what TF's trace gives, even
    # when the filter lets nothing through the probes)
    if static == 1:
        return ds.map(pair)
    if static == 0:
        return filtered
    return Dataset.sample_from_datasets([ds.map(pair), filtered], weights=original_ds.map(lambda p: [(p, 1.0 - p)]),
                                        seed=seed, stop_on_empty_dataset=True)


def _acceptance(initial: np.ndarray, target: np.ndarray) -> tuple:
    """TF's acceptance probabilities with mixing: ``(ratio - m) / (max - m)`` and ``m``, the
    smallest ratio of target to initial probability."""
    ratio = target / (initial + np.finfo(np.float32).tiny)
    m = ratio.min()
    with np.errstate(divide="ignore", invalid="ignore"):
        return ((ratio - m) / (ratio.max() - m)).astype(np.float32), np.float32(m)


class _SparseBatch(_Unary):
    _tf_name = "_DenseToSparseBatchDataset"

    def __init__(self, input: Dataset, n: int, row_shape: Any) -> None:
        super().__init__(input)
        flat = _nest.flatten(input.element_spec)
        if len(flat) != 1 or type(flat[0]) is not _s.TensorSpec:
            raise TypeError("sparse_batch: the elements must be one dense tensor each; the element spec is "
                            f"{input.element_spec}.")
        dims = (row_shape.as_list() if isinstance(row_shape, TensorShape) else list(row_shape)
                if isinstance(row_shape, (list, tuple)) else _s.value(row_shape).reshape(-1).tolist())
        bad = [d for d in dims if d is not None and int(d) < 0]
        if bad:
            raise ValueError(f"Dimension {bad[0]} must be >= 0 (`row_shape`: None for a dimension sized by the "
                             "batch's largest).")
        self._row = [-1 if d is None else int(d) for d in dims]
        self._n = n

    def _iter(self) -> Iterator:  # (the input's iterator made now, as TF's MakeIterator does)
        return self._batches(self._input._elements())

    def _batches(self, it: Iterator) -> Iterator:
        while True:
            items = list(itertools.islice(it, self._n))
            if not items:
                return
            yield self._sparse(items)

    def _sparse(self, items: list) -> Any:
        rank = len(self._row)
        for v in items:
            if np.ndim(v) != rank:
                raise InvalidArgumentError(f"Input element had shape ({', '.join(map(str, np.shape(v)))}) that is "
                                           f"incompatible with the row shape ({', '.join(map(str, self._row))}).")
        big = np.max([np.shape(v) for v in items], axis=0).astype(np.int64) if rank else np.zeros(0, np.int64)
        dims = [int(b) if r == -1 else r for r, b in zip(self._row, big)]
        for v in items:
            if any(s > d for s, d in zip(np.shape(v), dims)):
                raise DataLossError(f"Input element had shape ({', '.join(map(str, np.shape(v)))}) that is "
                                           f"larger than the row shape ({', '.join(map(str, dims))}).")
        idx = [np.concatenate([np.full((np.size(v), 1), b, np.int64),
                               np.indices(np.shape(v)).reshape(rank, -1).T.astype(np.int64)], 1)
               for b, v in enumerate(items)]
        values = np.concatenate([np.asarray(v).reshape(-1) for v in items])
        return _s.SparseValue(np.concatenate(idx), values, np.array([len(items), *dims], np.int64))

    def _spec(self) -> Any:
        from ..sparse import SparseTensorSpec
        return SparseTensorSpec([None, *[None if d == -1 else d for d in self._row]], self._input.element_spec.dtype)

    def _card(self) -> int:
        c = self._input._card()
        return c if c < 0 else -(-c // self._n)


class _Snapshot(_Unary):
    _tf_name = "_SnapshotDataset"

    def __init__(self, input: Dataset, path: str, compression: Any, reader_func: Callable | None,
                 shard_func: Callable | None) -> None:
        super().__init__(input)
        if compression not in (None, "GZIP"):
            raise ValueError(f"snapshot: `compression` must be 'AUTO', 'GZIP' or None; got {compression!r}.")
        self._path, self._compression = path, compression
        self._reader, self._shard_fn = reader_func, None if shard_func is None else _Fn(shard_func)

    def _folder(self) -> str:
        return os.path.join(self._path, f"{_fingerprint(self._input):016x}")

    def _iter(self) -> Iterator:
        folder = self._folder()
        if os.path.exists(os.path.join(folder, "dataset_spec.json")):
            return Dataset.load(folder, reader_func=self._reader)._elements()
        return self._written(folder)

    def _written(self, folder: str) -> Iterator:
        fn = None if self._shard_fn is None else self._shard_fn.instance()
        items = []
        for e in self._input._elements():
            items.append((0 if fn is None else _save.shard_index(fn(*_args(e))), e))
            yield e
        _save.write(folder, self._input.element_spec, iter(items), self._compression)


def _fingerprint(ds: Dataset) -> int:
    """A hash of the pipeline's definition: its datasets, their parameters and data, the code of
    their functions and the values they capture (not the globals they read)."""
    import hashlib

    h = hashlib.blake2b(digest_size=8)

    def feed(v: Any, depth: int = 0) -> None:
        if depth > 6:
            return
        if isinstance(v, _Fn):
            v = v.fn
        if isinstance(v, Dataset):
            h.update(type(v).__name__.encode())
        elif isinstance(v, (bool, int, float, str, bytes, type(None), range)):
            h.update(repr(v).encode())
        elif isinstance(v, (np.ndarray, np.generic)):
            a = np.asarray(v)
            h.update(f"{a.dtype}{a.shape}".encode())
            h.update(repr(a.ravel().tolist()).encode() if a.dtype == object else a.tobytes())
        elif isinstance(v, (list, tuple)):
            for x in v:
                feed(x, depth + 1)
        elif isinstance(v, dict):
            for k in sorted(v, key=str):
                h.update(str(k).encode())
                feed(v[k], depth + 1)
        elif hasattr(v, "__code__"):
            code = v.__code__
            h.update(code.co_code + repr([c for c in code.co_consts if not hasattr(c, "co_code")]).encode()
                     + repr(code.co_names).encode())
            for c in code.co_consts:
                if hasattr(c, "co_code"):
                    h.update(c.co_code)
            # the constants it captured (`lambda x: x * k`'s k), as a traced graph holds them; not mutable
            # objects (a list it appends to), whose contents would change the hash as the pipeline runs
            captured = [c.cell_contents for c in getattr(v, "__closure__", None) or () if c.cell_contents is not _END]
            for x in captured + list(getattr(v, "__defaults__", None) or ()):
                if isinstance(x, (bool, int, float, str, bytes, type(None), tuple, np.ndarray, np.generic, Tensor, _Fn)) \
                        or hasattr(x, "__code__"):
                    feed(x, depth + 1)
        elif type(v) in _s.COMPOSITE_VALUES:
            feed([getattr(v, k) for k in type(v).__slots__], depth + 1)
        elif type(v) is Boxed:
            h.update(repr(id(v)).encode())
        elif isinstance(v, Tensor):
            feed(v._value, depth)

    for d in _state.nodes(ds):
        for k, v in sorted(vars(d).items()):
            if not k.startswith("_element_spec") and k not in ("_options", "_done", "_seeder", "_fresh"):
                h.update(k.encode())
                feed(v)
    return int.from_bytes(h.digest(), "little")


class _GroupByReducer(_Unary):
    _tf_name = "_GroupByReducerDataset"

    def __init__(self, input: Dataset, key_fn: _Fn, init_fn: _Fn, reduce_fn: _Fn, finalize_fn: _Fn) -> None:
        super().__init__(input)
        self._fn, self._init_fn, self._reduce_fn, self._finalize_fn = key_fn, init_fn, reduce_fn, finalize_fn
        self.element_spec  # (TF traces the functions here)

    @staticmethod
    def _call(fn: Callable, state: Any) -> Any:
        t = _s.to_tensors(state)
        return fn(*t) if type(t) is tuple else fn(t)

    def _iter(self) -> Iterator:
        return self._reduced(self._input._elements(), self._fn.instance(), self._init_fn.instance(),
                             self._reduce_fn.instance(), self._finalize_fn.instance())

    def _reduced(self, it: Iterator, key_fn: Callable, init: Callable, reduce: Callable, final: Callable) -> Iterator:
        states: dict = {}
        specs: dict = {}
        for e in it:
            key = _int64_scalar(key_fn(*_args(e)), "key_func")
            if key not in states:
                states[key] = _result(init(wrap(np.int64(key))))
                specs[key] = _s.spec_of(states[key])
            new = _result(reduce(_s.to_tensors(states[key]), _s.to_tensors(e)))
            _check_state(specs[key], new, "group_by_reducer")
            states[key] = new
        for key in sorted(states):  # (TF's std::map: in increasing order of key)
            yield _result(self._call(final, states[key]))

    def _spec(self) -> Any:
        state = _result(self._init_fn.instance()(wrap(np.int64(0))))
        final = self._finalize_fn.instance()
        spec = _s.spec_of(_result(self._call(final, state), lazy=True))
        first = next(self._input._elements(), _END)
        if first is not _END:
            try:
                later = _result(self._reduce_fn.instance()(_s.to_tensors(state), _s.to_tensors(first)))
                spec = _relaxed(spec, _s.spec_of(_result(self._call(final, later), lazy=True)))
            except Exception:  # noqa: BLE001  (a probe the functions cannot take tells nothing)
                pass
        return spec

    def _card(self) -> int:
        return _UNK


class _FromList(Dataset):
    _tf_name = "_ListDataset"

    def __init__(self, elements: list) -> None:
        if not elements:
            raise ValueError("Invalid `elements`. `elements` should not be empty. If you want an empty dataset, "
                             "use `tf.data.Dataset.range(0)`.")
        self._elements_list = [_s.normalize(e, False) for e in elements]
        spec = _s.spec_of(self._elements_list[0])
        for i, e in enumerate(self._elements_list[1:]):
            other = _s.spec_of(e)
            fa, fb = _nest.flatten(spec), _nest.flatten(other)
            same = len(fa) == len(fb) and _nest.pack_sequence_as(spec, list(range(len(fa)))) == \
                _nest.pack_sequence_as(other, list(range(len(fb))))
            common = [_supertype(x, y) for x, y in zip(fa, fb)] if same else [None]
            if any(c is None for c in common):
                raise ValueError(f"Invalid `elements`. Element 0 has spec {spec} and element {i + 1} has spec "
                                 f"{other}: they must have the same structure and dtypes.")
            spec = _nest.pack_sequence_as(spec, common)
        self._element_spec = spec

    def _iter(self) -> Iterator:
        return iter(self._elements_list)

    def _spec(self) -> Any:
        return self._element_spec

    def _card(self) -> int:
        return len(self._elements_list)
