"""The strategy API without the cluster: reduce ops, per-replica values, the replica and
cross-replica contexts, distributed datasets, the default strategy and OneDeviceStrategy.

A strategy's replicas run ``fn`` through ``_run_replicas`` (in this process for the default
strategy and OneDeviceStrategy; on Dask workers for the mirrored strategies, tapegrad/distribute/
_dask.py); everything else here is shared.
"""
from __future__ import annotations

import contextlib
import enum
import threading
from typing import Any, Callable, Iterator, NamedTuple, Sequence

import numpy as np

from .. import _trace, nest
from .._convert import convert_to_tensor
from .._spec import TensorSpec
from .._tensor import wrap
from ..experimental._optional import Optional, next_as_optional
from ..ops import random as _random_ops

_local = threading.local()  # .scopes: the strategies entered, innermost last; .replica: ReplicaContext


class ReduceOp(enum.Enum):
    """How :meth:`Strategy.reduce` and :meth:`ReplicaContext.all_reduce` combine replicas' values."""

    SUM = "SUM"
    MEAN = "MEAN"


def _reduce_op(op: Any) -> ReduceOp:
    if isinstance(op, ReduceOp):
        return op
    if isinstance(op, str) and op.upper() in ("SUM", "MEAN"):
        return ReduceOp(op.upper())
    raise ValueError(f"reduce_op must be tf.distribute.ReduceOp.SUM or .MEAN (or 'SUM'/'MEAN'); got {op!r}.")


class DistributedValues:
    """The base of values with one component per replica (``tf.distribute.DistributedValues``)."""

    values: tuple


class PerReplica(DistributedValues):
    """A value with one component per replica (TF's ``PerReplica``): what
    :meth:`Strategy.run` returns and what a distributed dataset yields. ``values`` holds the
    components in replica order; :meth:`Strategy.experimental_local_results` returns them."""

    def __init__(self, values: Sequence[Any]) -> None:
        self.values = tuple(values)

    def _function_key(self) -> tuple:  # (a tf.function runs eagerly on it, keyed by its type)
        return tuple((tuple(v.shape), str(v.dtype)) if hasattr(v, "shape") else type(v)
                     for v in self.values)

    def __repr__(self) -> str:
        body = ",\n".join(f"  {i}: {v!r}" for i, v in enumerate(self.values))
        return f"PerReplica:{{\n{body}\n}}"


class InputContext:
    """What :meth:`Strategy.distribute_datasets_from_function` passes to the dataset function:
    the number of input pipelines, this pipeline's id, and the number of replicas."""

    def __init__(self, num_input_pipelines: int = 1, input_pipeline_id: int = 0,
                 num_replicas_in_sync: int = 1) -> None:
        self.num_input_pipelines = num_input_pipelines
        self.input_pipeline_id = input_pipeline_id
        self.num_replicas_in_sync = num_replicas_in_sync

    def get_per_replica_batch_size(self, global_batch_size: int) -> int:
        """``global_batch_size // num_replicas_in_sync``; ``ValueError`` when it does not divide."""
        if global_batch_size % self.num_replicas_in_sync:
            raise ValueError(f"The `global_batch_size` {global_batch_size!r} is not divisible by "
                             f"`num_replicas_in_sync` {self.num_replicas_in_sync!r}.")
        return global_batch_size // self.num_replicas_in_sync

    def __repr__(self) -> str:
        return (f"tf.distribute.InputContext(input pipeline id {self.input_pipeline_id}, total: "
                f"{self.num_input_pipelines})")


class ValueContext:
    """What :meth:`Strategy.experimental_distribute_values_from_function` passes to its
    function: the replica it makes a value for (``tf.distribute.experimental.ValueContext``)."""

    def __init__(self, replica_id_in_sync_group: int = 0, num_replicas_in_sync: int = 1) -> None:
        self.replica_id_in_sync_group = replica_id_in_sync_group
        self.num_replicas_in_sync = num_replicas_in_sync


class InputReplicationMode(enum.Enum):
    """How a dataset is read for the replicas (``tf.distribute.InputReplicationMode``)."""

    PER_WORKER = "PER_WORKER"
    PER_REPLICA = "PER_REPLICA"


