"""The driver side of the mirrored strategies: a group of Dask actors, one replica per worker.

``_Group.run`` ships a step function once per function (Dask pickles it; every Variable and
optimizer it reaches travels as a keyed reference, see ``_reduce_variable``), sends every
replica its arguments (through its lane when the replicas share this machine, else as a Dask
actor call, which goes straight to the worker, not through the scheduler), and commits or rolls
back the step as tapegrad/distribute/_replica.py describes.
"""
from __future__ import annotations

import atexit
import contextlib
import copyreg
import itertools
import logging
import os
import random as _pyrandom
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
import warnings
import weakref
from typing import Any, Callable

import numpy as np

from .. import _trace, config, nest, random
from .._convert import convert_to_tensor
from .._function import Function
from .._tensor import Tensor
from .._variable import Variable, VariableAggregation, VariableSynchronization
from ..errors import UnavailableError
from ..optimizers.optimizer import Optimizer
from . import _replica
from ._strategy import Strategy, per_replica_args
from .cluster_resolver import SimpleClusterResolver, TFConfigClusterResolver

_SHIPPING: list = []  # the group whose step function is being pickled (at most one)
_SHIP_LOCK = threading.Lock()


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError as e:
        raise ImportError("tf.distribute's mirrored strategies run their replicas on Dask: "
                          "pip install 'tapegrad[dask]' (dask[array], distributed, threadpoolctl, cryptography).") from e
    return distributed


def _reduce_variable(v: Variable) -> tuple:
    group = _SHIPPING[0] if _SHIPPING else None
    if group is None:
        base = getattr(type(v), "_tapegrad_base", None)
        if base is None:
            return object.__reduce_ex__(v, 4)
        v.__dict__["_mirror_group"].sync()  # a copy or pickle of a mirrored variable: a plain
        state = {k: x for k, x in v.__getstate__().items() if k != "_mirror_group"}  # variable
        return (_replica.plain_variable, (base, state))  # with the newest value
    key = group.key_of(v)
    spec = None if key in group.on_workers else (
        getattr(type(v), "_tapegrad_base", type(v)),
        {k: x for k, x in v.__getstate__().items() if k != "_mirror_group"})
    group.pending.add(key)
    return (_replica.rebuild_variable, (group.uid, key, spec))


def _reduce_optimizer(opt: Any) -> tuple:
    group = _SHIPPING[0] if _SHIPPING else None
    if group is None:
        return object.__reduce_ex__(opt, 4)
    key = group.object_key_of(opt)
    state = None if key in group.on_workers else dict(opt.__dict__)
    group.pending.add(key)
    return (_replica.rebuild_object, (group.uid, key, type(opt), state))


def _assign_fresh(v: Variable, a: np.ndarray) -> None:
    """Set ``v`` to ``a``, an array made for it (of its dtype and shape): not copied again, and
    not an assignment to send to the replicas."""
    with v._lock:
        v._set(a, fresh=True)


def _register_reducers() -> None:
    for base, reducer in ((Variable, _reduce_variable), (Optimizer, _reduce_optimizer)):
        todo = [base]
        while todo:  # (pickle looks a reducer up by the exact class)
            cls = todo.pop()
            copyreg.pickle(cls, reducer)
            todo += cls.__subclasses__()


_TWINS: dict = {}  # a Variable class -> its mirrored and stale twins


def _stale_snap(v: Variable) -> Any:
    v.__dict__["_mirror_group"].sync()
    return v.__dict__["_snap"]


def _set_stale_snap(v: Variable, snap: Any) -> None:
    v.__dict__["_mirror_group"].sync()
    v.__dict__["_snap"] = snap


def _twins(cls: type) -> tuple:
    """The classes a driver variable of class ``cls`` wears while it is mirrored on replicas:
    ``cls`` except that an assignment is also sent to the replicas with the next step; and, while
    the replicas hold a newer value, except that reading (or setting) the value first fetches the
    newest one (``_Group.sync``). Variables read nothing but ``_snap``, so the mirrored class
    costs nothing to reads, and no other variable changes."""
    pair = _TWINS.get(cls)
    if pair is None:
        def _on_assign(self: Variable, how: str = "", value: Any = None) -> None:
            cls._on_assign(self, how, value)
            self.__dict__["_mirror_group"].assigned(self)

        common = {"__module__": cls.__module__, "__qualname__": cls.__qualname__, "__slots__": (),
                  "_tapegrad_base": cls}
        mirrored = type(cls.__name__, (cls,), {**common, "_on_assign": _on_assign})
        stale = type(cls.__name__, (mirrored,), {**common, "_snap": property(_stale_snap, _set_stale_snap)})
        for t in (mirrored, stale):
            copyreg.pickle(t, _reduce_variable)
        pair = _TWINS[cls] = (mirrored, stale)
    return pair


_PREFIX = "tapegrad-distribute-"  # + this process's id + "-": a strategy's folder
_LOG_PREFIX = "tapegrad-workers-"  # (and the embedded workers' log, in the temporary folder)


def _shm_dir() -> str | None:
    return "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # (another user's process)
        return True
    return True


