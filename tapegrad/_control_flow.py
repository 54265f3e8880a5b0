"""TensorFlow's control flow (``cond``, ``case``, ``switch_case``, ``while_loop``, ``map_fn``,
``vectorized_map``, ``scan``, ``foldl``, ``foldr``) and the small graph-era names around it, run
eagerly as TensorFlow 2 runs them outside ``tf.function``.

Each is plain Python over tapegrad ops: a branch or an iteration that runs is recorded by the
active tapes like any other code, so gradients with respect to inputs and captured variables are
TensorFlow's. Predicates and loop conditions are read as Python bools.
"""
from __future__ import annotations

import contextlib
import itertools
from typing import Any, Callable

import numpy as np

from . import _nest, _recorders as _rec, _trace, _vmap, dtypes as _dt
from ._convert import convert_to_tensor, host_value
from ._dispatch import composite_api
from ._tensor import CompositeTensor, IndexedSlices, Tensor, TensorShape, constant_maker
from ._tensor_array import TensorArray
from ._variable import Variable
from ._warn import warn_outside
from .errors import InvalidArgumentError, OutOfRangeError
from .ops.array import identity, stack, unstack, zeros

__all__ = ["cond", "case", "switch_case", "while_loop", "map_fn", "vectorized_map", "scan", "foldl",
           "foldr", "ensure_shape", "get_static_value", "is_tensor", "executing_eagerly", "no_op",
           "group", "control_dependencies", "identity_n"]


def _truth(pred: Any, what: str) -> bool:
    """``pred`` (a Python bool or a one-element tensor) as a Python bool."""
    if isinstance(pred, (bool, np.bool_)):
        return bool(pred)
    t = convert_to_tensor(pred)
    if t._value.size != 1:
        raise ValueError(f"{what} must be a scalar (a bool tensor of shape []), got a tensor of "
                         f"shape {list(t._value.shape)}. Reduce it with tf.reduce_all or "
                         "tf.reduce_any first.")
    return bool(np.asarray(host_value(t, "__bool__")).reshape(()))


def _check_callable(fn: Any, what: str) -> None:
    if fn is None:
        raise TypeError(f"cond(): '{what}' argument required")
    if not callable(fn):
        raise TypeError(f"'{what}' must be callable, got {type(fn).__name__} {fn!r}.")


def _describe(s: Any) -> str:
    """A structure with its leaves shown as their shapes and dtypes."""
    def leaf(x: Any) -> str:
        if isinstance(x, (Tensor, Variable)):
            return f"{x.dtype.name}{list(x.shape)}"
        return type(x).__name__
    return repr(_nest.map_structure(lambda x: _Leaf(leaf(x)), s))


class _Leaf(str):
    def __repr__(self) -> str:
        return str(self)


# ---------------------------------------------------------------------------- conditionals
def cond(pred: Any, true_fn: Callable | None = None, false_fn: Callable | None = None,
         name: Any = None) -> Any:
    """``true_fn()`` if ``pred`` is true, else ``false_fn()``; only the branch taken runs.

    ``pred`` is a Python bool or a bool tensor of one element. The result is whatever the branch
    returns (a one-element list stays a list). Gradients flow through the branch that ran.

    >>> import tapegrad as tf
    >>> x = tf.constant(2.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tf.cond(x > 0, lambda: x ** 3, lambda: -x)
    >>> float(y), float(tape.gradient(y, x))
    (8.0, 12.0)
    """
    _check_callable(true_fn, "true_fn")
    _check_callable(false_fn, "false_fn")
    taken = _truth(pred, "tf.cond's pred")
    return _branch(true_fn if taken else false_fn, 0 if taken else 1)


def _branch(fn: Callable, i: int) -> Any:
    """``fn()`` as branch ``i`` of a conditional (in a trace: the one run of a graph of its own, as
    TF's branch functions are, for the random ops in it)."""
    out = None
    for _ in _rec.iterate((None,), i):
        out = fn()
    return out


