"""The random family: TensorFlow's random ops and kernels (``tf.random``), with TensorFlow's numbers.

Every op draws from TensorFlow's Philox-4x32-10 streams with the transforms of TensorFlow's CPU
kernels (``tapegrad._philox``), so a seeded program prints the numbers TensorFlow 2.21 prints:

* stateless ops (``stateless_normal``, ``stateless_uniform``, ``stateless_truncated_normal``,
  ``stateless_categorical``, ``stateless_gamma``, ``stateless_poisson``, ``stateless_binomial``,
  ``split``, ``fold_in``) are functions of their ``seed`` pair;
* ``gamma``, ``poisson`` and the binomial kernels draw a variable number of samples per output,
  each output from its own window of the stream (TF's 256 blocks per output);
* :class:`Generator` keeps its Philox state in an int64 variable and advances it as TF does;
* stateful ops follow TF eager's seeds: no global seed and no op seed is fresh randomness; a
  global seed (:func:`set_seed`) alone gives each call the next op seed of TF's counter; an op
  seed (``seed=``) selects a stream keyed by (op, dtype, global seed, op seed) that repeated calls
  continue (TF caches one kernel per such key), and ``set_seed`` restarts everything;
* in a graph (a ``tf.function`` trace; a Keras train step, run under :func:`graph_step`) the
  unseeded ops take the op seeds 0, 1, 2, ... in order and each op is one kernel whose stream
  goes on from call to call; the body of a ``for t in tf.range(n)`` loop is a graph of its own
  (AutoGraph's while loop: op seeds 0, 1, ... again, one kernel per op for all iterations), as
  are the bodies of ``tf.while_loop``, ``map_fn``, ``scan``, the folds, and each branch of
  ``tf.cond``, ``tf.case`` and ``tf.switch_case``;
* the candidate samplers (``log_uniform_candidate_sampler``, ..., family ``sampled``) draw through
  :func:`kernel_draw` too: TF's ``RangeSampler`` kernels on its ``SimplePhilox``.

Integers and uniform floats are bit-identical to TF's; normals pass through ``log``/``sin``/``cos``,
whose last bit depends on the math library (TF's float32 kernel calls the C library's ``sincosf``):
float64 and float16 agree exactly here, float32 within 2 ulp (about 98.5% bit-identical).

>>> import tapegrad as tf
>>> tf.random.set_seed(42)
>>> a = tf.random.uniform([2])
>>> tf.random.set_seed(42)
>>> bool(tf.reduce_all(a == tf.random.uniform([2])))
True
"""
from __future__ import annotations

import contextlib
import enum
import itertools
import random as _pyrandom
import threading
import weakref
from typing import Any, Callable, Iterator

import numpy as np

from .. import _backend as _bk, _jit, _philox, _recorders as _rec, _trace
from .. import dtypes as _dt
from .._convert import as_tensor, convert_to_tensor, host_value
from .._dispatch import apply, defop
from .._tensor import Tensor, constant_maker, wrap as _wrap
from .._variable import Variable
from ..errors import InvalidArgumentError
from .array import _shape_arg, broadcast_to, reshape, stack as _stack
from .math import cast, maximum

__all__ = ["set_seed", "normal", "uniform", "truncated_normal", "shuffle", "categorical", "gamma",
           "poisson", "stateless_normal", "stateless_uniform", "stateless_truncated_normal",
           "stateless_categorical", "stateless_gamma", "stateless_poisson", "stateless_binomial",
           "split", "fold_in", "Algorithm", "create_rng_state", "Generator", "get_global_generator",
           "set_global_generator", "index_shuffle", "stateless_shuffle"]

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
        self.sets = 0  # how many times set_seed ran (tf.distribute's replicas follow each)


_seeds = _Seeds()


def seed_setting() -> tuple:
    """(internal) How many times :func:`set_seed` ran, and the global seed it set: a mirrored
    strategy's replicas, processes of their own, set it too before their next step."""
    return _seeds.sets, _seeds.global_seed


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
        _seeds.sets += 1


class _Graph:
    """The seeds of one TensorFlow graph whose random kernels live on between its runs: a
    ``tf.function``'s (one per concrete function TF would trace: the traces tapegrad makes for
    the calls it covers share the kernels), the body of a ``for x in tensor`` loop in it
    (AutoGraph's while loop: one kernel per op of the body, whatever the iteration), a Keras
    train step's. ``seed``: the global seed when the graph was built;
    unseeded ops take op seeds 0, 1, 2, ... in order, and the ``i``-th random op of a run is
    kernel ``(owner, i)`` (``owner``: the graph itself when None)."""

    def __init__(self, owner: Any, seed: int | None, traced: list | None = None) -> None:
        self.owner, self.seed, self.run = self if owner is None else owner, seed, None
        self.step = False  # (a Keras step's graph: graph_step)
        self.next_seed = self.pos = self.unseeded = 0
        self.traced = [] if traced is None else traced  # values Python computed at its trace
        self.traced_run, self.traced_pos = None, 0

    def seed_of(self, op_seed: Any, run: Any) -> tuple[int, int]:
        """(lock held) The seeds of the next op that takes seeds, in run ``run``."""
        if run != self.run:
            self.run, self.next_seed, self.pos, self.unseeded = run, 0, 0, 0
        if op_seed is None:
            self.unseeded += 1
        return _get_seed(op_seed, self)

    def node(self, op_seed: Any, run: Any = None) -> tuple:
        """(lock held) The kernel key of the next random op of run ``run``."""
        seeds = self.seed_of(op_seed, run)
        self.pos += 1
        return ("node", self.owner, self.pos - 1) + seeds


def _get_seed(op_seed: Any, graph: _Graph | None = None) -> tuple[int, int]:
    """TF's ``random_seed.get_seed``, with ``None`` as 0 (the kernels' "random"): eager, or in
    ``graph``."""
    g = _seeds.global_seed if graph is None else graph.seed
    if g is not None and op_seed is None and graph is None:
        op_seed = _seeds.op_seeds.randint(0, _MAXINT32)
    elif g is not None and op_seed is None:
        op_seed = graph.next_seed
        graph.next_seed += 1
    return _seed_pair(g, op_seed)


def _seed_pair(g: int | None, op_seed: Any) -> tuple[int, int]:
    """The (seed, seed2) of an op of op seed ``op_seed`` under the graph (or global) seed ``g``;
    ``op_seed`` None only where ``g`` is."""
    if g is None:
        return (0, 0) if op_seed is None else (_DEFAULT_GRAPH_SEED, int(op_seed) % _MAXINT32)
    seeds = g % _MAXINT32, int(op_seed) % _MAXINT32
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


def _advance(kernel: tuple, nblocks: int) -> tuple[int, int, list]:
    """(lock held) The key and counter kernel ``kernel`` draws from, and its state, whose counter
    moves on by ``nblocks`` (TF's ``GuardedPhiloxRandom`` reservation)."""
    state = _seeds.kernels.get(kernel)
    if state is None:
        seed1, seed2 = kernel[-2:]
        if seed1 == seed2 == 0:  # unseeded: a kernel seeded from fresh entropy
            seed1, seed2 = (int(v) for v in np.random.SeedSequence().generate_state(2, np.uint64))
        state = _seeds.kernels[kernel] = [seed1 & _philox.M64, (seed2 & _philox.M64) << 64]
    key, counter = state[:2]
    state[1] = (counter + nblocks) & _philox.M128
    _on_miss(lambda: state.__setitem__(1, counter))
    return key, counter, state


