"""``tf.experimental.dtensor`` on one process: a mesh of the logical CPUs, layouts, and tensors
that carry a layout (docs/distribute.md, "DTensor").

A DTensor here is a plain tapegrad Tensor holding the global value, with its :class:`Layout`
kept beside it (a table by object, weakly); :func:`unpack` cuts the per-device components from
the global value by the layout's shards. A recorder at the bottom of the recorder stack (pushed
when the first DTensor is made) gives each op's output the layout TensorFlow's SPMD expansion
gives it (the rules per op below), so the numbers are those of the unsharded computation and
``fetch_layout`` reports TF's layouts; gradients and ``tf.function`` replays run their ops
through the same dispatcher, so their results carry layouts too.
"""
from __future__ import annotations

import contextlib
import math
import threading
import weakref
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from .. import _function, _recorders as _rec, _tensor, config as _config
from .._convert import convert_to_tensor
from .._dispatch import apply
from .._print import format_tensor
from .._scope import DeviceSpec
from .._tensor import Tensor, wrap
from .._variable import Variable
from ..errors import InvalidArgumentError, UnimplementedError, UnknownError
from ..ops import array as _array, random as _random

__all__ = ["Mesh", "Layout", "UNSHARDED", "MATCH", "DVariable", "create_mesh", "create_distributed_mesh",
           "call_with_layout", "pack", "unpack", "fetch_layout", "relayout", "relayout_like", "copy_to_mesh",
           "check_layout", "is_dtensor", "default_mesh", "run_on", "get_default_mesh", "num_clients", "client_id",
           "job_name", "jobs", "full_job_name", "heartbeat_enabled", "local_devices", "num_local_devices",
           "num_global_devices", "initialize_accelerator_system", "shutdown_accelerator_system",
           "preferred_device_type", "device_name", "barrier"]

UNSHARDED = "unsharded"
MATCH = "match"
_HOST = "/job:localhost/replica:0/task:0/device:"


def _full_device(d: Any, device_type: str) -> str:
    spec = DeviceSpec.from_string(d.to_string() if isinstance(d, DeviceSpec) else str(d))
    kind = (spec.device_type or device_type).upper()
    return f"{_HOST}{kind}:{spec.device_index or 0}"


class Mesh:
    """A named grid of devices (``tf.experimental.dtensor.Mesh``): dimension names, their sizes,
    and the devices, row-major. On one client every device is local.

    >>> import tapegrad as tf
    >>> from tapegrad.experimental import dtensor
    >>> mesh = dtensor.create_mesh([("x", 1)], devices=["CPU:0"])
    >>> mesh.dim_names, mesh.shape(), mesh.dim_size("x")
    (['x'], [1], 1)
    """

    def __init__(self, dim_names: list[str], global_device_ids: Any, local_device_ids: list[int],
                 local_devices: list[Any], mesh_name: str = "", global_devices: list | None = None,
                 use_xla_spmd: bool = False) -> None:
        ids = np.asarray(global_device_ids, dtype=np.int64)
        names = [str(n) for n in dim_names]
        if len(set(names)) != len(names):
            raise ValueError(f"Mesh dimension names must be unique; got {names}.")
        if ids.ndim != len(names):
            raise ValueError(f"global_device_ids has {ids.ndim} dimensions but {len(names)} names were "
                             f"given ({names}): one name per dimension.")
        if len(local_device_ids) != len(local_devices):
            raise ValueError(f"{len(local_device_ids)} local_device_ids but {len(local_devices)} "
                             "local_devices: give one id per device.")
        if ids.size != len(local_devices) or sorted(local_device_ids) != sorted(ids.ravel().tolist()):
            raise ValueError("tapegrad runs one client: every device of the mesh is local, so "
                             "local_device_ids must be the global_device_ids.")
        kinds = {DeviceSpec.from_string(str(d)).device_type for d in local_devices}
        if len(kinds) != 1:
            raise ValueError(f"A mesh holds devices of one type; got {sorted(map(str, kinds))}.")
        self._names, self._ids = names, ids
        self._local_ids = [int(i) for i in local_device_ids]
        self._type = kinds.pop().upper()
        self._devices = [_full_device(d, self._type) for d in local_devices]
        self._name = mesh_name
        self._text = ""  # (to_string, made once: a mesh does not change)
        self._xla = bool(use_xla_spmd)

    # -- description
    @property
    def dim_names(self) -> list[str]:
        """The dimension names, in order."""
        return list(self._names)

    @property
    def name(self) -> str:
        """The mesh's name (may be empty)."""
        return self._name

    @property
    def size(self) -> int:
        """The number of devices."""
        return int(self._ids.size)

    @property
    def strides(self) -> list[int]:
        """Row-major strides of the device grid."""
        return [int(np.prod(self.shape()[i + 1:])) for i in range(len(self._names))]

    def shape(self) -> list[int]:
        """The size of each dimension."""
        return list(self._ids.shape)

    def dim_size(self, dim_name: str) -> int:
        """The size of dimension ``dim_name`` (ValueError if the mesh has none of that name)."""
        if dim_name not in self._names:
            raise ValueError(f"'{dim_name}' is not a dimension of the mesh (its dimensions: {self._names}).")
        return int(self._ids.shape[self._names.index(dim_name)])

    def contains_dim(self, dim_name: str) -> bool:
        """Whether the mesh has a dimension ``dim_name``."""
        return dim_name in self._names

    def device_type(self) -> str:
        """The devices' type (``"CPU"``)."""
        return self._type

    def use_xla_spmd(self) -> bool:
        """Whether the mesh asked for XLA's SPMD (recorded only)."""
        return self._xla

    def is_single_device(self) -> bool:
        """False: a mesh of devices (TF's single-device meshes are not made here)."""
        return False

    def is_remote(self) -> bool:
        """False: every device is local on one client."""
        return False

    def global_device_ids(self) -> np.ndarray:
        """The device ids laid out in the mesh's shape."""
        return self._ids.copy()

    def local_device_ids(self) -> list[int]:
        """The ids of this client's devices (all of them)."""
        return list(self._local_ids)

    def local_devices(self) -> list[str]:
        """This client's device names, in id order."""
        return list(self._devices)

    def num_local_devices(self) -> int:
        """The number of local devices (all of them)."""
        return len(self._devices)

    def global_devices(self) -> list[str]:
        """Every device's name (all local on one client)."""
        return list(self._devices)

    def min_global_device_id(self) -> int:
        """The smallest device id."""
        return int(self._ids.min())

    def unravel_index(self) -> dict[int, dict[str, int]]:
        """Device id -> its coordinate per dimension name."""
        return {int(self._ids[idx]): dict(zip(self._names, map(int, idx))) for idx in np.ndindex(self._ids.shape)}

    def device_location(self, device_id: int) -> list[int]:
        """The coordinates of device ``device_id``."""
        return [int(i) for i in np.argwhere(self._ids == device_id)[0]]

    def local_device_locations(self) -> list[dict[str, int]]:
        """Per local device (in id order), its coordinate per dimension name."""
        where = self.unravel_index()
        return [where[i] for i in self._local_ids]

    def host_mesh(self) -> "Mesh":
        """The mesh itself (its devices are CPUs)."""
        return self

    # -- text, equality
    def to_string(self) -> str:
        """TensorFlow's text: ``name|x=2,y=4|global ids|local ids|local devices``."""
        if self._text:
            return self._text
        dims = ",".join(f"{n}={s}" for n, s in zip(self._names, self._ids.shape))
        ids = ",".join(str(int(i)) for i in self._ids.ravel())
        local = ",".join(str(i) for i in self._local_ids)
        self._text = f"{self._name}|{dims}|{ids}|{local}|{','.join(self._devices)}"
        return self._text

    @classmethod
    def from_string(cls, mesh_str: str) -> "Mesh":
        """The mesh of :meth:`to_string`'s text."""
        parts = mesh_str.split("|")
        if len(parts) < 5:
            raise ValueError(f"Not a mesh string (name|dims|global ids|local ids|devices): {mesh_str!r}.")
        name, dims, ids, local, devices = parts[:5]
        pairs = [d.split("=") for d in dims.split(",") if d]
        shape = [int(s) for _, s in pairs]
        return cls([n for n, _ in pairs], np.array([int(i) for i in ids.split(",") if i]).reshape(shape),
                   [int(i) for i in local.split(",") if i], [d for d in devices.split(",") if d], name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mesh) and self.to_string() == other.to_string()

    def __hash__(self) -> int:
        return hash(self.to_string())

    def __repr__(self) -> str:
        return f"Mesh.from_string({self.to_string()})"

    __str__ = __repr__