def case(pred_fn_pairs: Any, default: Callable | None = None, exclusive: bool = False,
         strict: bool = False, name: str = "case") -> Any:
    """Run the function of the first pair whose predicate is true, else ``default()``.

    ``pred_fn_pairs``: a list of ``(bool tensor, callable)`` pairs. Without ``default`` the last
    pair's function is the default, and ``InvalidArgumentError`` is raised if no predicate is true.
    ``exclusive=True`` raises ``InvalidArgumentError`` when more than one predicate is true.

    >>> import tapegrad as tf
    >>> x = tf.constant(5)
    >>> int(tf.case([(x < 0, lambda: tf.constant(-1)), (x < 10, lambda: tf.constant(1))],
    ...             default=lambda: tf.constant(0)))
    1
    """
    if not isinstance(pred_fn_pairs, (list, tuple, dict)):
        raise TypeError("'pred_fn_pairs' must be a list, tuple, or dict. "
                        f"Received: {type(pred_fn_pairs)}")
    if isinstance(pred_fn_pairs, dict):
        if not exclusive:
            raise ValueError("Unordered dictionaries are not supported for the 'pred_fn_pairs' "
                             "argument when `exclusive=False` and eager mode is enabled.")
        pred_fn_pairs = list(pred_fn_pairs.items())
    if not pred_fn_pairs:
        raise ValueError("tf.case needs at least one (pred, fn) pair in 'pred_fn_pairs'.")
    preds = []
    for k, pair in enumerate(pred_fn_pairs):
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'pred_fn_pairs' must be a 2-tuple. Received {pair}.")
        pred, fn = pair
        if not isinstance(pred, (Tensor, Variable)):
            raise TypeError(f"pred must be a Tensor, got: {pred!r} (entry {k} of pred_fn_pairs; "
                            "wrap a Python bool in tf.constant).")
        if pred.dtype != _dt.bool:
            raise TypeError(f"pred must be Tensor of type bool, got {pred.dtype.name} (entry {k} "
                            "of pred_fn_pairs).")
        if not callable(fn):
            raise TypeError(f"fn for pred {k} must be callable, got {type(fn).__name__}.")
        preds.append(_truth(pred, f"tf.case's pred {k}"))
    fns = [fn for _, fn in pred_fn_pairs]
    if default is not None and not callable(default):
        raise TypeError(f"'default' must be callable, got {type(default).__name__}.")
    if exclusive and sum(preds) > 1:
        raise InvalidArgumentError(
            f"Input error: exclusive=True: more than 1 conditions evaluated as True: {preds}")
    if default is None:
        if not any(preds):
            raise InvalidArgumentError(
                f"Input error: None of conditions evaluated as True: {preds} (tf.case without "
                "default= needs one true predicate; its last function is used as the default).")
        default, preds, fns = fns[-1], preds[:-1], fns[:-1]
    return _nested_case(preds, fns, default)


def _nested_case(preds: list, fns: list, default: Callable) -> Any:
    """TF's ``case``: ``cond(p0, f0, lambda: cond(p1, f1, ... default))``."""
    if not preds:
        return default()
    if preds[0]:
        return _branch(fns[0], 0)
    return _branch(lambda: _nested_case(preds[1:], fns[1:], default), 1)


