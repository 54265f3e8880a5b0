"""An iterator's checkpointable state (what ``tf.train.Checkpoint(iterator=iter(ds))`` saves).

TensorFlow saves each dataset op's internal state (buffers, positions, random generators) and
restores it in place. tapegrad's pipelines are chains of Python generators, which cannot be
saved; instead an iterator's state is where it stands in a deterministic stream: the number of
elements it has given, and the random state its pipeline started from (each ``shuffle``'s seeds
and its reshuffle generator, as they were when the iterator was made). Restoring rebuilds the
stream from that random state and replays it to the saved position, so the next element, the
shuffle buffers and the later epochs are those the saved iterator would have given.

That is exact only for a stream that the same definition reproduces, so saving refuses, with
``FailedPreconditionError`` naming the cause, what TensorFlow also refuses as stateful: a
``from_generator`` source, and dataset functions (``map``, ``filter``, ``flat_map``, ...) that ran
a random op, a ``py_function`` or a Variable update, or made an unseeded ``shuffle``. Replaying
costs what producing those elements cost.

The state is JSON in a uint8 tensor (no pickle), checked against the dataset's definition when
restored.
"""
from __future__ import annotations

import itertools
import json
from typing import Any

import numpy as np

from .. import _philox
from .._convert import host_value
from .._tensor import Tensor, wrap
from ..errors import FailedPreconditionError, NotFoundError

_VERSION = 1
_PARAMS = (int, bool, str, float)


def _is_dataset(v: Any) -> bool:
    return hasattr(type(v), "_elements")


def nodes(ds: Any) -> list:
    """The datasets of a pipeline, ``ds`` first, each once, in a fixed order."""
    out, seen, todo = [], set(), [ds]
    while todo:
        d = todo.pop()
        if id(d) in seen:
            continue
        seen.add(id(d))
        out.append(d)
        kids = []
        for v in vars(d).values():
            if _is_dataset(v):
                kids.append(v)
            elif isinstance(v, (list, tuple)):
                kids.extend(x for x in v if _is_dataset(x))
            elif isinstance(v, dict):
                kids.extend(x for x in v.values() if _is_dataset(x))
        todo.extend(reversed(kids))
    return out


def _definition(ds: Any) -> list:
    """What a restored iterator's dataset must share with the saved one's: per dataset, its kind
    and its scalar parameters (sizes, counts, flags, file names)."""
    out = []
    for d in nodes(ds):
        params = {}
        for k, v in vars(d).items():
            if k.startswith("_element_spec"):
                continue
            if type(v) in _PARAMS:
                params[k] = v
            elif type(v) is range:
                params[k] = [v.start, v.stop, v.step]
            elif isinstance(v, list) and v and all(type(x) is str for x in v):
                params[k] = v
        out.append([type(d).__name__, params])
    return out


def random_start(ds: Any) -> list:
    """The state a new iterator of ``ds`` starts from: each shuffle's seeds and its reshuffle
    generator (read before the iterator is made: making it draws from them), and whether each
    cache is filled already (the iterator then reads it instead of its input)."""
    out = []
    for d in nodes(ds):
        if hasattr(d, "_seeder"):  # a shuffle
            g = d._seeder
            out.append([list(d._seeds), None if g is None else [g.key, g.counter, g.used]])
        elif hasattr(d, "_done"):  # a cache
            out.append(d._done is not None)
    return out


def _refusal(ds: Any) -> str | None:
    for d in nodes(ds):
        if d._unsaveable:
            return d._unsaveable
        for fn in vars(d).values():  # (its functions: map's, group_by_window's key, reduce and size, ...)
            if hasattr(fn, "instance") and getattr(fn, "stateful", None):
                return (f"the function of its {d._tf_name.strip('_')} ran {fn.stateful}, whose state cannot "
                        "be saved (TensorFlow refuses such functions too)")
    return None


def save(it: Any) -> Tensor:
    """The iterator's state as a uint8 tensor; ``FailedPreconditionError`` for a pipeline whose
    state cannot be saved."""
    why = _refusal(it._dataset)
    if why is not None:
        raise FailedPreconditionError(
            f"Cannot checkpoint this dataset iterator: {why}. Leave the iterator out of the "
            "Checkpoint (save the step and skip that many elements after restoring), or build the "
            "dataset from tensors, files or stateless functions (tf.random.stateless_* with seeds "
            "from the element).")
    state = {"version": _VERSION, "position": it._n, "definition": _definition(it._dataset),
             "random": it._start}
    return wrap(np.frombuffer(json.dumps(state).encode("utf-8"), np.uint8).copy())


def restore(it: Any, value: Any) -> None:
    """Put ``it`` where the saved iterator of ``value`` (from :func:`save`) stood."""
    raw = np.asarray(host_value(value, "an iterator's saved state"))
    try:
        state = json.loads(np.asarray(raw, np.uint8).tobytes().decode("utf-8"))
        position, definition, start = int(state["position"]), state["definition"], state["random"]
        if state.get("version") != _VERSION:
            raise ValueError(f"format {state.get('version')}")
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as e:
        raise NotFoundError(f"Failed to restore dataset iterator from checkpoint: its saved state is "
                            f"not one tapegrad wrote ({type(e).__name__}: {e}).") from None
    if definition != _definition(it._dataset):
        raise NotFoundError(
            "Failed to restore dataset iterator from checkpoint: the dataset's definition differs from "
            f"the saved iterator's (saved: {_describe(definition)}; this one: "
            f"{_describe(_definition(it._dataset))}). Make sure the dataset definition has not changed.")
    stateful = [d for d in nodes(it._dataset) if hasattr(d, "_seeder") or hasattr(d, "_done")]
    for d, s in zip(stateful, start):
        if hasattr(d, "_done") and s and d._done is None:
            raise NotFoundError(
                "Failed to restore dataset iterator from checkpoint: the saved iterator read a cache() that an "
                "earlier iteration had filled, and this dataset's cache is empty, so its elements cannot be "
                "known again. Restore into an iterator of the same dataset object, or iterate it once first.")
    for d, s in zip(stateful, start):
        if hasattr(d, "_seeder"):
            seeds, gen = s
            d._seeds = (int(seeds[0]), int(seeds[1]))
            if gen is not None:
                d._seeder = _philox.Stream(int(gen[0]), int(gen[1]))
                d._seeder.used = int(gen[2])
    it._start = start
    it._it = it._dataset._elements()
    it._n = 0
    if position:
        skipped = sum(1 for _ in itertools.islice(it._it, position))
        it._n = skipped


def _describe(definition: list) -> str:
    return " <- ".join(kind.strip("_") for kind, _ in definition)