def _on_miss(undo: Callable) -> None:
    """Take a kernel's state change back (``undo()``) if the replay running misses a guard."""
    if _trace.replaying():
        _trace.on_miss(undo)


_owner_seeds: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # kernels' owner -> its graph seed


def _owner_seed(owner: Any) -> int | None:
    """(lock held) The global seed of the moment the first trace of ``owner``'s concrete function
    was made: a later trace of it (another shape under an ``input_signature``) is the same graph
    in TensorFlow, whose op seeds a ``tf.random.set_seed`` made since does not change."""
    try:
        return _owner_seeds.setdefault(owner, _seeds.global_seed)
    except TypeError:  # (an owner that cannot be weakly referenced: a graph of its own)
        return _seeds.global_seed


def _graph(tr: _trace.Tracer) -> tuple[_Graph, Any]:
    """(lock held) The graph a random op traced now belongs to, and the run of it."""
    if tr.random_graphs is None:  # (a trace made in a Keras step is that step's graph: Keras traces it once;
        # one made in another graph's run, a dataset function's, is a graph of its own with that graph's seed)
        outer = _steps.graph
        tr.random_graphs = {(): outer if outer is not None and outer.step else
                            _Graph(tr.owner, _owner_seed(tr.owner) if outer is None else outer.seed)}
    body, run = tr.loop() or ((), None)
    if not body and tr.random_graphs[()] is _steps.graph:
        run = _steps.run  # (each trace of the step is a run of its graph: its ops are nodes 0, 1, ...)
    g = tr.random_graphs.get(body)
    if g is None:
        g = tr.random_graphs[body] = _Graph((tr.owner, body), tr.random_graphs[()].seed)
    return g, run


class _Step(threading.local):
    """The step graph running in this thread (``graph``, its run ``run``), if any."""
    graph: _Graph | None = None
    run = 0


_steps = _Step()
_runs = itertools.count(1)  # run numbers, never reused (a run nested in another restores the outer one)
_step_graphs: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # owner -> its step's _Graph


@contextlib.contextmanager
def graph_step(owner: Any) -> Iterator[None]:
    """Run one call of a compiled step function eagerly with TensorFlow's graph seeds: its random
    ops take the op seeds of the step's graph (0, 1, 2, ... under a global seed) and kernels that
    continue from one step to the next, as in the ``tf.function`` Keras runs ``train_step`` in.
    The steps of one ``owner`` share one graph, whatever the batch shapes (Keras traces its
    step once, for the dataset's element spec, whose batch dimension is None)."""
    with _seeds.lock:
        g = _step_graphs.get(owner)
        if g is None or g.seed != _seeds.global_seed:
            g = _step_graphs[owner] = _Graph(None, _seeds.global_seed)
            g.step = True
    with in_graph(g):
        yield


class _InGraph:
    """(:func:`in_graph`'s context: a class, lighter than a generator for a call per element)"""

    __slots__ = ("graph", "prev")

    def __init__(self, graph: _Graph) -> None:
        self.graph = graph

    def __enter__(self) -> int:
        self.prev = _steps.graph, _steps.run
        _steps.graph, _steps.run = self.graph, next(_runs)
        return _steps.run

    def __exit__(self, *exc: Any) -> None:
        _steps.graph, _steps.run = self.prev


def _graph_runs() -> bool:
    """Whether a TensorFlow graph's function runs now (a dataset's function, a Keras step)."""
    return _steps.graph is not None


_rec.graph_runs = _graph_runs


def call_in_graph(graph: _Graph, fn: Callable, args: tuple) -> tuple[Any, bool]:
    """``fn(*args)`` run as one call of ``graph``'s function (see :func:`in_graph`), and whether
    a random op ran in it (the lean form, for a call per dataset element)."""
    steps = _steps
    prev = steps.graph, steps.run
    steps.graph, steps.run = graph, next(_runs)
    run = steps.run
    try:
        out = fn(*args)
    finally:
        steps.graph, steps.run = prev
    return out, graph.run == run


def in_graph(graph: _Graph) -> _InGraph:
    """Run one call of ``graph``'s function eagerly with its seeds (a new run of it: its random
    ops take its op seeds from the first again, and its kernels go on). Entering gives the run:
    a random op ran in it when ``graph.run`` is that run afterwards."""
    return _InGraph(graph)


def trace_time(draw: Callable[[], Any]) -> Any:
    """A value Python code computes while TensorFlow traces it, such as the op seed Keras's
    legacy ``random_normal`` draws from NumPy when given none: in the graph of a step or dataset
    function running (:func:`graph_step`, :func:`in_graph`) ``draw()`` runs at the graph's first
    run only (its trace), and later runs reuse its value at the same place; eagerly it runs every
    time."""
    g = _steps.graph
    if g is None:
        return draw()
    with _seeds.lock:
        if g.traced_run != _steps.run:
            g.traced_run, g.traced_pos = _steps.run, 0
        pos = g.traced_pos
        g.traced_pos += 1
        if pos < len(g.traced):
            return g.traced[pos]
    value = draw()
    g.traced.append(value)
    return value


class FunctionSeeds:
    """The seeds of a function TensorFlow traces into a graph of its own when it is given, as
    ``tf.data`` traces ``map``'s function when the dataset is made: the graph's seed is the global
    seed of that moment (a later ``set_seed`` does not change it), its unseeded random ops take
    the op seeds 0, 1, 2, ... in order, and each instance of it (one per dataset iterator) makes
    its random kernels afresh, so an iterator draws what the one before drew."""

    def __init__(self) -> None:
        with _seeds.lock:
            self.seed = _seeds.global_seed
        self.traced: list = []  # (one trace: its instances share what it computed)

    def instance(self) -> _Graph:
        """A new instance of the function's graph (its kernels start afresh)."""
        return _Graph(None, self.seed, self.traced)



def _stateful(op: tuple, seed: Any, nblocks: int, make: Make, xs: tuple = ()) -> Tensor:
    """A stateful kernel's draw ``make(key, counter, *values of xs)``."""
    return kernel_draw(op, seed, nblocks, make, xs)[0]


def kernel_draw(op: tuple, seed: Any, nblocks: int, make: Callable, xs: tuple = (),
                state: bool = False) -> tuple:
    """The output tensors of one call of a stateful random kernel (TF's ``GuardedPhiloxRandom``
    ops): ``make(key, counter, [kernel state, on_miss,] *values of xs)`` draws from the Philox
    stream at ``(key, counter)`` (a :class:`Make`: one output, and a form as data for saved
    functions), and the kernel's counter moves on by ``nblocks``. ``op``: the
    op's name and attributes; ``seed``: its op seed. ``state``: for kernels that keep more than
    their Philox state, the kernel's state list (to extend) and ``on_miss(undo)``, which
    registers how to take a change to it back.

    Eagerly the kernel is TF eager's (keyed by ``op`` and the seeds), or the op's in the Keras
    step running (:func:`graph_step`). In a ``tf.function`` trace the op is a node of the
    trace's graph (or of a loop body's or branch's) that draws afresh at each replay from its own
    kernel, as TF's graph kernels do, and so it is in an eager run of a ``tf.function`` that
    cannot be replayed (``_trace.GraphRun``); ``set_seed`` restarts every kernel."""
    tr = _trace.innermost_graph()
    if tr is None:
        _rec.note_random(xs, True)
        step = _steps.graph
        with _seeds.lock:
            if step is not None:
                kernel = step.node(seed, _steps.run)
            else:
                kernel = op + _get_seed(seed)
            key, counter, st = _advance(kernel, nblocks)
        out = make(key, counter, *((st, _on_miss) if state else ()), *[x._value for x in xs])
        return tuple(_bk.place(_wrap(a)) for a in ((out,) if type(make) is Make else out))
    with _seeds.lock:
        g, run = _graph(tr)
        node = g.node(seed, run)
        op_seed = (None, g.unseeded - 1) if seed is None else (int(seed), None)
    return _trace.draw(KernelDraw(node, nblocks, make, state, g, op_seed), list(xs), True)


