"""User-defined gradients: ``custom_gradient``, ``recompute_grad`` and ``grad_pass_through``.

Each call of a decorated function records one anonymous op (built per call, never registered)
that maps the call's tensor inputs, and the trainable Variables its body read, to its outputs.
The op's VJP is the user's ``grad_fn``, called with tapegrad tensors, so tapes that record the
backward walk differentiate ``grad_fn`` itself (higher orders). For forward mode, the body's own
outputs are extra inputs of the op and its JVP passes their tangents through: accumulators
differentiate the ops the body really ran, as TensorFlow does.

Which arguments are inputs: every positional argument leaf that is a tensor or a number (as in
TensorFlow, which converts positional arguments), and every keyword argument leaf that is a
Tensor or Variable, in the order of the function's parameters. TensorFlow ignores the custom
gradient when all arguments are given by keyword; tapegrad binds them.
"""
from __future__ import annotations

import functools
import inspect
from typing import Any, Callable

import numpy as np

from . import _nest, _recorders as _rec, _seam
from ._backend import ArrayTensor
from ._convert import convert_to_tensor
from ._dispatch import apply, defop, jointly
from ._recorders import Recorder, pop as _pop, push as _push, run_hidden as _run_hidden
from ._tape import GradientTape, begin_backward, flat_targets, run_backward
from ._tensor import IndexedSlices, Tensor
from ._variable import Variable
from ._walk import UnconnectedGradients

__all__ = ["custom_gradient", "recompute_grad", "grad_pass_through"]

_NUMERIC = (Tensor, Variable, np.ndarray, np.generic, bool, int, float, complex)


class _VariableCollector(Recorder):
    """A recorder that only notes the trainable Variables read while it is on the stack."""

    __slots__ = ("variables", "_seen")

    def __init__(self) -> None:
        self.variables: list[Variable] = []
        self._seen: set[int] = set()

    def on_variable_read(self, v: Variable) -> None:
        if v._trainable and v._id not in self._seen:
            self._seen.add(v._id)
            self.variables.append(v)


def _run_collecting(fn: Callable, args: tuple, kwargs: dict, hide: bool) -> tuple[Any, list]:
    """``fn(*args, **kwargs)`` and the trainable Variables it read; with ``hide`` no tape or
    accumulator sees the call."""
    coll = _VariableCollector()

    def run() -> Any:
        _push(coll)
        try:
            return fn(*args, **kwargs)
        finally:
            _pop(coll)

    return (_run_hidden(0, run) if hide else run()), coll.variables


def _input_leaves(fn: Callable, args: tuple, kwargs: dict) -> list:
    """The differentiable inputs of a call (see the module docstring), in parameter order."""
    try:
        sig = inspect.signature(fn)
        bound = sig.bind(*args, **kwargs)
    except TypeError as e:
        raise TypeError(f"{getattr(fn, '__name__', 'function')}(): {e}") from None
    except ValueError:  # no signature (builtins): positional first, then keywords
        return ([x for x in _nest.flatten(list(args)) if isinstance(x, _NUMERIC)]
                + [x for x in _nest.flatten(dict(kwargs)) if isinstance(x, (Tensor, Variable))])
    out: list = []
    npos = len(args)
    for i, (name, value) in enumerate(bound.arguments.items()):
        param = sig.parameters[name]
        positional = (param.kind is param.VAR_POSITIONAL
                      or (param.kind in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD) and i < npos))
        kinds = _NUMERIC if positional else (Tensor, Variable)
        out.extend(x for x in _nest.flatten(value) if isinstance(x, kinds))
    return out


def _as_input(x: Any) -> Tensor:
    if isinstance(x, Variable):
        return x._read()
    return convert_to_tensor(x)


def _as_output(y: Any, fname: str) -> Tensor:
    if isinstance(y, Variable):
        return y._snap
    if y is None:
        raise TypeError(f"@custom_gradient function {fname} returned None as an output; every "
                        "output must be a tensor.")
    return convert_to_tensor(y)