def switch_case(branch_index: Any, branch_fns: Any, default: Callable | None = None,
                name: str = "switch_case") -> Any:
    """Run ``branch_fns[branch_index]()``; an index out of range runs ``default`` (or the last).

    ``branch_fns``: a list of callables, or a dict/list of ``(int, callable)`` with keys 0..n-1.

    >>> import tapegrad as tf
    >>> float(tf.switch_case(tf.constant(1), [lambda: tf.constant(10.0), lambda: tf.constant(20.0)]))
    20.0
    """
    if not isinstance(branch_index, (Tensor, Variable)):
        raise TypeError(f"'branch_index' must be a Tensor, got {type(branch_index)} (wrap it in "
                        "tf.constant).")
    if not branch_index.dtype.is_integer:
        raise TypeError(f"'branch_index' must be an integer Tensor, got {branch_index.dtype}")
    if not branch_fns:
        raise ValueError("Must provide at least one item in 'branch_fns'")
    if not isinstance(branch_fns, (list, tuple, dict)):
        raise TypeError(f"'branch_fns' must be a list, tuple, or dict, got {type(branch_fns).__name__}")
    pairs = list(branch_fns.items()) if isinstance(branch_fns, dict) else list(branch_fns)
    if all(callable(fn) for fn in pairs):
        pairs = list(enumerate(pairs))
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'branch_fns' must be a 2-tuple. Received {pair}.")
        key, fn = pair
        if not isinstance(key, int):
            raise TypeError(f"key must be a Python `int`, got {type(key)}")
        if not callable(fn):
            raise TypeError(f"fn for key {key} must be callable.")
    keys = sorted(k for k, _ in pairs)
    if keys != list(range(len(keys))):
        raise ValueError(f"branch indices (keys) must form contiguous range of [0 to {len(keys)}) "
                         f"but found {{{','.join(map(str, keys))}}}")
    fns = [fn for _, fn in sorted(pairs, key=lambda p: p[0])]
    if default is not None:
        fns.append(default)
    bi = convert_to_tensor(branch_index)
    if bi._value.ndim:
        raise InvalidArgumentError(f"'branch_index' must be a scalar, got shape {list(bi._value.shape)}.")
    i = int(host_value(bi, "__int__"))
    i = i if 0 <= i < len(fns) else len(fns) - 1
    return _branch(fns[i], i)


# ---------------------------------------------------------------------------- loops
def _same_or_raise(expected: Any, got: Any, what: str) -> None:
    if not _nest.same_structure(expected, got):
        raise ValueError(f"{what} must have the same nested structure as {_describe(expected)}, "
                         f"but returned {_describe(got)}.")


def _to_tensor(x: Any) -> Any:
    return x if isinstance(x, (TensorArray, IndexedSlices, CompositeTensor)) else convert_to_tensor(x)


@constant_maker
def while_loop(cond: Callable, body: Callable, loop_vars: Any, shape_invariants: Any = None,
               parallel_iterations: int = 10, back_prop: bool = True, swap_memory: bool = False,
               maximum_iterations: Any = None, name: Any = None) -> Any:
    """Repeat ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)`` is true.

    ``loop_vars`` is a tuple or list (of tensors, Python numbers, TensorArrays, or nests of them)
    whose items are passed to ``cond`` and ``body`` as arguments; a single tensor is passed as the
    one argument and returned as a tensor. ``body`` must return the same structure (a single
    value for a one-item ``loop_vars`` is accepted). At most ``maximum_iterations`` iterations
    run. The result has the structure of ``loop_vars``, its leaves converted to tensors. Every
    iteration is recorded by the active tapes (``back_prop`` is ignored, as in TensorFlow's
    eager mode; use ``tf.stop_gradient`` to cut gradients).

    >>> import tapegrad as tf
    >>> x = tf.constant(1.5)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     i, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x), (0, tf.constant(1.0)))
    >>> int(i), float(y), float(tape.gradient(y, x))
    (3, 3.375, 6.75)
    """
    if not callable(cond):
        raise TypeError(f"'cond' must be callable, got {type(cond).__name__}.")
    if not callable(body):
        raise TypeError(f"'body' must be callable, got {type(body).__name__}.")
    if not isinstance(parallel_iterations, int) or parallel_iterations < 1:
        raise TypeError("'parallel_iterations' must be a positive integer.")
    single = not isinstance(loop_vars, (list, tuple, dict))
    structure = [loop_vars] if single else loop_vars
    if isinstance(structure, dict) or not structure:
        raise ValueError("'loop_vars' must be provided: a non-empty tuple or list of loop "
                         f"variables (or a single tensor), got {loop_vars!r}.")
    lv = list(_nest.map_structure(lambda v: v._read() if isinstance(v, Variable) else v, structure))
    limit = None
    if maximum_iterations is not None:
        m = convert_to_tensor(maximum_iterations)
        if m._value.ndim:
            raise ValueError(f"'maximum_iterations' must be a scalar. Received shape: {m.shape}")
        limit = int(m)  # (a value read into Python: a tf.function trace guards it)
    for count in _rec.iterate(itertools.count()):  # (in a trace: one loop body, as TF's)
        if not ((limit is None or count < limit) and _truth(cond(*lv), "tf.while_loop's cond result")):
            break
        out = body(*lv)
        if len(lv) == 1 and not _nest.same_structure(lv, out) and not isinstance(out, (list, tuple)):
            out = [out]
        _same_or_raise(lv, list(out) if isinstance(out, (list, tuple)) else out,
                       "tf.while_loop's body (it is given the loop_vars and must return them)")
        lv = list(out)
    res = _nest.pack_sequence_as(structure, [_to_tensor(v) for v in _nest.flatten(lv)])
    return res[0] if single else res


