"""Functional forms of differentiation (``tapegrad.autodiff.grad``, ``vjp``, ``jacobian``, ...).

For users who think in JAX or PyTorch terms: each function takes a Python function and returns
derivatives, built on the same GradientTape and ForwardAccumulator. Conventions shared by all:

* Arguments that are not tapegrad tensors are converted with ``convert_to_tensor`` (Python floats
  become float32, NumPy arrays keep their dtype); Variables are used as they are. Differentiated
  arguments must have a floating or complex dtype.
* A nest (list, tuple, dict) argument is differentiated leaf by leaf; results mirror it.
* An output that does not depend on an argument gives zeros (never ``None``).
* They nest: ``grad(grad(f))``, ``jacobian(grad(f))`` and so on work, because the inner
  computation is recorded by the outer tape.
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Sequence

import numpy as np

from . import _nest
from ._convert import convert_to_tensor
from ._tensor import Tensor, wrap as _wrap
from ._variable import Variable
from ._forward import ForwardAccumulator
from ._jacobian import check_batch_shapes
from ._tape import GradientTape
from .ops.array import reshape, stack, transpose
from .ops.indexing import gather

__all__ = ["grad", "value_and_grad", "vjp", "jvp", "jacobian", "jacrev", "jacfwd", "hessian", "hvp",
           "check_batch_independence"]

_ZERO = "zero"


# ---------------------------------------------------------------------------- helpers
def _argnums(argnums: Any, nargs: int, fname: str) -> tuple[tuple, bool]:
    single = isinstance(argnums, (int, np.integer)) and not isinstance(argnums, bool)
    nums = (int(argnums),) if single else tuple(argnums) if isinstance(argnums, (tuple, list)) else None
    if nums is None or not nums or not all(isinstance(i, (int, np.integer)) and not isinstance(i, bool)
                                          for i in nums):
        raise TypeError(f"{fname}: argnums must be an int or a non-empty tuple of ints, got {argnums!r}.")
    for i in nums:
        if not -nargs <= i < nargs:
            raise ValueError(f"{fname}: argnums {i} is out of range for a call with {nargs} "
                             "positional argument(s).")
    return tuple(i % nargs for i in nums), single


def _to_tensor(x: Any) -> Any:
    return x if isinstance(x, (Tensor, Variable)) else convert_to_tensor(x)


def _prepare(args: Sequence[Any], nums: tuple, fname: str) -> list:
    """Convert the differentiated arguments (leaf by leaf) and check their dtypes."""
    args = list(args)
    for i in nums:
        args[i] = _nest.map_structure(_to_tensor, args[i])
        for leaf in _nest.flatten(args[i]):
            dt = (leaf._snap if isinstance(leaf, Variable) else leaf)._value.dtype
            if dt.kind not in "fc":
                raise TypeError(
                    f"{fname}: argument {i} has dtype {leaf.dtype.name}; derivatives are taken "
                    "with respect to floating or complex arguments. Pass a float (3.0, not 3) or "
                    "cast with tf.cast(x, tf.float32).")
    return args


def _split_aux(out: Any, has_aux: bool, fname: str) -> tuple[Any, Any]:
    if not has_aux:
        return out, None
    if not (isinstance(out, (tuple, list)) and len(out) == 2):
        raise ValueError(f"{fname}(has_aux=True): the function must return a pair (output, aux), "
                         f"got {type(out).__name__}.")
    return out[0], out[1]


def _scalar(out: Any, fname: str) -> Tensor:
    if isinstance(out, (list, tuple, dict)) or out is None:
        raise TypeError(f"{fname}: the function must return one scalar tensor, got "
                        f"{type(out).__name__}. Use tapegrad.autodiff.vjp or jacobian for several "
                        "outputs.")
    y = convert_to_tensor(out)
    if y._value.ndim != 0:
        raise ValueError(f"{fname}: the function must return a scalar, got shape "
                         f"{list(y._value.shape)}. Reduce it (e.g. tf.reduce_sum) or use "
                         "tapegrad.autodiff.jacobian / vjp for the derivatives of every element.")
    if y._value.dtype.kind not in "fc":
        raise TypeError(f"{fname}: the function returned a {y.dtype.name} scalar; it must be "
                        "floating to be differentiated.")
    return y


def _sources(args: list, nums: tuple) -> list:
    return [args[i] for i in nums]


def _setup(args: Sequence[Any], argnums: Any, fname: str) -> tuple[list, list, tuple, bool]:
    """(converted args, the differentiated ones, their indices, whether argnums was one int)."""
    nums, single = _argnums(argnums, len(args), fname)
    args = _prepare(args, nums, fname)
    return args, _sources(args, nums), nums, single


def _pick(gs: list, single: bool) -> Any:
    return gs[0] if single else tuple(gs)


# ---------------------------------------------------------------------------- grad
def value_and_grad(f: Callable, argnums: Any = 0, has_aux: bool = False) -> Callable:
    """A function returning ``(f(*args), ∂f/∂args[argnums])``; ``f`` must return a scalar.

    With ``argnums`` a tuple, the gradient is a tuple (one per argument). With ``has_aux``,
    ``f`` returns ``(value, aux)`` and the result is ``((value, aux), gradient)``.

    >>> import tapegrad as tf
    >>> f = lambda x: tf.reduce_sum(x ** 3)
    >>> v, g = tf.autodiff.value_and_grad(f)(tf.constant([1.0, 2.0]))
    >>> float(v), g.numpy()
    (9.0, array([ 3., 12.], dtype=float32))
    """
    fname = getattr(f, "__name__", "f")

    @functools.wraps(f)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        args, srcs, nums, single = _setup(args, argnums, "value_and_grad")
        with GradientTape() as tape:
            tape.watch(srcs)
            out = f(*args, **kwargs)
        value, aux = _split_aux(out, has_aux, "value_and_grad")
        y = _scalar(value, f"value_and_grad({fname})")
        g = tape.gradient(y, srcs, unconnected_gradients=_ZERO)
        return ((value, aux) if has_aux else value), _pick(g, single)

    return wrapped


def grad(f: Callable, argnums: Any = 0, has_aux: bool = False) -> Callable:
    """A function returning the gradient of the scalar ``f`` with respect to ``args[argnums]``.

    >>> import tapegrad as tf
    >>> df = tf.autodiff.grad(lambda x: x ** 3)
    >>> float(df(2.0)), float(tf.autodiff.grad(df)(2.0))
    (12.0, 12.0)
    """
    vg = value_and_grad(f, argnums, has_aux)

    @functools.wraps(f)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        (value, g) = vg(*args, **kwargs)
        return (g, value[1]) if has_aux else g

    return wrapped


# ---------------------------------------------------------------------------- vjp / jvp
def vjp(f: Callable, *primals: Any, has_aux: bool = False) -> tuple:
    """``(f(*primals), vjp_fn)``: ``vjp_fn(cotangent)`` is ``cotangentᵀ J`` for each primal.

    ``cotangent`` has the structure of ``f``'s output (one tensor per output leaf); ``vjp_fn``
    returns a tuple with one gradient per primal and may be called several times. With
    ``has_aux``, returns ``(output, vjp_fn, aux)``.

    >>> import tapegrad as tf
    >>> y, pullback = tf.autodiff.vjp(lambda x: x * x, tf.constant([1.0, 3.0]))
    >>> pullback(tf.constant([1.0, 10.0]))[0].numpy()
    array([ 2., 60.], dtype=float32)
    """
    if not primals:
        raise TypeError("vjp: give at least one primal argument: vjp(f, x, ...).")
    nums = tuple(range(len(primals)))
    args = _prepare(primals, nums, "vjp")
    tape = GradientTape(persistent=True)
    with tape:
        tape.watch(args)
        out = f(*args)
    value, aux = _split_aux(out, has_aux, "vjp")
    flat_out = _nest.flatten(value)

    def vjp_fn(cotangents: Any) -> tuple:
        if not _nest.same_structure(value, cotangents):
            raise ValueError("vjp_fn: the cotangent must have the structure of the function's "
                             f"output ({len(flat_out)} tensor(s)), got {cotangents!r:.100}.")
        cts = _nest.flatten(cotangents)
        return tuple(tape.gradient(flat_out, args, output_gradients=cts, unconnected_gradients=_ZERO))

    return (value, vjp_fn, aux) if has_aux else (value, vjp_fn)


def jvp(f: Callable, primals: Sequence[Any], tangents: Sequence[Any], has_aux: bool = False) -> tuple:
    """``(f(*primals), J · tangents)`` by forward mode (one pass).

    ``primals`` and ``tangents`` are sequences with one entry per argument of ``f``; tangents
    are converted to their primal's dtype. With ``has_aux``, returns ``(output, jvp, aux)``.

    >>> import tapegrad as tf
    >>> y, t = tf.autodiff.jvp(tf.sin, [tf.constant(0.0)], [tf.constant(2.0)])
    >>> float(t)
    2.0
    """
    if not isinstance(primals, (list, tuple)) or not isinstance(tangents, (list, tuple)):
        raise TypeError("jvp: primals and tangents must be lists or tuples with one entry per "
                        "argument of f, e.g. jvp(f, (x,), (v,)).")
    if len(primals) != len(tangents):
        raise ValueError(f"jvp: {len(primals)} primal(s) but {len(tangents)} tangent(s).")
    args = _prepare(primals, tuple(range(len(primals))), "jvp")
    with ForwardAccumulator(args, list(tangents)) as acc:
        out = f(*args)
    value, aux = _split_aux(out, has_aux, "jvp")
    t = acc.jvp(value, unconnected_gradients=_ZERO)
    return (value, t, aux) if has_aux else (value, t)


# ---------------------------------------------------------------------------- jacobians
def jacobian(f: Callable, argnums: Any = 0, mode: str = "rev", has_aux: bool = False) -> Callable:
    """A function returning the Jacobian of ``f`` with respect to ``args[argnums]``.

    Each entry has shape ``output.shape + argument.shape``. ``mode="rev"`` (default) takes one
    batched backward walk (cheap when outputs are few); ``mode="fwd"`` runs ``f`` once per
    argument element under a ForwardAccumulator (cheap when arguments are few). Several outputs
    give a matching structure of Jacobians; ``argnums`` a tuple gives a tuple per output.

    >>> import tapegrad as tf
    >>> J = tf.autodiff.jacobian(lambda x: x * x)(tf.constant([1.0, 2.0]))
    >>> J.numpy()
    array([[2., 0.],
           [0., 4.]], dtype=float32)
    """
    if mode not in ("rev", "fwd"):
        raise ValueError(f"jacobian: mode must be 'rev' or 'fwd', got {mode!r}.")
    fname = f"jac{mode}"

    @functools.wraps(f)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        args, _, nums, single = _setup(args, argnums, fname)
        run = _jac_rev if mode == "rev" else _jac_fwd
        out, jac = run(f, args, kwargs, nums, has_aux)
        value, aux = out
        res = _nest.pack_sequence_as(value, [_pick(j, single) for j in jac])
        return (res, aux) if has_aux else res

    return wrapped


def jacrev(f: Callable, argnums: Any = 0, has_aux: bool = False) -> Callable:
    """``jacobian(f, argnums, mode="rev")``: reverse mode, one batched backward walk."""
    return jacobian(f, argnums, mode="rev", has_aux=has_aux)


def jacfwd(f: Callable, argnums: Any = 0, has_aux: bool = False) -> Callable:
    """``jacobian(f, argnums, mode="fwd")``: forward mode, one pass per argument element."""
    return jacobian(f, argnums, mode="fwd", has_aux=has_aux)


def _leaf_value(s: Any) -> Any:
    return (s._snap if isinstance(s, Variable) else s)._value


def _zeros_jac(o: Tensor, s: Any) -> Tensor:
    v = _leaf_value(s)
    return _wrap(np.zeros(o._value.shape + v.shape, v.dtype))


def _jac_rev(f: Callable, args: list, kwargs: dict, nums: tuple, has_aux: bool) -> tuple:
    """(``(value, aux)``, per output leaf a list (per argnum) of Jacobian nests)."""
    srcs = _sources(args, nums)
    with GradientTape(persistent=True) as tape:
        tape.watch(srcs)
        out = f(*args, **kwargs)
    value, aux = _split_aux(out, has_aux, "jacrev")
    outs = [convert_to_tensor(o) for o in _nest.flatten(value)]
    jac = []
    for o in outs:
        if o._value.dtype.kind not in "fc":
            jac.append([_nest.map_structure(lambda s, o=o: _zeros_jac(o, s), src) for src in srcs])
        else:
            jac.append(tape.jacobian(o, srcs, unconnected_gradients=_ZERO))
    return (value, aux), jac


def _jac_fwd(f: Callable, args: list, kwargs: dict, nums: tuple, has_aux: bool) -> tuple:
    srcs = _sources(args, nums)
    leaves = _nest.flatten(srcs)
    value = aux = None
    outs: list = []
    cols: list[list[list]] = []  # per leaf, per element: tangent of each output
    for k, leaf in enumerate(leaves):
        v = _leaf_value(leaf)
        cols.append([])
        for e in range(v.size):
            tangent = np.zeros(v.size, v.dtype)
            tangent[e] = 1
            tans = [_wrap(np.zeros(_leaf_value(x).shape, _leaf_value(x).dtype)) for x in leaves]
            tans[k] = _wrap(tangent.reshape(v.shape))
            with ForwardAccumulator(leaves, tans) as acc:
                out = f(*args, **kwargs)
            value, aux = _split_aux(out, has_aux, "jacfwd")
            outs = [convert_to_tensor(o) for o in _nest.flatten(value)]
            cols[k].append(acc.jvp(outs, unconnected_gradients=_ZERO))
    if value is None:  # every argument is empty: evaluate once for the outputs
        out = f(*args, **kwargs)
        value, aux = _split_aux(out, has_aux, "jacfwd")
        outs = [convert_to_tensor(o) for o in _nest.flatten(value)]
    jac = []
    for j, o in enumerate(outs):
        per_leaf = []
        for k, leaf in enumerate(leaves):
            shape = o._value.shape + _leaf_value(leaf).shape
            if o._value.dtype.kind not in "fc" or not cols[k]:
                per_leaf.append(_zeros_jac(o, leaf))
            else:
                per_leaf.append(reshape(stack([c[j] for c in cols[k]], axis=-1), shape))
        jac.append(list(_nest.pack_sequence_as(srcs, per_leaf)))
    return (value, aux), jac


def hessian(f: Callable, argnums: Any = 0) -> Callable:
    """A function returning the Hessian of the scalar ``f``: shape ``x.shape + x.shape``.

    Reverse over reverse: the Jacobian (one batched walk) of the gradient recorded by an outer
    tape. With ``argnums`` a tuple, returns the blocks ``H[i][j] = ∂²f/∂x_i∂x_j`` as a tuple of
    tuples.

    >>> import tapegrad as tf
    >>> H = tf.autodiff.hessian(lambda x: tf.reduce_sum(x ** 3))(tf.constant([1.0, 2.0]))
    >>> H.numpy()
    array([[ 6.,  0.],
           [ 0., 12.]], dtype=float32)
    """
    fname = getattr(f, "__name__", "f")

    @functools.wraps(f)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        args, srcs, nums, single = _setup(args, argnums, "hessian")
        with GradientTape(persistent=True) as outer:
            outer.watch(srcs)
            with GradientTape() as inner:
                inner.watch(srcs)
                y = _scalar(f(*args, **kwargs), f"hessian({fname})")
            gs = inner.gradient(y, srcs, unconnected_gradients=_ZERO)
        if single:
            return _jac_of(outer, gs[0], srcs[0])
        return tuple(tuple(_jac_of(outer, g, s) for s in srcs) for g in gs)

    return wrapped


def _jac_of(tape: GradientTape, g: Any, s: Any) -> Any:
    """Jacobian of a gradient nest ``g`` with respect to the nest ``s``."""
    flat_g = _nest.flatten(g)
    if len(flat_g) == 1 and not isinstance(g, (list, tuple, dict)):
        return tape.jacobian(g, s, unconnected_gradients=_ZERO)
    return _nest.pack_sequence_as(g, [tape.jacobian(gi, s, unconnected_gradients=_ZERO)
                                      for gi in flat_g])


def hvp(f: Callable, x: Any, v: Any) -> Any:
    """Hessian-vector product ``H(x) · v`` of the scalar ``f(x)``, without forming ``H``.

    Forward over reverse: the JVP along ``v`` of the gradient. ``x`` is ``f``'s one argument (a
    tensor or a nest); ``v`` has its structure and shapes. Costs about one gradient.

    >>> import tapegrad as tf
    >>> f = lambda x: tf.reduce_sum(x ** 3)
    >>> tf.autodiff.hvp(f, tf.constant([1.0, 2.0]), tf.constant([1.0, 0.0])).numpy()
    array([6., 0.], dtype=float32)
    """
    (x,) = _prepare([x], (0,), "hvp")
    if not _nest.same_structure(x, v):
        raise ValueError("hvp: v must have the structure of x (one tangent per tensor of x).")
    with ForwardAccumulator(x, v) as acc:
        with GradientTape() as tape:
            tape.watch(x)
            y = _scalar(f(x), f"hvp({getattr(f, '__name__', 'f')})")
        g = tape.gradient(y, x, unconnected_gradients=_ZERO)
    return acc.jvp(g, unconnected_gradients=_ZERO)


# ---------------------------------------------------------------------------- batch independence
def check_batch_independence(f: Callable, x: Any, atol: float = 0.0) -> Tensor:
    """Check that example ``i`` of ``f(x)`` depends only on example ``i`` of ``x``; return the
    per-example Jacobian ``[b] + y.shape[1:] + x.shape[1:]``.

    ``GradientTape.batch_jacobian`` (like TensorFlow's) assumes the examples along the first axis
    do not interact; when they do (batch statistics, a reduction over the batch axis), it
    silently returns sums over examples. This computes the full Jacobian (``b`` times the work of
    ``batch_jacobian``), and raises ``ValueError`` naming the first pair ``(i, j)``, ``i != j``,
    with ``|∂y[i]/∂x[j]| > atol``. Otherwise it returns the diagonal blocks, which are what
    ``batch_jacobian`` computes.

    >>> import tapegrad as tf
    >>> x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    >>> tf.autodiff.check_batch_independence(lambda x: x * x, x).shape
    TensorShape([2, 2, 2])
    >>> try:
    ...     tf.autodiff.check_batch_independence(lambda x: x - tf.reduce_mean(x, axis=0), x)
    ... except ValueError as e:
    ...     print(str(e)[:48])
    batch_jacobian assumption violated: example 0 of
    """
    (x,) = _prepare([x], (0,), "check_batch_independence")
    with GradientTape() as tape:
        tape.watch(x)
        y = convert_to_tensor(f(x))
    tshape, sshape = y._value.shape, _leaf_value(x).shape
    check_batch_shapes(tshape, sshape)
    b = tshape[0]
    J = tape.jacobian(y, x, unconnected_gradients=_ZERO)
    T, S = int(np.prod(tshape[1:], dtype=np.int64)), int(np.prod(sshape[1:], dtype=np.int64))
    blocks = np.abs(np.asarray(J._value).reshape(b, T, b, S))
    worst = blocks.max(axis=(1, 3), initial=0.0) if T and S else np.zeros((b, b))
    bad = ~(worst <= atol)
    np.fill_diagonal(bad, False)
    if bad.any():
        i, j = (int(k) for k in np.argwhere(bad)[0])
        raise ValueError(
            f"batch_jacobian assumption violated: example {i} of the output depends on example "
            f"{j} of the input (max |∂y[{i}]/∂x[{j}]| = {worst[i, j]:.3g} > atol={atol}). "
            "batch_jacobian would return sums over examples instead of per-example Jacobians. "
            "Use tape.jacobian for the full Jacobian, or remove the interaction between "
            "examples (e.g. statistics over the batch axis).")
    pairs = transpose(reshape(J, (b, T, b, S)), [0, 2, 1, 3])
    diag = gather(reshape(pairs, (b * b, T, S)), np.arange(b) * (b + 1))
    return reshape(diag, (b,) + tshape[1:] + sshape[1:])
