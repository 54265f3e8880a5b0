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

import json
import os
from typing import Any

__all__ = ["ClusterResolver", "SimpleClusterResolver", "TFConfigClusterResolver", "TPUClusterResolver"]


class ClusterResolver:
    """A program's place in a cluster: ``task_type`` and ``task_id`` (``None`` outside one)."""

    task_type: str | None = None
    task_id: int | None = None

    def master(self, task_type: str | None = None, task_id: int | None = None,
               rpc_layer: str | None = None) -> str:
        """The address of the cluster's coordinator (a Dask scheduler here; ``""`` if none)."""
        return ""

    def num_accelerators(self, task_type: str | None = None, task_id: int | None = None,
                         config_proto: Any = None) -> dict:
        """The accelerators of a task by kind: none (tapegrad's replicas are CPU processes)."""
        return {}


class SimpleClusterResolver(ClusterResolver):
    """A resolver with the given answers (``master`` may be a Dask scheduler's address)."""

    def __init__(self, cluster_spec: Any = None, master: str = "", task_type: str | None = None,
                 task_id: int | None = None, environment: str = "", num_accelerators: Any = None,
                 rpc_layer: str | None = None) -> None:
        self.cluster_spec, self._master = cluster_spec, master
        self.task_type, self.task_id, self.environment = task_type, task_id, environment

    def master(self, task_type: str | None = None, task_id: int | None = None,
               rpc_layer: str | None = None) -> str:
        return self._master


class TFConfigClusterResolver(ClusterResolver):
    """``task_type`` and ``task_id`` from the ``TF_CONFIG`` environment variable (``None`` and
    ``None`` without it), as TensorFlow reads them. tapegrad's strategies do not use the cluster
    it describes: a MultiWorkerMirroredStrategy takes a Dask scheduler's address."""

    def __init__(self, task_type: str | None = None, task_id: int | None = None) -> None:
        task = json.loads(os.environ.get("TF_CONFIG") or "{}").get("task", {})
        self.task_type = task_type if task_type is not None else task.get("type")
        self.task_id = task_id if task_id is not None else task.get("index")


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