def _elems_rows(elems: Any, who: str) -> tuple[list, int]:
    """The flat leaves of ``elems`` as tensors, unstacked into rows, and their number."""
    flat, n = _elems_flat(elems, who)
    return [unstack(t) for t in flat], n


def _elems_flat(elems: Any, who: str) -> tuple[list, int]:
    """The flat leaves of ``elems`` as tensors, checked, and their number of rows."""
    flat = [convert_to_tensor(e) for e in _nest.flatten(elems)]
    if not flat:
        raise ValueError(f"elems must be a Tensor or (possibly nested) sequence of Tensors. "
                         f"Got {elems!r}, which does not contain any Tensors.")
    for t in flat:
        if t._value.ndim < 1:
            raise ValueError(f"Elements in elems must be 1+ dimensional Tensors, not scalars "
                             f"({who}: got a tensor of shape [] in {_describe(elems)}).")
    n = flat[0]._value.shape[0]
    for t in flat[1:]:
        if t._value.shape[0] != n:
            raise ValueError(f"Dimensions {n} and {t._value.shape[0]} are not compatible: every "
                             f"tensor in {who}'s elems must have the same size of axis 0 "
                             f"(got {_describe(elems)}).")
    return flat, n


def _signature_dtype(spec: Any) -> _dt.DType:
    return _dt.as_dtype(getattr(spec, "dtype", spec))