class Layout:
    """How a tensor is split over a :class:`Mesh`: per tensor dimension, the mesh dimension that
    shards it or :data:`UNSHARDED` (``tf.experimental.dtensor.Layout``).

    >>> import tapegrad as tf
    >>> from tapegrad.experimental import dtensor
    >>> mesh = dtensor.create_mesh([("x", 1)], devices=["CPU:0"])
    >>> layout = dtensor.Layout(["x", dtensor.UNSHARDED], mesh)
    >>> layout.sharding_specs, layout.rank
    (['x', 'unsharded'], 2)
    >>> layout == dtensor.Layout.from_string(layout.to_string())
    True
    """

    def __init__(self, sharding_specs: list[str], mesh: Mesh) -> None:
        if not isinstance(mesh, Mesh):
            raise ValueError(f"mesh must be a dtensor.Mesh; got {mesh!r}.")
        specs = [str(s) for s in sharding_specs]
        for s in specs:
            if s not in (UNSHARDED, MATCH) and not mesh.contains_dim(s):
                raise ValueError(f"{s}: A dimension sharding must either be a valid mesh dimension or UNSHARDED.")
        used = [s for s in specs if s not in (UNSHARDED, MATCH)]
        if len(set(used)) != len(used):
            raise ValueError(f"Mesh dimension {next(s for s in used if used.count(s) > 1)} was repeated in "
                             f"sharding specification {specs}. Mesh dimensions must be unique in a layout.")
        self._specs, self._mesh = specs, mesh
        self._text = f"sharding_specs:{''.join(s + ',' for s in specs)} mesh:{mesh.to_string()}"

    # -- constructors
    @classmethod
    def replicated(cls, mesh: Mesh, rank: int) -> "Layout":
        """A layout that shards no dimension."""
        return cls([UNSHARDED] * rank, mesh)

    @classmethod
    def batch_sharded(cls, mesh: Mesh, batch_dim: str, rank: int, axis: int = 0) -> "Layout":
        """A layout that shards tensor dimension ``axis`` over mesh dimension ``batch_dim``."""
        specs = [UNSHARDED] * rank
        specs[axis] = batch_dim
        return cls(specs, mesh)

    @classmethod
    def inner_sharded(cls, mesh: Mesh, inner_dim: str, rank: int) -> "Layout":
        """A layout that shards the last tensor dimension over ``inner_dim``."""
        return cls.batch_sharded(mesh, inner_dim, rank, axis=rank - 1)

    @classmethod
    def from_string(cls, layout_str: str) -> "Layout":
        """The layout of :meth:`to_string`'s text."""
        head, sep, mesh = layout_str.partition(" mesh:")
        if not sep or not head.startswith("sharding_specs:"):
            raise ValueError(f"Not a layout string (sharding_specs:..., mesh:...): {layout_str!r}.")
        specs = head[len("sharding_specs:"):]
        return cls([s for s in specs.split(",") if s], Mesh.from_string(mesh))

    def delete(self, dims: Sequence[int]) -> "Layout":
        """This layout without the tensor dimensions ``dims``."""
        gone = {d % self.rank for d in dims}
        return Layout([s for i, s in enumerate(self._specs) if i not in gone], self._mesh)

    # -- description
    @property
    def sharding_specs(self) -> list[str]:
        """Per tensor dimension, its mesh dimension or ``"unsharded"``."""
        return list(self._specs)

    @property
    def mesh(self) -> Mesh:
        """The mesh."""
        return self._mesh

    @property
    def rank(self) -> int:
        """The rank of the tensors this layout fits."""
        return len(self._specs)

    @property
    def shape(self) -> list[int]:
        """The mesh's shape (TensorFlow's ``Layout.shape``)."""
        return self._mesh.shape()

    def num_shards(self, idx: int) -> int:
        """How many pieces tensor dimension ``idx`` is cut into."""
        s = self._specs[idx]
        return 1 if s in (UNSHARDED, MATCH) else self._mesh.dim_size(s)

    def is_fully_replicated(self) -> bool:
        """Whether no dimension is sharded."""
        return all(s == UNSHARDED for s in self._specs)

    def is_batch_parallel(self) -> bool:
        """Whether only the first dimension may be sharded."""
        return all(s == UNSHARDED for s in self._specs[1:])

    def is_single_device(self) -> bool:
        """False (single-device layouts are not made here)."""
        return False

    def offset_to_shard(self) -> list[tuple[int, ...]]:
        """Per local device, the index of its shard along each tensor dimension."""
        return [tuple(loc[s] if s in loc else 0 for s in self._specs) for loc in self._mesh.local_device_locations()]

    def local_shape_from_global_shape(self, global_shape: Sequence[int]) -> tuple[int, ...]:
        """The shape of one device's component."""
        return tuple(int(d) // self.num_shards(i) for i, d in enumerate(global_shape))

    def global_shape_from_local_shape(self, local_shape: Sequence[int]) -> tuple[int, ...]:
        """The global shape whose components have ``local_shape``."""
        return tuple(int(d) * self.num_shards(i) for i, d in enumerate(local_shape))

    # -- text, equality
    def to_string(self) -> str:
        """TensorFlow's text: ``sharding_specs:x,unsharded, mesh:<the mesh's text>``."""
        return self._text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout) and self.to_string() == other.to_string()

    def __hash__(self) -> int:
        return hash(self.to_string())

    def __repr__(self) -> str:
        return f"Layout.from_string({self.to_string()})"

    __str__ = __repr__