class InputOptions(NamedTuple):
    """Options of a distributed dataset (``tf.distribute.InputOptions``): accepted; the
    replicas' batches are made in this process and sent with each step."""

    experimental_fetch_to_device: bool | None = None
    experimental_replication_mode: InputReplicationMode = InputReplicationMode.PER_WORKER
    experimental_place_dataset_on_device: bool = False
    experimental_per_replica_buffer_size: int = 1


class RunOptions(NamedTuple):
    """Options of :meth:`Strategy.run` (``tf.distribute.RunOptions``): accepted and unused."""

    experimental_enable_dynamic_batch_size: bool = True
    experimental_bucketizing_dynamic_shape: bool = False
    experimental_xla_options: Any = None


class CrossDeviceOps:
    """How a mirrored strategy all-reduces (``cross_device_ops=``, TF's
    ``tf.distribute.CrossDeviceOps``): accepted and unused, as every one of TensorFlow's gives
    the same sums; tapegrad's replicas add each other's gradients in replica order
    (docs/distribute.md)."""


class HierarchicalCopyAllReduce(CrossDeviceOps):
    """TensorFlow's hierarchical all-reduce between GPUs (see :class:`CrossDeviceOps`)."""

    def __init__(self, num_packs: int = 1) -> None:
        self.num_packs = num_packs


class NcclAllReduce(CrossDeviceOps):
    """TensorFlow's NCCL all-reduce between GPUs (see :class:`CrossDeviceOps`)."""

    def __init__(self, num_packs: int = 1) -> None:
        self.num_packs = num_packs


class ReductionToOneDevice(CrossDeviceOps):
    """TensorFlow's reduce-on-one-device-then-broadcast (see :class:`CrossDeviceOps`)."""

    def __init__(self, reduce_to_device: str | None = None, accumulation_fn: Callable | None = None) -> None:
        self.reduce_to_device, self.accumulation_fn = reduce_to_device, accumulation_fn


class ReplicaContext:
    """The context of one replica while :meth:`Strategy.run` runs the step function there
    (``tf.distribute.get_replica_context()`` returns it)."""

    def __init__(self, strategy: Any, replica_id: int, num_replicas: int,
                 all_reduce_sum: Callable[[list], list] | None = None) -> None:
        self.strategy = strategy
        self.replica_id_in_sync_group = convert_to_tensor(np.int32(replica_id))
        self.num_replicas_in_sync = num_replicas
        self._index, self._all_reduce_sum = replica_id, all_reduce_sum

    def all_reduce(self, reduce_op: Any, value: Any, options: Any = None) -> Any:
        """Combine ``value`` (a tensor or a nest of them) across replicas; every replica gets
        the result. Every replica must call it, in the same order, with the same shapes."""
        op = _reduce_op(reduce_op)
        arrays = [x if type(x) is np.ndarray and x.dtype.kind in "biufc" else
                  np.asarray(convert_to_tensor(x).numpy()) for x in nest.flatten(value)]
        summed = arrays if self._all_reduce_sum is None else self._all_reduce_sum(arrays)
        arrays = [np.array(a) if a is x else a for a, x in zip(summed, arrays)]  # (ours to change)
        if op is ReduceOp.MEAN:
            n = self.num_replicas_in_sync
            arrays = [np.divide(a, a.dtype.type(n), out=a) if a.dtype.kind in "fc" else
                      (a / a.dtype.type(n)).astype(a.dtype) for a in arrays]
        out = []
        for a in arrays:
            a = np.asarray(a)  # (a 0-d integer mean is a NumPy scalar)
            a.flags.writeable = False
            out.append(wrap(a))
        return nest.pack_sequence_as(value, out)

    def all_gather(self, value: Any, axis: int, options: Any = None) -> Any:
        """Every replica's ``value`` (a tensor or a nest of them) concatenated along ``axis`` in
        replica order; every replica gets the result. Every replica must call it, in the same
        order; the shapes may differ along ``axis`` only."""
        flat = [np.asarray(convert_to_tensor(x).numpy()) for x in nest.flatten(value)]
        for a in flat:
            if a.dtype.kind not in "iuf":
                raise TypeError(f"all_gather takes float and integer tensors; got one of dtype {a.dtype}.")
        n, r = self.num_replicas_in_sync, self._index
        if self._all_reduce_sum is not None and n > 1:  # (each replica's rows in zeros, summed)
            sizes = np.zeros((len(flat), n), np.int64)
            sizes[:, r] = [a.shape[axis] for a in flat]
            sizes = self._all_reduce_sum([sizes])[0]
            parts = []
            for a, row in zip(flat, sizes):
                ax = axis % a.ndim
                buf = np.zeros(a.shape[:ax] + (int(row.sum()),) + a.shape[ax + 1:], a.dtype)
                at = int(row[:r].sum())
                buf[(slice(None),) * ax + (slice(at, at + a.shape[ax]),)] = a
                parts.append(buf)
            flat = self._all_reduce_sum(parts)
        return nest.pack_sequence_as(value, [wrap(np.asarray(a)) for a in flat])