class _Column:
    """The values one output leaf takes over the iterations, checked as a TensorArray would."""

    __slots__ = ("dtype", "shape", "rows", "where", "infer")

    def __init__(self, dtype: _dt.DType, shape: Any, where: str, infer: bool = True) -> None:
        self.dtype, self.shape, self.where, self.infer = dtype, TensorShape(shape), where, infer
        self.rows: list = []

    def add(self, v: Any, k: int) -> None:
        t = v if type(v) is Tensor else convert_to_tensor(v, dtype_hint=self.dtype)
        if t._value.dtype != self.dtype._np:
            raise InvalidArgumentError(
                f"{self.where} {k} is {t.dtype.name}, but {self.dtype.name} was expected. Cast "
                "it, or declare the output dtypes with fn_output_signature=.")
        if not self.shape.is_compatible_with(t.shape):
            raise ValueError(f"Incompatible shape for value ({t.shape}), expected ({self.shape}): "
                             f"{self.where} {k} has another shape than the ones before it.")
        if self.infer:
            self.shape = self.shape.merge_with(t.shape)
        self.rows.append(t)

    def stacked(self, order: Any = None) -> Tensor:
        if not self.rows:
            dims = self.shape.as_list() if self.shape.is_fully_defined() else []
            return zeros([0] + dims, self.dtype)
        return stack(self.rows if order is None else [self.rows[i] for i in order])


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def map_fn(fn: Callable, elems: Any, dtype: Any = None, parallel_iterations: Any = None,
           back_prop: bool = True, swap_memory: bool = False, infer_shape: bool = True,
           name: Any = None, fn_output_signature: Any = None) -> Any:
    """Apply ``fn`` to each row (slice along axis 0) of ``elems`` and stack the results.

    ``elems`` may be a nest of tensors of equal first dimension; ``fn`` then receives the nest of
    their rows. By default ``fn`` must return the structure and dtypes of ``elems``; otherwise
    give ``fn_output_signature`` (a dtype, a ``TensorSpec``-like object with ``.dtype``, or a nest
    of them; ``dtype`` is its deprecated name). Every call is recorded by the active tapes.

    >>> import tapegrad as tf
    >>> x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    >>> tf.map_fn(lambda r: tf.reduce_sum(r * r), x).numpy()
    array([ 5., 25.], dtype=float32)
    >>> tf.map_fn(lambda r: tf.argmax(r, output_type=tf.int32), x, fn_output_signature=tf.int32).numpy()
    array([1, 1], dtype=int32)
    """
    if not callable(fn):
        raise TypeError(f"The provided function {fn!r} is not callable. fn must be callable.")
    sig = dtype if fn_output_signature is None else fn_output_signature
    elems = _nest.map_structure(lambda v: v._read() if isinstance(v, Variable) else v, elems)
    row_specs = [_batchable(v)._unbatch() if _is_extension(v) else None for v in _nest.flatten(elems)]
    flat_elems = _encoded(_nest.flatten(elems))  # (an extension type: its components, TF's batch encoding)
    rows, n = _elems_rows(flat_elems, "tf.map_fn")
    if sig is None:
        structure = elems
        cols = [_Column(t[0].dtype if t else convert_to_tensor(e).dtype, None, "fn's output",
                        infer_shape) for t, e in zip(rows, flat_elems)]
    else:
        structure = sig
        cols = [_Column(_signature_dtype(s), getattr(s, "shape", None), "fn's output", infer_shape)
                for s in _nest.flatten(sig) for s in (s._component_specs if hasattr(s, "_unbatch") else [s])]
    out_specs: list = [s if hasattr(s, "_unbatch") else None for s in _nest.flatten(structure)]
    for i in _rec.iterate(range(n)):
        out = fn(_decoded(elems, row_specs, [r[i] for r in rows]))
        if not _nest.same_structure(structure, out):
            hint = "" if sig is not None else " (for another structure, pass fn_output_signature=)"
            raise ValueError(f"tf.map_fn's fn must return the structure of "
                             f"{'fn_output_signature' if sig is not None else 'elems'}, "
                             f"{_describe(structure)}, but returned {_describe(out)}{hint}.")
        if i == 0 and sig is None:
            out_specs = [_batchable(v) if _is_extension(v) else None for v in _nest.flatten(out)]
        for c, v in zip(cols, _encoded(_nest.flatten(out))):
            c.add(v, i)
    return _decoded(structure, [None if s is None else s._batch(n) for s in out_specs], [c.stacked() for c in cols])


def _is_extension(v: Any) -> bool:
    return getattr(v, "_TRACED_BY_COMPONENTS", False)


def _batchable(v: Any) -> Any:
    """An extension type's spec, which must be batchable."""
    if not hasattr(v._type_spec, "_unbatch"):
        raise TypeError(f"{type(v).__name__} is not batchable: tf.map_fn takes a "
                        "tf.experimental.BatchableExtensionType (or the tensors of this one).")
    return v._type_spec


def _encoded(leaves: list) -> list:
    """Leaves with each extension type replaced by its components (TensorFlow's default batch
    encoding: stacking, unstacking the components stacks, unstacks the values)."""
    return [c for v in leaves for c in (v._components() if _is_extension(v) else [v])]


def _decoded(structure: Any, specs: list, flat: list) -> Any:
    """``structure`` rebuilt from the components ``flat``, each extension type leaf from its spec
    in ``specs`` (None for the other leaves)."""
    it, out = iter(flat), []
    for spec in specs:
        out.append(next(it) if spec is None else spec._from_components([next(it) for _ in spec._component_specs]))
    return _nest.pack_sequence_as(structure, out)