def _fit(g: Any, x: Tensor, k: int, fname: str) -> Any:
    """Check one gradient returned by a grad_fn against its input ``x``."""
    if g is None or type(g) is IndexedSlices:
        return g
    xv = x._value
    if isinstance(g, (Tensor, Variable)):
        g = convert_to_tensor(g)
        if g._value.dtype != xv.dtype:
            raise ValueError(f"The gradient function of {fname} returned a gradient of dtype "
                             f"{g.dtype.name} for input {k} of dtype {x.dtype.name}; return it in "
                             f"the input's dtype (tf.cast(grad, tf.{x.dtype.name})).")
    else:
        g = convert_to_tensor(g, dtype=x.dtype)
    if g._value.shape != xv.shape:
        raise ValueError(f"The gradient function of {fname} returned a gradient of shape "
                         f"{list(g._value.shape)} for input {k} of shape {list(xv.shape)}; each "
                         "gradient must have its input's shape.")
    return g


def _record(name: str, xs: list, outputs: list, bwd: Callable, jvp: Callable,
            batch_ok: bool) -> list:
    """Record the call as one op from ``xs`` to (the values of) ``outputs``."""
    vals = [o._value.a if type(o) is ArrayTensor else o._value for o in outputs]  # (the backend's arrays)
    nout = len(vals)
    fwd = (lambda *_: vals[0]) if nout == 1 else (lambda *_: tuple(vals))
    # an op for this call only (every input may receive a cotangent), not registered
    op = defop(name, fwd, vjp=jointly(bwd), jvp=jointly(jvp), nout=nout, batch_ok=batch_ok, register=False)
    res = apply(op, xs)
    return [res] if nout == 1 else list(res)


def _passthrough_jvp(first: int, nout: int) -> Callable:
    def jvp(ts: Any, ans: Any, *xs: Tensor) -> Any:
        return ts[first] if nout == 1 else tuple(ts[first:])
    return jvp


def _accepts_variables(fn: Callable) -> bool:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.kind is p.VAR_KEYWORD
               or (p.name == "variables" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))
               for p in params)


def _custom_call(fname: str, body: Callable, args: tuple, kwargs: dict, sig_fn: Callable) -> Any:
    """Run ``body`` (returning ``(y, grad_fn)``) and record its custom VJP."""
    leaves = _input_leaves(sig_fn, args, kwargs)
    res, read = _run_collecting(body, args, kwargs, hide=False)
    if not (isinstance(res, (tuple, list)) and len(res) == 2 and callable(res[1])):
        raise TypeError(f"A @custom_gradient function must return (outputs, grad_fn); {fname} "
                        f"returned {type(res).__name__} {res!r:.80}.")
    y, grad_fn = res
    variables = [v for v in read if not any(v is x for x in leaves)]
    if variables and not _accepts_variables(grad_fn):
        raise TypeError("@tf.custom_gradient grad_fn must accept keyword argument 'variables', "
                        f"since function uses variables: {variables}. Define it as "
                        "`def grad_fn(*upstream, variables=None)` and return "
                        "(input_gradients, variable_gradients).")
    if not (_rec.active and _rec.tls.stack):
        return y
    inputs = [_as_input(x) for x in leaves]
    flat_y = [_as_output(o, fname) for o in _nest.flatten(y)]
    n_in, n_var, nout = len(inputs), len(variables), len(flat_y)

    def bwd(g: Any, ans: Any, needs: Any, *xs: Tensor) -> list:
        dys = [g] if nout == 1 else list(g)
        if variables:
            r = grad_fn(*dys, variables=list(variables))
            if not (isinstance(r, (tuple, list)) and len(r) == 2):
                raise ValueError(f"The gradient function of {fname} must return a pair "
                                 "(input_gradients, variable_gradients) because the function reads "
                                 f"{n_var} variable(s).")
            gx, gv = _nest.flatten(r[0]), _nest.flatten(r[1])
            if len(gv) != n_var:
                raise ValueError(
                    "Must return gradient for each variable from @custom_gradient grad_fn. "
                    f"{fname} reads {n_var} variable(s) ({', '.join(v.name for v in variables)}) "
                    f"but its grad_fn returned {len(gv)} variable gradient(s); use None for a "
                    "variable without gradient.")
        else:
            gx, gv = _nest.flatten(grad_fn(*dys)), []
        if len(gx) != n_in:
            raise ValueError(f"custom_gradient function expected to return {n_in} gradients, but "
                             f"returned {len(gx)} instead. ({fname} has {n_in} tensor input(s); "
                             "return one gradient per input, None where there is none.)")
        grads = gx + gv
        return [_fit(grads[i], xs[i], i, fname) if i < n_in + n_var else None for i in needs]

    # the body's outputs are extra inputs: forward mode passes their tangents through
    xs = inputs + [v._read() for v in variables] + flat_y
    outs = _record(fname, xs, flat_y, bwd, _passthrough_jvp(n_in + n_var, nout), batch_ok=False)
    return _nest.pack_sequence_as(y, outs)


