"""``tapegrad.random``: random tensors (TensorFlow's ``tf.random``), drawn from NumPy Generators.

Seeds work as in TensorFlow, as far as reproducibility goes (the numbers themselves differ from
TensorFlow's):

* no global seed, no op seed: fresh randomness on every call;
* global seed (:func:`set_seed`), no op seed: each call gets the next op seed from a counter, so
  the sequence of results after ``set_seed(s)`` is the same every time;
* an op seed (``seed=``): the op draws from a stream keyed by ``(global seed, op seed)`` (the
  global seed defaults to a fixed value); repeated calls continue the stream, so they differ from
  each other, and ``set_seed`` restarts every stream.

>>> import tapegrad as tf
>>> tf.random.set_seed(42)
>>> a = tf.random.uniform([2])
>>> tf.random.set_seed(42)
>>> bool(tf.reduce_all(a == tf.random.uniform([2])))
True
"""
from __future__ import annotations

import random as _pyrandom
import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _philox
from . import dtypes as _dt
from ._convert import as_tensor, convert_to_tensor
from ._dispatch import apply, defop
from ._tensor import Tensor, wrap as _wrap
from .errors import InvalidArgumentError
from .ops.array import _shape_arg

__all__ = ["set_seed", "normal", "uniform", "truncated_normal", "shuffle", "categorical",
           "stateless_normal", "stateless_uniform", "stateless_truncated_normal"]

_DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2**31 - 1