def vectorized_map(fn: Callable, elems: Any, fallback_to_while_loop: bool = True,
                   warn: bool = True) -> Any:
    """Apply ``fn`` to each row of ``elems`` and stack the results, as ``tf.vectorized_map``.

    Unlike ``map_fn``, the outputs may have any structure and dtypes (none need declaring), and
    an output that does not depend on the row is repeated for every row. ``fn`` runs once: each
    op it applies to a row is applied to the whole batch by the op's batching rule (TensorFlow's
    ``pfor``), so the cost is about that of writing ``fn`` for the batch by hand. When ``fn``
    uses an op without a batching rule, reads a row's value into Python (``bool(x)``,
    ``x.numpy()``) or updates a Variable, ``fn`` runs once per row instead, with a warning naming
    the cause (``warn=False`` silences it); ``fallback_to_while_loop=False`` raises a
    ``ValueError`` there. Either way the values and gradients are those of ``tf.vectorized_map``.

    >>> import tapegrad as tf
    >>> x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    >>> tf.vectorized_map(lambda r: (r * 2, tf.reduce_max(r)), x)[1].numpy()
    array([2., 4.], dtype=float32)

    Per-example gradients (one ``tape.gradient`` per row, batched):

    >>> w = tf.Variable([1.0, -1.0])
    >>> def grad_of_row(r):
    ...     with tf.GradientTape() as tape:
    ...         loss = tf.reduce_sum(w * r) ** 2
    ...     return tape.gradient(loss, w)
    >>> tf.vectorized_map(grad_of_row, x).numpy()
    array([[-2., -4.],
           [-6., -8.]], dtype=float32)
    """
    if not callable(fn):
        raise TypeError(f"'fn' must be callable, got {type(fn).__name__}.")
    elems = _nest.map_structure(lambda v: v._read() if isinstance(v, Variable) else v, elems)
    flat, n = _elems_flat(elems, "tf.vectorized_map")
    if n == 0:  # shapes only: one call on a row of zeros, as TensorFlow's trace
        probe = fn(_nest.pack_sequence_as(elems, [zeros(t.shape[1:], t.dtype) for t in flat]))
        return _nest.map_structure(
            lambda v: None if v is None else zeros([0] + list(convert_to_tensor(v).shape),
                                                   convert_to_tensor(v).dtype), probe)
    try:
        return _vmap.vmap(fn, elems, flat, n)
    except _vmap.Unbatchable as e:
        if not fallback_to_while_loop:
            raise ValueError(f"tf.vectorized_map cannot vectorize fn: {e.args[0]}. Pass "
                             "fallback_to_while_loop=True to run fn once per row.") from None
        if warn:
            warn_outside(f"tf.vectorized_map: {e.args[0]}; running fn once per row instead "
                         "(a while_loop, as TensorFlow's fallback_to_while_loop). Pass warn=False "
                         "to silence this.")
    rows = [unstack(t) for t in flat]
    outs = [fn(_nest.pack_sequence_as(elems, [r[i] for r in rows])) for i in range(n)]
    first = outs[0]
    for i, o in enumerate(outs[1:], 1):
        _same_or_raise(first, o, f"tf.vectorized_map's fn (on row {i}, as on row 0)")
    leaves = [_nest.flatten(o) for o in outs]
    res = []
    for j, v in enumerate(leaves[0]):
        if v is None:
            res.append(None)
            continue
        col = _Column(convert_to_tensor(v).dtype, None, f"tf.vectorized_map's output {j} on row")
        for i in range(n):
            col.add(leaves[i][j], i)
        res.append(col.stacked())
    return _nest.pack_sequence_as(first, res)