# --------------------------------------------------------------------------- meshes
def create_mesh(mesh_dims: Any = None, mesh_name: str = "", devices: list | None = None,
                device_type: str | None = None, use_xla_spmd: bool = False) -> Mesh:
    """A mesh of this client's devices (``dtensor.create_mesh``).

    ``mesh_dims``: ``[(name, size), ...]`` or a dict (None: one dimension ``"x"`` over all the
    devices); ``devices``: names such as ``"CPU:0"`` (None: the logical devices of
    ``device_type``, by default the CPUs that ``tf.config.set_logical_device_configuration``
    made).

    >>> import tapegrad as tf
    >>> from tapegrad.experimental import dtensor
    >>> dtensor.create_mesh([("batch", 1)], devices=["CPU:0"]).local_devices()
    ['/job:localhost/replica:0/task:0/device:CPU:0']
    """
    kind = (device_type or "CPU").upper()
    if devices is None:
        devices = [d.name for d in _config.list_logical_devices(kind)]
    devices = [_full_device(d, kind) for d in devices]
    dims = list(mesh_dims.items()) if isinstance(mesh_dims, dict) else \
        [("x", len(devices))] if mesh_dims is None else [tuple(d) for d in mesh_dims]
    shape = [int(s) for _, s in dims]
    if math.prod(shape) != len(devices):
        raise ValueError(f"length of devices ({len(devices)}) must be equal to total size of the mesh of "
                         f"shape {shape}")
    ids = list(range(len(devices)))
    return Mesh([n for n, _ in dims], np.array(ids).reshape(shape), ids, devices, mesh_name,
                use_xla_spmd=use_xla_spmd)


def create_distributed_mesh(mesh_dims: Any, mesh_name: str = "", local_devices: list | None = None,
                            device_type: str | None = None, use_xla_spmd: bool = False) -> Mesh:
    """:func:`create_mesh` for the one client this process is (``num_clients() == 1``)."""
    return create_mesh(mesh_dims, mesh_name, local_devices, device_type, use_xla_spmd)


_default = threading.local()


@contextlib.contextmanager
def default_mesh(mesh: Mesh) -> Iterator[None]:
    """Within the block, a Variable or op without a layout source uses ``mesh`` (:func:`get_default_mesh`)."""
    if not isinstance(mesh, Mesh):
        raise ValueError(f"Expect `mesh` to be `Mesh`, got {type(mesh)}")
    stack = _default.__dict__.setdefault("stack", [])
    stack.append(mesh)
    try:
        yield
    finally:
        stack.pop()


@contextlib.contextmanager
def run_on(mesh: Mesh | Layout) -> Iterator[None]:
    """:func:`default_mesh` for ``mesh`` (a Layout: its mesh), TF's older name."""
    with default_mesh(mesh.mesh if isinstance(mesh, Layout) else mesh):
        yield


def get_default_mesh() -> Mesh | None:
    """The innermost :func:`default_mesh`'s mesh, or None."""
    stack = getattr(_default, "stack", None)
    return stack[-1] if stack else None


# --------------------------------------------------------------------------- one client
def num_clients() -> int:
    """1: tapegrad is one client (no multi-client DTensor)."""
    return 1


def client_id() -> int:
    """0: this process is the only client."""
    return 0


def job_name() -> str:
    """``"localhost"``."""
    return "localhost"


def jobs() -> list[str]:
    """``[]``: no multi-client jobs are configured."""
    return []


def full_job_name(task_id: int | None = None) -> str:
    """``"localhost"`` (task 0, the only one)."""
    if task_id not in (None, 0):
        raise ValueError(f"There is one client (task 0); got task_id={task_id}.")
    return "localhost"


def heartbeat_enabled() -> bool:
    """True, as TF's default (there is no other client to watch)."""
    return True


def preferred_device_type() -> str:
    """``"CPU"``: tapegrad's devices."""
    return "CPU"


def device_name() -> str:
    """The name TensorFlow gives its DTensor device."""
    return "/job:localhost/replica:0/task:0/device:CUSTOM:0"


def local_devices(device_type: str, for_client_id: int | None = None) -> list[DeviceSpec]:
    """This client's logical devices of ``device_type``, as ``tf.DeviceSpec``."""
    if for_client_id not in (None, 0):
        raise ValueError(f"There is one client (id 0); got for_client_id={for_client_id}.")
    kind = device_type.upper()
    return [DeviceSpec("localhost", 0, 0, kind, i) for i in range(len(_config.list_logical_devices(kind)))]


def num_local_devices(device_type: str) -> int:
    """How many logical devices of ``device_type`` this client has."""
    return len(local_devices(device_type))


def num_global_devices(device_type: str) -> int:
    """The number of devices of ``device_type`` of all clients (this one's)."""
    return num_local_devices(device_type)


