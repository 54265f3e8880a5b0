"""``tapegrad.queue``: TensorFlow's ``tf.queue`` in eager mode: thread-safe queues of tensor
tuples (``FIFOQueue``, ``PaddingFIFOQueue``, ``PriorityQueue``, ``RandomShuffleQueue``).

An element is one tensor per component (``dtypes``, optionally ``shapes`` and ``names``);
``enqueue``/``dequeue`` block while the queue is full/empty, as TensorFlow's; a closed queue
refuses enqueues (``CancelledError``) and, once drained, dequeues (``OutOfRangeError``).

>>> import tapegrad as tf
>>> q = tf.queue.FIFOQueue(3, [tf.float32, tf.int32], shapes=[[2], []])
>>> q.enqueue_many([[[1.0, 2.0], [3.0, 4.0]], [5, 6]])
>>> x, y = q.dequeue()
>>> x.numpy(), int(y), int(q.size())
(array([1., 2.], dtype=float32), 5, 1)
"""
from __future__ import annotations

import collections
import heapq
import itertools
import threading
from typing import Any

import numpy as np

from . import dtypes as _dt
from ._convert import convert_to_tensor
from ._tensor import Tensor, TensorShape, wrap
from .errors import CancelledError, InvalidArgumentError, OutOfRangeError
from .ops.array import stack

__all__ = ["QueueBase", "FIFOQueue", "PaddingFIFOQueue", "PriorityQueue", "RandomShuffleQueue"]