def _scopes() -> list:
    s = getattr(_local, "scopes", None)
    if s is None:
        s = _local.scopes = []
    return s


def get_strategy() -> "Strategy":
    """The strategy whose :meth:`Strategy.scope` is entered, else the default strategy.

    >>> import tapegrad as tf
    >>> tf.distribute.get_strategy().num_replicas_in_sync
    1
    """
    replica = getattr(_local, "replica", None)
    if replica is not None:
        return replica.strategy
    s = _scopes()
    return s[-1] if s else _DEFAULT


def has_strategy() -> bool:
    """Whether a strategy other than the default one is in effect (in its scope or its replicas)."""
    return get_strategy() is not _DEFAULT


def in_cross_replica_context() -> bool:
    """True inside a strategy's :meth:`Strategy.scope`, outside :meth:`Strategy.run`."""
    return getattr(_local, "replica", None) is None and bool(_scopes())


def get_replica_context() -> ReplicaContext | None:
    """The replica context inside :meth:`Strategy.run`; ``None`` in cross-replica context
    (inside a scope); the default strategy's replica context everywhere else."""
    replica = getattr(_local, "replica", None)
    if replica is not None:
        return replica
    return None if _scopes() else ReplicaContext(_DEFAULT, 0, 1)


def _strategy_and_replica() -> tuple:
    replica = getattr(_local, "replica", None)
    return has_strategy(), None if replica is None else int(replica.replica_id_in_sync_group)


_random_ops.strategy_and_replica = _strategy_and_replica


@contextlib.contextmanager
def replica_context(ctx: ReplicaContext) -> Iterator[None]:
    """Run the body as replica ``ctx`` (used by the strategies' ``run``)."""
    old = getattr(_local, "replica", None)
    _local.replica = ctx
    try:
        yield
    finally:
        _local.replica = old


def _regroup(*values: Any) -> Any:
    """The replicas' outputs of one leaf as TF regroups them: one value when every replica gave
    the same Python value (``None``, a number, a string), else a :class:`PerReplica`."""
    first = values[0]
    if type(first) in _PLAIN and all(type(v) is type(first) and v == first for v in values[1:]):
        return first
    return PerReplica(values)


_PLAIN = (type(None), bool, int, float, str, bytes)


def per_replica_args(structure: Any, r: int, n: int) -> Any:
    """Replica ``r``'s component of every PerReplica leaf of ``structure``."""
    def one(x: Any) -> Any:
        if isinstance(x, PerReplica):
            if len(x.values) != n:
                raise ValueError(f"A PerReplica value has {len(x.values)} components; the strategy "
                                 f"has {n} replicas.")
            return x.values[r]
        return x
    return nest.map_structure(one, structure)