class _Seeds:
    """TF eager's seed state: the global seed, the op-seed counter (a ``random.Random`` seeded
    with the global seed), and one Philox state per cached kernel, keyed like TF's eager kernel
    cache by (op, attributes, seed, seed2)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.global_seed: int | None = None
        self.op_seeds: _pyrandom.Random | None = None
        self.kernels: dict[tuple, list[int]] = {}


_seeds = _Seeds()


def set_seed(seed: Any) -> None:
    """Set the global random seed (``None`` clears it) and restart every seeded stream.

    After ``set_seed(s)`` the same sequence of random ops gives the same values, TensorFlow's.

    >>> import tapegrad as tf
    >>> tf.random.set_seed(1); a = tf.random.normal([3]); b = tf.random.normal([3])
    >>> tf.random.set_seed(1); bool(tf.reduce_all(tf.random.normal([3]) == a))
    True
    """
    with _seeds.lock:
        _seeds.global_seed = None if seed is None else int(np.asarray(seed))
        _seeds.op_seeds = None if seed is None else _pyrandom.Random(_seeds.global_seed)
        _seeds.kernels.clear()


def _get_seed(op_seed: Any) -> tuple[int, int]:
    """TF's ``random_seed.get_seed`` in eager mode, with ``None`` as 0 (the kernels' "random")."""
    s = _seeds
    if s.global_seed is None:
        return (0, 0) if op_seed is None else (_DEFAULT_GRAPH_SEED, int(op_seed) % _MAXINT32)
    if op_seed is None:
        op_seed = s.op_seeds.randint(0, _MAXINT32)
    seeds = s.global_seed % _MAXINT32, int(op_seed) % _MAXINT32
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


def _reserve(op: tuple, seed: Any, nblocks: int) -> tuple[int, int]:
    """The (key, counter) a stateful kernel call starts from; the kernel's counter moves on by
    ``nblocks`` (TF's ``GuardedPhiloxRandom`` reservation)."""
    with _seeds.lock:
        seed1, seed2 = _get_seed(seed)
        state = _seeds.kernels.get(op + (seed1, seed2))
        if state is None:
            if seed1 == seed2 == 0:  # unseeded: a kernel seeded from fresh entropy
                seed1, seed2 = (int(v) for v in np.random.SeedSequence().generate_state(2, np.uint64))
            state = _seeds.kernels[op + (seed1, seed2)] = [seed1 & _philox.M64, (seed2 & _philox.M64) << 64]
        key, counter = state
        state[1] = (counter + nblocks) & _philox.M128
        return key, counter


def _shape_dtype(shape: Any) -> str:
    return shape.dtype.name if isinstance(shape, Tensor) else "int32"


def _float_dtype(dtype: Any, fn: str) -> _dt.DType:
    dt = _dt.as_dtype(dtype)
    if dt._np.kind != "f":
        raise ValueError(f"{fn}: dtype must be a floating type (float16, float32, float64), got "
                         f"{dt.name}.")
    return dt


def _param(v: Any, dt: _dt.DType) -> Tensor:
    if isinstance(v, Tensor) and v._value.dtype != dt._np:
        raise InvalidArgumentError(f"mean/stddev/minval/maxval of dtype {v.dtype.name} do "
                                   f"not match the requested dtype {dt.name}; cast them first")
    return convert_to_tensor(v, dtype=dt)


def _size(s: tuple) -> int:
    return int(np.prod(s, dtype=np.int64))


def normal(shape: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = _dt.float32, seed: Any = None,
           name: Any = None) -> Tensor:
    """Samples from a normal distribution: ``standard_normal(shape) * stddev + mean``.

    ``mean`` and ``stddev`` may be tensors (they broadcast, and gradients flow to them as in
    TensorFlow); the samples themselves are constants.

    >>> import tapegrad as tf
    >>> tf.random.normal([2, 3], seed=1).shape
    TensorShape([2, 3])
    """
    dt = _float_dtype(dtype, "normal")
    s = _shape_arg(shape, "RandomStandardNormal")
    sd, m = _param(stddev, dt), _param(mean, dt)
    key, counter = _reserve(("RandomStandardNormal", dt.name, _shape_dtype(shape)), seed,
                            _size(s) * _philox.RESERVED)
    return _wrap(_philox.fill(_philox.normal, key, counter, s, dt._np)) * sd + m


def truncated_normal(shape: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = _dt.float32,
                     seed: Any = None, name: Any = None) -> Tensor:
    """Like :func:`normal`, but standard samples with ``|x| >= 2`` are dropped and re-picked."""
    dt = _float_dtype(dtype, "truncated_normal")
    s = _shape_arg(shape, "TruncatedNormal")
    sd, m = _param(stddev, dt), _param(mean, dt)
    key, counter = _reserve(("TruncatedNormal", dt.name, _shape_dtype(shape)), seed,
                            _size(s) * _philox.RESERVED)
    return _wrap(_philox.truncated_normal(key, counter, s, dt._np)) * sd + m


def uniform(shape: Any, minval: Any = 0, maxval: Any = None, dtype: Any = _dt.float32, seed: Any = None,
            name: Any = None) -> Tensor:
    """Samples from a uniform distribution on ``[minval, maxval)``.

    Floating dtypes default to ``[0, 1)``. Integer dtypes (int32, int64) need ``maxval`` and
    scalar bounds with ``minval < maxval``.

    >>> import tapegrad as tf
    >>> x = tf.random.uniform([100], 0, 10, dtype=tf.int32, seed=3)
    >>> bool(tf.reduce_all((x >= 0) & (x < 10)))
    True
    """
    dt = _dt.as_dtype(dtype)
    s = _shape_arg(shape, "RandomUniform")
    n = _size(s) * _philox.RESERVED
    if dt._np.kind == "f":
        scale = not (isinstance(minval, int) and minval == 0 and isinstance(maxval, int) and maxval == 1)
        lo = _param(0.0 if minval is None else minval, dt) if scale else None
        hi = _param(1.0 if maxval is None else maxval, dt) if scale else None
        key, counter = _reserve(("RandomUniform", dt.name, _shape_dtype(shape)), seed, n)
        u = _wrap(_philox.fill(_philox.uniform, key, counter, s, dt._np))
        return u * (hi - lo) + lo if scale else u
    if dt._np not in (np.int32, np.int64):
        raise ValueError(f"uniform: dtype must be float16, float32, float64, int32 or int64, got "
                         f"{dt.name}.")
    if maxval is None:
        raise ValueError(f"Must specify maxval for integer dtype {dt!r}")
    a, b = _int_bounds(minval, maxval, dt, "RandomUniformInt")
    key, counter = _reserve(("RandomUniformInt", dt.name, _shape_dtype(shape)), seed, n)
    return _wrap(_philox.fill(_philox.int_range, key, counter, s, dt._np, a, b))


_shuffle = defop("RandomShuffle", lambda x, perm: x[perm] if x.ndim else x, nondiff=True)


def shuffle(value: Any, seed: Any = None, name: Any = None) -> Tensor:
    """Randomly permute ``value`` along its first axis (TensorFlow's permutation for the same
    seeds). Gradients do not flow through it.

    >>> import tapegrad as tf
    >>> sorted(tf.random.shuffle(tf.range(5)).numpy().tolist())
    [0, 1, 2, 3, 4]
    """
    x = as_tensor(value)
    v = x._value
    n = v.shape[0] if v.ndim else 1
    if v.size <= 1 or n <= 1:  # TF's kernel draws nothing then
        _get_seed_locked(seed)
        return apply(_shuffle, (x,), {"perm": np.arange(n)})
    key, counter = _reserve(("RandomShuffle", x.dtype.name), seed, (n - 1 + 3) // 4)
    return apply(_shuffle, (x,), {"perm": _philox.permutation(key, counter, n)})


def _get_seed_locked(seed: Any) -> None:
    with _seeds.lock:
        _get_seed(seed)


def categorical(logits: Any, num_samples: Any, dtype: Any = None, seed: Any = None,
                name: Any = None) -> Tensor:
    """Draw ``num_samples`` class indices per row of ``logits`` ``[batch, classes]`` (unnormalised
    log-probabilities; ``-inf`` means probability 0). Returns ``[batch, num_samples]`` int64
    (or ``dtype`` int32); TensorFlow's samples for the same seeds.

    >>> import tapegrad as tf
    >>> tf.random.categorical([[0.0, float("-inf")]], 3).numpy()
    array([[0, 0, 0]])
    """
    lg, n, out_dt = _categorical_args(logits, num_samples, dtype)
    b = lg.shape[0]
    key, counter = _reserve(("Multinomial", str(lg.dtype), out_dt.name), seed,
                            b * ((n + 3) // 4 * 8) * _philox.RESERVED)
    return _wrap(_philox.categorical(key, counter, lg, n).astype(out_dt._np))


def _categorical_args(logits: Any, num_samples: Any, dtype: Any) -> tuple[np.ndarray, int, _dt.DType]:
    lg = as_tensor(logits)
    out_dt = _dt.int64 if dtype is None else _dt.as_dtype(dtype)
    if out_dt._np not in (np.int32, np.int64):
        raise ValueError(f"categorical: dtype must be int32 or int64, got {out_dt.name}.")
    if lg._value.dtype.kind != "f":
        raise InvalidArgumentError(f"categorical: logits must be floating, got "
                                   f"{lg.dtype.name}; cast them, e.g. tf.cast(logits, tf.float32) "
                                   "[Op:Multinomial]")
    if lg._value.ndim != 2:
        raise InvalidArgumentError(f"logits should be a matrix, got shape "
                                   f"{list(lg._value.shape)} [Op:Multinomial]")
    n = int(as_tensor(num_samples)._value)
    if n < 0:
        raise InvalidArgumentError(f"num_samples should be non-negative, got {n} [Op:Multinomial]")
    if lg._value.shape[1] == 0:
        raise InvalidArgumentError("num_classes should be positive, got 0: the logits have no "
                                   "classes [Op:Multinomial]")
    return lg._value, n, out_dt


# ---- stateless ops: the output is a function of (shape, seed, alg) alone ----

_ALGS = {"philox": 1, "threefry": 2, "autoselect": 3}


def _alg(alg: Any) -> int:
    if alg is None:
        return 3
    if isinstance(alg, (int, np.integer)) and not isinstance(alg, bool):
        a = int(alg)
    elif isinstance(alg, str):
        a = _ALGS.get(alg.strip().lower().replace("-", "").replace("_", ""), 0)
    elif hasattr(alg, "value") and type(alg).__name__ == "Algorithm":
        a = alg.value
    else:
        raise TypeError(f"Can't convert argument `alg` (of value {alg!r} and type {type(alg)}) to int.")
    if a not in (1, 2, 3):
        raise ValueError(f"Argument `alg` got unsupported value {alg!r}. Supported values are "
                         "'philox' (or 1) for the Philox algorithm, 'threefry' (or 2) for the "
                         "ThreeFry algorithm, and 'auto_select' (or 3) for auto-selection.")
    if a == 2:
        raise InvalidArgumentError("alg='threefry' is not implemented by TensorFlow's CPU kernels "
                                   "(nor here); use 'philox' or 'auto_select'")
    return a


def _seed_pair(seed: Any) -> tuple[int, int]:
    t = as_tensor(seed)
    v = t._value
    if v.dtype not in (np.int32, np.int64):
        raise InvalidArgumentError(f"seed must be an int32 or int64 tensor of shape [2], got dtype "
                                   f"{t.dtype.name} [Op:StatelessRandomGetKeyCounter]")
    if v.shape != (2,):
        raise InvalidArgumentError(f"seed must have shape [2], not {list(v.shape)} "
                                   "[Op:StatelessRandomGetKeyCounter]")
    return int(v[0]), int(v[1])


def _key_counter(seed: Any, alg: Any) -> tuple[int, int]:
    _alg(alg)  # philox and auto_select (philox on CPU) scramble the seed the same way
    return _philox.scramble(*_seed_pair(seed))


def _stateless_float(fn: str, op: str, shape: Any, seed: Any, mean: Any, stddev: Any, dtype: Any,
                     alg: Any) -> Tensor:
    dt = _dt.as_dtype(dtype)
    if dt._np.kind != "f":
        raise TypeError(f"{fn}: dtype must be float16, float32 or float64, got {dt.name}")
    s = _shape_arg(shape, op)
    m, sd = _param(mean, dt), _param(stddev, dt)
    key, counter = _key_counter(seed, alg)
    if fn == "stateless_normal":
        z = _philox.fill(_philox.normal, key, counter, s, dt._np)
    else:
        z = _philox.truncated_normal(key, counter, s, dt._np)
    return _wrap(z) * sd + m


def stateless_normal(shape: Any, seed: Any, mean: Any = 0.0, stddev: Any = 1.0,
                     dtype: Any = _dt.float32, name: Any = None, alg: Any = "auto_select") -> Tensor:
    """Normal samples determined by ``seed`` alone (a shape-[2] int32/int64 tensor): TensorFlow's
    numbers (Philox on CPU), ``standard_normal * stddev + mean``.

    >>> import tapegrad as tf
    >>> tf.random.stateless_normal([3], seed=[1, 2]).numpy().round(4)
    array([0.5441, 0.2074, 0.0736], dtype=float32)
    """
    return _stateless_float("stateless_normal", "StatelessRandomNormalV2", shape, seed, mean, stddev,
                            dtype, alg)


def stateless_truncated_normal(shape: Any, seed: Any, mean: Any = 0.0, stddev: Any = 1.0,
                               dtype: Any = _dt.float32, name: Any = None,
                               alg: Any = "auto_select") -> Tensor:
    """Like :func:`stateless_normal`, but standard samples with ``|x| >= 2`` are dropped and
    re-picked (TensorFlow's numbers).

    >>> import tapegrad as tf
    >>> x = tf.random.stateless_truncated_normal([1000], seed=[3, 4])
    >>> bool(tf.reduce_max(tf.abs(x)) < 2)
    True
    """
    return _stateless_float("stateless_truncated_normal", "StatelessTruncatedNormalV2", shape, seed,
                            mean, stddev, dtype, alg)


_UNIFORM_DTYPES = (np.float16, np.float32, np.float64, np.int32, np.int64, np.uint32, np.uint64)


def stateless_uniform(shape: Any, seed: Any, minval: Any = 0, maxval: Any = None,
                      dtype: Any = _dt.float32, name: Any = None, alg: Any = "auto_select") -> Tensor:
    """Uniform samples on ``[minval, maxval)`` determined by ``seed`` alone (TensorFlow's numbers).

    Floats default to ``[0, 1)``. Integer dtypes take both bounds (``lo + bits % (hi - lo)``, as
    TensorFlow, so very wide ranges are slightly biased) or neither: ``minval=None, maxval=None``
    gives integers over the dtype's full range (also for uint32 and uint64).

    >>> import tapegrad as tf
    >>> tf.random.stateless_uniform([4], seed=[1, 2], minval=0, maxval=10, dtype=tf.int32).numpy()
    array([0, 9, 4, 9], dtype=int32)
    """
    dt = _dt.as_dtype(dtype)
    if dt._np not in _UNIFORM_DTYPES:
        raise ValueError(f"stateless_uniform: dtype must be one of float16, float32, float64, int32, "
                         f"int64, uint32, uint64, got {dt.name}")
    s = _shape_arg(shape, "StatelessRandomUniformV2")
    if dt._np.kind == "f":
        lo = _param(0.0 if minval is None else minval, dt)
        hi = _param(1.0 if maxval is None else maxval, dt)
        key, counter = _key_counter(seed, alg)
        return _wrap(_philox.fill(_philox.uniform, key, counter, s, dt._np)) * (hi - lo) + lo
    if (minval is None) != (maxval is None):
        raise ValueError(f"stateless_uniform: for integer dtype {dt.name} give both minval and "
                         f"maxval, or neither (the full range); got minval={minval!r}, "
                         f"maxval={maxval!r}")
    if minval is None:
        key, counter = _key_counter(seed, alg)
        return _wrap(_philox.fill(_philox.full_int, key, counter, s, dt._np))
    if dt._np.kind == "u":
        raise ValueError(f"stateless_uniform: dtype {dt.name} only draws the full range "
                         "(minval=None, maxval=None); use int32 or int64 for bounds")
    a, b = _int_bounds(minval, maxval, dt, "StatelessRandomUniformIntV2")
    key, counter = _key_counter(seed, alg)
    return _wrap(_philox.fill(_philox.int_range, key, counter, s, dt._np, a, b))


def _int_bounds(minval: Any, maxval: Any, dt: _dt.DType, op: str) -> tuple[int, int]:
    lo, hi = (as_tensor(v) if isinstance(v, Tensor) else convert_to_tensor(v, dtype=dt)
              for v in (minval, maxval))
    if lo._value.ndim or hi._value.ndim:
        raise InvalidArgumentError(f"minval and maxval must be scalars for integer dtypes, "
                                   f"got shapes {list(lo._value.shape)} and {list(hi._value.shape)} "
                                   f"[Op:{op}]")
    a, b = int(lo._value), int(hi._value)
    if a >= b:
        raise InvalidArgumentError(f"Need minval < maxval, got {a} >= {b} [Op:{op}]")
    return a, b


if not TYPE_CHECKING:  # hidden from type checkers: they report a missing name
    def __getattr__(name: str) -> object:  # "not covered yet" for a TF name, "did you mean" for a typo
        if name.startswith("_"):  # (private and special names: no lookup, no import)
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        from ._missing import attribute_error  # loaded on the first miss, not at import
        raise attribute_error("random", name)
