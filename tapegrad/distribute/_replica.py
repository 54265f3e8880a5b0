"""The worker side of the mirrored strategies: one ``Replica`` (a Dask actor) per worker.

A replica holds copies of the driver's variables and optimizers, keyed by the driver (the step
functions arrive once, pickled by Dask, with every Variable and optimizer in them replaced by a
reference that ``rebuild_variable``/``rebuild_object`` resolve here). Each step:

1. remember every variable's current value (a Variable's value is an immutable array, so this
   is a dict of references, not a copy);
2. run the step function in a replica context; ``Optimizer.apply_gradients`` calls
   ``optimizer_hook``, which builds the optimizer's slots, then sums the gradients across the
   replicas (``all_reduce_sum``: each replica posts its gradients and adds everyone's in replica
   order, so every replica gets the same bits and applies the same update);
3. answer the driver (replica 0 also names the variables that changed), and note those
   variables as not yet published.

The driver commits a step when every replica answered; otherwise it aborts the waiting replicas
and rolls every survivor back to the values of step 1, so no variable is left half-updated.
The driver's own copies of the variables are brought up to date when they are read: ``publish``
sends the values the driver asks for that changed since it last had them.

When every replica runs on the driver's machine, the steps travel through a *lane* (a Unix
socket per replica, served by a thread of the replica; a Dask actor call costs milliseconds, a
lane round trip tens of microseconds), the all-reduce through files in shared memory
(``/dev/shm``). Otherwise steps are Dask actor calls and the all-reduce goes through the
workers' own Dask comms (``tapegrad_put`` messages).
"""
from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import os
import threading
import time
import traceback
import zlib
from typing import Any, Callable

import numpy as np

from .. import nest, random
from .._convert import convert_to_tensor
from .._tensor import Tensor, wrap
from .._variable import Variable, VariableAggregation, VariableSynchronization
from ..optimizers import optimizer
from ._strategy import ReplicaContext, Strategy, _local, replica_context

_GROUPS: dict = {}  # strategy uid -> this worker's Replica
_MAIL: dict = {}  # (uid, seq, source replica) -> arrays, for the comms board
_MAIL_COND = threading.Condition()


GLOBAL_SEED = "tf.random.set_seed"  # the key of an assignment that is the driver's global seed


class Aborted(Exception):
    """The driver aborted the step (another replica failed)."""


class VarRef:
    """A step argument that is a mirrored variable: resolved to this replica's copy."""

    __slots__ = ("key",)

    def __init__(self, key: Any) -> None:
        self.key = key


class TensorArg:
    """A step argument that is a tensor in the driver: its array, a tensor again on the replica."""

    __slots__ = ("array",)

    def __init__(self, array: np.ndarray) -> None:
        self.array = array


def plain_variable(cls: type, state: dict) -> Variable:
    """A variable of class ``cls`` from the state ``__getstate__`` gave (its own id and lock)."""
    v = cls.__new__(cls)
    v.__setstate__(state)
    return v


def rebuild_variable(uid: str, key: Any, spec: tuple | None) -> Variable:
    """This replica's copy of the driver's variable ``key``, of its class (a KerasVariable stays
    one), made from ``spec`` (class, state) the first time."""
    rep = _GROUPS[uid]
    v = rep.vars.get(key)
    if v is None:
        if spec is None:
            raise RuntimeError(f"replica {rep.index} has no copy of mirrored variable {key!r}")
        v = plain_variable(*spec)
        if v.aggregation in (VariableAggregation.SUM, VariableAggregation.MEAN) and \
                v.synchronization is not VariableSynchronization.ON_READ:
            v.__class__ = _combining(type(v))
        rep.register(key, v)
    return v