def _unlocked(path: str) -> bool:
    """Whether no process holds the lock on ``path`` (a live strategy holds its folder's and
    its log's, whatever PID namespace it runs in; the kernel drops them when it dies)."""
    try:
        import fcntl
    except ImportError:  # (no flock: the process id alone decides)
        return True
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def _lock(fd: int) -> None:
    with contextlib.suppress(ImportError, OSError):
        import fcntl
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _reclaim() -> None:
    """Remove what strategies of this user's dead processes left (a driver killed by SIGKILL
    cannot clean up): their folders in shared memory and their workers' logs, named with the
    dead process's id and no longer locked."""
    uid = os.getuid() if hasattr(os, "getuid") else None
    for where, prefix in ((_shm_dir(), _PREFIX), (tempfile.gettempdir(), _PREFIX),
                          (tempfile.gettempdir(), _LOG_PREFIX)):
        if where is None:
            continue
        with contextlib.suppress(OSError):
            for entry in os.scandir(where):
                pid = entry.name[len(prefix):].split("-", 1)[0]
                if not entry.name.startswith(prefix) or not pid.isdigit() or _alive(int(pid)):
                    continue
                with contextlib.suppress(OSError):
                    if uid is not None and entry.stat(follow_symlinks=False).st_uid != uid:
                        continue
                    if entry.is_dir(follow_symlinks=False):
                        if _unlocked(os.path.join(entry.path, "lock")):
                            shutil.rmtree(entry.path, ignore_errors=True)
                    elif _unlocked(entry.path):
                        os.unlink(entry.path)


_FOLDER_LOCKS: dict = {}  # a strategy's folder -> the open file that holds its lock


_OPEN: set = set()  # the strategies' clean-ups still to run (weakref.finalize objects)
_SIGTERM: list = []  # the SIGTERM handler our own replaced, once ours is installed


def _on_sigterm(signum: int, frame: Any) -> None:
    """SIGTERM ends this process (Python's default): first stop the embedded workers and remove
    every strategy's folder and log. A handler the program set is called instead, untouched
    (it may go on training; the strategies clean up at exit)."""
    previous = _SIGTERM[0]
    if callable(previous):
        previous(signum, frame)
        return
    for fin in list(_OPEN):
        info = fin.peek()
        if info is not None:
            _remove_files(*info[2][2:4])
    signal.signal(signal.SIGTERM, previous)
    os.kill(os.getpid(), signal.SIGTERM)


def _catch_sigterm() -> None:
    if _SIGTERM or threading.current_thread() is not threading.main_thread():
        return
    previous = signal.getsignal(signal.SIGTERM)
    if previous in (signal.SIG_IGN, None):  # (ignored, or set outside Python: left alone)
        return
    _SIGTERM.append(previous)
    signal.signal(signal.SIGTERM, _on_sigterm)


def _private_folder() -> str:
    """A new folder of this user's only (mode 0700), in shared memory where there is some, named
    with this process's id (so the next strategy reclaims it should this process be killed)."""
    _reclaim()
    _catch_sigterm()
    folder = tempfile.mkdtemp(prefix=f"{_PREFIX}{os.getpid()}-", dir=_shm_dir())
    fd = _FOLDER_LOCKS[folder] = os.open(os.path.join(folder, "lock"), os.O_RDWR | os.O_CREAT, 0o600)
    _lock(fd)
    return folder


def _remove_files(cluster: Any, folder: str) -> None:
    """What must not outlive this process: the embedded workers, the folder, the log (no Dask
    call: this may run in a signal handler)."""
    if cluster is not None:
        cluster.kill_workers()
    shutil.rmtree(folder, ignore_errors=True)
    fd = _FOLDER_LOCKS.pop(folder, None)
    if fd is not None:
        os.close(fd)


def _close(client: Any, own_client: bool, cluster: Any, folder: str, uid: str, lanes: list) -> None:
    for lane in lanes:  # (the replicas' lane threads end)
        lane.close()
    try:
        if cluster is None:  # a cluster we do not own: leave it running, drop our state
            client.run(_replica.forget, uid, on_error="ignore")
        if own_client:
            client.close()
        if cluster is not None:
            cluster.close()
    except Exception:  # noqa: BLE001  (at exit, the event loop may be gone already)
        pass
    _remove_files(cluster, folder)


class _RemoteTraceback(Exception):
    def __init__(self, tb: str) -> None:
        super().__init__(tb)
        self.tb = tb

    def __str__(self) -> str:
        return self.tb