# ---------------------------------------------------------------------------- public API
def custom_gradient(f: Callable | None = None) -> Callable:
    """Decorator: give a function its own gradient.

    ``f(*args, **kwargs)`` returns ``(y, grad_fn)``. ``grad_fn(*upstream)`` receives one upstream
    gradient per flattened output of ``y`` (zeros for outputs nothing depended on) and returns one
    gradient per input (a tensor when there is one input, else a list or tuple; ``None`` for no
    gradient). When the body reads trainable Variables that are not inputs, ``grad_fn`` must
    accept ``variables=`` and return ``(input_gradients, variable_gradients)``, one per variable,
    in the order the body first read them.

    Inputs are the positional arguments (tensors or numbers) and the keyword arguments that are
    Tensors or Variables, in the order of ``f``'s parameters; a call with keyword arguments uses
    the custom gradient too (TensorFlow bypasses it when every argument is a keyword).
    ``grad_fn`` is run with tapegrad ops, so nested tapes differentiate it (higher orders).
    Forward mode (``ForwardAccumulator``) differentiates the ops the body ran.

    >>> import tapegrad as tf
    >>> @tf.custom_gradient
    ... def clip_grad(x):
    ...     def grad_fn(dy):
    ...         return tf.clip_by_value(dy, -1.0, 1.0)
    ...     return tf.identity(x), grad_fn
    >>> x = tf.constant([1.0, 2.0])
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tf.reduce_sum(clip_grad(x) * tf.constant([0.5, 3.0]))
    >>> tape.gradient(y, x).numpy()
    array([0.5, 1. ], dtype=float32)
    """
    if f is None:
        return custom_gradient
    if not callable(f):
        raise TypeError(f"custom_gradient decorates a function, got {type(f).__name__}.")
    fname = getattr(f, "__name__", "custom_gradient")

    @functools.wraps(f)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        return _custom_call(fname, f, args, kwargs, f)

    return wrapped


def grad_pass_through(f: Callable) -> Callable:
    """Straight-through gradient: ``f`` in the forward pass, identity in the backward pass.

    Each output's upstream gradient is passed to the input in the same position, so ``f`` must
    return as many outputs as it has tensor inputs, of the same shapes. Variables read by ``f``
    get no gradient (``None``).

    >>> import tapegrad as tf
    >>> x = tf.constant([1.2, 2.6])
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tf.grad_pass_through(tf.round)(x) * 3.0
    >>> tape.gradient(y, x).numpy()
    array([3., 3.], dtype=float32)
    """
    if not callable(f):
        raise TypeError(f"grad_pass_through wraps a function, got {type(f).__name__}.")
    fname = getattr(f, "__name__", "grad_pass_through")

    def body(*args: Any, **kwargs: Any) -> tuple:
        def grad(*dys: Any, variables: Any = None) -> Any:
            return (list(dys), [None] * len(variables)) if variables else list(dys)
        return f(*args, **kwargs), grad

    @functools.wraps(f)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        return _custom_call(f"grad_pass_through({fname})", body, args, kwargs, _sig_of(f))

    return wrapped


