"""``tapegrad.keras.distribution``: Keras 3's distribution API (``keras.distribution``) on the
devices tapegrad sees: device meshes, tensor layouts, layout maps, ``DataParallel`` and
``ModelParallel``, and the global distribution that ``set_distribution`` and
``Distribution.scope()`` set. tapegrad runs one process, so data and variables are never split:
a layout describes where a tensor would go, and ``distribute_tensor`` returns the tensor as it is.

>>> from tapegrad import keras
>>> keras.distribution.list_devices()
['cpu:0']
>>> dp = keras.distribution.DataParallel()
>>> dp.get_data_layout((8, 3))
<TensorLayout axes=('batch', None), device_mesh=<DeviceMesh shape=(1,), axis_names=['batch']>>
"""
from __future__ import annotations

import collections.abc
import contextlib
import math
import os
import warnings
from typing import Any, Iterator

import numpy as np

from .. import config as _config
from . import backend
from ._engine import convert_to_tensor
from ._keras_tensor import KerasTensor

__all__ = ["DataParallel", "DeviceMesh", "LayoutMap", "ModelParallel", "TensorLayout", "distribute_tensor",
           "distribution", "get_device_count", "initialize", "list_devices", "set_distribution"]

DEFAULT_BATCH_DIM_NAME = "batch"


def list_devices(device_type: str | None = None) -> list:
    """The devices as Keras names them (``"cpu:0"``, ``"gpu:0"``): those of ``device_type``, or
    the accelerators if any, else the CPUs.

    >>> from tapegrad import keras
    >>> keras.distribution.list_devices("gpu")
    []
    """
    devices = _config.list_logical_devices(device_type.upper() if device_type else None)
    if device_type is None:
        others = [d for d in devices if d.device_type.lower() != "cpu"]
        devices = others or [d for d in devices if d.device_type.lower() == "cpu"]
    return [f"{d.device_type.lower()}:{d.name.split(':')[-1]}" for d in devices]


def get_device_count(device_type: str | None = None) -> int:
    """How many devices :func:`list_devices` gives for ``device_type``.

    >>> from tapegrad import keras
    >>> keras.distribution.get_device_count()
    1
    """
    return len(list_devices(device_type))


def initialize(job_addresses: str | None = None, num_processes: int | None = None,
               process_id: int | None = None) -> None:
    """Start a multi-process run (arguments, or the ``KERAS_DISTRIBUTION_JOB_ADDRESSES``,
    ``..._NUM_PROCESSES`` and ``..._PROCESS_ID`` environment variables). tapegrad runs one
    process: one process (or none named) is accepted and changes nothing; more raise."""
    if job_addresses is None and "KERAS_DISTRIBUTION_JOB_ADDRESSES" in os.environ:
        job_addresses = os.environ["KERAS_DISTRIBUTION_JOB_ADDRESSES"]
    if num_processes is None and "KERAS_DISTRIBUTION_NUM_PROCESSES" in os.environ:
        num_processes = int(os.environ["KERAS_DISTRIBUTION_NUM_PROCESSES"])
    if process_id is None and "KERAS_DISTRIBUTION_PROCESS_ID" in os.environ:
        process_id = int(os.environ["KERAS_DISTRIBUTION_PROCESS_ID"])
    if num_processes not in (None, 1) or process_id not in (None, 0):
        raise NotImplementedError(f"keras.distribution.initialize: tapegrad runs one process; got "
                                  f"num_processes={num_processes}, process_id={process_id} "
                                  "(docs/differences.md).")


class DeviceMesh:
    """Devices arranged in a grid of ``shape`` with one name per axis (``axis_names``).

    >>> from tapegrad import keras
    >>> keras.distribution.DeviceMesh((1,), ["batch"])
    <DeviceMesh shape=(1,), axis_names=['batch']>
    """

    def __init__(self, shape: Any, axis_names: Any, devices: Any = None) -> None:
        if not shape or not axis_names:
            raise ValueError(f"Shape and axis_names cannot be empty. Received: shape={shape}, axis_names={axis_names}")
        if len(shape) != len(axis_names):
            raise ValueError(f"Shape and axis_names should have same size. Received: shape={shape}, "
                             f"axis_names={axis_names}")
        devices = np.array(list_devices() if devices is None else devices)
        if math.prod(shape) != math.prod(devices.shape):
            raise ValueError(f"Shape does not match the number of devices. Received: shape={shape}; "
                             f"devices.shape={devices.shape}")
        self._shape = shape
        self._axis_names = axis_names
        self._devices = np.reshape(devices, shape)

    @property
    def shape(self) -> Any:
        return self._shape

    @property
    def axis_names(self) -> Any:
        return self._axis_names

    @property
    def devices(self) -> np.ndarray:
        return self._devices

    @property
    def backend_mesh(self) -> "DeviceMesh":
        """The mesh itself: tapegrad has no backend mesh object of its own."""
        return self

    def __repr__(self) -> str:
        return f"<{type(self).__name__} shape={self.shape}, axis_names={self.axis_names}>"

    __str__ = __repr__


