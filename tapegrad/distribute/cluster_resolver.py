"""``tf.distribute.cluster_resolver``: where a program sits in a cluster.

tapegrad's clusters are Dask clusters (docs/distribute.md), so these resolvers only answer the
questions TensorFlow programs ask: ``task_type``, ``task_id`` and ``master()``. A
``TPUClusterResolver`` raises ``ValueError`` as TensorFlow's does on a machine without a TPU, so
the usual fallback runs:

>>> import tapegrad as tf
>>> try:
...     tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
... except ValueError:
...     strategy = tf.distribute.get_strategy()
>>> strategy.num_replicas_in_sync
1
"""
from __future__ import annotations

import collections
import json
import os
from typing import Any

from ..train import ClusterSpec

__all__ = ["ClusterResolver", "SimpleClusterResolver", "TFConfigClusterResolver", "TPUClusterResolver"]


class ClusterResolver:
    """A program's place in a cluster: ``task_type`` and ``task_id`` (``None`` outside one), the
    cluster's :class:`tf.train.ClusterSpec`, and its ``master()`` address."""

    task_type: str | None = None
    task_id: int | None = None
    rpc_layer: str | None = None
    environment: str | None = None

    def cluster_spec(self) -> ClusterSpec:
        """The cluster (empty outside one)."""
        return ClusterSpec({})

    def master(self, task_type: str | None = None, task_id: int | None = None,
               rpc_layer: str | None = None) -> str:
        """The address of a task (this one by default), prefixed by ``rpc_layer://`` when one is
        given; ``""`` outside a cluster."""
        spec = self.cluster_spec()
        if task_type is None or task_id is None:
            task_type, task_id = self.task_type, self.task_id
            rpc_layer = rpc_layer or self.rpc_layer
        if not spec or task_type is None or task_id is None:
            return ""
        address = spec.task_address(task_type, task_id)
        return f"{rpc_layer}://{address}" if rpc_layer else address

    def num_accelerators(self, task_type: str | None = None, task_id: int | None = None,
                         config_proto: Any = None) -> dict:
        """The accelerators of a task by kind: none (tapegrad's replicas are CPU processes)."""
        return collections.defaultdict(int)


class SimpleClusterResolver(ClusterResolver):
    """A resolver with the given answers (``master`` may be a Dask scheduler's address)."""

    def __init__(self, cluster_spec: Any = None, master: str = "", task_type: str | None = None,
                 task_id: int | None = None, environment: str = "", num_accelerators: Any = None,
                 rpc_layer: str | None = None) -> None:
        self._cluster_spec = ClusterSpec({} if cluster_spec is None else cluster_spec)
        self._master = master
        self.task_type, self.task_id, self.environment = task_type, task_id, environment
        self.rpc_layer = rpc_layer

    def cluster_spec(self) -> ClusterSpec:
        return self._cluster_spec

    def master(self, task_type: str | None = None, task_id: int | None = None,
               rpc_layer: str | None = None) -> str:
        if task_type is not None and task_id is not None:
            return super().master(task_type, task_id, rpc_layer)
        return self._master


class TFConfigClusterResolver(ClusterResolver):
    """The cluster, ``task_type`` and ``task_id`` of the ``TF_CONFIG`` environment variable (an
    empty cluster and ``None`` without it), read at each question as TensorFlow reads them.
    :class:`~tapegrad.distribute.MultiWorkerMirroredStrategy` runs a one-task ``TF_CONFIG``
    cluster as its one worker; larger clusters run on Dask (docs/distribute.md)."""

    def __init__(self, task_type: str | None = None, task_id: int | None = None,
                 rpc_layer: str | None = None, environment: str | None = None) -> None:
        self._task_type, self._task_id = task_type, task_id
        self._rpc_layer, self._environment = rpc_layer, environment

    @staticmethod
    def _config() -> dict:
        text = os.environ.get("TF_CONFIG") or "{}"
        try:
            config = json.loads(text)
        except ValueError:
            raise ValueError(f"TF_CONFIG is not JSON: {text[:80]!r}. It should look like "
                             '{"cluster": {"worker": ["host:port", ...]}, "task": {"type": "worker", '
                             '"index": 0}}.') from None
        if not isinstance(config, dict):
            raise ValueError(f"TF_CONFIG must be a JSON object; got {text[:80]!r}.")
        return config

    @property  # type: ignore[override]
    def task_type(self) -> str | None:
        if self._task_type is not None:
            return self._task_type
        return self._config().get("task", {}).get("type")

    @task_type.setter
    def task_type(self, value: str | None) -> None:
        self._task_type = value

    @property  # type: ignore[override]
    def task_id(self) -> int | None:
        if self._task_id is not None:
            return self._task_id
        index = self._config().get("task", {}).get("index")
        return None if index is None else int(index)

    @task_id.setter
    def task_id(self, value: int | None) -> None:
        self._task_id = value

    @property  # type: ignore[override]
    def rpc_layer(self) -> str | None:
        return self._rpc_layer if self._rpc_layer is not None else self._config().get("rpc_layer")

    @rpc_layer.setter
    def rpc_layer(self, value: str | None) -> None:
        self._rpc_layer = value

    @property  # type: ignore[override]
    def environment(self) -> str | None:
        return self._environment if self._environment is not None else self._config().get("environment")

    def cluster_spec(self) -> ClusterSpec:
        return ClusterSpec(self._config().get("cluster", {}))


class TPUClusterResolver(ClusterResolver):
    """TensorFlow's resolver of a Cloud TPU: tapegrad has no TPUs, so making one raises
    ``ValueError``, as TensorFlow's does on a machine without a TPU (programs catch it and use
    another strategy)."""

    def __init__(self, tpu: Any = None, *args: Any, **kwargs: Any) -> None:
        raise ValueError("Please provide a TPU Name to connect to. (tapegrad runs on CPUs and on GPUs "
                         "through CuPy, not on TPUs: use tf.distribute.MirroredStrategy or the "
                         "default strategy.)")

    @staticmethod
    def connect(tpu: Any = None, *args: Any, **kwargs: Any) -> "TPUClusterResolver":
        """Resolve and initialize a TPU: raises ``ValueError`` (no TPUs here)."""
        return TPUClusterResolver(tpu)