class _Group:
    """The replicas of one strategy: Dask actors on the given workers, in this order."""

    def __init__(self, client: Any, cluster: Any, workers: list, blas_threads: int | None,
                 own_client: bool = True) -> None:
        self.uid = uuid.uuid4().hex
        self.client, self.cluster, self.workers, self.n = client, cluster, workers, len(workers)
        # (mode 0700: the lanes' sockets and the shared-memory files in it are this user's only)
        self.folder = cluster.folder if cluster is not None else _private_folder()
        open(os.path.join(self.folder, self.uid), "w").close()  # replicas that see it share our disk
        self.lanes: list = []  # the replicas' lanes (connections), when they share this machine
        self._finalizer = weakref.finalize(self, _close, client, own_client, cluster, self.folder,
                                           self.uid, self.lanes)
        _OPEN.difference_update([f for f in _OPEN if not f.alive])
        _OPEN.add(self._finalizer)
        atexit.register(self._finalizer)  # (before Dask's own exit hooks close the scheduler under
        # the client, which then reports failing to reconnect)
        futures = [client.submit(_replica.Replica, self.uid, r, self.n, self.folder, workers,
                                 blas_threads, actor=True, workers=[w], allow_other_workers=False,
                                 pure=False) for r, w in enumerate(workers)]
        with client.as_current():  # (an actor proxy binds to the current client when it arrives)
            self.actors = [f.result() for f in futures]
        self.shared_memory = all(a.same_host for a in self.actors)
        for f in [a.use_board(self.shared_memory) for a in self.actors]:
            f.result()
        if self.shared_memory and hasattr(socket, "AF_UNIX"):  # (else steps are actor calls)
            from multiprocessing.connection import Client as connect

            key = secrets.token_bytes(32)  # (the lanes' authentication key, sent over Dask's TLS)
            paths = [f.result() for f in [a.open_lane(key) for a in self.actors]]
            self.lanes += [_replica.Lane(connect(p, "AF_UNIX", authkey=key), f"{p}-in") for p in paths]
        self.stale: dict = {}  # id -> a driver Variable whose newest value is on the replicas
        self.pushes: dict = {}  # key -> a driver Variable assigned here, to send with the next step
        self.on_read: dict = {}  # key -> aggregation, of the variables synchronized on read
        self.dead: set = set()  # replicas whose process ended
        self.lock = threading.RLock()  # one exchange with the replicas at a time
        self.vars: dict = {}  # key -> driver Variable
        self.var_keys: dict = {}  # id(Variable) -> key
        self.objects: dict = {}  # key -> driver optimizer
        self.object_keys: dict = {}  # id(optimizer) -> key
        self.on_workers: set = set()  # keys every replica holds
        self.pending: set = set()
        self.fns: dict = {}  # id(fn) -> (token, fn)
        self._keys = itertools.count()
        self.step_no = 0
        self.seed = (0, None)  # random.seed_setting() as the replicas last had it
        self.broken: str | None = None
        _register_reducers()

    def close(self) -> None:
        if self._finalizer.alive:
            self.sync()
            for v in self.vars.values():  # plain variables again, with the last values
                if "_mirror_group" in v.__dict__:
                    v.__class__ = type(v)._tapegrad_base
                    del v.__dict__["_mirror_group"]
        atexit.unregister(self._finalizer)
        _OPEN.discard(self._finalizer)
        self._finalizer()

    def _mirror(self, key: Any) -> None:
        v = self.vars.get(key)
        if v is not None and "_mirror_group" not in v.__dict__:
            v.__dict__["_mirror_group"] = self
            v.__class__ = _twins(type(v))[0]
            if v.synchronization is VariableSynchronization.ON_READ:  # each replica its own value
                self.on_read[key] = v.aggregation

    def assigned(self, v: Variable) -> None:
        """``v`` was assigned in this process: send its value to the replicas with the next step."""
        key = self.var_keys.get(id(v))
        if key is not None and self._finalizer.alive:
            self.pushes[key] = v

    def use_dask_comms(self) -> None:
        """Send steps as Dask actor calls and all-reduce over the workers' Dask comms, as when
        the replicas run on other machines (tests use it to cover that path on one machine)."""
        for f in [a.use_board(False) for a in self.actors]:
            f.result()
        self.shared_memory = False
        for lane in self.lanes:
            lane.close()
        self.lanes.clear()

    def key_of(self, v: Variable) -> Any:
        key = self.var_keys.get(id(v))
        if key is None:
            key = next(self._keys)
            self.vars[key], self.var_keys[id(v)] = v, key
        return key

    def object_key_of(self, obj: Any) -> Any:
        key = self.object_keys.get(id(obj))
        if key is None:
            key = next(self._keys)
            self.objects[key], self.object_keys[id(obj)] = obj, key
        return key

    def ship(self, fn: Callable) -> int:
        entry = self.fns.get(id(fn))
        if entry is not None and entry[1] is fn:
            return entry[0]
        from distributed.protocol.serialize import serialize_bytes

        token = len(self.fns)
        _register_reducers()  # (classes defined since the last time)
        with _SHIP_LOCK:
            _SHIPPING.append(self)
            self.pending = set()
            try:  # (pickled here, by Dask, into bytes the scheduler never opens)
                payload = serialize_bytes(fn)
            finally:
                _SHIPPING.clear()
        for f in [a.install(token, payload) for a in self.actors]:
            f.result()
        for key in self.pending - self.on_workers:
            self._mirror(key)
        self.on_workers |= self.pending
        self.fns[id(fn)] = (token, fn)
        return token

    def _argument(self, x: Any) -> Any:
        if isinstance(x, Variable) and id(x) in self.var_keys and self.var_keys[id(x)] in self.on_workers:
            return _replica.VarRef(self.var_keys[id(x)])
        if isinstance(x, (Tensor, Variable)):
            return _replica.TensorArg(np.asarray(x.numpy()))
        return x

    def run(self, fn: Callable, args: tuple, kwargs: dict) -> list:
        with self.lock:
            return self._run(fn, args, kwargs)

    def _run(self, fn: Callable, args: tuple, kwargs: dict) -> list:
        if self.broken:
            raise UnavailableError(self.broken)
        token = self.ship(fn)
        self.step_no += 1
        step = self.step_no
        parts = [(nest.map_structure(self._argument, per_replica_args(args, r, self.n)),
                  nest.map_structure(self._argument, per_replica_args(kwargs, r, self.n)))
                 for r in range(self.n)]
        assigns = [(k, self._pushed(k, np.asarray(v.value().numpy()))) for k, v in self.pushes.items()]
        self.pushes.clear()
        seed = random.seed_setting()
        if seed != self.seed:  # (tf.random.set_seed ran here: the replicas set it too)
            assigns.append((_replica.GLOBAL_SEED, seed[1]))
            self.seed = seed
        if self.lanes:
            answers = self._lane_answers(token, step, parts, assigns)
        else:
            answers = self._answers([actor.step(token, step, a, k, assigns)
                                     for actor, (a, k) in zip(self.actors, parts)], step)
        if all(a[0] == "ok" for a in answers):
            self._commit(answers[0])
            return [nest.map_structure(lambda x: convert_to_tensor(x) if isinstance(x, np.ndarray) else x, a[1])
                    for a in answers]
        self.dead.update(r for r, a in enumerate(answers) if a[0] == "died")
        for r, a in enumerate(answers):
            if a[0] != "died":
                self._request(r, "rollback", step)
        if self.dead:  # (while survivors hold the last completed step)
            self.sync(quiet=True)
        exc, cause = self._failure(fn, step, answers)
        raise exc from cause

    def _pushed(self, key: Any, value: np.ndarray) -> np.ndarray:
        """What each replica gets of a value assigned here: a variable synchronized on read and
        summed gets ``value / n``, so that the sum reads ``value`` (TensorFlow's rule)."""
        if self.on_read.get(key) is not VariableAggregation.SUM:
            return value
        return np.asarray(value / self.n).astype(value.dtype)

    def _lane_answers(self, token: int, step: int, parts: list, assigns: list) -> list:
        """Send the step to every replica's lane and collect the answers; a replica whose lane
        closes died. After the first failure, the replicas still running are told to abort."""
        from multiprocessing.connection import wait

        answers: list = [None] * self.n
        running: dict = {}
        messages = [lane.stage(("step", token, step, a, k, assigns)) for lane, (a, k) in zip(self.lanes, parts)]
        for r, (lane, message) in enumerate(zip(self.lanes, messages)):
            try:
                lane.post(message)
                running[lane] = r
            except OSError as e:
                answers[r] = ("died", e)
        aborted = False
        try:
            while True:
                if not aborted and any(a is not None and a[0] != "ok" for a in answers):
                    aborted = True
                    self._abort(running, step)
                if not running:
                    return answers
                for conn in wait([lane.conn for lane in running]):
                    lane = next(la for la in running if la.conn is conn)
                    r = running.pop(lane)
                    try:
                        answers[r] = lane.recv()
                    except (EOFError, OSError):
                        answers[r] = ("died", ConnectionError("its process ended (the lane to it closed)"))
                    except Exception as e:  # noqa: BLE001  (an answer this process cannot unpickle)
                        answers[r] = ("error", RuntimeError(f"the answer of replica {r} cannot be "
                                                            f"unpickled here: {type(e).__name__}: {e}"), "")
        except BaseException:  # interrupted (Ctrl-C): stop the step, and undo it everywhere
            try:
                self._abort(running, step)
                for lane in running:
                    lane.recv()
                for r in range(self.n):
                    if answers[r] is None or answers[r][0] != "died":
                        self._request(r, "rollback", step)
            except BaseException:
                self.broken = ("a step of this strategy was interrupted again while its replicas "
                               "were stopping; build a new strategy and restore the last checkpoint.")
            raise

    @staticmethod
    def _abort(running: dict, step: int) -> None:
        for lane in running:
            with contextlib.suppress(OSError):
                lane.send(("abort", step))

    def _answers(self, calls: list, step: int) -> list:
        answers: list = [None] * self.n
        delay, aborted = 1e-4, False
        while any(a is None for a in answers):
            for r, f in enumerate(calls):
                if answers[r] is None and f.done():
                    try:
                        answers[r] = f.result()
                    except Exception as e:  # noqa: BLE001  (the worker is gone)
                        answers[r] = ("died", e)
                    if answers[r][0] != "ok" and not aborted:
                        aborted = True
                        self.client.run(_replica.abort, self.uid, step, on_error="ignore")
            time.sleep(delay)
            delay = min(2 * delay, 2e-3)
        return answers

    def _commit(self, answer: tuple) -> None:
        """Build the optimizer slots the replicas built; mark the variables the step changed as
        stale (their values are fetched when they are read: ``sync``)."""
        _, _, changed, reports = answer
        for okey, var_keys in reports:
            opt = self.objects[okey]
            opt.build([self.vars[k] for k in var_keys])
            for pos, v in enumerate(opt.variables):
                if id(v) not in self.var_keys:
                    key = ("opt", okey, pos)
                    self.vars[key], self.var_keys[id(v)] = v, key
                    self.on_workers.add(key)
                    self._mirror(key)
        for key in [*changed, *self.on_read]:  # (a replica other than 0 may have changed those)
            v = self.vars.get(key)
            if v is not None and id(v) not in self.stale and "_mirror_group" in v.__dict__:
                self.stale[id(v)] = v
                v.__class__ = _twins(type(v)._tapegrad_base)[1]

    def sync(self, quiet: bool = False) -> None:
        """Give this process's stale variables the replicas' values (of the last completed step);
        if every replica died, they keep theirs (with a warning unless ``quiet``)."""
        with self.lock:
            if not self.stale:
                return
            stale = list(self.stale.values())
            self.stale.clear()
            for v in stale:
                v.__class__ = _twins(type(v)._tapegrad_base)[0]
            keys = [self.var_keys[id(v)] for v in stale]
            mirrored = [k for k in keys if k not in self.on_read]
            on_read = [k for k in keys if k in self.on_read]
            got: list = []  # per live replica: its answer
            for r in range(self.n):
                if r in self.dead:
                    continue
                try:  # (the first live replica's changed values; every replica's own state)
                    got.append((self._request(r, "publish", mirrored) if mirrored and not got else [],
                                self._request(r, "values", on_read) if on_read else []))
                except (EOFError, OSError) if self.lanes else Exception:  # (its process ended)
                    self.dead.add(r)
                if got and not on_read:
                    break
            if not got:
                if quiet:
                    return
                warnings.warn(f"Every replica of this strategy died: {len(stale)} variables keep the "
                              "values they had when this process last read them. Restore the last "
                              "tf.train.Checkpoint to go on.", RuntimeWarning, stacklevel=3)
                return
            for key, value in got[0][0]:
                _assign_fresh(self.vars[key], value)
            for i, key in enumerate(on_read):  # TF's SyncOnRead: combined by the aggregation
                parts = [values[i][1] for _, values in got]
                how = self.on_read[key]
                if how is VariableAggregation.SUM or how is VariableAggregation.MEAN:
                    total = np.array(parts[0], copy=True)
                    for p in parts[1:]:
                        total += p
                    value = total if how is VariableAggregation.SUM else \
                        np.asarray(total / total.dtype.type(len(parts)) if total.dtype.kind in "fc"
                                   else total // len(parts), total.dtype)
                else:
                    value = np.array(parts[0], copy=True)
                _assign_fresh(self.vars[key], value)

    def _request(self, r: int, method: str, *args: Any) -> Any:
        """Call replica ``r``'s ``method`` between steps (through its lane, or as an actor call)."""
        if not self.lanes:
            return getattr(self.actors[r], method)(*args).result()
        self.lanes[r].send((method, *args))
        answer = self.lanes[r].recv()
        if answer[0] == "error":
            raise answer[1] from _RemoteTraceback(answer[2])
        return answer[1]

    def _failure(self, fn: Callable, step: int, answers: list) -> tuple:
        """The exception to raise for a failed step, and its cause (a replica's traceback)."""
        name = getattr(fn, "__qualname__", repr(fn))
        died = [r for r, a in enumerate(answers) if a[0] == "died"]
        if died:
            r = died[0]
            kept = (f"No variable was changed: every replica and this process keep the values of "
                    f"step {step - 1}." if len(self.dead) < self.n else
                    "No replica survived: this process's variables keep the values it last read.")
            self.broken = (f"replica {r} of this strategy (Dask worker {self.workers[r]}) died in step "
                           f"{step}; build a new strategy and restore the last checkpoint to go on.")
            return UnavailableError(
                f"Replica {r} of {self.n} (Dask worker {self.workers[r]}) died while running "
                f"{name} in step {step}: {answers[r][1]}.{self._death_report(r)}\n{kept} Build a new "
                "strategy (and restore the last tf.train.Checkpoint) to go on."), None
        r = next(r for r, a in enumerate(answers) if a[0] == "error")
        _, exc, tb = answers[r]
        return exc, _RemoteTraceback(
            f"\n\nreplica {r} of {self.n} (Dask worker {self.workers[r]}) raised in step {step}; no "
            f"variable was changed (every replica rolled back):\n\"\"\"\n{tb}\"\"\"")

    def _death_report(self, r: int) -> str:
        lines = []
        crash = os.path.join(self.folder, f"crash-{r}.txt")
        if os.path.isfile(crash) and os.path.getsize(crash):
            with open(crash) as fh:
                lines.append("The worker's traceback when it crashed:\n" + fh.read())
        report = getattr(self.cluster, "exit_report", None)
        status = report(self.workers[r]) if report is not None else None
        if status is not None:
            return "\n" + "\n".join(lines + [status])
        deadline = time.monotonic() + 5  # (a lane sees the death before the nanny reports it)
        while True:
            try:
                logs = self.client.get_worker_logs(nanny=True)
            except Exception:  # noqa: BLE001  (no nanny: a cluster started without one)
                logs = {}
            exits = [msg for entries in logs.values() for msg in [
                m for _, m in entries if "Worker process" in m and ("exited" in m or "killed" in m)][-1:]]
            if exits or not logs or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        lines += exits
        if not lines:
            return " The process ended without a Python traceback (os._exit, or killed)."
        return "\n" + "\n".join(lines)


class _MirroredBase(Strategy):
    _group: _Group

    def _run_replicas(self, fn: Callable, args: tuple, kwargs: dict) -> list:
        # in a tf.function, this process's part runs eagerly: the replicas do the step's work
        _trace.run_eagerly("strategy.run sends its step to the replicas")
        outs = self._group.run(fn, args, kwargs)
        f = fn if isinstance(fn, Function) else getattr(fn, "__call__", None)
        if isinstance(f, Function):
            f.ran_elsewhere(per_replica_args(args, 0, self._num_replicas),
                            per_replica_args(kwargs, 0, self._num_replicas))
        return outs

    def close(self) -> None:
        """Bring this process's variables up to date, then shut the replicas down (and the
        embedded cluster). Also done at exit, and when the strategy and every variable it
        mirrors are garbage-collected (a mirrored variable keeps its strategy, as in TensorFlow)."""
        self._group.close()

    @property
    def dask_client(self) -> Any:
        """The ``distributed.Client`` the replicas run under."""
        return self._group.client


class MirroredStrategy(_MirroredBase):
    """Synchronous data parallelism on this machine: one replica per Dask worker process.

    With no cluster it starts an embedded ``distributed.LocalCluster`` with one single-threaded
    worker per replica (shut down with the strategy). ``devices`` (a list: one replica each)
    or ``num_replicas`` choose the count. With neither (or ``devices=[]``), as TensorFlow: one
    replica per GPU when there are GPUs, else one per logical CPU, so ONE replica unless the
    program split the CPU (``tf.config.set_logical_device_configuration``); ask for several
    explicitly (``MirroredStrategy(["/cpu:0", "/cpu:1"])`` or ``num_replicas=4``). ``blas_threads``
    limits each replica's BLAS threads (threadpoolctl); the default shares the cores among the
    replicas (``cpu_count // num_replicas``, at least 1). Variables and optimizers used by a
    step are mirrored on every replica; ``apply_gradients`` inside :meth:`run` sums the
    gradients across replicas, and every replica applies the same update. See docs/distribute.md.

    The embedded cluster listens on the loopback interface only, and takes only TLS connections
    that show the certificate it made for itself (``distributed.Security.temporary()``), so no
    other process, not even another user's on this machine, can reach the replicas. It has no
    dashboard unless ``dashboard=True`` (then on ``127.0.0.1``, open to this machine's users:
    ``strategy.dask_client.dashboard_link``).
    """

    def __init__(self, devices: list | None = None, cross_device_ops: Any = None, *,
                 num_replicas: int | None = None, blas_threads: int | None = None,
                 dashboard: bool = False) -> None:
        distributed = _import_distributed()
        if devices and num_replicas is not None and len(devices) != num_replicas:
            raise ValueError(f"devices has {len(devices)} entries but num_replicas={num_replicas}.")
        n = len(devices) if devices else num_replicas or _default_replicas()
        self._devices = devices or None
        if not isinstance(n, int) or n < 1:
            raise ValueError(f"The number of replicas must be a positive int; got {n!r}.")
        self._num_replicas = n
        self._group = _embedded_group(distributed, n, blas_threads, dashboard)


def _embedded_group(distributed: Any, n: int, blas_threads: int | None, dashboard: bool = False) -> _Group:
    """``n`` replicas on a cluster of their own, started on this machine. Python's and NumPy's
    global random states are as they were: starting Dask draws from them (names, ports), and
    Keras's unseeded initializers take their seed from Python's (TensorFlow's strategies draw
    nothing)."""
    py_state, np_state = _pyrandom.getstate(), np.random.get_state()
    try:
        return _start_group(distributed, n, blas_threads, dashboard)
    finally:
        _pyrandom.setstate(py_state)
        np.random.set_state(np_state)


def _start_group(distributed: Any, n: int, blas_threads: int | None, dashboard: bool) -> _Group:
    if blas_threads is None:  # (the replicas share this machine's cores)
        blas_threads = max(1, (os.cpu_count() or 1) // n)
    cluster = _Embedded(distributed, n, dashboard)
    client = distributed.Client(cluster.address, set_as_default=False, direct_to_workers=True,
                                security=cluster.security)
    try:
        cluster.wait(client)
    except BaseException:
        client.close()
        cluster.close()
        _remove_files(cluster, cluster.folder)
        raise
    return _Group(client, cluster, sorted(client.scheduler_info()["workers"]), blas_threads)


def _default_replicas() -> int:
    """TensorFlow's ``MirroredStrategy()`` devices: every logical GPU, else every logical CPU
    (one, unless the program split the CPU)."""
    return len(config.list_logical_devices("GPU")) or len(config.list_logical_devices("CPU"))


# The embedded cluster's Dask settings (scheduler's and workers').
_CONFIG = {
    # the workers' sampling profiler walks every thread's stack each 10 ms, holding the GIL: a
    # tax on a Python-heavy training step
    "distributed.worker.profile.enabled": False,
    # every event loop (scheduler, nannies, workers) wakes each 20 ms to check that it is not
    # blocked, and the scheduler balances tasks each 100 ms: replicas are actors, not tasks
    "distributed.admin.tick.interval": "1s",
    "distributed.scheduler.work-stealing": False,
    # (and samples the processes' memory each 100 ms, CPU each 500 ms)
    "distributed.worker.memory.monitor-interval": "500ms",
    "distributed.admin.system-monitor.interval": "2s",
    # no HTTP routes (health, metrics, dashboards): the HTTP servers Dask starts anyway are
    # stopped once they run (``_replica.dask_setup``)
    "distributed.scheduler.http.routes": [],
    "distributed.worker.http.routes": [],
}
_LOOPBACK = "127.0.0.1"


# (argv[1] is the driver's id when the worker is to end with it: Linux's parent-death signal,
# asked for only by a driver's main thread, as the signal follows the thread that started it)
_WORKER = ("import os, runpy, signal, sys\n"
           "driver = int(sys.argv.pop(1))\n"
           "if driver and sys.platform.startswith('linux'):\n"
           "    import ctypes\n"
           "    ctypes.CDLL(None).prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG\n"
           "    if os.getppid() != driver:  # (it died already)\n"
           "        sys.exit(1)\n"
           "if sys.path[0] == '':\n"
           "    del sys.path[0]\n"
           "runpy.run_module('distributed.cli.dask_worker', run_name='__main__', alter_sys=True)")
_LIVE: set = set()  # the embedded clusters alive: while any is, Dask's log handlers show only
_QUIET = contextlib.ExitStack()  # errors (per cluster, a second one's close would log at INFO)


class _Embedded:
    """A ``MirroredStrategy``'s own cluster: a Dask scheduler in this process and ``n``
    single-threaded Dask workers, each a ``dask worker`` process of its own (no nanny). Unlike
    workers that multiprocessing spawns, these never import the user's ``__main__``, so a program
    may make its strategy at module level, as TensorFlow programs do, with no
    ``if __name__ == "__main__":``; and they start with this process's environment (its BLAS
    threads, its allocator settings), with the replicas' BLAS threads set by threadpoolctl.

    Everything listens on 127.0.0.1 and speaks TLS with a certificate made for this cluster
    (every connection must show it: the workers get it in their environment, which only this
    user can read); the HTTP servers Dask starts are stopped, but for the scheduler's dashboard
    when asked for. ``folder`` (mode 0700) holds the replicas' lanes and shared memory."""

    def __init__(self, distributed: Any, n: int, dashboard: bool = False) -> None:
        import dask

        self.n = n
        try:
            self.security = distributed.Security.temporary()
        except ImportError as e:
            raise ImportError("MirroredStrategy's cluster speaks TLS with a certificate it makes "
                              "(the cryptography package): pip install 'tapegrad[dask]'.") from e
        self.folder = _private_folder()
        if not _LIVE:
            for root in ("distributed", "bokeh"):
                _QUIET.enter_context(distributed.utils.silence_logging_cmgr(logging.ERROR, root))
        _LIVE.add(id(self))
        preload = ["tapegrad.distribute._replica"]  # (its dask_setup stops the HTTP server)
        with dask.config.set(_CONFIG):
            self.scheduler = distributed.LocalCluster(
                n_workers=0, processes=True, host=_LOOPBACK, security=self.security,
                dashboard_address=f"{_LOOPBACK}:0", silence_logs=False,  # (None would try 8787, and
                scheduler_kwargs={} if dashboard else {"dashboard": False, "preload": preload})  # warn)
        self.address = self.scheduler.scheduler_address
        # the step's modules: the workers' sys.path is this process's ("" being the folder it
        # runs in), without the folder that `python -c` puts first, where another version of a
        # module (tapegrad itself) could stand in for this process's
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p or os.getcwd() for p in sys.path))
        tls = self.security.get_tls_config_for_role("worker")
        for key, value in {**_CONFIG, "distributed.comm.require-encryption": True,
                           "distributed.comm.tls.ca-file": tls["ca_file"],
                           "distributed.comm.tls.worker.cert": tls["cert"],
                           "distributed.comm.tls.worker.key": tls["key"]}.items():
            env["DASK_" + key.upper().replace(".", "__").replace("-", "_")] = \
                value if isinstance(value, str) else repr(value)
        self.log = tempfile.NamedTemporaryFile(prefix=f"{_LOG_PREFIX}{os.getpid()}-", suffix=".log",
                                               delete=False)  # (mode 0600)
        _lock(self.log.fileno())  # (held by the workers too, which write to it)
        # the workers end with this process (SIGTERM when it dies, SIGKILL included), else a
        # minute after their scheduler is gone (--death-timeout)
        driver = os.getpid() if threading.current_thread() is threading.main_thread() else 0
        self.processes = [subprocess.Popen(
            [sys.executable, "-c", _WORKER, str(driver), self.address, "--nthreads", "1", "--host", _LOOPBACK,
             "--no-nanny", "--no-dashboard", "--dashboard-address", f"{_LOOPBACK}:0",
             "--preload", preload[0], "--name", f"replica-{r}", "--death-timeout", "60"],
            env=env, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL) for r in range(n)]
        self.by_address: dict = {}  # worker address -> its process

    def wait(self, client: Any) -> None:
        """Wait for the workers; if they cannot start, say why (the end of their output)."""
        deadline = time.monotonic() + 120
        while len(info := client.scheduler_info()["workers"]) < self.n:
            if any(p.poll() is not None for p in self.processes) or time.monotonic() > deadline:
                with open(self.log.name, errors="replace") as fh:
                    tail = fh.read()[-3000:]
                raise RuntimeError(f"The {self.n} Dask workers of this MirroredStrategy did not start "
                                   f"(`{sys.executable} -m distributed.cli.dask_worker ...`). Their "
                                   f"output:\n{tail}")
            time.sleep(0.05)
        for address, worker in info.items():
            self.by_address[address] = self.processes[int(str(worker["name"]).rsplit("-", 1)[1])]

    def exit_report(self, address: str) -> str | None:
        """How the worker at ``address`` ended (its exit status or signal), once it has."""
        p = self.by_address.get(address)
        if p is None:
            return None
        with contextlib.suppress(subprocess.TimeoutExpired):
            p.wait(5)
        if p.returncode is None:
            return None
        if p.returncode < 0:
            sig = -p.returncode
            name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else str(sig)
            return f"Worker process {p.pid} was killed by signal {sig} ({name})."
        return f"Worker process {p.pid} exited with status {p.returncode}."

    def kill_workers(self) -> None:
        """End the worker processes and remove their log (no Dask call: safe in a signal handler)."""
        for p in self.processes:
            if p.poll() is None:
                p.terminate()
        with contextlib.suppress(OSError):
            os.unlink(self.log.name)

    def close(self) -> None:
        self.kill_workers()
        for p in self.processes:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
        self.scheduler.close()
        _LIVE.discard(id(self))
        if not _LIVE:
            _QUIET.close()
        self.log.close()