class KernelDraw:
    """(internal) A stateful random op of a graph, as its trace replays it: each call draws
    ``make(key, counter, ...)`` from kernel ``node`` (``("node", owner, position, seed, seed2)``),
    whose counter moves on by ``nblocks``. Called from another graph's run (a dataset function's
    or a Keras step's), it draws from that graph's instance of it: TF instantiates its kernels
    there afresh. ``graph``: the graph it belongs to (None: a loaded function's). ``op_seed``:
    its op seed (``seed=``) and its place among the graph's unseeded random ops, for
    :func:`_saved_seeds` (None: a loaded function's, whose seeds are fixed)."""

    __slots__ = ("node", "nblocks", "make", "state", "graph", "op_seed")

    def __init__(self, node: tuple, nblocks: int, make: Callable, state: bool, graph: Any,
                 op_seed: tuple | None = None) -> None:
        self.node, self.nblocks, self.make, self.state, self.graph = node, nblocks, make, state, graph
        self.op_seed = op_seed

    def __call__(self, *values: np.ndarray) -> tuple:
        outer = _steps.graph
        with _seeds.lock:
            key, counter, st = _advance(self.node if outer is None or outer is self.graph else
                                        ("in", outer.owner) + self.node, self.nblocks)
        out = self.make(key, counter, *((st, _on_miss) if self.state else ()), *values)
        return (out,) if type(self.make) is Make else out


class Make:
    """(internal) How a random kernel turns its Philox stream into samples, as data:
    ``Make(name, *args)(key, counter, *values)`` is ``MAKERS[name](key, counter, *values,
    *args)``, so a saved function stores the name and arguments (shapes, counts, dtypes) only."""

    __slots__ = ("name", "args")

    def __init__(self, name: str, *args: Any) -> None:
        if name not in MAKERS:
            raise ValueError(f"an unknown random kernel {name!r}")
        self.name, self.args = name, args

    def __call__(self, key: int, counter: int, *values: np.ndarray) -> np.ndarray:
        return MAKERS[self.name](key, counter, *values, *self.args)

    def blocks(self) -> int | None:
        """The counter step of a kernel whose step is not affine in its sizes (a shuffle's, a
        Generator's binomial), from the arguments; None for the others."""
        if self.name == "permutation":
            n, draws = (*self.args, True)[:2]
            return (n - 1 + 3) // 4 if draws else 0
        if self.name == "binomial":
            _, nb, spb, _ = self.args
            return nb * 2 * 100 * (spb + 3) // 4 * _philox.RESERVED
        return None


_FILLS = {"normal": _philox.normal, "uniform": _philox.uniform, "int_range": _philox.int_range,
          "full_int": _philox.full_int}


def _make_fill(key: int, counter: int, kind: str, s: tuple, dt: np.dtype, *bounds: int) -> np.ndarray:
    return _philox.fill(_FILLS[kind], key, counter, s, dt, *bounds,
                        make_blocks=_jit.philox_blocks if _jit.ops_wanted() else _philox.blocks)


def _make_truncated(key: int, counter: int, s: tuple, dt: np.dtype) -> np.ndarray:
    return _philox.truncated_normal(key, counter, s, dt)


def _make_gamma(key: int, counter: int, av: np.ndarray, n: int, dt: _dt.DType) -> np.ndarray:
    return _gamma_np(av, n, key, counter, dt)


def _make_poisson(key: int, counter: int, lv: np.ndarray, n: int, dt: _dt.DType,
                  s: tuple | None = None) -> np.ndarray:
    return _poisson_np(lv, n, key, counter, dt) if s is None else _poisson_np(lv.ravel(), n, key, counter,
                                                                            dt).reshape(s)


def _make_permutation(key: int, counter: int, n: int, draws: bool = True) -> np.ndarray:
    return _philox.permutation(key, counter, n) if draws else np.arange(n)


def _make_categorical(key: int, counter: int, v: np.ndarray, n: int, dt: np.dtype) -> np.ndarray:
    return _philox.categorical(key, counter, v, n).astype(dt)


def _make_binomial(key: int, counter: int, cv: np.ndarray, pv: np.ndarray, s: tuple, nb: int, spb: int,
                   dt: _dt.DType) -> np.ndarray:
    return _binomial_np(key, counter, cv, pv, s, nb, spb, dt)


def _make_state(key: int, counter: int) -> np.ndarray:
    return np.array([counter & _philox.M64, counter >> 64, key], np.uint64).view(np.int64)


MAKERS = {"fill": _make_fill, "truncated_normal": _make_truncated, "gamma": _make_gamma,
           "poisson": _make_poisson, "permutation": _make_permutation, "categorical": _make_categorical,
           "binomial": _make_binomial, "state": _make_state}


def _saved_seeds(draw: KernelDraw) -> tuple[int, int]:
    """The op seeds of a random op of a function saved now: TensorFlow traces the function again
    when it saves it, so its graph seed is the global seed of this moment (the unseeded ops take
    the op seeds 0, 1, 2, ... in their order)."""
    if draw.op_seed is None:
        return draw.node[-2:]
    seed, index = draw.op_seed
    with _seeds.lock:
        g = _seeds.global_seed
    return _seed_pair(g, index if seed is None and g is not None else seed)


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


@constant_maker
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
    return _stateful(("RandomStandardNormal", dt.name, _shape_dtype(shape)), seed,
                     _size(s) * _philox.RESERVED,
                     Make("fill", "normal", s, dt._np)) * sd + m


@constant_maker
def truncated_normal(shape: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = _dt.float32,
                     seed: Any = None, name: Any = None) -> Tensor:
    """Like :func:`normal`, but standard samples with ``|x| >= 2`` are dropped and re-picked."""
    dt = _float_dtype(dtype, "truncated_normal")
    s = _shape_arg(shape, "TruncatedNormal")
    sd, m = _param(stddev, dt), _param(mean, dt)
    return _stateful(("TruncatedNormal", dt.name, _shape_dtype(shape)), seed, _size(s) * _philox.RESERVED,
                     Make("truncated_normal", s, dt._np)) * sd + m


@constant_maker
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
        u = _stateful(("RandomUniform", dt.name, _shape_dtype(shape)), seed, n, Make("fill", "uniform", s, dt._np))
        return u * (hi - lo) + lo if scale else u
    if dt._np not in (np.int32, np.int64):
        raise ValueError(f"uniform: dtype must be float16, float32, float64, int32 or int64, got "
                         f"{dt.name}.")
    if maxval is None:
        raise ValueError(f"Must specify maxval for integer dtype {dt!r}")
    a, b = _int_bounds(minval, maxval, dt, "RandomUniformInt")
    return _stateful(("RandomUniformInt", dt.name, _shape_dtype(shape)), seed, n,
                     Make("fill", "int_range", s, dt._np, a, b))


def _gamma_grad_fwd(alpha: np.ndarray, sample: np.ndarray) -> np.ndarray:
    """d sample / d alpha at fixed CDF: ``-(dP/da) / (dP/dx)`` for P the regularized lower
    incomplete gamma function (TF's RandomGammaGrad; dP/da by a central difference in float64)."""
    from scipy.special import gammainc, gammaln
    a, x = np.broadcast_arrays(alpha.astype(np.float64), sample.astype(np.float64))
    h = 1e-5 * a
    dpda = (gammainc(a + h, x) - gammainc(a - h, x)) / (2 * h)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        dpdx = np.exp((a - 1) * np.log(x) - x - gammaln(a))
        out = np.where(x > 0, -dpda / dpdx, 0.0)
    return out.astype(np.result_type(alpha, sample))