def scan(fn: Callable, elems: Any, initializer: Any = None, parallel_iterations: int = 10,
         back_prop: bool = True, swap_memory: bool = False, infer_shape: bool = True,
         reverse: bool = False, name: Any = None) -> Any:
    """Cumulative ``a = fn(a, row)`` over the rows of ``elems``; returns every ``a``, stacked.

    Without ``initializer`` the first row (the last with ``reverse=True``) is the first ``a`` and
    also the first output, and ``fn`` returns the structure of ``elems``; with it, ``fn`` returns
    the structure of ``initializer``.

    >>> import tapegrad as tf
    >>> tf.scan(lambda a, x: a + x, tf.constant([1.0, 2.0, 3.0])).numpy()
    array([1., 3., 6.], dtype=float32)
    >>> tf.scan(lambda a, x: a * x, tf.constant([1.0, 2.0, 3.0]), initializer=2.0, reverse=True).numpy()
    array([12., 12.,  6.], dtype=float32)
    """
    if not callable(fn):
        raise TypeError(f"{fn!r} is not callable. Please provide a callable function.")
    elems = _nest.map_structure(lambda v: v._read() if isinstance(v, Variable) else v, elems)
    rows, n = _elems_rows(elems, "tf.scan")
    order = range(n - 1, -1, -1) if reverse else range(n)
    if initializer is None:
        if n == 0:
            raise OutOfRangeError("tf.scan without initializer needs at least one row in elems "
                                  "(Tried to read from index 0 but array size is: 0).")
        structure = elems
        a = [r[order[0]] for r in rows]
        order = order[1:]
    else:
        structure = initializer
        a = [convert_to_tensor(v) for v in _nest.flatten(initializer)]
    cols = [_Column(t.dtype, t.shape if infer_shape else None, "tf.scan's fn output", infer_shape)
            for t in a]
    if initializer is None:
        for c, t in zip(cols, a):
            c.add(t, 0)
    for i in _rec.iterate(order):
        out = fn(_nest.pack_sequence_as(structure, a), _nest.pack_sequence_as(elems, [r[i] for r in rows]))
        _same_or_raise(structure, out, "tf.scan's fn (it returns the next accumulator, shaped as "
                       + ("elems" if initializer is None else "initializer") + ")")
        a = _nest.flatten(out)
        for c, v in zip(cols, a):
            c.add(v, i)
        a = [c.rows[-1] for c in cols]
    back = list(range(n))[::-1] if reverse else None
    return _nest.pack_sequence_as(structure, [c.stacked(back) for c in cols])


def _fold(fn: Callable, elems: Any, initializer: Any, reverse: bool, who: str) -> Any:
    if not callable(fn):
        raise TypeError(f"{fn!r} is not callable. Please provide a callable function.")
    elems = _nest.map_structure(lambda v: v._read() if isinstance(v, Variable) else v, elems)
    rows, n = _elems_rows(elems, who)
    order = range(n - 1, -1, -1) if reverse else range(n)
    if initializer is None:
        if n == 0:
            raise OutOfRangeError(f"{who} without initializer needs at least one row in elems "
                                  "(Tried to read from index 0 but array size is: 0).")
        a = _nest.pack_sequence_as(elems, [r[order[0]] for r in rows])
        order = order[1:]
    else:
        a = initializer
    for i in _rec.iterate(order):
        out = fn(a, _nest.pack_sequence_as(elems, [r[i] for r in rows]))
        _same_or_raise(a, out, f"{who}'s fn (it returns the next accumulator)")
        a = out
    return _nest.map_structure(_to_tensor, a)


def foldl(fn: Callable, elems: Any, initializer: Any = None, parallel_iterations: int = 10,
          back_prop: bool = True, swap_memory: bool = False, name: Any = None) -> Any:
    """``a = fn(a, row)`` over the rows of ``elems`` from first to last; returns the last ``a``.

    Without ``initializer`` the first row is the first ``a``.

    >>> import tapegrad as tf
    >>> float(tf.foldl(lambda a, x: a * 10 + x, tf.constant([1.0, 2.0, 3.0])))
    123.0
    """
    return _fold(fn, elems, initializer, False, "tf.foldl")


