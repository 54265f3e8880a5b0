"""Distribution strategies (``tf.distribute``): data-parallel training on Dask workers.

:class:`MirroredStrategy` runs one replica per worker process of an embedded Dask
``LocalCluster``; :class:`MultiWorkerMirroredStrategy` one per worker of a running Dask cluster;
:class:`OneDeviceStrategy` and the default strategy one in this process. They share TF's API:
``scope()``, ``run``, ``reduce``, ``gather``, ``experimental_distribute_dataset``,
``distribute_datasets_from_function``; optimizers sum gradients across replicas inside ``run``.
The mirrored strategies need the optional extra ``pip install 'tapegrad[dask]'``.

>>> import tapegrad as tf
>>> tf.distribute.has_strategy()
False
>>> s = tf.distribute.get_strategy()
>>> float(s.reduce("MEAN", tf.constant(2.0), axis=None))
2.0
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import cluster_resolver, experimental
from ._strategy import (_OTHER_HARDWARE, CrossDeviceOps, DistributedDataset, DistributedIterator, DistributedValues,
                        HierarchicalCopyAllReduce, InputContext, InputOptions, InputReplicationMode,
                        NcclAllReduce, OneDeviceStrategy, PerReplica, PerReplicaSpec, ReduceOp,
                        ReductionToOneDevice, ReplicaContext, RunOptions, Strategy,
                        StrategyExtended, experimental_set_strategy, get_replica_context, get_strategy, has_strategy,
                        in_cross_replica_context)

__all__ = ["CrossDeviceOps", "DistributedDataset", "DistributedIterator", "DistributedValues",
           "HierarchicalCopyAllReduce", "InputContext", "InputOptions", "InputReplicationMode",
           "MirroredStrategy", "MultiWorkerMirroredStrategy", "NcclAllReduce", "OneDeviceStrategy",
           "PerReplica", "PerReplicaSpec", "ReduceOp", "ReductionToOneDevice", "ReplicaContext",
           "RunOptions", "Strategy", "StrategyExtended", "cluster_resolver", "experimental", "experimental_set_strategy",
           "get_replica_context", "get_strategy", "has_strategy", "in_cross_replica_context"]

if TYPE_CHECKING:
    from ._dask import MirroredStrategy, MultiWorkerMirroredStrategy  # noqa: F401
else:  # hidden from type checkers: they report a missing name
    def __getattr__(name: str) -> object:  # the Dask strategies load on first use
        if name in ("MirroredStrategy", "MultiWorkerMirroredStrategy"):
            from . import _dask
            return getattr(_dask, name)
        if name in _OTHER_HARDWARE:
            raise AttributeError(f"tapegrad has no tf.distribute.{name}: {_OTHER_HARDWARE[name]}")
        raise AttributeError(f"module 'tapegrad.distribute' has no attribute {name!r}")

