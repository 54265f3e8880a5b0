"""Forward mode: ForwardAccumulator computes tangents eagerly, op by op, from each op's own JVP
rule (no transposed VJPs). Piecewise-constant ops give exact zero tangents."""
from __future__ import annotations

import warnings
from typing import Any


from . import _nest, _recorders as _rec, _seam
from ._convert import convert_to_tensor
from ._dispatch import zeros_like
from ._recorders import Recorder, run_hidden as _run_hidden
from ._tensor import IndexedSlices, Tensor
from ._variable import Variable
from ._walk import UnconnectedGradients, _parse_unconnected
from .errors import UnconnectedGradientError


class ForwardAccumulator:
    """Compute Jacobian-vector products with forward-mode autodiff.

    Inside ``with ForwardAccumulator(primals, tangents) as acc:``, every op that depends on a
    primal also computes its tangent; ``acc.jvp(y)`` is then ``J·t``, the directional derivative
    of ``y`` along ``tangents``::

        >>> import tapegrad as tf
        >>> x = tf.constant([1.0, 2.0])
        >>> with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.0])) as acc:
        ...     y = x * x
        >>> acc.jvp(y).numpy()
        array([2., 0.], dtype=float32)

    Accumulators and tapes nest in either order: with the accumulator outside and a tape inside,
    ``acc.jvp(tape.gradient(y, x))`` is a Hessian-vector product. Tangents of piecewise-constant
    ops (``sign``, ``round``, ``floor``) are zeros (TensorFlow gives ``None``).
    """

    def __init__(self, primals: Any, tangents: Any) -> None:
        if not _nest.same_structure(primals, tangents):
            raise ValueError("ForwardAccumulator: primals and tangents must have the same nested "
                             f"structure; got {primals!r} and {tangents!r}.")
        self._rec = _Tangents()
        self._t = self._rec.t
        self._recording = False
        for i, (p, t) in enumerate(zip(_nest.flatten(primals), _nest.flatten(tangents))):
            if not isinstance(p, (Tensor, Variable)):
                raise TypeError(f"ForwardAccumulator: primals[{i}] is a {type(p).__name__}, not a "
                                "tapegrad Tensor or Variable.")
            pv = p._snap._value if isinstance(p, Variable) else p._value
            if p._id in self._t:
                raise ValueError(f"Tensor {p!r} was specified as a primal multiple times. This may "
                                 "indicate an error. If it was intended, please sum the "
                                 "corresponding tangents.")
            if pv.dtype.kind not in "fc":
                warnings.warn("The dtype of the watched primal must be floating (e.g. tf.float32), "
                              f"got tf.{p.dtype.name}; its JVPs will be None.", stacklevel=2)
                continue
            tt = convert_to_tensor(t, dtype=p.dtype) if not isinstance(t, Tensor) or t._value.dtype == pv.dtype \
                else _cast(t, p.dtype)
            if tt._value.shape != pv.shape:
                raise ValueError(f"ForwardAccumulator: tangents[{i}] has shape "
                                 f"{list(tt._value.shape)} but its primal has shape {list(pv.shape)}.")
            self._t[p._id] = tt

    def __enter__(self) -> "ForwardAccumulator":
        if self._recording:
            raise ValueError("Accumulator is already recording.")
        self._recording = True
        _rec.push(self._rec)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._recording:
            _rec.pop(self._rec)
            self._recording = False

    # -- results
    def jvp(self, primals: Any, unconnected_gradients: Any = UnconnectedGradients.NONE) -> Any:
        """The tangent of each tensor in ``primals`` (a tensor or nest), ``None`` when unconnected
        (zeros with ``unconnected_gradients="zero"``)."""
        mode = _parse_unconnected(unconnected_gradients)
        if mode is UnconnectedGradients.RAISE:
            flat = [t for t in _nest.flatten(primals)]
            missing = [i for i, t in enumerate(flat)
                       if isinstance(t, (Tensor, Variable)) and t._id not in self._t]
            if missing:
                raise UnconnectedGradientError(
                    f"jvp: no tangent for primals {missing} (flattened positions): they do not depend "
                    "on the accumulator's primals through ops run inside its `with` block (ops run "
                    "after the block, on integer dtypes, or through stop_gradient carry no tangent).")

        def one(t: Any) -> Any:
            if isinstance(t, IndexedSlices):   # e.g. a gather's gradient (forward-over-reverse)
                tv = one(t.values)
                return None if tv is None else IndexedSlices(tv, t.indices, t.dense_shape)
            if not isinstance(t, (Tensor, Variable)):
                raise TypeError(f"jvp: expected tapegrad tensors, got a {type(t).__name__}.")
            r = self._t.get(t._id)
            if r is None and mode is UnconnectedGradients.ZERO:
                r = zeros_like(t._snap if isinstance(t, Variable) else t)
            return r
        return _nest.map_structure(one, primals)


class _Tangents(Recorder):
    """The accumulator's recorder: ``t`` maps tensor ids to their tangents."""

    __slots__ = ("t",)

    def __init__(self) -> None:
        self.t: dict[int, Tensor] = {}

    def follows(self, t: Any) -> bool:
        return t._id in self.t

    def record(self, op: Any, xs: Any, p: dict, ans: Any, k: int) -> None:
        tans = self.t
        ts = [tans.get(x._id) for x in xs]
        if not any(t is not None for t in ts):
            return
        if op.jvp is None:
            raise NotImplementedError(f"Forward mode is not implemented for op {op.name}: it has "
                                      "no JVP rule. Use reverse mode (GradientTape) for it.")
        tout = _run_hidden(k, lambda: op.jvp(ts, ans, *xs, **p))
        if op.nout == 1:
            tout, outs = (tout,), (ans,)
        else:
            outs = ans
        for o, t in zip(outs, tout):
            ov = o._value
            if t is None or ov.dtype.kind not in "fc":
                continue
            if type(t) is not Tensor:
                t = convert_to_tensor(t)
            if t._value.shape != ov.shape or t._value.dtype != ov.dtype:
                t = _run_hidden(k, _fit, t, o)
            tans[o._id] = t

    def on_nondiff(self, op: Any, xs: Any, outs: tuple, p: Any = None) -> None:
        tans = self.t
        if any(x._id in tans for x in xs):
            for o in outs:
                v = o._value
                if v.dtype.kind in "fc":
                    tans[o._id] = zeros_like(o)


def _cast(t: Tensor, dtype: Any) -> Tensor:
    return _seam.cast(t, dtype)


def _fit(t: Tensor, o: Tensor) -> Tensor:
    if t._value.dtype != o._value.dtype:
        t = _seam.real(t) if t._value.dtype.kind == "c" and o._value.dtype.kind != "c" else _seam.cast(t, o.dtype)
    if t._value.shape != o._value.shape:
        t = _seam.broadcast_to(t, o._value.shape)
    return t