def foldr(fn: Callable, elems: Any, initializer: Any = None, parallel_iterations: int = 10,
          back_prop: bool = True, swap_memory: bool = False, name: Any = None) -> Any:
    """``a = fn(a, row)`` over the rows of ``elems`` from last to first; returns the last ``a``.

    Without ``initializer`` the last row is the first ``a``.

    >>> import tapegrad as tf
    >>> float(tf.foldr(lambda a, x: a * 10 + x, tf.constant([1.0, 2.0, 3.0])))
    321.0
    """
    return _fold(fn, elems, initializer, True, "tf.foldr")


# ---------------------------------------------------------------------------- graph-era names
def ensure_shape(x: Any, shape: Any, name: Any = None) -> Tensor:
    """``x``, after checking that its shape is compatible with ``shape`` (``None`` dims match
    anything); ``InvalidArgumentError`` otherwise.

    >>> import tapegrad as tf
    >>> tf.ensure_shape(tf.zeros([2, 3]), [None, 3]).shape
    TensorShape([2, 3])
    """
    t = convert_to_tensor(x)
    want = TensorShape(shape)
    if not want.is_compatible_with(t.shape):
        raise InvalidArgumentError(f"Shape of tensor input {list(t._value.shape)} is not compatible "
                                   f"with expected shape {want}.")
    return t


def get_static_value(tensor: Any, partial: bool = False) -> Any:
    """The NumPy value of a tensor (every tensor's value is known eagerly); ``None`` for a
    Variable (its value can change); anything else is returned as it is.

    >>> import tapegrad as tf
    >>> tf.get_static_value(tf.constant([1, 2]))
    array([1, 2], dtype=int32)
    """
    if isinstance(tensor, Variable):
        return None
    if isinstance(tensor, Tensor):
        return tensor.numpy()
    return tensor


def is_tensor(x: Any) -> bool:
    """Whether ``x`` is a tapegrad tensor (a ``Tensor``, ``Variable``, ``IndexedSlices`` or
    ``RaggedTensor``); NumPy arrays and Python numbers are not.

    >>> import tapegrad as tf, numpy as np
    >>> tf.is_tensor(tf.constant(1.0)), tf.is_tensor(np.ones(2))
    (True, False)
    """
    return isinstance(x, (Tensor, Variable, IndexedSlices, CompositeTensor))


def executing_eagerly() -> bool:
    """True: tapegrad runs every op as it is called. False only while a ``tf.function`` is being
    traced in this thread.

    >>> import tapegrad as tf
    >>> tf.executing_eagerly()
    True
    """
    return _trace.current() is None


def _tf1_graph() -> Any:
    """The TF1 graph recording this thread's ops (``tapegrad.compat``), if any."""
    return getattr(_trace.innermost(), "tf1_graph", None)


def no_op(name: Any = None) -> Any:
    """Nothing (TensorFlow's eager ``no_op`` returns None too); an operation in a TF1 graph."""
    g = _tf1_graph()
    return None if g is None else g._group([], name or "NoOp")


def group(*inputs: Any, **kwargs: Any) -> Any:
    """Nothing: the inputs have already been computed (TensorFlow's eager ``group`` returns None).
    In a TF1 graph, the operation that runs them."""
    g = _tf1_graph()
    return None if g is None else g._group(inputs, kwargs.get("name") or "group_deps")


def control_dependencies(control_inputs: Any) -> contextlib.AbstractContextManager:
    """A context manager that does nothing: eager ops run in order. Callables among
    ``control_inputs`` are called, as TensorFlow does eagerly.

    >>> import tapegrad as tf
    >>> with tf.control_dependencies([tf.no_op()]):
    ...     y = tf.identity(1.0)
    """
    g = _tf1_graph()
    if g is not None:
        return g.control_dependencies(control_inputs)
    for c in control_inputs or ():
        if callable(c):
            c()
    return contextlib.nullcontext()


def identity_n(input: Any, name: Any = None) -> list:  # noqa: A002
    """``[tf.identity(x) for x in input]`` (recorded: gradients pass through).

    >>> import tapegrad as tf
    >>> [t.numpy() for t in tf.identity_n([1.0, 2])]
    [np.float32(1.0), np.int32(2)]
    """
    return [identity(x) for x in input]