class TensorLayout:
    """Which mesh axis (a name, or None: not split) each axis of a tensor maps to.

    >>> from tapegrad import keras
    >>> mesh = keras.distribution.DeviceMesh((1,), ["model"])
    >>> keras.distribution.TensorLayout([None, "model"], mesh).axes
    (None, 'model')
    """

    def __init__(self, axes: Any, device_mesh: DeviceMesh | None = None) -> None:
        self._axes = tuple(axes)
        self._device_mesh = device_mesh
        self._validate_axes()

    @property
    def axes(self) -> tuple:
        return self._axes

    @property
    def device_mesh(self) -> DeviceMesh | None:
        return self._device_mesh

    @device_mesh.setter
    def device_mesh(self, device_mesh: DeviceMesh) -> None:
        if self._device_mesh is not None:
            raise ValueError(f"Cannot override device mesh value. Existing value is {self._device_mesh}")
        self._device_mesh = device_mesh
        self._validate_axes()

    @property
    def backend_layout(self) -> "TensorLayout":
        """The layout itself (tapegrad has no backend layout object); ValueError without a mesh."""
        if self._device_mesh is None:
            raise ValueError("Cannot create sharding when device mesh is not set for TensorLayout.")
        return self

    def _validate_axes(self) -> None:
        if self._device_mesh:
            valid = set(self._device_mesh.axis_names)
            names = set(self._axes) - {None}
            if names - valid:
                raise ValueError(f"Invalid axis names for Layout. Valid axis names: {valid}, Got {names}")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} axes={self.axes}, device_mesh={self.device_mesh}>"

    __str__ = __repr__


class Distribution:
    """Base class: how a model's data and variables are laid out on a :class:`DeviceMesh`."""

    def __init__(self, device_mesh: DeviceMesh, batch_dim_name: str | None = None,
                 auto_shard_dataset: bool = True) -> None:
        self._device_mesh = device_mesh
        self._batch_dim_name = batch_dim_name
        self._auto_shard_dataset = auto_shard_dataset
        self._num_processes, self._process_id = 1, 0
        self._is_multi_process = False

    @property
    def num_processes(self) -> int:
        return self._num_processes

    @property
    def num_model_replicas(self) -> int:
        raise NotImplementedError()

    @property
    def data_shard_id(self) -> int:
        replicas = self.num_model_replicas
        if replicas >= self.num_processes:
            return self._process_id
        return self._process_id // (self.num_processes // replicas)

    def get_data_layout(self, data_shape: Any) -> TensorLayout:
        raise NotImplementedError()

    def get_variable_layout(self, variable: Any) -> TensorLayout:
        raise NotImplementedError()

    def get_tensor_layout(self, path: str) -> TensorLayout | None:
        raise NotImplementedError()

    @contextlib.contextmanager
    def scope(self) -> Iterator[None]:
        """Make this the global distribution inside the ``with`` block."""
        original = distribution()
        set_distribution(self)
        try:
            yield
        finally:
            set_distribution(original)

    @property
    def device_mesh(self) -> DeviceMesh:
        return self._device_mesh

    @property
    def batch_dim_name(self) -> str | None:
        return self._batch_dim_name

    @property
    def auto_shard_dataset(self) -> bool:
        return self._auto_shard_dataset

    @auto_shard_dataset.setter
    def auto_shard_dataset(self, auto_shard_dataset: bool) -> None:
        self._auto_shard_dataset = auto_shard_dataset

    def distribute_dataset(self, dataset: Any) -> Any:
        """The dataset each process reads: in one process, ``dataset`` itself."""
        return dataset

    def __repr__(self) -> str:
        return f"<{type(self).__name__} device_mesh={self.device_mesh}>"

    __str__ = __repr__


class DataParallel(Distribution):
    """Data parallelism: the batch axis split over a 1-D mesh (``device_mesh``, ``devices``, or
    every device), variables replicated.

    >>> from tapegrad import keras
    >>> keras.distribution.DataParallel().num_model_replicas
    1
    """

    def __init__(self, device_mesh: DeviceMesh | None = None, devices: Any = None,
                 auto_shard_dataset: bool = True) -> None:
        if device_mesh:
            if not isinstance(device_mesh, DeviceMesh):
                raise ValueError("Expect `mesh` to be an instance of `DeviceMesh`. "
                                 f"Received: mesh={device_mesh} (of type {type(device_mesh)})")
            super().__init__(device_mesh, device_mesh.axis_names[0], auto_shard_dataset)
            if self.device_mesh.devices.ndim != 1:
                warnings.warn("Expect the input mesh to be 1D, but received mesh.devices.ndim="
                              f"{device_mesh.devices.ndim}. The first axis will be used for data-parallel "
                              "sharding.", stacklevel=2)
            return
        devices = np.array(devices if devices else list_devices())
        mesh = DeviceMesh(shape=devices.shape, axis_names=[DEFAULT_BATCH_DIM_NAME], devices=devices)
        super().__init__(mesh, DEFAULT_BATCH_DIM_NAME, auto_shard_dataset)

    @property
    def num_model_replicas(self) -> int:
        return self.device_mesh.devices.size

    def get_data_layout(self, data_shape: Any) -> TensorLayout:
        """Batches split over the batch axis of the mesh, their other axes not."""
        spec: list = [None] * len(data_shape)
        spec[0] = self.batch_dim_name
        return TensorLayout(spec, self.device_mesh)

    def get_variable_layout(self, variable: Any) -> TensorLayout:
        """A variable's own ``_layout``, else replicated (no axis split)."""
        if getattr(variable, "_layout", None) is not None:
            return variable._layout
        return TensorLayout([None] * len(variable.shape), self.device_mesh)

    def get_tensor_layout(self, path: str) -> None:
        return None