def _combined(v: Variable, value: Any) -> Any:
    """``value`` summed (aggregation SUM) or averaged (MEAN) over the replicas when a step
    assigns ``v``, as TensorFlow combines the updates of a mirrored variable in replica context:
    every replica applies the same update. Outside a step (the driver's assignments), ``value``."""
    rep = getattr(getattr(_local, "replica", None), "replica", None)
    if rep is None:
        return value
    total = rep.all_reduce_sum([np.asarray(convert_to_tensor(value, dtype=v.dtype).numpy())])[0]
    if v.aggregation is VariableAggregation.MEAN:
        total = np.asarray(total / total.dtype.type(rep.n) if total.dtype.kind in "fc" else total // rep.n,
                           total.dtype)
    return total


_COMBINING: dict = {}  # a Variable class -> its twin whose assignments in a step are combined


def _combining(cls: type) -> type:
    """``cls`` with ``assign``, ``assign_add`` and ``assign_sub`` taking the replicas' combined
    value (``_combined``): a replica's copy of a mirrored variable aggregated by SUM or MEAN."""
    twin = _COMBINING.get(cls)
    if twin is None:
        def assign(self: Variable, value: Any, use_locking: Any = None, name: Any = None,
                   read_value: bool = True) -> Any:
            return cls.assign(self, _combined(self, value), use_locking, name, read_value)

        def assign_add(self: Variable, delta: Any, use_locking: Any = None, name: Any = None,
                       read_value: bool = True) -> Any:
            if by_assign:
                return assign(self, self.value() + delta, use_locking, name, read_value)
            return cls.assign_add(self, _combined(self, delta), use_locking, name, read_value)

        def assign_sub(self: Variable, delta: Any, use_locking: Any = None, name: Any = None,
                       read_value: bool = True) -> Any:
            if by_assign:
                return assign(self, self.value() - delta, use_locking, name, read_value)
            return cls.assign_sub(self, _combined(self, delta), use_locking, name, read_value)

        by_assign = getattr(cls, "_adds_by_assign", False)  # (a Keras variable's assign_add
        # assigns the sum, as Keras 3 does: the replicas' sums are combined)

        twin = _COMBINING[cls] = type(cls.__name__, (cls,), {
            "__module__": cls.__module__, "__qualname__": cls.__qualname__, "__slots__": (),
            "assign": assign, "assign_add": assign_add, "assign_sub": assign_sub})
    return twin


def rebuild_object(uid: str, key: Any, cls: type, state: dict | None) -> Any:
    """This replica's copy of the driver's optimizer ``key`` (made from ``state`` the first time)."""
    rep = _GROUPS[uid]
    obj = rep.objects.get(key)
    if obj is None:
        if state is None:
            raise RuntimeError(f"replica {rep.index} has no copy of mirrored object {key!r}")
        obj = cls.__new__(cls)
        obj.__dict__.update(state)
        rep.objects[key] = obj
        rep.object_keys[id(obj)] = key
    return obj


def abort(uid: str, step: int) -> None:
    """Make replica ``uid``'s waits in ``step`` raise :class:`Aborted` (run by ``Client.run``)."""
    rep = _GROUPS.get(uid)
    if rep is not None:
        rep.aborted_step = step
    with _MAIL_COND:
        _MAIL_COND.notify_all()


def forget(uid: str) -> None:
    """Drop replica ``uid``'s state (the strategy closed; run by ``Client.run``)."""
    _GROUPS.pop(uid, None)


def _put(uid: str = "", seq: int = 0, src: int = 0, data: Any = None) -> None:
    with _MAIL_COND:
        _MAIL[(uid, seq, src)] = data
        _MAIL_COND.notify_all()