def _split_batch(x: Any, n: int) -> list:
    """TF's split of one global batch: chunks of ceil(b/n) rows in replica order, then empties."""
    a = np.asarray(convert_to_tensor(x).numpy())
    if a.ndim == 0:
        raise ValueError("experimental_distribute_dataset needs a batched dataset (elements with "
                         "a leading batch dimension); got a scalar element. Call .batch(global_batch_size).")
    c = -(-a.shape[0] // n)
    return [convert_to_tensor(a[min(r * c, a.shape[0]):min((r + 1) * c, a.shape[0])]) for r in range(n)]


class PerReplicaSpec:
    """The type of a :class:`PerReplica` value, one spec per replica (TF's ``PerReplicaSpec``):
    what a distributed dataset's ``element_spec`` holds, and what a ``tf.function``'s
    ``input_signature`` may name for an argument that is a distributed dataset's element."""

    def __init__(self, *value_specs: Any) -> None:
        self._value_specs = tuple(value_specs)

    def is_compatible_with(self, other: Any) -> bool:
        """Whether ``other`` (a PerReplica value or spec) has a compatible component per replica."""
        parts = other.values if isinstance(other, PerReplica) else \
            other._value_specs if isinstance(other, PerReplicaSpec) else None
        return parts is not None and len(parts) == len(self._value_specs) and all(
            s.is_compatible_with(p) for s, p in zip(self._value_specs, parts))

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, PerReplicaSpec) and self._value_specs == other._value_specs

    def __hash__(self) -> int:
        return hash(self._value_specs)

    def __repr__(self) -> str:
        return f"PerReplicaSpec({', '.join(map(repr, self._value_specs))})"