def _sig_of(f: Callable) -> Callable:
    try:
        inspect.signature(f)
        return f
    except (TypeError, ValueError):
        return lambda *a, **k: None


def recompute_grad(f: Callable) -> Callable:
    """Save memory: keep only ``f``'s inputs and outputs, recompute its inside when differentiating.

    The forward pass runs ``f`` with every tape and accumulator hidden, so none of its
    intermediate tensors are kept; the backward pass runs ``f`` again under a fresh tape and
    takes the VJP of that recomputation. Values and gradients equal those of ``f`` (``f`` must be
    deterministic); trainable Variables ``f`` reads get gradients. Nested tapes give higher
    orders. Forward mode through ``recompute_grad`` raises ``NotImplementedError``.

    >>> import tapegrad as tf
    >>> block = tf.recompute_grad(lambda x: tf.tanh(x) * x)
    >>> x = tf.constant([0.5, -1.0])
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tf.reduce_sum(block(x))
    >>> tape.gradient(y, x).numpy().round(4)
    array([ 0.8553, -1.1816], dtype=float32)
    """
    if not callable(f):
        raise TypeError(f"recompute_grad wraps a function, got {type(f).__name__}.")
    fname = getattr(f, "__name__", "recompute_grad")

    @functools.wraps(f)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not (_rec.active and _rec.tls.stack):
            return f(*args, **kwargs)
        leaves = _input_leaves(_sig_of(f), args, kwargs)
        y, read = _run_collecting(f, args, kwargs, hide=True)
        variables = [v for v in read if not any(v is x for x in leaves)]
        inputs = [_as_input(x) for x in leaves]
        sources = [x if isinstance(x, Variable) else t for x, t in zip(leaves, inputs)] + variables
        flat_y = [_as_output(o, fname) for o in _nest.flatten(y)]
        nout = len(flat_y)

        def bwd(g: Any, ans: Any, needs: Any, *xs: Tensor) -> list:
            dys = [g] if nout == 1 else list(g)
            a0 = ans if nout == 1 else ans[0]
            return _recompute_vjp(f, args, kwargs, sources, dys, a0, needs)

        def jvp(ts: Any, ans: Any, *xs: Tensor) -> Any:
            raise NotImplementedError(
                f"recompute_grad tried to transpose grad of {fname}: forward mode "
                "(ForwardAccumulator) through recompute_grad is not supported. Call the function "
                "without recompute_grad under a ForwardAccumulator.")

        outs = _record(f"recompute_grad({fname})", inputs + [v._read() for v in variables], flat_y,
                       bwd, jvp, batch_ok=True)
        return _nest.pack_sequence_as(y, outs)

    return wrapped


def _recompute_vjp(f: Callable, args: tuple, kwargs: dict, sources: list, dys: list, a0: Tensor,
                   needs: Any) -> list:
    """Run ``f`` again under a fresh tape and pull ``dys`` back to ``sources``.

    Cotangents with leading batch axes (a Jacobian walk) go through one batched walk."""
    reshape = _seam.reshape
    with GradientTape() as tape:
        for s in sources:
            if (s._snap if isinstance(s, Variable) else s)._value.dtype.kind in "fc":
                tape.watch(s)
        y = f(*args, **kwargs)
    lead = dys[0]._value.ndim - a0._value.ndim
    flat_y = flat_targets(y)
    if lead == 0:
        grads = tape.gradient(flat_y, sources, output_gradients=dys, unconnected_gradients="zero")
    else:
        begin_backward(tape)
        axes = dys[0]._value.shape[:lead]
        nb = int(np.prod(axes, dtype=np.int64))
        seeds = [reshape(d, (nb,) + d._value.shape[lead:]) for d in dys]
        grads = run_backward(tape, flat_y, seeds, sources, UnconnectedGradients.ZERO, batch=nb)
        grads = [reshape(g, axes + g._value.shape[1:]) for g in grads]
    n = len(sources)
    out = []
    for i in needs:
        g = grads[i] if i < n else None
        if g is not None and g._value.dtype.kind not in "fc":
            g = None
        out.append(g)
    return out