def initialize_accelerator_system(device_type: str | None = None, enable_coordination_service: bool = True,
                                  num_logical_cpu_devices: int | None = None,
                                  experimental_reset_context: bool = False,
                                  experimental_enable_megcore: bool = False) -> str:
    """Set up the devices for DTensor; returns the device type (``"CPU"``).

    ``num_logical_cpu_devices`` splits the CPU into that many logical devices, as
    ``tf.config.set_logical_device_configuration`` does.
    """
    kind = (device_type or "CPU").upper()
    if kind != "CPU":
        raise ValueError(f"tapegrad's DTensor runs on the CPU; got device_type={device_type!r}.")
    if num_logical_cpu_devices is not None:
        cpu = _config.list_physical_devices("CPU")[0]
        _config.set_logical_device_configuration(cpu, [_config.LogicalDeviceConfiguration()] * num_logical_cpu_devices)
    return kind


def shutdown_accelerator_system() -> None:
    """Nothing to release on one client."""


def barrier(mesh: Mesh, barrier_name: str | None = None, timeout_in_ms: int | None = None) -> None:
    """Wait for every client: one client waits for none."""


# --------------------------------------------------------------------------- layouts of tensors
_LAYOUTS: dict[int, tuple[Any, Layout]] = {}  # id(tensor) -> (weak reference to it, its layout)


def _forget(ref: Any, key: int) -> None:
    entry = _LAYOUTS.get(key)
    if entry is not None and entry[0] is ref:
        del _LAYOUTS[key]


def _layout_of(t: Any) -> Layout | None:
    entry = _LAYOUTS.get(id(t))
    return entry[1] if entry is not None and entry[0]() is t else None


def _attach(t: Tensor, layout: Layout) -> Tensor:
    key = id(t)
    _LAYOUTS[key] = (weakref.ref(t, lambda r, k=key: _forget(r, k)), layout)
    if not any(type(r) is _Propagate for r in _rec.tls.stack):
        _rec.push(_PROPAGATE, 0)
    return t


def _check_fits(layout: Layout, shape: Sequence[int], where: str) -> None:
    if not isinstance(layout, Layout):
        raise ValueError(f"layout must be a dtensor.Layout; got {layout!r}.")
    if len(shape) != layout.rank:
        raise UnknownError(f"{where}: the layout has rank {layout.rank} ({layout.sharding_specs}) but the "
                           f"tensor has rank {len(shape)} (shape {list(shape)}): give one sharding spec per "
                           "dimension.")
    for i, d in enumerate(shape):
        if d % layout.num_shards(i):
            raise UnknownError(f"{where}: dimension {i} of size {d} is not divisible by the "
                               f"{layout.num_shards(i)} shards of mesh dimension '{layout.sharding_specs[i]}'.")


def is_dtensor(tensor: Any) -> bool:
    """Whether ``tensor`` is a DTensor (a Tensor carrying a layout, or a :class:`DVariable`)."""
    return isinstance(tensor, DVariable) or (isinstance(tensor, Tensor) and _layout_of(tensor) is not None)


def fetch_layout(tensor: Any) -> Layout:
    """The layout of a DTensor or :class:`DVariable` (InvalidArgumentError for other tensors)."""
    if isinstance(tensor, DVariable):
        return tensor.layout
    layout = _layout_of(tensor) if isinstance(tensor, Tensor) else None
    if layout is None:
        raise InvalidArgumentError("FetchLayout expects a tensor placed on the layout device: this tensor "
                                   "has no layout (make one with dtensor.copy_to_mesh, pack or call_with_layout).")
    return layout


def check_layout(tensor: Any, layout: Layout) -> None:
    """ValueError unless ``tensor``'s layout is ``layout``."""
    if fetch_layout(tensor) != layout:
        raise ValueError(f"Layout of tensor: {fetch_layout(tensor)}, did not match expected layout: {layout}")


def relayout(tensor: Any, layout: Layout, name: str | None = None) -> Tensor:
    """The DTensor ``tensor`` with ``layout`` (the same numbers, split another way); differentiable:
    the gradient goes back to the input's layout.

    >>> import tapegrad as tf
    >>> from tapegrad.experimental import dtensor
    >>> mesh = dtensor.create_mesh([("x", 1)], devices=["CPU:0"])
    >>> a = dtensor.copy_to_mesh(tf.ones([2, 2]), dtensor.Layout.replicated(mesh, 2))
    >>> dtensor.fetch_layout(dtensor.relayout(a, dtensor.Layout(["x", "unsharded"], mesh))).sharding_specs
    ['x', 'unsharded']
    """
    t = convert_to_tensor(tensor)
    _check_fits(layout, t._value.shape, "Relayout")
    src = _layout_of(t)
    if src is not None and src.mesh != layout.mesh:
        raise InvalidArgumentError(f"Relayout keeps a tensor on its mesh ({src.mesh}); use copy_to_mesh to "
                                   f"move it to {layout.mesh}.")
    if MATCH in layout.sharding_specs:  # (a dimension that keeps the input's sharding)
        old = src.sharding_specs if src is not None else [UNSHARDED] * layout.rank
        layout = Layout([o if s == MATCH else s for s, o in zip(layout.sharding_specs, old)], layout.mesh)
    return _attach(apply(_array.RELAYOUT, (t,), {"layout": layout, "src": src}), layout)


def relayout_like(tensor: Any, layout_tensor: Any, name: str | None = None) -> Tensor:
    """``tensor`` with the layout of DTensor ``layout_tensor``."""
    return relayout(tensor, fetch_layout(layout_tensor), name)


def copy_to_mesh(tensor: Any, layout: Layout, source_layout: Layout | None = None) -> Tensor:
    """A DTensor of ``tensor``'s value with ``layout`` (a regular tensor, or a DTensor of another
    mesh; ``source_layout``, TF's hint, is read from the tensor here)."""
    t = convert_to_tensor(tensor)
    _check_fits(layout, t._value.shape, "CopyToMesh")
    return _attach(apply(_array.RELAYOUT, (t,), {"layout": layout, "src": _layout_of(t)}), layout)