def _replica_spec(spec: Any, n: int, split: bool) -> Any:
    """The spec of replica's part of an element of spec ``spec``: the batch dimension divided by
    ``n`` when ``split`` and it divides evenly, else unknown (TensorFlow's rule)."""
    if not split or spec.shape.rank is None or spec.shape.rank == 0:
        return spec
    b = spec.shape[0]
    return TensorSpec([b // n if b is not None and b % n == 0 else None, *spec.shape[1:]], spec.dtype)


class DistributedIterator:
    """An iterator over a distributed dataset (what ``iter(dist_dataset)`` returns)."""

    def __init__(self, dataset: "DistributedDataset") -> None:
        self._dataset = dataset
        self._it = dataset._elements()

    def __iter__(self) -> "DistributedIterator":
        return self

    def __next__(self) -> Any:
        if self._dataset._n > 1:  # (in a tf.function, its batches go to the replicas: it runs
            _trace.run_eagerly("a distributed dataset is iterated inside it")  # eagerly, quietly)
        return next(self._it)

    def get_next(self) -> Any:
        """The next element (``next(iterator)``)."""
        return self.__next__()

    def get_next_as_optional(self) -> Optional:
        """The next element as a ``tf.experimental.Optional``, empty at the end: a loop that
        checks ``has_value()`` stops without catching ``StopIteration``."""
        return next_as_optional(self)

    @property
    def element_spec(self) -> Any:
        return self._dataset.element_spec


class DistributedDataset:
    """A dataset whose elements are split across the replicas (see
    :meth:`Strategy.experimental_distribute_dataset`); with one replica, the dataset's own
    elements. Each ``iter`` gives a :class:`DistributedIterator` that starts over."""

    _split = True  # whether each element is a global batch to split (else one replica's batch)

    def __init__(self, dataset: Any, num_replicas: int) -> None:
        self._dataset, self._n = dataset, num_replicas

    def __iter__(self) -> DistributedIterator:
        return DistributedIterator(self)

    def _elements(self) -> Iterator[Any]:
        if self._n == 1:
            for element in self._dataset:
                yield nest.map_structure(convert_to_tensor, element)
            return
        for element in self._dataset:
            flat = nest.flatten(element)
            parts = [_split_batch(x, self._n) for x in flat]
            yield nest.pack_sequence_as(element, [PerReplica(p) for p in parts])

    @property
    def cardinality(self) -> np.int64:
        """The number of elements of the dataset it distributes (-1: infinite, -2: unknown)."""
        count = getattr(self._dataset, "cardinality", None)
        return np.int64(count() if count is not None else -2)

    @property
    def element_spec(self) -> Any:
        """The dataset's element spec with one :class:`PerReplicaSpec` a tensor (its specs with
        the batch dimension a replica gets); the dataset's own with one replica."""
        spec = self._dataset.element_spec
        if self._n == 1:
            return spec
        return nest.map_structure(
            lambda s: PerReplicaSpec(*[_replica_spec(s, self._n, self._split)] * self._n), spec)


class DistributedDatasetsFromFunction(DistributedDataset):
    """Consecutive elements of one dataset go to consecutive replicas (see
    :meth:`Strategy.distribute_datasets_from_function`)."""

    _split = False

    def _elements(self) -> Iterator[Any]:
        if self._n == 1:
            yield from super()._elements()
            return
        group: list = []
        for element in self._dataset:
            group.append(element)
            if len(group) == self._n:
                yield self._pack(group)
                group = []
        if group:
            yield self._pack(group)

    def _pack(self, group: list) -> Any:
        flats = [nest.flatten(e) for e in group]
        if len(flats) < self._n:  # (the last replicas get empty batches: unknown dimensions 0)
            specs = nest.flatten(self._dataset.element_spec)
            empty = [convert_to_tensor(np.zeros([0 if d is None else d for d in s.shape] if s.shape.rank
                                                else [0], s.dtype.as_numpy_dtype)) for s in specs]
            flats += [empty] * (self._n - len(flats))
        return nest.pack_sequence_as(group[0], [PerReplica(list(col)) for col in zip(*flats)])


class Strategy:
    """The interface of every distribution strategy (TF's ``tf.distribute.Strategy``).

    The default strategy (``tf.distribute.get_strategy()`` outside any scope) and
    :class:`OneDeviceStrategy` run one replica in this process; :class:`MirroredStrategy` and
    :class:`MultiWorkerMirroredStrategy` run one replica per Dask worker.

    >>> import tapegrad as tf
    >>> s = tf.distribute.OneDeviceStrategy("/cpu:0")
    >>> with s.scope():
    ...     v = tf.Variable(2.0)
    >>> out = s.run(lambda x: v * x, args=(tf.constant(3.0),))
    >>> float(s.reduce(tf.distribute.ReduceOp.SUM, out, axis=None))
    6.0
    """

    _num_replicas = 1
    _devices: Sequence[str] | None = None  # the devices given, one per replica

    @property
    def num_replicas_in_sync(self) -> int:
        """The number of replicas that run each step."""
        return self._num_replicas

    @property
    def extended(self) -> "StrategyExtended":
        """The strategy's devices and roles (``tf.distribute.StrategyExtended``)."""
        return StrategyExtended(self)

    def _device_names(self) -> tuple:
        return tuple(map(_device_name, self._devices or [f"CPU:{r}" for r in range(self._num_replicas)]))

    @contextlib.contextmanager
    def scope(self) -> Iterator["Strategy"]:
        """Make this the current strategy: ``tf.distribute.get_strategy()`` returns it, and the
        variables and optimizers created here are the model's mirrored state."""
        s = _scopes()
        s.append(self)
        try:
            yield self
        finally:
            s.remove(self)

    def run(self, fn: Callable, args: Sequence = (), kwargs: dict | None = None, options: Any = None) -> Any:
        """Run ``fn(*args, **kwargs)`` on every replica; PerReplica leaves of ``args`` and
        ``kwargs`` give each replica its component. Returns the outputs as PerReplica values
        (the plain output with one replica)."""
        outs = self._run_replicas(fn, tuple(args), dict(kwargs or {}))
        if len(outs) == 1:
            return outs[0]
        return nest.map_structure(_regroup, *outs)

    def _run_replicas(self, fn: Callable, args: tuple, kwargs: dict) -> list:
        with replica_context(ReplicaContext(self, 0, 1)):
            return [fn(*per_replica_args(args, 0, 1), **per_replica_args(kwargs, 0, 1))]

    def experimental_local_results(self, value: Any) -> tuple:
        """The components of ``value`` in replica order (``(value,)`` for a plain value)."""
        if isinstance(value, PerReplica):
            return value.values
        if nest.is_nested(value):  # (a plain leaf is every replica's)
            flat = nest.flatten(value)
            n = next((len(x.values) for x in flat if isinstance(x, PerReplica)), 0)
            if n:
                return tuple(nest.pack_sequence_as(value, [x.values[r] if isinstance(x, PerReplica) else x
                                                           for x in flat]) for r in range(n))
        return (value,)

    def reduce(self, reduce_op: Any, value: Any, axis: int | None) -> Any:
        """Combine a per-replica value into one tensor in cross-replica context: the sum or mean
        over replicas (``axis=None``), or over replicas and ``axis`` together (MEAN divides by
        the total number of elements along ``axis``). A nest of values is reduced leaf by leaf."""
        op = _reduce_op(reduce_op)
        if nest.is_nested(value):
            return nest.map_structure(lambda v: self.reduce(op, v, axis), value)
        if isinstance(value, PerReplica):
            parts = [np.asarray(convert_to_tensor(x).numpy()) for x in value.values]
        else:
            if op is ReduceOp.SUM and self._num_replicas > 1:
                raise ValueError("A non-DistributedValues value cannot be reduced with "
                                 f"ReduceOp.SUM across {self._num_replicas} replicas (it would count "
                                 "it once per replica); use ReduceOp.MEAN, or reduce the PerReplica "
                                 "value that Strategy.run returned.")
            parts = [np.asarray(convert_to_tensor(value).numpy())]
        dtype = parts[0].dtype
        if axis is None:
            total = parts[0].copy()
            for p in parts[1:]:
                total += p
            count = len(parts)
        else:
            total = sum(np.sum(p, axis=axis, dtype=dtype) for p in parts)
            count = sum(p.shape[axis] for p in parts)
        if op is ReduceOp.MEAN:
            total = total / dtype.type(count) if dtype.kind in "fc" else total // count
        return convert_to_tensor(np.asarray(total, dtype))

    def gather(self, value: Any, axis: int) -> Any:
        """The per-replica components concatenated along ``axis`` (a plain value counts once
        per replica)."""
        parts = value.values if isinstance(value, PerReplica) else (value,) * self._num_replicas
        return convert_to_tensor(np.concatenate([np.asarray(convert_to_tensor(p).numpy()) for p in parts],
                                                axis=axis))

    def experimental_distribute_dataset(self, dataset: Any, options: Any = None) -> DistributedDataset:
        """Split each global batch of ``dataset`` across the replicas as TF does: replica ``r``
        gets rows ``[r*c, (r+1)*c)`` with ``c = ceil(batch/num_replicas)``, so a short last
        batch leaves the last replicas empty batches."""
        return DistributedDataset(dataset, self._num_replicas)

    def distribute_datasets_from_function(self, dataset_fn: Callable, options: Any = None) -> DistributedDataset:
        """Call ``dataset_fn(InputContext)`` once; its consecutive elements (per-replica
        batches) go to consecutive replicas."""
        dataset = dataset_fn(InputContext(1, 0, self._num_replicas))
        return DistributedDatasetsFromFunction(dataset, self._num_replicas)

    def experimental_distribute_values_from_function(self, value_fn: Callable) -> Any:
        """A PerReplica value whose component ``r`` is ``value_fn(ctx)`` with
        ``ctx.replica_id_in_sync_group == r``."""
        vals = [value_fn(ValueContext(r, self._num_replicas)) for r in range(self._num_replicas)]
        return vals[0] if len(vals) == 1 else PerReplica(vals)

    def __repr__(self) -> str:
        return f"<tapegrad.distribute.{type(self).__name__} num_replicas_in_sync={self._num_replicas}>"


def _device_name(device: str) -> str:
    """A device as TensorFlow spells it in full: ``/cpu:1`` -> ``/job:localhost/replica:0/task:0/device:CPU:1``."""
    kind, _, index = device.rsplit("/", 1)[-1].replace("device:", "").partition(":")
    return f"/job:localhost/replica:0/task:0/device:{kind.upper()}:{index or 0}"


class StrategyExtended:
    """What TensorFlow's ``strategy.extended`` tells of a strategy: its devices (one per
    replica; tapegrad's replicas are processes, named as the devices TensorFlow would use) and
    this process's roles in a cluster (it checkpoints and writes summaries)."""

    def __init__(self, strategy: Strategy) -> None:
        self._strategy = strategy

    @property
    def worker_devices(self) -> tuple:
        """One device name per replica."""
        return self._strategy._device_names()

    @property
    def parameter_devices(self) -> tuple:
        """Where the variables live: every replica's device (mirrored)."""
        return self._strategy._device_names()

    should_checkpoint = should_save_summary = True


class OneDeviceStrategy(Strategy):
    """One replica in this process, on ``device`` (tapegrad has only the CPU; the name is kept).

    >>> import tapegrad as tf
    >>> tf.distribute.OneDeviceStrategy("/cpu:0").num_replicas_in_sync
    1
    """

    def __init__(self, device: str = "/cpu:0") -> None:
        self.device = device
        self._devices = (device,)


class CentralStorageStrategy(Strategy):
    """TensorFlow's ``tf.distribute.experimental.CentralStorageStrategy`` with its default
    devices on a machine without GPUs: one replica, in this process. For several replicas, use
    :class:`MirroredStrategy` (it gives the same updates: the gradients summed across replicas)."""

    def __init__(self, compute_devices: Sequence[str] | None = None, parameter_device: str | None = None) -> None:
        if compute_devices is not None and len(compute_devices) > 1:
            raise ValueError(f"tapegrad's CentralStorageStrategy runs one replica in this process; "
                             f"got {len(compute_devices)} compute_devices. For one replica per "
                             f"device, use tf.distribute.MirroredStrategy({list(compute_devices)!r}).")
        self.compute_devices, self.parameter_device = compute_devices, parameter_device


_OTHER_HARDWARE = {  # TensorFlow's strategies for hardware or clusters tapegrad does not run on
    "TPUStrategy": "tapegrad runs on CPUs (and on GPUs through CuPy), not TPUs; use "
                   "tf.distribute.MirroredStrategy for data parallelism (docs/distribute.md).",
    "ParameterServerStrategy": "tapegrad's replicas train synchronously; use "
                               "tf.distribute.MirroredStrategy, or MultiWorkerMirroredStrategy "
                               "on a Dask cluster (docs/distribute.md).",
}

class _DefaultDistributionStrategy(Strategy):
    """The strategy in effect outside any other strategy's scope (TF's
    ``_DefaultDistributionStrategy``): one replica in this process. Its scope changes nothing: the
    code in it stays in the default replica context, as outside."""

    @contextlib.contextmanager
    def scope(self) -> Iterator["Strategy"]:
        current = get_strategy()
        if current is not self:
            raise ValueError(f"Mixing different tf.distribute.Strategy objects: the default strategy's "
                             f"scope was entered inside {current!r}'s. Leave that scope first.")
        yield self

    def __repr__(self) -> str:
        return f"<tapegrad.distribute._DefaultDistributionStrategy object at {id(self):#x}>"


_DEFAULT = _DefaultDistributionStrategy()
_SET: list = []  # the strategy experimental_set_strategy entered (at most one)


def experimental_set_strategy(strategy: Strategy | None) -> None:
    """Make ``strategy`` the current one, as if its :meth:`Strategy.scope` were entered until
    the next call (``None``: back to the default strategy)."""
    s = _scopes()
    for old in _SET:
        if old in s:
            s.remove(old)
    _SET[:] = [] if strategy is None else [strategy]
    if strategy is not None:
        s.append(strategy)


__all__ = ["CentralStorageStrategy", "CrossDeviceOps", "DistributedDataset", "DistributedIterator",
           "DistributedValues", "HierarchicalCopyAllReduce", "InputContext", "InputOptions",
           "InputReplicationMode", "NcclAllReduce", "OneDeviceStrategy", "PerReplica", "PerReplicaSpec",
           "ReduceOp", "ReductionToOneDevice", "ReplicaContext", "RunOptions", "Strategy",
           "StrategyExtended", "ValueContext",
           "experimental_set_strategy", "get_replica_context", "get_strategy", "has_strategy",
           "in_cross_replica_context"]