class MultiWorkerMirroredStrategy(_MirroredBase):
    """Synchronous data parallelism over the workers of a running Dask cluster: one replica per
    worker. ``cluster_resolver`` is the scheduler's address (``"tcp://host:8786"``), an object
    with a ``master()`` method returning it, or a ``distributed.Client``. See docs/distribute.md
    for starting a scheduler and workers. Without one (and without ``TF_CONFIG``), one replica
    on a worker of its own on this machine, as TensorFlow's strategy is a single worker with
    one CPU replica then (secured as :class:`MirroredStrategy`'s).

    ``security`` is the ``distributed.Security`` this process connects with: a cluster started
    with TLS (``tls://`` addresses, docs/distribute.md) needs one holding this client's
    certificate and key and the cluster's CA. Whoever can connect to a Dask cluster can run
    code on its workers: a cluster reached over plain ``tcp://`` on another machine draws a
    warning. docs/distribute.md shows how to start a TLS cluster and connect to it.
    """

    def __init__(self, cluster_resolver: Any = None, communication_options: Any = None, *,
                 blas_threads: int | None = None, security: Any = None) -> None:
        distributed = _import_distributed()
        if cluster_resolver is None:   # (TensorFlow's default: the cluster TF_CONFIG describes)
            cluster_resolver = TFConfigClusterResolver()
        self.cluster_resolver = cluster_resolver
        client = cluster_resolver if isinstance(cluster_resolver, distributed.Client) else None
        if isinstance(cluster_resolver, TFConfigClusterResolver):
            spec = cluster_resolver.cluster_spec()
            tasks = sum(spec.num_tasks(j) for j in ("chief", "worker") if j in spec.jobs)
            if tasks > 1:
                raise ValueError(
                    f"TF_CONFIG describes a cluster of {tasks} workers ({spec}). tapegrad does not "
                    "start TensorFlow's gRPC servers: its workers run on a Dask cluster. Start a "
                    "Dask scheduler and workers and give the strategy the scheduler's address, "
                    "MultiWorkerMirroredStrategy('tcp://host:8786') (docs/distribute.md); a "
                    "TF_CONFIG of one worker runs here as that worker.")
            address = ""   # (no cluster, or one task: this process is the only worker)
        else:
            address = cluster_resolver.master() if hasattr(cluster_resolver, "master") else cluster_resolver
        if client is None and not address:  # (no resolver, or one of no cluster)
            self.cluster_resolver = cluster_resolver or SimpleClusterResolver()
            self._num_replicas = 1
            self._group = _embedded_group(distributed, 1, blas_threads)
            return
        own = client is None
        if own:
            client = _connect(distributed, str(address), security)
        if not hasattr(cluster_resolver, "task_type"):  # (an address or a Client: this process
            self.cluster_resolver = SimpleClusterResolver(  # leads)
                master=client.scheduler.address, task_type="chief", task_id=0)
        workers = sorted(client.scheduler_info()["workers"])
        if not workers:
            raise ValueError(f"The Dask cluster at {client.scheduler.address} has no workers.")
        self._num_replicas = len(workers)
        self._group = _Group(client, None, workers, blas_threads, own_client=own)


def _connect(distributed: Any, address: str, security: Any) -> Any:
    """A client of the Dask scheduler at ``address``, with ``security``."""
    if security is not None and not isinstance(security, distributed.Security):
        raise TypeError(f"security must be a distributed.Security; got {type(security).__name__}.")
    if address.startswith("tls://") and (security is None or not security.require_encryption):
        raise ValueError(f"The Dask scheduler at {address} speaks TLS: pass "
                         "security=distributed.Security(tls_ca_file=..., tls_client_cert=..., "
                         "tls_client_key=..., require_encryption=True) (docs/distribute.md).")
    if "://" not in address or address.startswith("tcp://"):
        host = address.split("://")[-1].rsplit(":", 1)[0].strip("[]")
        if host not in ("127.0.0.1", "localhost", "::1") and not host.startswith("127."):
            warnings.warn(f"The Dask cluster at {address} takes connections without TLS: anyone "
                          "who can reach it can run code on its workers. Start it with TLS and pass "
                          "security= (docs/distribute.md).", UserWarning, stacklevel=3)
    return distributed.Client(address, set_as_default=False, direct_to_workers=True, security=security)


__all__ = ["MirroredStrategy", "MultiWorkerMirroredStrategy"]