def call_with_layout(fn: Callable, layout: Layout | None, *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` with its output given ``layout`` (None: as it comes), run with
    ``layout.mesh`` as the default mesh: how DTensors are made by ops that take no tensor, such as
    ``tf.ones`` or ``tf.random.stateless_normal``.

    >>> import tapegrad as tf
    >>> from tapegrad.experimental import dtensor
    >>> mesh = dtensor.create_mesh([("x", 1)], devices=["CPU:0"])
    >>> ones = dtensor.call_with_layout(tf.ones, dtensor.Layout(["x", "unsharded"], mesh), shape=(2, 3))
    >>> dtensor.fetch_layout(ones).sharding_specs, ones.shape
    (['x', 'unsharded'], TensorShape([2, 3]))
    """
    if layout is None:
        return fn(*args, **kwargs)
    with default_mesh(layout.mesh), contextlib.ExitStack() as stack:
        if not layout.is_fully_replicated():  # (each device draws its own block, as DTensor's)
            stack.enter_context(_random._spmd_expansion(
                lambda shape: list(zip(_shard_slices(layout, shape), _device_seeds(layout)))))
        out = fn(*args, **kwargs)
    if isinstance(out, (list, tuple)):
        return type(out)(relayout(o, layout) for o in out)
    return relayout(out, layout)


# --------------------------------------------------------------------------- pack / unpack
def _eagerly(name: str) -> None:
    if _function.tracing():
        raise RuntimeError(f"`{name}` must be called eagerly: a tf.function holds DTensors whole (pass "
                           "them in and out of it, and pack or unpack outside).")


def _device_seeds(layout: Layout) -> list[int]:
    """Per local device, DTensor's seed for its block of a stateless random op: 65521 plus its
    coordinates along the mesh dimensions the layout shards, weighted 2**16, 2**16 times the size
    of the first of them, ... (an int32, sign-extended to the key's 64 bits)."""
    mesh, sharded = layout.mesh, set(layout.sharding_specs) - {UNSHARDED, MATCH}
    out = []
    for loc in mesh.local_device_locations():
        seed, weight = 65521, 65536
        for name, size in zip(mesh.dim_names, mesh.shape()):
            if name in sharded:
                seed, weight = seed + loc[name] * weight, weight * size
        seed &= 0xFFFFFFFF
        out.append(seed - (1 << 32) if seed >= 1 << 31 else seed)
    return out


def _shard_slices(layout: Layout, shape: Sequence[int]) -> list[tuple[slice, ...]]:
    """Per local device, the slice of the global value its component holds."""
    out = []
    for shard in layout.offset_to_shard():
        key = []
        for i, (k, d) in enumerate(zip(shard, shape)):
            n = d // layout.num_shards(i)
            key.append(slice(k * n, (k + 1) * n))
        out.append(tuple(key))
    return out


def unpack(tensor: Any) -> list[Tensor]:
    """The per-device components of a DTensor, in the mesh's device order: each device's shard
    of every sharded dimension (a replicated dimension repeats whole).

    >>> import tapegrad as tf
    >>> from tapegrad.experimental import dtensor
    >>> mesh = dtensor.create_mesh([("x", 1)], devices=["CPU:0"])
    >>> t = dtensor.copy_to_mesh(tf.constant([1, 2]), dtensor.Layout(["x"], mesh))
    >>> [c.numpy().tolist() for c in dtensor.unpack(t)]
    [[1, 2]]
    """
    _eagerly("unpack")
    if isinstance(tensor, DVariable):
        raise TypeError("dtensor.unpack expects a Tensor, got a DVariable: unpack its read_value().")
    if not isinstance(tensor, Tensor) or _layout_of(tensor) is None:
        raise InvalidArgumentError("DTensorUnpack expects a DTensor (a tensor with a layout: make one with "
                                   "dtensor.pack, copy_to_mesh or call_with_layout).")
    layout = _layout_of(tensor)
    value = np.asarray(tensor._value)  # (components are regular tensors: no layout, off the tape)
    return [_Component(wrap(value[key]), device)
            for key, device in zip(_shard_slices(layout, value.shape), layout.mesh.local_devices())]


class _Component(Tensor):
    """A DTensor's component: a regular tensor whose ``device`` is its mesh device's."""

    __slots__ = ("_device",)

    def __init__(self, t: Tensor, device: str) -> None:
        self._value, self._id, self._device = t._value, t._id, device

    @property
    def device(self) -> str:
        """The mesh device that holds this component."""
        return self._device


def pack(tensors: Sequence[Any], layout: Layout) -> Tensor:
    """The DTensor whose per-device components are ``tensors`` (one per device of ``layout.mesh``,
    in its device order): InvalidArgumentError unless they fit the layout (one shape, and equal
    values where the layout replicates).

    >>> import tapegrad as tf
    >>> from tapegrad.experimental import dtensor
    >>> mesh = dtensor.create_mesh([("x", 1)], devices=["CPU:0"])
    >>> t = dtensor.pack([tf.constant([[1, 2]])], dtensor.Layout(["x", "unsharded"], mesh))
    >>> t.shape, dtensor.fetch_layout(t).sharding_specs
    (TensorShape([1, 2]), ['x', 'unsharded'])
    """
    _eagerly("pack")
    if not isinstance(layout, Layout):
        raise ValueError(f"layout must be a dtensor.Layout; got {layout!r}.")
    parts = [convert_to_tensor(t) for t in tensors]
    n = layout.mesh.num_local_devices()
    if len(parts) != n:
        raise InvalidArgumentError(f"DTensorPack expected {n} inputs (one per device of the mesh), "
                                   f"but got {len(parts)}.")
    shapes = {p._value.shape for p in parts}
    dtypes = {p._value.dtype for p in parts}
    if len(shapes) != 1 or len(dtypes) != 1:
        raise InvalidArgumentError(f"DTensorPack: the components must have one shape and dtype; got shapes "
                                   f"{sorted(map(list, shapes))} and dtypes {sorted(d.name for d in dtypes)}.")
    local = shapes.pop()
    if len(local) != layout.rank:
        raise InvalidArgumentError(f"DTensorPack: the layout has rank {layout.rank} but the components have "
                                   f"rank {len(local)}.")
    # the global value, built of the components at their shard positions
    shards = layout.offset_to_shard()
    first: dict[tuple, int] = {}
    for i, s in enumerate(shards):
        first.setdefault(s, i)
    for i, s in enumerate(shards):
        j = first[s]
        same = np.array_equal(parts[i]._value, parts[j]._value, equal_nan=parts[i]._value.dtype.kind in "fc")
        if j != i and not same:
            raise InvalidArgumentError(
                f"DTensorPack: components {j} and {i} hold the same shard of the layout "
                f"{layout.sharding_specs} (a replicated mesh dimension) but differ: tapegrad holds one "
                "global value, so replicas must be equal.")
    value = _assemble(layout, [parts[first[s]] for s in sorted(first)], sorted(first))
    return _attach(apply(_array.RELAYOUT, (value,), {"layout": layout, "src": None}), layout)


def _assemble(layout: Layout, parts: list[Tensor], where: list[tuple]) -> Tensor:
    """Concatenate the distinct shards (``where``: their shard indices, sorted) along each sharded dimension."""
    blocks: Any = dict(zip(where, parts))
    for axis in reversed(range(layout.rank)):
        k = layout.num_shards(axis)
        if k == 1:
            continue
        grouped: dict = {}
        for idx, t in sorted(blocks.items()):
            grouped.setdefault(idx[:axis] + idx[axis + 1:], []).append(t)
        blocks = {key[:axis] + (0,) + key[axis:]: _array.concat(ts, axis) for key, ts in grouped.items()}
    (value,) = blocks.values()
    return value


# --------------------------------------------------------------------------- variables
class DVariable(Variable):
    """A Variable with a layout (``dtensor.DVariable``): its initial value is a DTensor (or a
    tensor, given the default mesh's replicated layout), every read carries the layout, and
    assigning a value of another mesh raises. Checkpoints track it as any Variable.

    >>> import tapegrad as tf
    >>> from tapegrad.experimental import dtensor
    >>> mesh = dtensor.create_mesh([("x", 1)], devices=["CPU:0"])
    >>> v = dtensor.DVariable(dtensor.call_with_layout(tf.zeros, dtensor.Layout(["x"], mesh), shape=[2]))
    >>> v.layout.sharding_specs, dtensor.fetch_layout(v.assign_add([1.0, 2.0])).sharding_specs
    (['x'], ['x'])
    """

    def __init__(self, initial_value: Any, *args: Any, dtype: Any = None, **kwargs: Any) -> None:
        if callable(initial_value):
            initial_value = initial_value()
        layout = _layout_of(initial_value) if isinstance(initial_value, Tensor) else \
            initial_value.layout if isinstance(initial_value, DVariable) else None
        if layout is None:
            mesh = get_default_mesh()
            if mesh is None:
                raise ValueError("DVariable's initial_value must be a DTensor (dtensor.call_with_layout, "
                                 "copy_to_mesh or pack), or be made within dtensor.default_mesh(mesh).")
            value = convert_to_tensor(initial_value, dtype=dtype)
            layout = Layout.replicated(mesh, value._value.ndim)
            _check_fits(layout, value._value.shape, "DVariable")
        self._layout = layout
        super().__init__(initial_value, *args, dtype=dtype, **kwargs)

    @property
    def layout(self) -> Layout:
        """The variable's layout, fixed at creation."""
        return self._layout

    @property
    def save_as_bf16(self) -> bool:
        """False: checkpoints save the variable's own dtype."""
        return False

    def _read(self) -> Tensor:
        snap = super()._read()
        if _layout_of(snap) is None:
            _attach(snap, self._layout)
        return snap

    def assign(self, value: Any, use_locking: Any = None, name: Any = None, read_value: bool = True) -> Any:
        self._check_mesh(value)
        return super().assign(value, use_locking, name, read_value)

    def assign_add(self, delta: Any, use_locking: Any = None, name: Any = None, read_value: bool = True) -> Any:
        self._check_mesh(delta)
        return super().assign_add(delta, use_locking, name, read_value)

    def assign_sub(self, delta: Any, use_locking: Any = None, name: Any = None, read_value: bool = True) -> Any:
        self._check_mesh(delta)
        return super().assign_sub(delta, use_locking, name, read_value)

    def _check_mesh(self, value: Any) -> None:
        other = fetch_layout(value) if is_dtensor(value) else None
        if other is not None and other.mesh != self._layout.mesh:
            raise UnknownError(f"All inputs to `tf_device.Cluster` must have same mesh configuration: a "
                               f"DVariable's layout is fixed: it lives on {self._layout.mesh} and cannot "
                               f"take a value on {other.mesh} (copy_to_mesh it first).")

    def read_value(self) -> Tensor:
        return self._read()

    def value(self) -> Tensor:
        return self._read()


# --------------------------------------------------------------------------- layout propagation
# TensorFlow's SPMD rules, read off its eager DTensor ops: per op, the output's sharding specs
# from the inputs' (None where an input has no layout: a replicated operand).
def _merge(columns: list[list[str]]) -> list[str]:
    """Elementwise operands' specs, one column of candidates per output dimension: the first
    operand's spec where they differ; a mesh dimension that shards two output dimensions shards
    none, nor does a dimension whose candidates include it (TF's merge)."""
    where: dict[str, set] = {}
    for d, col in enumerate(columns):
        for s in col:
            if s != UNSHARDED:
                where.setdefault(s, set()).add(d)
    bad = {s for s, ds in where.items() if len(ds) > 1}
    out = []
    for col in columns:
        cands = [s for s in col if s != UNSHARDED]
        out.append(UNSHARDED if not cands or any(s in bad for s in cands) else cands[0])
    return out


def _broadcast_columns(specs: list, shapes: list, out_shape: tuple) -> list[list[str]]:
    n = len(out_shape)
    cols: list[list[str]] = [[] for _ in range(n)]
    for sp, sh in zip(specs, shapes):
        if sp is None:
            continue
        off = n - len(sh)
        for i, (s, d) in enumerate(zip(sp, sh)):
            if d == out_shape[off + i]:
                cols[off + i].append(s)
    return cols


def _elementwise(specs: list, shapes: list, p: dict, out_shape: tuple) -> list[str]:
    return _merge(_broadcast_columns(specs, shapes, out_shape))


def _contract(ins: Sequence[str], out: str, specs: list, shapes: list) -> list[str]:
    """Einsum's rule: each output label takes its operands' specs (merged); a contracted label
    sharded two ways is TF's error."""
    cols: dict[str, list] = {}
    for labels, sp, sh in zip(ins, specs, shapes):
        if sp is None:
            continue
        for lab, s, d in zip(labels, sp, sh):
            if d != 1 or lab in out:
                cols.setdefault(lab, []).append(s)
    for lab, col in cols.items():
        if lab not in out:
            used = {s for s in col if s != UNSHARDED}
            if len(used) > 1:
                raise UnknownError(f"Contracting dimension has sharding dimensions {sorted(used)} on its "
                                   "operands: relayout one of them so that they match.")
    return _merge([cols.get(lab, []) for lab in out])


def _matmul(specs: list, shapes: list, p: dict, out_shape: tuple) -> list[str]:
    a, b = list(shapes[0]), list(shapes[1])
    sa = None if specs[0] is None else list(specs[0])
    sb = None if specs[1] is None else list(specs[1])
    n = len(out_shape)
    batch = "".join(chr(ord("A") + i) for i in range(n - 2))
    la = batch[n - len(a):] + ("km" if p.get("adj_a") else "mk")
    lb = batch[n - len(b):] + ("nk" if p.get("adj_b") else "kn")
    if len(a) == 1:
        la = "k"
    if len(b) == 1:
        lb = "k"
    out = batch + ("m" if len(a) > 1 else "") + ("n" if len(b) > 1 else "")
    return _contract((la, lb), out, [sa, sb], [a, b])


def _einsum(specs: list, shapes: list, p: dict, out_shape: tuple) -> list[str]:
    ins = p["ins"]
    if any("." in s for s in ins) or len(ins) != len(specs):
        return [UNSHARDED] * len(out_shape)
    return _contract(ins, p["out"], specs, shapes)


def _reduce(specs: list, shapes: list, p: dict, out_shape: tuple) -> list[str]:
    sp = specs[0]
    axes = p.get("axes")
    axes = {p["axis"] % max(len(sp), 1)} if axes is None else {a % max(len(sp), 1) for a in axes}
    if p.get("keepdims"):
        return [UNSHARDED if i in axes else s for i, s in enumerate(sp)]
    return [s for i, s in enumerate(sp) if i not in axes]


def _along(specs: list, shapes: list, p: dict, out_shape: tuple) -> list[str]:
    """Ops that keep the shape and work along one axis, which they unshard (cumsum)."""
    a = p["axis"] % len(specs[0])
    return [UNSHARDED if i == a else s for i, s in enumerate(specs[0])]


def _transpose(specs: list, shapes: list, p: dict, out_shape: tuple) -> list[str]:
    return [specs[0][i] for i in p["perm"]]


def _reshape(specs: list, shapes: list, p: dict, out_shape: tuple) -> list[str]:
    """Dimensions group where the running products meet; a group's first output dimension keeps
    the sharding of its first input dimension when the shards divide it, the rest are unsharded."""
    sp, ins, outs = specs[0], list(shapes[0]), list(out_shape)
    res = [UNSHARDED] * len(outs)
    i = j = 0
    while i < len(ins) or j < len(outs):
        if j < len(outs) and outs[j] == 1 and (i >= len(ins) or ins[i] != 1):
            j += 1
            continue
        if i < len(ins) and ins[i] == 1 and (j >= len(outs) or outs[j] != 1):
            i += 1
            continue
        i0, j0 = i, j
        pi, pj = ins[i], outs[j]
        i, j = i + 1, j + 1
        while pi != pj:
            if pi < pj:
                pi *= ins[i]
                i += 1
            else:
                pj *= outs[j]
                j += 1
        s = sp[i0]
        if s != UNSHARDED and outs[j0] % _mesh_size(s) == 0:
            res[j0] = s
    return res


def _concat(specs: list, shapes: list, p: dict, out_shape: tuple) -> list[str]:
    a = p["axis"] % len(out_shape)
    cols = [[] if i == a else [sp[i] for sp in specs if sp is not None] for i in range(len(out_shape))]
    return _merge(cols)


def _pack(specs: list, shapes: list, p: dict, out_shape: tuple) -> list[str]:
    """TF's Pack keeps only the inputs' first dimension's sharding (merged); the rest unshard."""
    out = [UNSHARDED] * len(out_shape)
    if len(out_shape) > 1:
        out[1 if p["axis"] % len(out_shape) == 0 else 0] = _merge([[sp[0] for sp in specs if sp is not None]])[0]
    return out


def _unpack(specs: list, shapes: list, p: dict, out_shape: tuple) -> list[str]:
    a = p["axis"] % len(specs[0])
    return [s for i, s in enumerate(specs[0]) if i != a]


def _gather(specs: list, shapes: list, p: dict, out_shape: tuple) -> list[str]:
    sp = specs[0] if specs[0] is not None else [UNSHARDED] * len(shapes[0])
    si = specs[1] if specs[1] is not None else [UNSHARDED] * len(shapes[1])
    a, b = p["axis"] % len(sp), p.get("batch_dims", 0)
    cols = [[s] for s in sp[:a]] + [[s] for s in si[b:]] + [[s] for s in sp[a + 1:]]
    return _merge(cols)


def _slice(specs: list, shapes: list, p: dict, out_shape: tuple) -> list[str]:
    """A dimension cut to a part is unsharded, one taken whole keeps its sharding. An index
    drops a dimension as TF's expansion does: the output's dimensions take the input's specs by
    position (so ``x[0]`` of ``["x", "y"]`` is ``["x"]``)."""
    sp, shape = specs[0], shapes[0]
    key = p["key"]
    if any(k is Ellipsis for k in key):
        e = key.index(Ellipsis)
        rest = sum(1 for k in key if k is not None and k is not Ellipsis)
        key = key[:e] + (slice(None),) * (len(sp) - rest) + key[e + 1:]
    out, whole, d = [], [], 0
    for k in key:
        if k is None:
            out.append(UNSHARDED)
        elif isinstance(k, slice):
            whole.append(k.start in (None, 0) and (k.stop is None or k.stop >= shape[d]))
            out.append(sp[d] if whole[-1] else UNSHARDED)
            d += 1
        else:
            d += 1
    whole += [True] * (len(sp) - d)  # (per output dimension, without new axes)
    out += sp[d:]
    if None not in key and any(not isinstance(k, slice) for k in key):  # an index: specs by position
        out = [s if w else UNSHARDED for s, w in zip(sp, whole)]
    return out if len(out) == len(out_shape) else [UNSHARDED] * len(out_shape)


def _take_along(specs: list, shapes: list, p: dict, out_shape: tuple) -> list[str]:
    """Sorting and top-k gather along the last axis, which they unshard."""
    return _elementwise(specs, shapes, p, out_shape)[:-1] + [UNSHARDED]


def _tile(specs: list, shapes: list, p: dict, out_shape: tuple) -> list[str]:
    return [UNSHARDED if m != 1 else s for s, m in zip(specs[0], p["multiples"])]


def _sparse_xent(specs: list, shapes: list, p: dict, out_shape: tuple) -> list[str]:
    logits, labels = specs
    cols = [[s] for s in (logits or [UNSHARDED] * len(shapes[0]))[:-1]]
    for c, s in zip(cols, labels or []):
        c.append(s)
    return _merge(cols)


def _softmax_xent(specs: list, shapes: list, p: dict, out_shape: tuple) -> list[str]:
    return _merge([[sp[0] for sp in specs if sp is not None]])


def _one_hot(specs: list, shapes: list, p: dict, out_shape: tuple) -> list[str]:
    sp = list(specs[0] or [UNSHARDED] * len(shapes[0]))
    a = p.get("axis", -1)
    a = len(sp) if a == -1 else a
    return sp[:a] + [UNSHARDED] + sp[a:]


def _relayout(specs: list, shapes: list, p: dict, out_shape: tuple) -> Any:
    return specs[0] if p["layout"] is None else p["layout"]


_RULES: dict[str, Callable] = {
    "BatchMatMulV2": _matmul, "Einsum": _einsum, "Transpose": _transpose, "Reshape": _reshape,
    "ConcatV2": _concat, "Pack": _pack, "Unpack": _unpack, "Split": _along, "GatherV2": _gather,
    "StridedSlice": _slice, "Tile": _tile, "SortOrder": _along, "TakeAlongLastAxis": _take_along,
    "Cumsum": _along, "Cumprod": _along, "CumulativeLogsumexp": _along,
    "SparseSoftmaxCrossEntropyWithLogits": _sparse_xent, "SoftmaxCrossEntropyWithLogits": _softmax_xent,
    "OneHot": _one_hot, "Relayout": _relayout,
    **{name: _reduce for name in ("Sum", "Mean", "Max", "Min", "Prod", "All", "Any", "ArgMax", "ArgMin",
                                  "EuclideanNorm", "LogSumExp")},
}

_MADE: dict[tuple, Layout] = {}  # (id(mesh), specs) -> the layout, made once
_mesh_now = threading.local()  # the mesh of the op being propagated (for _reshape's divisibility)


def _mesh_size(dim: str) -> int:
    return _mesh_now.mesh.dim_size(dim)


def _propagate(op: Any, xs: Sequence[Tensor], p: dict, outs: Sequence[Tensor]) -> None:
    layouts = [_layout_of(x) for x in xs]
    mesh = next((lay.mesh for lay in layouts if lay is not None), None)
    if mesh is None:
        return
    rule = _RULES.get(op.name)
    if rule is None and len(outs) == 1 and isinstance(outs[0], Tensor):  # the common case, at once:
        first, shape = layouts[0], outs[0]._value.shape  # operands of one layout (and scalars)
        if first is not None and all(lay is first if x._value.shape == shape else lay is None and not x._value.shape
                                     for lay, x in zip(layouts, xs)):
            _attach(outs[0], first)
            return
    specs = [None if lay is None else lay._specs for lay in layouts]  # (read, never changed)
    shapes = [x._value.shape for x in xs]
    _mesh_now.mesh = mesh
    for o in outs:
        if not isinstance(o, Tensor):
            continue
        shape = o._value.shape
        if rule is None:  # elementwise when the inputs broadcast to the output; else replicated
            fits = all(len(s) <= len(shape) for s in shapes)
            out = _elementwise(specs, shapes, p, shape) if fits else [UNSHARDED] * len(shape)
        else:
            out = rule(specs, shapes, p, shape)
        if isinstance(out, Layout):
            _attach(o, out)
            continue
        if len(out) != len(shape):
            out = [UNSHARDED] * len(shape)
        out = [s if s == UNSHARDED or d % mesh.dim_size(s) == 0 else UNSHARDED for s, d in zip(out, shape)]
        key = (id(mesh), tuple(out))
        layout = _MADE.get(key)
        if layout is None or layout.mesh is not mesh:
            layout = _MADE[key] = Layout(out, mesh)
        _attach(o, layout)


class _Propagate(_rec.Recorder):
    """Gives each op's outputs their layout (at the bottom of the recorder stack); refuses
    ``numpy()`` of a sharded DTensor, as TensorFlow does."""

    __slots__ = ()

    def record(self, op: Any, xs: Any, p: dict, ans: Any, k: int) -> None:
        _propagate(op, xs, p, ans if type(ans) is tuple else (ans,))

    def on_nondiff(self, op: Any, xs: Any, outs: tuple, p: Any = None) -> None:
        _propagate(op, xs, p or {}, outs)

    def on_escape(self, t: Any, how: str) -> None:
        if how == "numpy" and isinstance(t, Tensor):
            layout = _layout_of(t)
            if layout is not None and not layout.is_fully_replicated():
                raise UnimplementedError(
                    "Trying to copy a non-single-device and non-replicated DTensor is not supported: "
                    f"its layout is {layout.sharding_specs}. Use dtensor.unpack for its components, or "
                    "relayout it to a replicated layout first.")


_PROPAGATE = _Propagate()


def _text(t: Tensor, is_repr: bool) -> str | None:
    """TensorFlow's text of a DTensor: the value (per device, by its short name, when sharded)
    and the layout; None for a regular tensor."""
    layout = _layout_of(t)
    if layout is None:
        return None
    if layout.is_fully_replicated():
        value = format_tensor(t)
    else:
        names = [d.rsplit("/device:", 1)[1] for d in layout.mesh.local_devices()]
        value = "{" + ", ".join(f'"{n}": {format_tensor(c)}' for n, c in zip(names, unpack(t))) + "}"
    where = f'layout="{layout.to_string()}"'
    if is_repr:
        return f"<tapegrad.Tensor: shape={t.shape}, dtype={t.dtype.name}, value={value}, {where}>"
    return f"tapegrad.Tensor({value}, {where}, shape={t.shape}, dtype={t.dtype.name})"


def _made_like(x: Tensor, t: Tensor, same_dtype: bool) -> None:
    """``zeros_like``/``ones_like`` of a DTensor: its layout, or replicated when the dtype changes
    (TF's: then a fill of its shape)."""
    layout = _layout_of(x)
    if layout is not None:
        _attach(t, layout if same_dtype else Layout.replicated(layout.mesh, layout.rank))


_tensor.layout_text = _text
_tensor.made_like = _made_like