class QueueBase:
    """The queue protocol of ``tf.queue`` (see the module docstring)."""

    _kind = "FIFOQueue"

    def __init__(self, capacity: int, dtypes: Any, shapes: Any = None, names: Any = None,
                 name: str = "fifo_queue") -> None:
        single = not isinstance(dtypes, (list, tuple))
        self._dtypes = [_dt.as_dtype(d) for d in ([dtypes] if single else dtypes)]
        self._single = len(self._dtypes) == 1 and names is None  # (one component: a tensor, not a list)
        if shapes is None:
            self._shapes = [TensorShape(None) for _ in self._dtypes]
        else:
            shapes = [shapes] if single or (shapes and not isinstance(shapes[0], (list, tuple, TensorShape))
                                            and shapes[0] is not None) else shapes
            self._shapes = [s if isinstance(s, TensorShape) else TensorShape(s) for s in shapes]
        if names is not None:
            names = [names] if isinstance(names, str) else list(names)
            if len(names) != len(self._dtypes):
                raise ValueError("Queue must have the same number of names as components")
        self._names = names
        if len(self._shapes) != len(self._dtypes):
            raise ValueError("Queue shapes must have the same length as dtypes")
        self._capacity = int(capacity)
        self._name = name
        self._closed = False
        self._cond = threading.Condition()
        self._items: Any = collections.deque()

    # -- properties
    @property
    def dtypes(self) -> list:
        return list(self._dtypes)

    @property
    def shapes(self) -> list:
        return list(self._shapes)

    @property
    def names(self) -> list | None:
        return None if self._names is None else list(self._names)

    @property
    def name(self) -> str:
        return self._name

    @property
    def queue_ref(self) -> "QueueBase":
        return self

    # -- storage (a subclass changes the order)
    def _put(self, item: list) -> None:
        self._items.append(item)

    def _take(self) -> list:
        return self._items.popleft()

    def _ready(self, n: int) -> bool:
        return len(self._items) >= n

    # -- components
    def _components(self, vals: Any, many: bool) -> list:
        if self._names is not None:
            if not isinstance(vals, dict) or sorted(vals) != sorted(self._names):
                raise ValueError(f"Queue with names {self._names} requires a dict of those keys; got {vals!r}")
            vals = [vals[k] for k in self._names]
        elif not isinstance(vals, (list, tuple)):
            vals = [vals]
        if len(vals) != len(self._dtypes):
            raise ValueError(f"Expected {len(self._dtypes)} components; got {len(vals)}")
        out = []
        for i, (v, d, s) in enumerate(zip(vals, self._dtypes, self._shapes)):
            try:
                t = convert_to_tensor(v, d)
            except (TypeError, ValueError, InvalidArgumentError) as e:
                raise ValueError(f"component_{i}: {e}") from None
            shape = t.shape[1:] if many else t.shape
            if not s.is_compatible_with(shape):
                raise ValueError(f"Shape {shape} of component {i} is incompatible with the queue's {s}")
            out.append(t)
        return out

    def _closed_error(self) -> CancelledError:
        return CancelledError(f"{self._kind} '{self._name}' is closed.")

    def _enqueue(self, items: list) -> None:
        with self._cond:
            for item in items:
                while len(self._items) >= self._capacity and not self._closed:
                    self._cond.wait()
                if self._closed:
                    raise self._closed_error()
                self._put(item)
                self._cond.notify_all()

    def enqueue(self, vals: Any, name: Any = None) -> None:
        """Add one element (blocks while the queue is full)."""
        self._enqueue([self._components(vals, False)])

    def enqueue_many(self, vals: Any, name: Any = None) -> None:
        """Add the elements along the components' first dimension."""
        comps = self._components(vals, True)
        n = {int(c.shape[0]) for c in comps}
        if len(n) != 1:
            raise ValueError("The components of enqueue_many must have the same first dimension")
        self._enqueue([[c[i] for c in comps] for i in range(n.pop())])

    def _dequeue(self, n: int, up_to: bool) -> list:
        with self._cond:
            while not self._ready(n) and not self._closed:
                self._cond.wait()
            if not self._ready(n) and (not up_to or not self._ready(1)):
                raise OutOfRangeError(f"{self._kind} '{self._name}' is closed and has insufficient elements "
                                      f"(requested {n}, current size {len(self._items)})")
            items = [self._take() for _ in range(min(n, len(self._items)))]
            self._cond.notify_all()
        return items

    def _result(self, comps: list) -> Any:
        if self._names is not None:
            return dict(zip(self._names, comps))
        return comps[0] if self._single else comps

    def dequeue(self, name: Any = None) -> Any:
        """Remove and return one element (blocks while empty; OutOfRangeError once closed and empty)."""
        return self._result(self._dequeue(1, False)[0])

    def _batch(self, items: list) -> list:
        return [stack([it[k] for it in items], 0) if items else wrap(np.zeros((0,), d.as_numpy_dtype))
                for k, d in enumerate(self._dtypes)]

    def _check_shapes(self) -> None:
        if not all(s.is_fully_defined() for s in self._shapes):
            raise InvalidArgumentError(f"{self._kind}'s DequeueMany and DequeueUpTo require the components to have "
                                       "specified shapes (give the queue `shapes=`).")

    def dequeue_many(self, n: int, name: Any = None) -> Any:
        """Remove ``n`` elements, stacked per component (blocks until there are ``n``); the queue
        needs fully defined ``shapes``."""
        self._check_shapes()
        return self._result(self._batch(self._dequeue(int(n), False)))

    def dequeue_up_to(self, n: int, name: Any = None) -> Any:
        """``dequeue_many``, or what is left (at least one) once the queue is closed."""
        self._check_shapes()
        return self._result(self._batch(self._dequeue(int(n), True)))

    def size(self, name: Any = None) -> Tensor:
        """The number of elements, an int32 scalar."""
        with self._cond:
            return wrap(np.int32(len(self._items)))

    def close(self, cancel_pending_enqueues: bool = False, name: Any = None) -> None:
        """Refuse further enqueues; blocked dequeues end (with what remains, or OutOfRangeError)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def is_closed(self, name: Any = None) -> Tensor:
        """Whether :meth:`close` was called, a bool scalar."""
        return wrap(np.bool_(self._closed))


class FIFOQueue(QueueBase):
    """A first-in first-out queue, as ``tf.queue.FIFOQueue``.

    >>> import tapegrad as tf
    >>> q = tf.queue.FIFOQueue(2, tf.int32)
    >>> q.enqueue(7); int(q.dequeue())
    7
    """

    def __init__(self, capacity: int, dtypes: Any, shapes: Any = None, names: Any = None, shared_name: Any = None,
                 name: str = "fifo_queue") -> None:
        super().__init__(capacity, dtypes, shapes, names, name)


class PaddingFIFOQueue(QueueBase):
    """A FIFO queue whose ``dequeue_many`` pads each component to the largest element's shape
    (zeros, empty strings), as ``tf.queue.PaddingFIFOQueue``; ``shapes`` is required (``None``
    for a dimension that varies).

    >>> import tapegrad as tf
    >>> q = tf.queue.PaddingFIFOQueue(5, [tf.int32], shapes=[[None]])
    >>> q.enqueue([[1, 2, 3]]); q.enqueue([[4]])
    >>> q.dequeue_many(2).numpy()
    array([[1, 2, 3],
           [4, 0, 0]], dtype=int32)
    """

    _kind = "PaddingFIFOQueue"

    def __init__(self, capacity: int, dtypes: Any, shapes: Any, names: Any = None, shared_name: Any = None,
                 name: str = "padding_fifo_queue") -> None:
        super().__init__(capacity, dtypes, shapes, names, name)

    def _check_shapes(self) -> None:  # (unknown dimensions are padded)
        if any(s.rank is None for s in self._shapes):
            raise ValueError("PaddingFIFOQueue needs the rank of every component (shapes with None dimensions)")

    def _batch(self, items: list) -> list:
        out = []
        for k, d in enumerate(self._dtypes):
            arrs = [np.asarray(it[k].numpy()) for it in items]
            if not arrs:
                out.append(wrap(np.zeros((0,), d.as_numpy_dtype)))
                continue
            shape = np.max([a.shape for a in arrs], 0) if arrs[0].ndim else ()
            fill = b"" if d == _dt.string else 0
            full = np.full((len(arrs), *shape), fill, dtype=arrs[0].dtype)
            for i, a in enumerate(arrs):
                full[(i, *(slice(0, n) for n in a.shape))] = a
            out.append(wrap(full))
        return out


class PriorityQueue(QueueBase):
    """A queue that dequeues the element of the smallest int64 priority first (the first
    component of each element, before ``types``), as ``tf.queue.PriorityQueue``; equal
    priorities leave in the order they came.

    >>> import tapegrad as tf
    >>> q = tf.queue.PriorityQueue(5, [tf.string], shapes=[[]])
    >>> q.enqueue((tf.constant(3, tf.int64), "c")); q.enqueue((tf.constant(1, tf.int64), "a"))
    >>> p, v = q.dequeue()
    >>> int(p), v.numpy()
    (1, b'a')
    """

    _kind = "PriorityQueue"

    def __init__(self, capacity: int, types: Any, shapes: Any = None, names: Any = None, shared_name: Any = None,
                 name: str = "priority_queue") -> None:
        types = list(types) if isinstance(types, (list, tuple)) else [types]
        shapes = None if shapes is None else [[], *shapes]
        super().__init__(capacity, [_dt.int64, *types], shapes, None if names is None else ["priority", *names], name)
        self._items = []
        self._count = itertools.count()

    def _put(self, item: list) -> None:
        heapq.heappush(self._items, (int(item[0].numpy()), next(self._count), item))

    def _take(self) -> list:
        return heapq.heappop(self._items)[2]


class RandomShuffleQueue(QueueBase):
    """A queue that dequeues a random element, keeping at least ``min_after_dequeue`` until it
    is closed, as ``tf.queue.RandomShuffleQueue`` (NumPy's generator, seeded by ``seed``: not
    TensorFlow's order).

    >>> import tapegrad as tf
    >>> q = tf.queue.RandomShuffleQueue(10, 0, tf.int32, seed=1)
    >>> q.enqueue_many([[1, 2, 3]])
    >>> sorted(int(q.dequeue()) for _ in range(3))
    [1, 2, 3]
    """

    _kind = "RandomShuffleQueue"

    def __init__(self, capacity: int, min_after_dequeue: int, dtypes: Any, shapes: Any = None, names: Any = None,
                 seed: Any = None, shared_name: Any = None, name: str = "random_shuffle_queue") -> None:
        super().__init__(capacity, dtypes, shapes, names, name)
        self._min_after = int(min_after_dequeue)
        self._items = []
        self._rng = np.random.default_rng(seed)

    def _put(self, item: list) -> None:
        self._items.append(item)

    def _take(self) -> list:
        i = int(self._rng.integers(len(self._items)))
        self._items[i], self._items[-1] = self._items[-1], self._items[i]
        return self._items.pop()

    def _ready(self, n: int) -> bool:
        return len(self._items) >= n + (0 if self._closed else self._min_after)
