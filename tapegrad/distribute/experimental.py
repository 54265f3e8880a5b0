"""``tf.distribute.experimental``: the strategy options and strategies TensorFlow programs still
take from here.

>>> import tapegrad as tf
>>> opts = tf.distribute.experimental.CommunicationOptions(
...     implementation=tf.distribute.experimental.CommunicationImplementation.NCCL)
>>> opts.implementation
<CommunicationImplementation.NCCL: 'NCCL'>
"""
from __future__ import annotations

import enum
from typing import TYPE_CHECKING

from ._strategy import _OTHER_HARDWARE, CentralStorageStrategy, ValueContext

__all__ = ["CentralStorageStrategy", "CollectiveCommunication", "CommunicationImplementation",
           "CommunicationOptions", "MultiWorkerMirroredStrategy", "ValueContext"]


class CommunicationImplementation(enum.Enum):
    """Which collective implementation a multi-worker strategy uses: accepted and unused
    (tapegrad's replicas all-reduce over shared memory or Dask, docs/distribute.md)."""

    AUTO = "AUTO"
    RING = "RING"
    NCCL = "NCCL"


CollectiveCommunication = CommunicationImplementation


class CommunicationOptions:
    """Options of a strategy's collectives (``communication_options=``): accepted and unused."""

    def __init__(self, bytes_per_pack: int = 0, timeout_seconds: float | None = None,
                 implementation: CommunicationImplementation = CommunicationImplementation.AUTO) -> None:
        self.bytes_per_pack, self.timeout_seconds = bytes_per_pack, timeout_seconds
        self.implementation = implementation


if TYPE_CHECKING:
    from ._dask import MultiWorkerMirroredStrategy  # noqa: F401
else:  # (the Dask strategies load on first use)
    def __getattr__(name: str) -> object:
        if name == "MultiWorkerMirroredStrategy":
            from . import _dask
            return _dask.MultiWorkerMirroredStrategy
        if name in ("TPUStrategy", "ParameterServerStrategy"):
            raise AttributeError(f"tapegrad has no tf.distribute.experimental.{name}: {_OTHER_HARDWARE[name]}")
        raise AttributeError(f"module 'tapegrad.distribute.experimental' has no attribute {name!r}")