_gamma_grad = defop("RandomGammaGrad", _gamma_grad_fwd, nondiff=True, broadcast=True)

# RandomGamma passes on samples drawn for ``alpha`` (broadcast to the samples' shape); its
# derivative in alpha is TF's (implicit reparameterization), the samples take none.
_gamma = defop("RandomGamma", lambda alpha, samples: samples,
               deriv=(lambda ans, alpha, samples: apply(_gamma_grad, (alpha, ans)), None))


def _gamma_op(alpha: Tensor, samples: Tensor) -> Tensor:
    """RandomGamma on ``samples`` of shape ``[sample dims] + alpha.shape``."""
    lead = samples.shape.rank - alpha.shape.rank
    a = broadcast_to(reshape(alpha, [1] * lead + list(alpha._value.shape)), list(samples._value.shape))
    return apply(_gamma, (a, samples), {})


@constant_maker
def _gamma_args(alpha: Any, beta: Any, dtype: Any, fn: str) -> tuple[_dt.DType, Tensor, Tensor]:
    dt = _float_dtype(dtype, fn)
    a = _param(alpha, dt)
    b = _param(1 if beta is None else beta, dt)
    shape = np.broadcast_shapes(a._value.shape, b._value.shape)
    if a._value.shape != shape:
        a = broadcast_to(a, shape)
    return dt, a, b


def _gamma_np(av: np.ndarray, n: int, key: int, counter: int, dt: _dt.DType) -> np.ndarray:
    """RandomGamma's layout: ``[n samples, alpha...]``; output index ``o = alpha_index * n +
    sample_index`` draws from ``counter + 256 o``."""
    flat = _philox.gamma(key, counter, np.repeat(av.astype(np.float64).ravel(), n))
    return flat.reshape(av.size, n).T.reshape((n,) + av.shape).astype(dt._np)


@constant_maker
def gamma(shape: Any, alpha: Any, beta: Any = None, dtype: Any = _dt.float32, seed: Any = None,
          name: Any = None) -> Tensor:
    """Samples of Gamma(``alpha``, rate ``beta``): shape ``shape + broadcast(alpha, beta).shape``,
    TensorFlow's numbers (its Marsaglia-Tsang kernel on Philox). Gradients flow to ``alpha``
    (TF's implicit reparameterization) and ``beta``.

    >>> import tapegrad as tf
    >>> x = tf.random.gamma([1000], [0.5, 4.0], seed=1)
    >>> x.shape, bool(tf.reduce_all(x > 0))
    (TensorShape([1000, 2]), True)
    """
    dt, a, b = _gamma_args(alpha, beta, dtype, "gamma")
    s = _shape_arg(shape, "RandomGamma")
    n = _size(s)
    if a._value.size == 0 or n == 0:
        return _wrap(np.zeros(s + a._value.shape, dt._np))
    samples = _stateful(("RandomGamma", dt.name, _shape_dtype(shape)), seed, n * a._value.size * _philox.RESERVED,
                        Make("gamma", n, dt), (a,))
    g = _gamma_op(a, reshape(samples, list(s) + list(a._value.shape)))
    return maximum(np.finfo(dt._np).tiny, g / b)


def _poisson_np(lam: np.ndarray, n: int, key: int, counter: int, dt: _dt.DType) -> np.ndarray:
    """RandomPoisson's layout (as RandomGamma's): ``[n samples, rate...]``."""
    highest = float(np.finfo(dt._np).max if dt._np.kind == "f" else np.iinfo(dt._np).max)
    flat = _philox.poisson(key, counter, np.repeat(lam.astype(np.float64).ravel(), n), highest)
    return flat.reshape(lam.size, n).T.reshape((n,) + lam.shape).astype(dt._np)


@constant_maker
def _poisson_args(lam: Any, dtype: Any, fn: str) -> tuple[Tensor, _dt.DType]:
    dt = _dt.as_dtype(dtype)
    if dt._np not in (np.float16, np.float32, np.float64, np.int32, np.int64):
        raise ValueError(f"{fn}: dtype must be float16, float32, float64, int32 or int64, got {dt.name}.")
    lt = as_tensor(lam)
    if lt._value.dtype.kind not in "fi":
        raise InvalidArgumentError(f"{fn}: lam must be floating or integer, got {lt.dtype.name}")
    return lt, dt


@constant_maker
def poisson(shape: Any, lam: Any, dtype: Any = _dt.float32, seed: Any = None, name: Any = None) -> Tensor:
    """Samples of Poisson(``lam``): shape ``shape + lam.shape``, TensorFlow's numbers (Knuth's
    method below rate 10, Hormann's transformed rejection above). Not differentiable.

    >>> import tapegrad as tf
    >>> tf.random.poisson([2], [1.0, 50.0], seed=3).shape
    TensorShape([2, 2])
    """
    lt, dt = _poisson_args(lam, dtype, "poisson")
    s = _shape_arg(shape, "RandomPoissonV2")
    n = _size(s)
    if n == 0 or lt._value.size == 0:
        return _wrap(np.zeros(s + lt._value.shape, dt._np))
    out = _stateful(("RandomPoissonV2", lt.dtype.name, dt.name, _shape_dtype(shape)), seed,
                    n * lt._value.size * _philox.RESERVED,
                    Make("poisson", n, dt), (lt,))
    return reshape(out, list(s) + list(lt._value.shape))


_shuffle = defop("RandomShuffle", lambda x, perm: x[perm] if x.ndim else x, nondiff=True)  # perm: drawn