def _layout(arrays: list) -> tuple[list, int, int]:
    """Byte offsets (64-aligned) of ``arrays`` packed in one buffer, its size and a checksum of
    the dtypes and shapes (so replicas that reduce different things fail loudly)."""
    offsets, at = [], 0
    for a in arrays:
        offsets.append(at)
        at += -(-a.nbytes // 64) * 64
    desc = ";".join(f"{a.dtype.str}{a.shape}" for a in arrays)
    return offsets, max(at, 64), zlib.crc32(desc.encode())


def _sum_in_order(parts: list, arrays: list) -> list:
    """Element ``i`` summed over ``parts`` (one list per replica) in replica order."""
    out = []
    for i, a in enumerate(arrays):
        acc = np.add(parts[0][i], parts[1][i], dtype=a.dtype)
        for p in parts[2:]:
            acc += p[i]
        out.append(acc)
    return out


def _owners(arrays: list, n: int) -> list:
    """Which replica sums each array: contiguous runs of about equal bytes (by each array's
    middle byte), so that every replica adds about ``1/n`` of the data."""
    total = sum(a.nbytes for a in arrays) or 1
    out, at = [], 0
    for a in arrays:
        out.append(min(n - 1, (2 * at + a.nbytes) * n // (2 * total)))
        at += a.nbytes
    return out


class _ShmBoard:
    """All-reduce through files in shared memory, one per replica and size: a reduce-scatter
    whose results are read where they were written.

    A file is a 64-byte header (int64: the round whose arrays this replica posted, the round it
    finished summing, the layout checksum), an input area and a result area. A round posts this
    replica's arrays in its input area; then each replica adds, in replica order, every
    replica's copy of the arrays it owns (``_owners``) into its result area; the sums of a round
    are views of the owners' result areas (read-only), copied only when the caller keeps them.
    Rounds are numbered ``step << 24 | k`` for the ``k``-th all-reduce of a size in a step (every
    replica makes the same calls, so the numbers agree, and they grow across steps even when a
    step was aborted half-way). A replica posts round ``k`` once every peer finished summing
    round ``k - 1`` (so none reads its inputs or, having consumed the sums before calling again,
    its results); the driver starts a step only when every replica ended the last one.
    """

    def __init__(self, folder: str, index: int, n: int, waiter: Callable) -> None:
        self.folder, self.index, self.n, self.wait = folder, index, n, waiter
        self.channels: dict = {}  # buffer size -> [every replica's file (ndarray views), step, k]

    def _path(self, r: int, nbytes: int) -> str:
        return os.path.join(self.folder, f"allreduce-{r}-{nbytes}.bin")

    def _channel(self, nbytes: int) -> list:
        ch = self.channels.get(nbytes)
        if ch is None:
            size = 64 + 2 * nbytes
            mine = self._path(self.index, nbytes)
            if not os.path.exists(mine):  # (made once: a peer may have mapped it already)
                tmp = mine + ".tmp"
                np.memmap(tmp, np.uint8, "w+", shape=(size,)).flush()
                os.replace(tmp, mine)  # peers never see a file of the wrong size
            self.wait(lambda: all(os.path.exists(self._path(r, nbytes)) for r in range(self.n)))
            ch = self.channels[nbytes] = [
                [np.memmap(self._path(r, nbytes), np.uint8, "r+", shape=(size,)).view(np.ndarray)
                 for r in range(self.n)], 0, 0]
        return ch

    def all_reduce_sum(self, arrays: list, step: int, keep: bool = True) -> list:
        offsets, nbytes, check = _layout(arrays)
        ch = self._channel(nbytes)
        files = ch[0]
        k = ch[2] + 1 if ch[1] == step else 1
        ch[1], ch[2] = step, k
        seq = step << 24 | k
        heads = [f[:24].view(np.int64) for f in files]
        if k > 1:
            self.wait(lambda: all(h[1] >= seq - 1 for h in heads))

        def area(r: int, i: int, result: bool) -> np.ndarray:
            at = 64 + (nbytes if result else 0) + offsets[i]
            a = arrays[i]
            return files[r][at:at + a.nbytes].view(a.dtype).reshape(a.shape)

        for i, a in enumerate(arrays):
            area(self.index, i, False)[...] = a
        heads[self.index][2] = check
        heads[self.index][0] = seq  # (last: peers read the inputs once they see this)
        self.wait(lambda: all(h[0] >= seq for h in heads))
        if any(int(h[2]) != check for h in heads):
            raise RuntimeError("the replicas all-reduced gradients of different shapes or dtypes: "
                               "every replica must call apply_gradients with the same variables")
        owners = _owners(arrays, self.n)
        for i, a in enumerate(arrays):
            if owners[i] == self.index:
                parts = [a if r == self.index else area(r, i, False) for r in range(self.n)]
                out = area(self.index, i, True)
                np.add(parts[0], parts[1], out=out)
                for p in parts[2:]:
                    np.add(out, p, out=out)
        heads[self.index][1] = seq
        self.wait(lambda: all(h[1] >= seq for h in heads))
        sums = []
        for i in range(len(arrays)):
            v = area(owners[i], i, True)
            if keep:
                v = v.copy()
            else:
                v.flags.writeable = False
            sums.append(v)
        return sums


class _CommBoard:
    """All-reduce through the Dask workers' comms: each replica sends its arrays to every peer."""

    def __init__(self, worker: Any, uid: str, index: int, peers: list, waiter: Callable) -> None:
        self.worker, self.uid, self.index, self.peers, self.wait = worker, uid, index, peers, waiter
        self.step = self.k = 0

    def all_reduce_sum(self, arrays: list, step: int, keep: bool = True) -> list:
        from distributed.protocol import to_serialize
        from distributed.utils import sync

        self.k = self.k + 1 if self.step == step else 1  # (numbered as the shared-memory rounds)
        self.step, w = step, self.worker
        s = step << 24 | self.k
        with _MAIL_COND:  # (what an aborted step's rounds left)
            for k in [k for k in _MAIL if k[0] == self.uid and k[1] < s]:
                del _MAIL[k]

        async def send() -> None:
            await asyncio.gather(*[w.rpc(p).tapegrad_put(uid=self.uid, seq=s, src=self.index,
                                                          data=to_serialize(arrays))
                                   for r, p in enumerate(self.peers) if r != self.index])

        sync(w.loop, send)
        keys = [(self.uid, s, r) for r in range(len(self.peers)) if r != self.index]
        self.wait(lambda: all(k in _MAIL for k in keys), _MAIL_COND)
        with _MAIL_COND:
            got = {k[2]: _MAIL.pop(k) for k in keys}
        parts = [arrays if r == self.index else got[r] for r in range(len(self.peers))]
        if any(len(p) != len(arrays) or any(np.shape(x) != a.shape for x, a in zip(p, arrays))
               for p in parts):
            raise RuntimeError("the replicas all-reduced gradients of different shapes: every "
                               "replica must call apply_gradients with the same variables")
        return _sum_in_order(parts, arrays)


def _dense(g: Any, v: Variable) -> np.ndarray:
    """A gradient as a dense array (sparse row gradients, with their ``index`` and ``values``,
    are scattered into zeros)."""
    if isinstance(g, np.ndarray):
        return g
    dense = np.zeros(tuple(v.value().shape), v.dtype.as_numpy_dtype)
    dense[g.index] = g.values
    return dense


def optimizer_hook(opt: Any, pairs: list) -> list:
    """``Optimizer.apply``'s tf.distribute hook: inside a replica step, build the optimizer's
    slots (so the step can be rolled back), then sum the gradients across replicas."""
    ctx = getattr(_local, "replica", None)
    rep = getattr(ctx, "replica", None)
    if rep is None:
        return pairs
    variables = [v for _, v in pairs]
    rep.prepare(opt, variables)
    # (the update reads the sums and makes new arrays: they need not be copied out)
    return list(zip(rep.all_reduce_sum([_dense(g, v) for g, v in pairs], keep=False), variables))


def _to_numpy(x: Any) -> Any:
    return np.asarray(x.numpy()) if isinstance(x, (Tensor, Variable)) else x


class Lane:
    """One end of a lane between the driver and a replica on the same machine: a connection,
    and a shared-memory file for the large buffers (arrays) of what this end sends, so that a
    message carries only the pickle's small parts. The two ends take turns (a request, then its
    answer), so a sender overwrites its file only after the receiver has copied out of it."""

    LARGE = 1 << 16  # buffers from this many bytes go through the file

    def __init__(self, conn: Any, path: str) -> None:
        self.conn, self.path = conn, path
        self.out: Any = None  # the memmap of this end's file (grown under new names)
        self._out: Any = None  # (the same, as a plain array: cheaper to slice)
        self.peer: tuple = ("", None)  # the other end's file: (path, memmap)

    def send(self, obj: Any) -> None:
        self.post(self.stage(obj))

    def stage(self, obj: Any) -> bytes:
        """Pickle ``obj``, its large buffers into this end's file; returns the message to post
        (staging every replica's message before posting any starts them closer together)."""
        from distributed.protocol.pickle import dumps

        buffers: list = []
        data = dumps(obj, buffer_callback=buffers.append)
        raws = [b.raw() for b in buffers]
        if sum(r.nbytes for r in raws) < self.LARGE:
            return dumps((data, "", [r.tobytes() for r in raws]))
        spans, at = [], 0
        for r in raws:
            spans.append((at, r.nbytes))
            at += -(-r.nbytes // 64) * 64
        if self.out is None or self.out.size < at:
            if self.out is not None:  # (the peer's map of the old file stays valid)
                os.unlink(self.out.filename)
            self.out = np.memmap(f"{self.path}-{at}.bin", np.uint8, "w+", shape=(at,))
            self._out = self.out.view(np.ndarray)
        for r, (o, n) in zip(raws, spans):
            self._out[o:o + n] = np.frombuffer(r, np.uint8)
        return dumps((data, self.out.filename, spans))

    def post(self, message: bytes) -> None:
        self.conn.send_bytes(message)

    def poll(self) -> bool:
        return self.conn.poll()

    def recv(self) -> Any:
        from distributed.protocol.pickle import loads

        data, path, spans = loads(self.conn.recv_bytes())
        if not path:  # (small buffers travel in the message)
            return loads(data, buffers=spans)
        if self.peer[0] != path:
            self.peer = (path, np.memmap(path, np.uint8, "r"))
        mm = self.peer[1]
        return loads(data, buffers=[np.array(mm[o:o + n]) for o, n in spans])

    def close(self) -> None:
        self.conn.close()
        if self.out is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.out.filename)


class Replica:
    """Replica ``index`` of ``n`` of strategy ``uid`` (created on its worker as a Dask actor)."""

    same_host = False  # (class attributes, so that the driver's actor proxy may read them)
    lane: Any = None  # the connection to the driver, once it opened one (open_lane)

    def __init__(self, uid: str, index: int, n: int, folder: str, peers: list,
                 blas_threads: int | None) -> None:
        from distributed import get_worker

        self.uid, self.index, self.n, self.folder, self.peers = uid, index, n, folder, peers
        self.vars: dict = {}  # key -> Variable
        self.var_keys: dict = {}  # id(Variable) -> key
        self.objects: dict = {}  # key -> optimizer
        self.object_keys: dict = {}  # id(optimizer) -> key
        self.fns: dict = {}  # token -> step function
        self.snapshot: tuple = (0, {})
        self.reports: list = []
        self.current = self.aborted_step = 0
        self.board: Any = None
        self.unpublished: set = set()  # keys whose value the driver may not have
        self._lane_thread: threading.Thread | None = None
        self.worker = get_worker()
        self.worker.handlers["tapegrad_put"] = _put
        optimizer.replica_hook = optimizer_hook
        if blas_threads is not None:
            from threadpoolctl import threadpool_limits
            self._limits = threadpool_limits(blas_threads)
        self.same_host = os.path.isfile(os.path.join(folder, uid))
        if self.same_host:  # a crash (not a clean exit) leaves the Python traceback here
            self._crash_log = open(os.path.join(folder, f"crash-{index}.txt"), "w")
            faulthandler.enable(self._crash_log)
        _GROUPS[uid] = self

    def install(self, token: int, payload: bytes) -> None:
        """Keep step function ``token`` (Dask's serialisation of it, made by the driver)."""
        from distributed.protocol.serialize import deserialize_bytes

        self.fns[token] = deserialize_bytes(payload)

    def use_board(self, shared_memory: bool) -> None:
        self.board = (_ShmBoard(self.folder, self.index, self.n, self._wait) if shared_memory
                      else _CommBoard(self.worker, self.uid, self.index, self.peers, self._wait))

    def open_lane(self, authkey: bytes) -> str:
        """Listen on a Unix socket in the group's folder for the driver; a thread of this replica
        serves the steps sent there (see ``_serve``). Returns the socket's path."""
        from multiprocessing.connection import Listener

        path = os.path.join(self.folder, f"lane-{self.index}")
        listener = Listener(path, "AF_UNIX", authkey=authkey)
        self._lane_thread = threading.Thread(target=self._serve, args=(listener,), daemon=True,
                                             name=f"tapegrad-replica-{self.index}")
        self._lane_thread.start()
        return path

    def _serve(self, listener: Any) -> None:
        """The lane: ("step", token, step, args, kwargs, assigns) answers as ``step``;
        ("rollback", step), ("publish", keys) and ("values", keys) answer ("ok", what they
        return); anything that
        fails answers ("error", exception, traceback). ("abort", step) reaching here is late (its
        step ended) and ignored. Ends when the driver closes the lane."""
        try:
            conn = listener.accept()
        except OSError:  # the driver went away before connecting
            return
        finally:
            listener.close()
        lane = self.lane = Lane(conn, os.path.join(self.folder, f"lane-{self.index}-out"))
        while True:
            try:
                msg = lane.recv()
            except (EOFError, OSError):
                break
            except Exception as e:  # noqa: BLE001  (e.g. an argument whose class this worker lacks)
                msg = ("unreadable", f"{type(e).__name__}: {e}")
            if msg[0] == "abort":
                continue
            try:
                if msg[0] == "unreadable":
                    raise RuntimeError(f"the driver's message cannot be unpickled here ({msg[1]}; is "
                                       "every module the step uses importable on the workers?)")
                result = getattr(self, msg[0])(*msg[1:])
                answer = result if msg[0] == "step" else ("ok", result)
                lane.send(answer)
            except OSError:
                break
            except Exception as e:  # noqa: BLE001  (a bug, or an answer that cannot travel)
                with contextlib.suppress(OSError):
                    lane.send(("error", RuntimeError(f"replica {self.index} failed to answer {msg[0]!r}: "
                                                     f"{type(e).__name__}: {e}"), traceback.format_exc()))
        self.lane = None
        lane.close()

    def register(self, key: Any, v: Variable) -> None:
        self.vars[key] = v
        self.var_keys[id(v)] = key

    def _wait(self, ready: Callable[[], bool], cond: threading.Condition | None = None) -> None:
        delay, lane = 1e-5, self.lane if threading.current_thread() is self._lane_thread else None
        while not ready():
            if self.aborted_step == self.current:
                raise Aborted()
            if lane is not None and lane.poll():  # mid-step, the driver sends nothing but aborts
                msg = lane.recv()
                if msg[0] == "abort" and msg[1] == self.current:
                    raise Aborted()
            if cond is not None:
                with cond:
                    cond.wait(0.05)
            else:
                time.sleep(delay)
                delay = min(2 * delay, 2.5e-4)

    def all_reduce_sum(self, arrays: list, keep: bool = True) -> list:
        """The sums over replicas of ``arrays`` (new arrays; with ``keep=False``, possibly
        read-only views that stay valid only until this replica's next all-reduce)."""
        arrays = [np.asarray(a) for a in arrays]
        if self.n == 1:
            return arrays
        return self.board.all_reduce_sum(arrays, self.current, keep)

    def prepare(self, opt: Any, variables: list) -> None:
        """Build ``opt``'s slots for ``variables``; key new slots by position, as the driver will."""
        opt.build(variables)
        okey = self.object_keys.get(id(opt))
        if okey is None:
            return
        fresh = False
        for pos, v in enumerate(opt.variables):
            if id(v) not in self.var_keys:
                key = ("opt", okey, pos)
                self.register(key, v)
                self.snapshot[1][key] = v.value()
                fresh = True
        if fresh:
            self.reports.append((okey, [self.var_keys.get(id(v)) for v in variables]))

    def step(self, token: int, step: int, args: tuple, kwargs: dict, assigns: list = ()) -> tuple:
        """Give the variables in ``assigns`` (key, value) the values the driver assigned, then run
        step function ``token``; answers ("ok", outputs, changed keys, reports), ("aborted",) or
        ("error", exception, traceback text)."""
        for key, value in assigns:
            if key == GLOBAL_SEED:
                random.set_seed(value)
                continue
            self.vars[key].assign(value)
            self.unpublished.discard(key)
        fn = self.fns[token]
        self.current = step
        self.snapshot = (step, {k: v.value() for k, v in self.vars.items()})
        self.reports = []

        def resolve(x: Any) -> Any:
            t = type(x)
            if t is TensorArg:  # arrays arrive as views of the message, unaligned
                return wrap(np.require(x.array, requirements="A"))  # (and NumPy's matmul skips
            if t is np.ndarray:  # BLAS for those)
                return np.require(x, requirements="A")
            return self.vars[x.key] if t is VarRef else x

        args, kwargs = nest.map_structure(resolve, args), nest.map_structure(resolve, kwargs)
        strategy = Strategy()
        strategy._num_replicas = self.n
        ctx = ReplicaContext(strategy, self.index, self.n, self.all_reduce_sum)
        ctx.replica = self
        with replica_context(ctx):
            try:
                out = fn(*args, **kwargs)
            except Aborted:
                return ("aborted",)
            except BaseException as e:  # noqa: BLE001  (the driver re-raises it)
                tb = traceback.format_exc()
                try:
                    from distributed.protocol import serialize
                    serialize(e)
                except Exception:  # noqa: BLE001  (an exception that cannot travel)
                    e = RuntimeError(f"{type(e).__name__}: {e}")
                return ("error", e, tb)
        out = nest.map_structure(_to_numpy, out)
        old = self.snapshot[1]
        changed = [k for k, v in self.vars.items() if v.value() is not old.get(k)]
        self.unpublished.update(changed)  # (a superset, should the step still be rolled back)
        return ("ok", out, changed if self.index == 0 else None, self.reports)

    def values(self, keys: list) -> list:
        """``(key, value)`` of each of ``keys`` (the driver combines every replica's values of
        the variables synchronized on read)."""
        return [(k, np.asarray(self.vars[k].value().numpy())) for k in keys]

    def publish(self, keys: list) -> list:
        """``(key, value)`` for those of ``keys`` whose value changed since this replica last
        published it (the driver asks for the variables it reads)."""
        out = [(k, np.asarray(self.vars[k].value().numpy())) for k in keys if k in self.unpublished]
        self.unpublished.difference_update(keys)
        return out

    def rollback(self, step: int) -> None:
        """Give every variable back the value it had before ``step`` (if that was the last step)."""
        done, old = self.snapshot
        if done == step:
            for k, value in old.items():
                self.vars[k].assign(value)
            self.snapshot = (0, {})


def dask_setup(server: Any) -> None:
    """Run by Dask in the embedded cluster's scheduler and workers as they start (``--preload``):
    stop the HTTP server Dask starts on every server. It serves no route there
    (``distributed.*.http.routes`` are empty) and no port should be open without authentication."""
    server.http_server.stop()