class ModelParallel(Distribution):
    """Model parallelism: variables laid out by a :class:`LayoutMap` (by their ``path``), the
    batch split over ``batch_dim_name`` (the mesh's first axis by default).

    >>> from tapegrad import keras
    >>> mesh = keras.distribution.DeviceMesh((1, 1), ["batch", "model"])
    >>> layout_map = keras.distribution.LayoutMap(mesh)
    >>> layout_map["dense.*kernel"] = (None, "model")
    >>> mp = keras.distribution.ModelParallel(layout_map=layout_map)
    >>> mp.get_tensor_layout("dense/kernel").axes
    (None, 'model')
    """

    def __init__(self, *, layout_map: "LayoutMap | None" = None, batch_dim_name: str | None = None,
                 auto_shard_dataset: bool = True, **kwargs: Any) -> None:
        kwargs.pop("device_mesh", None)
        if layout_map is None:
            raise ValueError("You must specify a layout_map argument.")
        if not isinstance(layout_map, LayoutMap):
            raise ValueError(f"Argument `layout_map` must be a `LayoutMap` instance. Received: layout_map={layout_map}")
        mesh = layout_map.device_mesh
        super().__init__(mesh, batch_dim_name or mesh.axis_names[0], auto_shard_dataset)
        self._layout_map = layout_map

    @property
    def num_model_replicas(self) -> int:
        return self.device_mesh.shape[self.device_mesh.axis_names.index(self.batch_dim_name)]

    get_data_layout = DataParallel.get_data_layout

    def get_variable_layout(self, variable: Any) -> TensorLayout:
        if getattr(variable, "_layout", None) is None:
            layout = self._layout_map[variable.path]
            if layout is not None:
                return layout
        return DataParallel.get_variable_layout(self, variable)  # type: ignore[arg-type]

    def get_tensor_layout(self, path: str) -> TensorLayout | None:
        return self._layout_map[path]


class LayoutMap(collections.abc.MutableMapping):
    """Layouts by path pattern: a key is a regular expression matched (whole) against a variable's
    or tensor's path; a tuple value becomes a :class:`TensorLayout` on this map's mesh.

    >>> from tapegrad import keras
    >>> layout_map = keras.distribution.LayoutMap(keras.distribution.DeviceMesh((1,), ["model"]))
    >>> layout_map["dense.*bias"] = ("model",)
    >>> layout_map["dense_1/bias"].axes, layout_map["conv/bias"]
    (('model',), None)
    """

    def __init__(self, device_mesh: DeviceMesh) -> None:
        self._layout_map: collections.OrderedDict = collections.OrderedDict()
        self._device_mesh = device_mesh

    def __getitem__(self, key: str) -> TensorLayout | None:
        return backend.by_path(self._layout_map, key, None, "layout")

    def __setitem__(self, key: str, layout: Any) -> None:
        if key in self._layout_map:
            raise ValueError(f"{key} already exist in the LayoutMap with value {self._layout_map[key]}. Please "
                             "make sure to not use duplicated keys.")
        if isinstance(layout, tuple):
            layout = TensorLayout(axes=layout, device_mesh=None)
        if not isinstance(layout, TensorLayout):
            raise ValueError(f"{layout} should be a TensorLayout type, got {type(layout)}")
        if layout.device_mesh is None and self.device_mesh is not None:
            layout.device_mesh = self.device_mesh
        self._layout_map[key] = layout

    def __delitem__(self, key: str) -> Any:
        return self._layout_map.pop(key)

    def __len__(self) -> int:
        return len(self._layout_map)

    def __iter__(self) -> Iterator:
        return iter(self._layout_map)

    @property
    def device_mesh(self) -> DeviceMesh:
        return self._device_mesh


def distribute_tensor(tensor: Any, layout: Any) -> Any:
    """``tensor`` placed by ``layout``: in tapegrad's one process, the tensor as it is (a
    ``KerasTensor`` too, as Keras returns it).

    >>> from tapegrad import keras
    >>> keras.distribution.distribute_tensor([1.0, 2.0], keras.distribution.TensorLayout([None])).numpy()
    array([1., 2.], dtype=float32)
    """
    if isinstance(tensor, KerasTensor):
        return tensor
    return convert_to_tensor(tensor)


def distribution() -> Distribution | None:
    """The global distribution (None until :func:`set_distribution`; ``clear_session`` resets it)."""
    return backend._global_state.get("distribution")


def set_distribution(value: Distribution | None) -> None:
    """Make ``value`` the global distribution (None: none)."""
    backend._global_state["distribution"] = value
