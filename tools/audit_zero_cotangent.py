"""Audit every real elementwise op for TensorFlow's no-NaN-on-zero-cotangent convention.

TF's gradient kernels for Sqrt, Rsqrt and Reciprocal return 0 where the incoming cotangent is 0,
even where the local derivative is infinite (``tf.where(x > 0, 1 / x, 0)`` at 0 has gradient 0,
not ``0 * inf = nan``), and second derivatives of ops whose rules go through them (log, acos,
atanh, ...) inherit it. Other rules leak NaN, and tapegrad must keep those NaNs too.

For each op, at its singular and boundary points (0, ±1, ±inf, and a few regular ones), in
float64, this computes with zero cotangent entries:

  g0    first derivative with ``output_gradients`` 0
  gw    first derivative of ``tf.where(False, f(x), 0)``
  g1    first derivative (seed 1), for reference
  h01   second derivative, inner seed 0, outer seed 1 (for a binary op: d/dx and d/dy of the
  h10   inner x- and y-gradients); h10: inner 1, outer 0; h00; h11: the plain second derivative
  hw    second derivative of ``tf.where(False, f(x), 0)``
  j0    forward-mode JVP with a zero tangent

Run it under TensorFlow to record the reference (tests/fixtures/zero_cotangent.json, compared by
tests/test_zero_cotangent.py), or under tapegrad to list the differences:

    $TAPEGRAD_TF_PYTHON tools/audit_zero_cotangent.py --record
    python tools/audit_zero_cotangent.py            # compare tapegrad with the fixture
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from typing import Any

import numpy as np

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "zero_cotangent.json")
INF = math.inf
POINTS = [0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, INF, -INF]      # unary ops
POINTS2 = [0.0, 1.0, -1.0, 2.0, 0.5, INF, -INF]                  # each input of a binary op

# registry op -> public function (the same path in TensorFlow and tapegrad)
UNARY = {
    "Abs": "math.abs", "Acos": "math.acos", "Acosh": "math.acosh", "Asin": "math.asin",
    "Asinh": "math.asinh", "Atan": "math.atan", "Atanh": "math.atanh",
    "BesselI0": "math.bessel_i0", "BesselI0e": "math.bessel_i0e", "BesselI1": "math.bessel_i1",
    "BesselI1e": "math.bessel_i1e", "Cos": "math.cos", "Cosh": "math.cosh",
    "Digamma": "math.digamma", "Elu": "nn.elu", "Erf": "math.erf", "Erfc": "math.erfc",
    "Erfinv": "math.erfinv", "Exp": "math.exp", "Expm1": "math.expm1", "Identity": "identity",
    "LeakyRelu": "nn.leaky_relu", "Lgamma": "math.lgamma", "Log": "math.log", "Log1p": "math.log1p",
    "Ndtri": "math.ndtri", "Neg": "math.negative", "Reciprocal": "math.reciprocal",
    "Relu": "nn.relu", "Relu6": "nn.relu6", "Rsqrt": "math.rsqrt", "Selu": "nn.selu",
    "Sigmoid": "math.sigmoid", "Sign": "math.sign", "Sin": "math.sin", "Sinh": "math.sinh",
    "Softplus": "math.softplus", "Softsign": "nn.softsign", "Sqrt": "math.sqrt",
    "Square": "math.square", "Tan": "math.tan", "Tanh": "math.tanh",
    **{op: f"math.special.{fn}" for op, fn in (
        ("BesselJ0", "bessel_j0"), ("BesselJ1", "bessel_j1"), ("BesselY0", "bessel_y0"),
        ("BesselY1", "bessel_y1"), ("BesselK0", "bessel_k0"), ("BesselK0e", "bessel_k0e"),
        ("BesselK1", "bessel_k1"), ("BesselK1e", "bessel_k1e"), ("Dawsn", "dawsn"), ("Expint", "expint"),
        ("FresnelCos", "fresnel_cos"), ("FresnelSin", "fresnel_sin"), ("Spence", "spence"))},
}
BINARY = {
    "AddV2": "math.add", "Sub": "math.subtract", "Mul": "math.multiply", "RealDiv": "math.divide",
    "FloorMod": "math.floormod", "Pow": "math.pow", "MulNoNan": "math.multiply_no_nan",
    "Maximum": "math.maximum", "Minimum": "math.minimum", "Atan2": "math.atan2",
    "DivNoNan": "math.divide_no_nan", "SquaredDifference": "math.squared_difference",
    "Xdivy": "math.xdivy", "Xlog1py": "math.xlog1py", "Xlogy": "math.xlogy", "Zeta": "math.zeta",
}
# Polygamma(a, x) is differentiable in x only; a is an integer order
POLYGAMMA_ORDERS = [0.0, 1.0, 2.0]

# Differentiable registry ops not audited here, and why (tests check the two lists cover it all).
NOT_AUDITED = {
    "not elementwise": [
        "AddN", "AvgPool", "AvgPoolGrad", "BatchMatMulV2", "BroadcastTo", "CTCLoss", "Cholesky",
        "ConcatV2", "Conv2D", "Conv2DBackpropFilter", "Conv2DBackpropInput", "Cross", "Cumprod",
        "ExtractImagePatches", "ExtractPatchesGrad", "ExtractVolumePatches",
        "Cumsum", "Eig", "Einsum", "EuclideanNorm", "FillTriangular", "FillTriangularInverse",
        "GatherGrad", "GatherNd", "GatherV2", "LogMatrixDeterminant", "LogSoftmax", "LogSumExp",
        "MatrixBandPart", "MatrixDeterminant", "MatrixDiagPartV3", "MatrixDiagV3",
        "MatrixExponential", "MatrixInverse", "MatrixLogarithm", "MatrixSetDiagV3", "MatrixSolve",
        "MatrixSquareRoot", "MatrixTriangularSolve", "Max", "MaxPool", "MaxPoolGrad",
        "MaxPoolGradGrad", "Mean", "Min", "Pack", "PadV2", "Prod", "PutAlongLastAxis", "Qr",
        "Repeat", "Reshape", "ReverseV2", "Roll", "ScatterNd", "SelfAdjointEigV2",
        "SelfAdjointEigVals", "Softmax", "SoftmaxCrossEntropyWithLogits",
        "SparseSoftmaxCrossEntropyWithLogits", "Split", "StridedSlice", "StridedSliceGrad", "Sum",
        "Svd", "SvdValues", "TakeAlongLastAxis", "TensorScatterMax", "TensorScatterMin",
        "TensorScatterUpdate", "Tile", "Transpose", "UnbroadcastSum", "Unique", "Unpack",
        "UnsortedSegmentMax", "UnsortedSegmentMin", "UnsortedSegmentProd", "UnsortedSegmentSum"],
    "linear transforms (not elementwise)": ["FFT", "FFT2D", "FFT3D", "IFFT", "IFFT2D", "IFFT3D", "IRFFT",
                                            "IRFFT2D", "IRFFT3D", "RFFT", "RFFT2D", "RFFT3D"],
    "scans and decompositions (not elementwise)": ["CumulativeLogsumexp", "Lu"],
    "incomplete gamma and beta: their a-series and x-only rules are checked against TF's values in "
    "tests/test_special.py, not at singular points": ["Betainc", "Igamma", "Igammac"],
    "complex or dtype plumbing": ["Angle", "Cast", "Complex", "ComplexSign", "Conj", "Imag", "Real"],
    "identity on values (a DTensor layout change)": ["Relayout"],
    "linear select or no derivative to leak": ["LeakyReluGrad", "Relu6Grad", "ReluGrad", "SelectV2",
                                               "StopGradient"],
    "random samples (the derivative is the sampler's implicit reparameterization)": ["RandomGamma"],
    "no TensorFlow op (NumPy interop's scipy.special.log_ndtr)": ["LogNdtr"],
}
QUANTITIES = ("g0", "gw", "g1", "h01", "h10", "h00", "h11", "hw", "j0")


def _fn(tf: Any, path: str) -> Any:
    obj = tf
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _arr(t: Any) -> Any:
    """A JSON-able list (None for an unconnected gradient); non-finite values as strings."""
    if t is None:
        return None
    a = np.asarray(t, np.float64).ravel()
    return [v if math.isfinite(v) else str(v) for v in (float(f"{x:.6g}") if math.isfinite(x) else x
                                                        for x in a.tolist())]


def _grad(tf: Any, f: Any, xs: list, seeds: Any, outer: Any = None) -> list:
    """Gradients of f(*xs) w.r.t. xs with ``output_gradients=seeds``; with ``outer`` (a seed),
    the gradients of those gradients, one list per inner gradient."""
    if outer is None:
        with tf.GradientTape() as t:
            for x in xs:
                t.watch(x)
            y = f(*xs)
        return list(t.gradient(y, xs, output_gradients=seeds))
    with tf.GradientTape(persistent=True) as t2:
        for x in xs:
            t2.watch(x)
        gs = _grad(tf, f, xs, seeds)
    out = []
    for g in gs:
        out.append([None] * len(xs) if g is None else list(t2.gradient(g, xs, output_gradients=outer)))
    del t2
    return out


def audit_op(tf: Any, f: Any, xs: list, diff: list) -> dict:
    """The quantities for f at the points xs (tensors of equal shape); ``diff``: which inputs."""
    zero, one = tf.zeros_like(xs[0]), tf.ones_like(xs[0])
    never = tf.zeros(xs[0].shape, tf.bool)
    src = [xs[i] for i in diff]

    def g(*a: Any) -> Any:
        full = list(xs)
        for i, v in zip(diff, a):
            full[i] = v
        return f(*full)

    def masked(*a: Any) -> Any:
        return tf.where(never, g(*a), zero)

    def first(fn: Any, seed: Any) -> Any:
        return [_arr(v) for v in _grad(tf, fn, src, seed)]

    def second(fn: Any, u: Any, w: Any) -> Any:
        return [[_arr(v) for v in row] for row in _grad(tf, fn, src, u, outer=w)]

    def jvp() -> Any:
        with tf.autodiff.ForwardAccumulator(src, [zero] * len(src)) as acc:
            y = g(*src)
        return _arr(acc.jvp(y))

    todo = {"g0": lambda: first(g, zero), "gw": lambda: first(masked, None), "g1": lambda: first(g, one),
            "h01": lambda: second(g, zero, one), "h10": lambda: second(g, one, zero),
            "h00": lambda: second(g, zero, zero), "h11": lambda: second(g, one, one),
            "hw": lambda: second(masked, None, one), "j0": jvp}
    r: dict = {}
    for q, fn in todo.items():
        try:
            r[q] = fn()
        except Exception as e:  # e.g. TF has no second derivative of Softsign: not compared
            r[q] = f"error: {type(e).__name__}"
    return r


def run(tf: Any) -> dict:
    out: dict = {"points": POINTS, "points2": POINTS2, "ops": {}}
    c = lambda v: tf.constant(np.asarray(v, np.float64))  # noqa: E731
    for name, path in UNARY.items():
        out["ops"][name] = audit_op(tf, _fn(tf, path), [c(POINTS)], [0])
    gx, gy = np.meshgrid(POINTS2, POINTS2, indexing="ij")
    for name, path in BINARY.items():
        out["ops"][name] = audit_op(tf, _fn(tf, path), [c(gx.ravel()), c(gy.ravel())], [0, 1])
    pa, px = np.meshgrid(POLYGAMMA_ORDERS, POINTS, indexing="ij")
    out["ops"]["Polygamma"] = audit_op(tf, tf.math.polygamma, [c(pa.ravel()), c(px.ravel())], [1])
    return out


def _same(a: Any, b: Any) -> bool:
    """Equal up to float noise; None (unconnected) counts as zeros."""
    if a is None and b is None:
        return True
    if a is None or b is None:
        a, b = (b, a) if a is None else (a, b)
        return all(v == 0 for v in a)
    x = np.array([float(v) for v in a])
    y = np.array([float(v) for v in b])
    if x.shape != y.shape or not np.array_equal(np.isnan(x), np.isnan(y)):
        return False
    fin = np.isfinite(x) & np.isfinite(y)
    if not np.array_equal(x[~fin & ~np.isnan(x)], y[~fin & ~np.isnan(y)]):
        return False
    return bool(np.allclose(x[fin], y[fin], rtol=1e-4, atol=1e-6))


def differences(ref: dict, got: dict, quantities: Any = QUANTITIES) -> list:
    """(op, quantity, index, ref, got) for every disagreeing array."""
    out = []
    for op, r in ref["ops"].items():
        for q in quantities:
            a, b = r[q], got["ops"][op][q]
            if isinstance(a, str) or isinstance(b, str):  # an error on one side: not comparable
                continue
            if q == "j0":
                a, b = [a], [b]
            elif q.startswith("h"):
                a = [v for row in a for v in row]
                b = [v for row in b for v in row]
            for i, (u, v) in enumerate(zip(a, b)):
                if not _same(u, v):
                    out.append((op, q, i, u, v))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--record", action="store_true", help="run under TensorFlow and write the fixture")
    a = p.parse_args()
    if a.record:
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        import tensorflow as tf
        res = run(tf)
        res["source"] = f"TensorFlow {tf.__version__} (CPU), tools/audit_zero_cotangent.py --record"
        with open(FIXTURE, "w") as f:
            json.dump(res, f, separators=(",", ":"))
            f.write("\n")
        print(f"wrote {os.path.normpath(FIXTURE)}")
        return
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
    import tapegrad as tf
    with open(FIXTURE) as f:
        ref = json.load(f)
    diffs = differences(ref, run(tf))
    for op, q, i, u, v in diffs:
        print(f"{op:18s} {q:4s} [{i}]\n    tf       {u}\n    tapegrad {v}")
    print(f"{len(diffs)} differing arrays over {len(ref['ops'])} ops")


if __name__ == "__main__":
    main()