def shuffle(value: Any, seed: Any = None, name: Any = None) -> Tensor:
    """Randomly permute ``value`` along its first axis (TensorFlow's permutation for the same
    seeds). Gradients do not flow through it.

    >>> import tapegrad as tf
    >>> sorted(tf.random.shuffle(tf.range(5)).numpy().tolist())
    [0, 1, 2, 3, 4]
    """
    x = as_tensor(value)
    n = x._value.shape[0] if x._value.ndim else 1
    if x._value.size <= 1 or n <= 1:  # TF's kernel draws nothing then
        perm = _stateful(("RandomShuffle", x.dtype.name), seed, 0, Make("permutation", n, False))
    else:
        perm = _stateful(("RandomShuffle", x.dtype.name), seed, (n - 1 + 3) // 4, Make("permutation", n))
    return apply(_shuffle, (x, perm), {})


def op_seeds(seed: Any) -> tuple[int, int]:
    """The (seed, seed2) pair TF gives an op with op seed ``seed`` made now (eagerly, or in the
    graph of the function running: see :func:`in_graph`); (0, 0): unseeded."""
    tr = _trace.innermost_graph()  # (a tf.function's graph: an op of it, as a random op is)
    with _seeds.lock:
        if tr is not None:
            g, run = _graph(tr)
            return g.seed_of(seed, run)
        step = _steps.graph
        return _get_seed(seed) if step is None else step.seed_of(seed, _steps.run)


def fit_permutation(n: int) -> np.ndarray:
    """The order of Keras 3's ``fit(shuffle=True)`` on the TF backend: ``tf.random.shuffle`` in a
    ``tf.data`` function, whose op seed is 0 and whose kernel starts afresh each epoch (so a
    global seed gives the same permutation every epoch; none gives fresh entropy)."""
    with _seeds.lock:
        g = _seeds.global_seed
    if g is None or n <= 1:
        return np.random.default_rng().permutation(n)
    seed1, seed2 = g % _MAXINT32, 0
    if seed1 == 0:
        seed2 = _MAXINT32
    return _philox.permutation(seed1, seed2 << 64, n)


def fit_batch_permutation(n: int, batch_size: int) -> np.ndarray:
    """The order of Keras 3's ``fit(shuffle="batch")`` on the TF backend: the rows in order, each
    batch's rows permuted by ``tf.random.shuffle`` mapped over the batches in a ``tf.data``
    function (op seed 0, one kernel whose counter runs on from batch to batch and starts afresh
    each epoch; no global seed: fresh entropy)."""
    with _seeds.lock:
        g = _seeds.global_seed
    order = np.arange(n)
    if g is None:
        rng = np.random.default_rng()
        for start in range(0, n, batch_size):
            rng.shuffle(order[start:start + batch_size])
        return order
    seed1, seed2 = g % _MAXINT32, 0
    if seed1 == 0:
        seed2 = _MAXINT32
    counter = seed2 << 64
    for start in range(0, n, batch_size):
        m = min(batch_size, n - start)
        if m > 1:
            order[start:start + m] = start + _philox.permutation(seed1, counter, m)
            counter += (m - 1 + 3) // 4
    return order


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
    b = lg._value.shape[0]
    return _stateful(("Multinomial", str(lg._value.dtype), out_dt.name), seed,
                     b * ((n + 3) // 4 * 8) * _philox.RESERVED,
                     Make("categorical", n, out_dt._np), (as_tensor(logits),))


def _categorical_args(logits: Any, num_samples: Any, dtype: Any) -> tuple[Tensor, int, _dt.DType]:
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
    n = int(as_tensor(num_samples))
    if n < 0:
        raise InvalidArgumentError(f"num_samples should be non-negative, got {n} [Op:Multinomial]")
    if lg._value.shape[1] == 0:
        raise InvalidArgumentError("num_classes should be positive, got 0: the logits have no "
                                   "classes [Op:Multinomial]")
    return lg, n, out_dt


def take_seed(seed: Any) -> None:
    """Move TF's op-seed counter on as an op that takes seeds but draws nothing does (TF's
    ``compute_accidental_hits`` and ``all_candidate_sampler`` call ``get_seed``)."""
    op_seeds(seed)


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


_spmd = threading.local()  # (shards: DTensor's SPMD expansion of stateless draws, see _spmd_expansion)


@contextlib.contextmanager
def _spmd_expansion(shards: Callable[[tuple], list]) -> Iterator[None]:
    """Within the block, a stateless random op draws as DTensor's SPMD expansion of it for a
    sharded layout: each device's block of the output (``shards(shape)``: ``(slices, device
    seed)`` per device) drawn at its local shape with the key XORed with the device's seed."""
    prev, _spmd.shards = getattr(_spmd, "shards", None), shards
    try:
        yield
    finally:
        _spmd.shards = prev


def _stateless(seed: Any, alg: Any, make: Callable, xs: tuple = ()) -> Tensor:
    """The draw ``make(key, counter, *values of xs)`` keyed by a stateless ``seed`` (a trace
    replays it with the seed's value of each call)."""
    _alg(alg)  # philox and auto_select (philox on CPU) scramble the seed the same way
    t = as_tensor(seed)
    _check_seed(t)
    shards = getattr(_spmd, "shards", None)
    draw = StatelessDraw(make) if shards is None or make.name not in ("fill", "truncated_normal") \
        else ShardedStatelessDraw(make, shards)
    out = _trace.draw(draw, [t, *xs], False)[0]
    return out if _trace.innermost() is not None else _bk.place(out)


class StatelessDraw:
    """(internal) A stateless random op as its trace replays it: ``make``'s draw keyed by the
    seed's value (the first input) of each call."""

    __slots__ = ("make",)

    def __init__(self, make: Make) -> None:
        self.make = make

    def __call__(self, sv: np.ndarray, *vs: np.ndarray) -> tuple:
        return (self.make(*_philox.scramble(int(sv[0]), int(sv[1])), *vs),)


class ShardedStatelessDraw:
    """(internal) A stateless random op as DTensor's SPMD expansion runs it (:func:`_spmd_expansion`)."""

    __slots__ = ("make", "shards")

    def __init__(self, make: Make, shards: Callable[[tuple], list]) -> None:
        self.make = make
        at = 1 if make.name == "fill" else 0  # (where the Make's arguments hold the shape)
        self.shards = [(slices, seed, Make(make.name, *make.args[:at],
                                           tuple(x.stop - x.start for x in slices), *make.args[at + 1:]))
                       for slices, seed in shards(tuple(make.args[at]))]

    def __call__(self, sv: np.ndarray, *vs: np.ndarray) -> tuple:
        key, counter = _philox.scramble(int(sv[0]), int(sv[1]))
        blocks = [(slices, local(key ^ (seed & _philox.M64), counter, *vs)) for slices, seed, local in self.shards]
        out = np.empty(tuple(self.make.args[1 if self.make.name == "fill" else 0]), blocks[0][1].dtype)
        for slices, block in blocks:
            out[slices] = block
        return (out,)


def _check_seed(t: Tensor) -> None:
    if t._value.dtype not in (np.int32, np.int64):
        raise InvalidArgumentError(f"seed must be an int32 or int64 tensor of shape [2], got dtype "
                                   f"{t.dtype.name} [Op:StatelessRandomGetKeyCounter]")
    if t._value.shape != (2,):
        raise InvalidArgumentError(f"seed must have shape [2], not {list(t._value.shape)} "
                                   "[Op:StatelessRandomGetKeyCounter]")


@constant_maker
def _stateless_float(fn: str, op: str, shape: Any, seed: Any, mean: Any, stddev: Any, dtype: Any,
                     alg: Any) -> Tensor:
    dt = _dt.as_dtype(dtype)
    if dt._np.kind != "f":
        raise TypeError(f"{fn}: dtype must be float16, float32 or float64, got {dt.name}")
    s = _shape_arg(shape, op)
    m, sd = _param(mean, dt), _param(stddev, dt)
    if fn == "stateless_normal":
        z = _stateless(seed, alg, Make("fill", "normal", s, dt._np))
    else:
        z = _stateless(seed, alg, Make("truncated_normal", s, dt._np))
    return z * sd + m


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


@constant_maker
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
        return _stateless(seed, alg, Make("fill", "uniform", s, dt._np)) * (hi - lo) + lo
    if (minval is None) != (maxval is None):
        raise ValueError(f"stateless_uniform: for integer dtype {dt.name} give both minval and "
                         f"maxval, or neither (the full range); got minval={minval!r}, "
                         f"maxval={maxval!r}")
    if minval is None:
        return _stateless(seed, alg, Make("fill", "full_int", s, dt._np))
    if dt._np.kind == "u":
        raise ValueError(f"stateless_uniform: dtype {dt.name} only draws the full range "
                         "(minval=None, maxval=None); use int32 or int64 for bounds")
    a, b = _int_bounds(minval, maxval, dt, "StatelessRandomUniformIntV2")
    return _stateless(seed, alg, Make("fill", "int_range", s, dt._np, a, b))


def _int_bounds(minval: Any, maxval: Any, dt: _dt.DType, op: str) -> tuple[int, int]:
    lo, hi = (as_tensor(v) if isinstance(v, Tensor) else convert_to_tensor(v, dtype=dt)
              for v in (minval, maxval))
    if lo._value.ndim or hi._value.ndim:
        raise InvalidArgumentError(f"minval and maxval must be scalars for integer dtypes, "
                                   f"got shapes {list(lo._value.shape)} and {list(hi._value.shape)} "
                                   f"[Op:{op}]")
    a, b = int(lo), int(hi)
    if a >= b:
        raise InvalidArgumentError(f"Need minval < maxval, got {a} >= {b} [Op:{op}]")
    return a, b


def split(seed: Any, num: int = 2, alg: Any = "auto_select") -> Tensor:
    """Split a stateless seed into ``num`` new seeds, shape ``[num, 2]`` (TensorFlow's seeds).

    >>> import tapegrad as tf
    >>> tf.random.split([1, 2], num=3).numpy()
    array([[1105988140, 1738052849],
           [-335576002,  370444179],
           [  10670227, -246211131]], dtype=int32)
    """
    t = as_tensor(seed)
    return stateless_uniform([num, 2], t, minval=None, maxval=None, dtype=t.dtype, alg=alg)


def fold_in(seed: Any, data: Any, alg: Any = "auto_select") -> Tensor:
    """Fold ``data`` (an integer) into a stateless seed: a new seed ``[new, data]``.

    >>> import tapegrad as tf
    >>> tf.random.fold_in([1, 2], 3).numpy()
    array([1105988140,          3], dtype=int32)
    """
    d = as_tensor(data)
    s1 = stateless_uniform([], seed, minval=None, maxval=None, dtype=d.dtype, alg=alg)
    return _stack([s1, d])


def stateless_categorical(logits: Any, num_samples: Any, seed: Any, dtype: Any = _dt.int64,
                          name: Any = None) -> Tensor:
    """:func:`categorical` determined by ``seed`` alone (a shape-[2] int tensor): TF's samples.

    >>> import tapegrad as tf
    >>> tf.random.stateless_categorical([[0.0, float("-inf")]], 3, seed=[1, 2]).numpy()
    array([[0, 0, 0]])
    """
    lg, n, out_dt = _categorical_args(logits, num_samples, dtype)
    return _stateless(seed, 1, Make("categorical", n, out_dt._np), (as_tensor(logits),))


def _stateless_layout(shape: Any, ps: tuple, fn: str) -> tuple[tuple, int]:
    """``shape`` must end with the parameter's shape ``ps`` (TF's stateless gamma/poisson
    kernels): the number of samples per parameter value."""
    s = _shape_arg(shape, fn)
    if len(ps) > len(s) or tuple(s[len(s) - len(ps):]) != ps:
        raise InvalidArgumentError(f"{fn}: shape {list(s)} must end with the parameter's shape "
                                   f"{list(ps)} (broadcast the parameter first)")
    return s, _size(s) // max(_size(ps), 1)


@constant_maker
def stateless_gamma(shape: Any, seed: Any, alpha: Any, beta: Any = None, dtype: Any = _dt.float32,
                    name: Any = None) -> Tensor:
    """Gamma(``alpha``, rate ``beta``) samples of shape ``shape`` (which ends with
    ``broadcast(alpha, beta).shape``) determined by ``seed``: TensorFlow's numbers. Gradients
    flow to ``alpha`` and ``beta`` as in :func:`gamma`.

    >>> import tapegrad as tf
    >>> tf.random.stateless_gamma([3, 2], seed=[1, 2], alpha=[1.0, 3.0]).shape
    TensorShape([3, 2])
    """
    dt, a, b = _gamma_args(alpha, beta, dtype, "stateless_gamma")
    s, n = _stateless_layout(shape, a._value.shape, "StatelessRandomGammaV3")
    if _size(s) == 0:
        return _wrap(np.zeros(s, dt._np))
    flat = reshape(a, [-1])
    samples = _stateless(seed, "auto_select", Make("gamma", n, dt), (flat,))
    g = reshape(_gamma_op(flat, samples), list(s))
    return maximum(np.finfo(dt._np).tiny, g / b)


@constant_maker
def stateless_poisson(shape: Any, seed: Any, lam: Any, dtype: Any = _dt.int32, name: Any = None) -> Tensor:
    """Poisson(``lam``) samples of shape ``shape`` (which ends with ``lam``'s shape) determined by
    ``seed``: TensorFlow's numbers.

    >>> import tapegrad as tf
    >>> tf.random.stateless_poisson([2, 2], seed=[1, 2], lam=[1.0, 50.0]).dtype
    tf.int32
    """
    lt, dt = _poisson_args(lam, dtype, "stateless_poisson")
    s, n = _stateless_layout(shape, lt._value.shape, "StatelessRandomPoisson")
    if _size(s) == 0:
        return _wrap(np.zeros(s, dt._np))
    return _stateless(seed, "auto_select", Make("poisson", n, dt, s), (lt,))


@constant_maker
def _binomial_args(shape: Any, counts: Any, probs: Any, dtype: Any, fn: str) -> tuple:
    """Checked arguments of the binomial kernels: ``shape`` ends with ``broadcast(counts,
    probs).shape``; returns (dtype, shape, counts, probs, num_batches, samples_per_batch)."""
    dt = _dt.as_dtype(dtype)
    if dt._np not in (np.float16, np.float32, np.float64, np.int32, np.int64):
        raise ValueError(f"{fn}: dtype must be float16, float32, float64, int32 or int64, got {dt.name}.")
    pt = as_tensor(probs) if isinstance(probs, Tensor) else convert_to_tensor(probs)
    if pt._value.dtype.kind != "f":
        pt = cast(pt, _dt.float32)
    ct = as_tensor(counts) if isinstance(counts, Tensor) else convert_to_tensor(counts, dtype=pt.dtype)
    if ct.dtype != pt.dtype:
        raise InvalidArgumentError(f"{fn}: counts ({ct.dtype.name}) and probs ({pt.dtype.name}) must "
                                   "have one floating dtype; cast them first")
    try:
        bshape = np.broadcast_shapes(ct._value.shape, pt._value.shape)
    except ValueError:
        raise InvalidArgumentError(f"counts and probs must have compatible batch dimensions: "
                                   f"{list(ct._value.shape)} vs. {list(pt._value.shape)}") from None
    s = _shape_arg(shape, fn)
    if len(bshape) > len(s) or tuple(s[len(s) - len(bshape):]) != bshape:
        raise InvalidArgumentError(f"{fn}: shape {list(s)} must end with the broadcast shape of "
                                   f"counts and probs {list(bshape)}")
    return dt, s, ct, pt, _size(bshape), _size(s[:len(s) - len(bshape)])


def _binomial_np(key: int, counter: int, cv: np.ndarray, pv: np.ndarray, s: tuple, nb: int, spb: int,
                 dt: _dt.DType) -> np.ndarray:
    """The binomial kernels' layout: output index ``o = batch * samples_per_batch + sample``."""
    if _size(s) == 0:
        return np.zeros(s, dt._np)
    bshape = np.broadcast_shapes(cv.shape, pv.shape)
    n = np.repeat(np.broadcast_to(cv, bshape).astype(np.float64).ravel(), spb)
    p = np.repeat(np.broadcast_to(pv, bshape).ravel(), spb)
    return _philox.binomial(key, counter, n, p).reshape(nb, spb).T.reshape(s).astype(dt._np)


@constant_maker
def stateless_binomial(shape: Any, seed: Any, counts: Any, probs: Any, output_dtype: Any = _dt.int32,
                       name: Any = None) -> Tensor:
    """Binomial(``counts``, ``probs``) samples of shape ``shape`` (which ends with their broadcast
    shape) determined by ``seed``: TensorFlow's numbers (inversion for small means, BTRS
    otherwise).

    >>> import tapegrad as tf
    >>> tf.random.stateless_binomial([3], seed=[1, 2], counts=[10.0, 20.0, 30.0], probs=0.5).shape
    TensorShape([3])
    """
    dt, s, ct, pt, nb, spb = _binomial_args(shape, counts, probs, output_dtype, "StatelessRandomBinomial")
    return _stateless(seed, "auto_select", Make("binomial", s, nb, spb, dt), (ct, pt))


def index_shuffle(index: Any, seed: Any, max_index: Any) -> Tensor:
    """The position of ``index`` in a pseudorandom permutation of ``[0, ..., max_index]`` fixed by
    ``seed`` (shape [2]; ``index`` and ``max_index`` scalars or vectors): TensorFlow's permutation
    (a 4-round Simon cipher, cycle-walked into range).

    >>> import tapegrad as tf
    >>> tf.random.experimental.index_shuffle(tf.range(4), seed=[5, 9], max_index=3).numpy()
    array([2, 0, 1, 3], dtype=int32)
    """
    idx, top, st = as_tensor(index), as_tensor(max_index), as_tensor(seed)
    if idx.dtype != top.dtype or idx._value.dtype.kind not in "iu":
        raise InvalidArgumentError(f"index_shuffle: index and max_index must have one integer "
                                   f"dtype; got {idx.dtype.name} and {top.dtype.name}")
    if st._value.dtype.kind not in "iu" or st._value.shape != (2,):
        raise InvalidArgumentError(f"index_shuffle: seed must be an integer tensor of shape [2]; got "
                                   f"{st.dtype.name} of shape {list(st._value.shape)} (TF 2.21 pads a "
                                   "batch of seeds along the wrong axis and rejects it too)")
    (ind, isz), (mnd, msz) = ((t._value.ndim, t._value.size) for t in (idx, top))
    if ind > 1 or mnd > 1 or ind and mnd and isz != msz:
        raise InvalidArgumentError("index_shuffle: index and max_index must be scalars or vectors "
                                   "of one length")

    return _trace.draw(_index_shuffled, [st, idx, top], False)[0]


def _index_shuffled(sv: np.ndarray, iv: np.ndarray, mv: np.ndarray) -> tuple:
    """(internal) :func:`index_shuffle`'s draw on the values of seed, index and max_index."""
    n = max(iv.size, mv.size)
    i64, m64 = (np.broadcast_to(v.astype(np.int64).astype(np.uint64).ravel(), (n,)) for v in (iv, mv))
    bad = np.flatnonzero(i64 > m64)
    if bad.size:
        raise InvalidArgumentError(f"max_index must be >= index, but {m64[bad[0]]} < {i64[bad[0]]} "
                                   "[Op:RandomIndexShuffle]")
    words = np.array([498247692, *sv.astype(np.int64).tolist()], np.int64) & 0xFFFFFFFF
    out = _philox.index_shuffle(i64, np.broadcast_to(words.astype(np.uint64), (n, 3)), m64)
    return (out.astype(iv.dtype).reshape(() if iv.ndim == 0 and mv.ndim == 0 else (n,)),)


def stateless_shuffle(value: Any, seed: Any, alg: Any = "auto_select", name: Any = None) -> Tensor:
    """``value`` permuted along its first axis by a permutation fixed by ``seed``: TensorFlow's
    (its RandomShuffle swaps on the stateless Philox stream). Not differentiable.

    >>> import tapegrad as tf
    >>> sorted(tf.random.experimental.stateless_shuffle(tf.range(5), seed=[1, 2]).numpy().tolist())
    [0, 1, 2, 3, 4]
    """
    x = as_tensor(value)
    n = x._value.shape[0] if x._value.ndim else 1
    draws = n > 1 and x._value.size > 1
    perm = _stateless(seed, alg, Make("permutation", n, draws))
    return apply(_shuffle, (x, perm), {})


# ---- tf.random.Generator: an explicit Philox state in a variable ----

class Algorithm(enum.Enum):
    """Random-number algorithms (TensorFlow's ``tf.random.Algorithm``); only Philox is implemented
    (``AUTO_SELECT`` is Philox on CPU)."""
    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def create_rng_state(seed: Any, alg: Any) -> np.ndarray:
    """The Philox state ``[counter_lo, counter_hi, key]`` (int64) that a seed gives: an integer's
    64-bit words, least significant first, or a vector's first three entries, zero-padded in front.

    >>> import tapegrad as tf
    >>> tf.random.create_rng_state(1234, "philox")
    array([1234,    0,    0])
    """
    _alg(alg)
    if isinstance(seed, (int, np.integer)):
        words = [(int(seed) >> (64 * i)) & _philox.M64 for i in range(3)]
    else:
        words = [int(v) & _philox.M64 for v in np.ravel(as_tensor(seed).numpy())[:3]]
        words = [0] * (3 - len(words)) + words
    return np.array(words, np.uint64).view(np.int64)


def _no_replica() -> tuple:
    return False, None


# (set by tapegrad.distribute) whether a strategy is in effect, and the replica id inside a
# strategy's run (None in cross-replica context and without a strategy)
strategy_and_replica: Callable[[], tuple] = _no_replica


class GeneratorDraw:
    """(internal) A :class:`Generator`'s draw as its trace replays it: from the state's value (the
    first input), the new state, its counter moved on by ``nblocks``, and ``make``'s samples; in
    replica ``replica`` of a strategy, from the key hashed with the replica id (TensorFlow's)."""

    __slots__ = ("nblocks", "make", "replica")

    def __init__(self, nblocks: int, make: Make, replica: int | None = None) -> None:
        self.nblocks, self.make, self.replica = nblocks, make, replica

    def __call__(self, state: np.ndarray, *vs: np.ndarray) -> tuple:
        lo, hi, key = (int(v) & _philox.M64 for v in state)
        c = lo | hi << 64
        c2 = (c + self.nblocks) & _philox.M128
        draw_key = key if self.replica is None else \
            int(Make("fill", "full_int", (1,), np.uint64)(key, self.replica)[0])
        return _make_state(key, c2), self.make(draw_key, c, *vs)


class Generator:
    """A random-number generator whose state (a 128-bit counter and a 64-bit key) lives in an int64
    variable ``state = [counter_lo, counter_hi, key]``; every draw reads the state and advances the
    counter by 256 per output, exactly as TensorFlow's kernels, so the sequences are TensorFlow's.

    >>> import tapegrad as tf
    >>> g = tf.random.Generator.from_seed(1)
    >>> g.normal([2]).shape, g.state.numpy()
    (TensorShape([2]), array([513,   0,   0]))
    """

    def __init__(self, copy_from: Generator | None = None, state: Any = None, alg: Any = None) -> None:
        if copy_from is not None:
            if state is not None or alg is not None:
                raise ValueError("Generator: give copy_from, or state and alg, not both")
            state, alg = copy_from.state.numpy(), copy_from.algorithm
        elif state is None or alg is None:
            raise ValueError("Generator: give copy_from, or both state and alg; use "
                             "Generator.from_seed(seed) to start from a seed")
        self._alg = _alg(alg)
        self._distributed = strategy_and_replica()[0]   # (made under a strategy: replicas draw apart)
        if isinstance(state, Variable):
            self._state = state
        else:
            self._state = Variable(self._check_state(state), trainable=False, name="StateVar")

    @staticmethod
    def _check_state(state: Any) -> np.ndarray:
        v = np.asarray(state.numpy() if isinstance(state, Tensor) else state)
        if v.shape != (3,):
            raise ValueError(f"Generator: a Philox state has shape [3] (counter_lo, counter_hi, "
                             f"key), got shape {list(v.shape)}")
        return np.array([int(x) & _philox.M64 for x in v], np.uint64).view(np.int64)

    @classmethod
    def from_seed(cls, seed: Any, alg: Any = None) -> Generator:
        """A generator whose state is :func:`create_rng_state` of ``seed`` (Philox by default)."""
        alg = 1 if alg is None else alg
        return cls(state=create_rng_state(seed, alg), alg=alg)

    @classmethod
    def from_state(cls, state: Any, alg: Any) -> Generator:
        """A generator with this ``[counter_lo, counter_hi, key]`` state."""
        return cls(state=state, alg=alg)

    @classmethod
    def from_key_counter(cls, key: Any, counter: Any, alg: Any) -> Generator:
        """A generator from a key (one int) and a counter (two ints)."""
        return cls(state=list(np.ravel(counter)) + list(np.ravel(key)), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg: Any = None) -> Generator:
        """A generator with a state drawn from the operating system's entropy."""
        st = np.random.SeedSequence().generate_state(3, np.uint64).view(np.int64)
        return cls(state=st, alg=1 if alg is None else alg)

    def _trackable_children(self) -> dict:
        """What ``tf.train.Checkpoint`` saves of a generator: its state, under TensorFlow's name."""
        return {"_state_var": self._state}

    @property
    def state(self) -> Any:
        """The int64 variable ``[counter_lo, counter_hi, key]``."""
        return self._state

    @property
    def algorithm(self) -> int:
        return self._alg

    @property
    def key(self) -> Tensor:
        return _wrap(self._state.numpy()[2:3].copy())

    def reset(self, state: Any) -> None:
        self._state.assign(self._check_state(state))

    def reset_from_seed(self, seed: Any) -> None:
        self.reset(create_rng_state(seed, self._alg))

    def reset_from_key_counter(self, key: Any, counter: Any) -> None:
        self.reset(list(np.ravel(counter)) + list(np.ravel(key)))

    def skip(self, delta: Any) -> Tensor:
        """Advance the counter as ``delta`` outputs would (by ``256 * delta``); returns the state
        before the advance."""
        return self._draw((int(delta),), Make("state"))

    @constant_maker
    def binomial(self, shape: Any, counts: Any, probs: Any, dtype: Any = _dt.int32,
                 name: Any = None) -> Tensor:
        """Binomial(``counts``, ``probs``) samples (TensorFlow's numbers and state update: the
        counter moves on by 256 times ``num_batches * 200 * (samples_per_batch + 3) // 4``)."""
        dt, s, ct, pt, nb, spb = _binomial_args(shape, counts, probs, dtype, "StatefulRandomBinomial")
        return self._draw((nb * 2 * 100 * (spb + 3) // 4,),
                          Make("binomial", s, nb, spb, dt), (ct, pt))

    def _draw(self, s: tuple, make: Make, xs: tuple = ()) -> Tensor:
        """``make(key, counter, *values of xs)`` from the state, which moves on by ``s``'s outputs
        (in a ``tf.function`` trace: a step reading and writing the state variable, and reading
        ``xs``, at each replay)."""
        replica = strategy_and_replica()[1] if self._distributed else None
        step = GeneratorDraw(_size(s) * _philox.RESERVED, make, replica)
        tr = _trace.innermost()
        if tr is None:
            new, out = step(self._state._snap._value, *[x._value for x in xs])
            self._state.assign(new)
            return _bk.place(_wrap(out))
        return tr.draw_from(self._state, step, xs)

    @constant_maker
    def normal(self, shape: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = _dt.float32,
               name: Any = None) -> Tensor:
        """Normal samples ``standard_normal * stddev + mean`` (TensorFlow's sequence)."""
        dt = _float_dtype(dtype, "Generator.normal")
        s = _shape_arg(shape, "StatelessRandomNormalV2")
        m, sd = _param(mean, dt), _param(stddev, dt)
        return self._draw(s, Make("fill", "normal", s, dt._np)) * sd + m

    @constant_maker
    def truncated_normal(self, shape: Any, mean: Any = 0.0, stddev: Any = 1.0,
                         dtype: Any = _dt.float32, name: Any = None) -> Tensor:
        """Normal samples with ``|standard sample| < 2``, scaled and shifted."""
        dt = _float_dtype(dtype, "Generator.truncated_normal")
        s = _shape_arg(shape, "StatelessTruncatedNormalV2")
        m, sd = _param(mean, dt), _param(stddev, dt)
        return self._draw(s, Make("truncated_normal", s, dt._np)) * sd + m

    @constant_maker
    def uniform(self, shape: Any, minval: Any = 0, maxval: Any = None, dtype: Any = _dt.float32,
                name: Any = None) -> Tensor:
        """Uniform samples on ``[minval, maxval)``; integer dtypes take both bounds or neither
        (full range)."""
        dt = _dt.as_dtype(dtype)
        if dt._np not in _UNIFORM_DTYPES:
            raise ValueError(f"Generator.uniform: dtype must be one of float16, float32, float64, "
                             f"int32, int64, uint32, uint64, got {dt.name}")
        s = _shape_arg(shape, "StatelessRandomUniformV2")
        if dt._np.kind == "f":
            lo, hi = _param(minval, dt), _param(1.0 if maxval is None else maxval, dt)
            u = self._draw(s, Make("fill", "uniform", s, dt._np))
            return u * (hi - lo) + lo
        if (minval is None) != (maxval is None):
            raise ValueError(f"For integer dtype {dt.name}, minval and maxval must be both None "
                             f"or both non-None; got minval={minval!r} and maxval={maxval!r}")
        if minval is None:
            return self.uniform_full_int(s, dt)
        a, b = _int_bounds(minval, maxval, dt, "StatelessRandomUniformIntV2")
        return self._draw(s, Make("fill", "int_range", s, dt._np, a, b))

    def uniform_full_int(self, shape: Any, dtype: Any = _dt.uint64, name: Any = None) -> Tensor:
        """Integers over the whole range of ``dtype`` (int32, int64, uint32, uint64)."""
        dt = _dt.as_dtype(dtype)
        if dt._np not in (np.int32, np.int64, np.uint32, np.uint64):
            raise ValueError(f"uniform_full_int: dtype must be int32, int64, uint32 or uint64, "
                             f"got {dt.name}")
        s = _shape_arg(shape, "StatelessRandomUniformFullIntV2")
        return self._draw(s, Make("fill", "full_int", s, dt._np))

    def make_seeds(self, count: int = 1) -> Tensor:
        """``count`` seeds for the stateless ops: a ``[2, count]`` int64 tensor (column ``i`` is
        one seed)."""
        keys = self.uniform_full_int([count], _dt.int64)
        return _stack([keys, keys * 0])

    def split(self, count: int = 1) -> list[Generator]:
        """``count`` new independent generators (state ``[0, 0, key]``); advances this one."""
        keys = np.asarray(host_value(self.uniform_full_int([count], _dt.int64), "Generator.split"))
        return [Generator(state=[0, 0, int(k)], alg=self._alg) for k in keys]


_global_generator: Generator | None = None


def get_global_generator() -> Generator:
    """The global :class:`Generator`, created from a non-deterministic state on first use."""
    global _global_generator
    if _global_generator is None:
        _global_generator = Generator.from_non_deterministic_state()
    return _global_generator


def set_global_generator(generator: Generator) -> None:
    """Replace the global generator."""
    global _global_generator
    _global_generator = generator
