"""Deterministic generator of fuzz programs: ``generate(seed)`` -> program (pure data).

A program has 1-3 inputs of one float dtype (float32 or float64; shapes include 0-d, size-0
and broadcasting pairs; values are small integers, halves or 2-decimal floats, so exact zeros
and ties are common) and 3-8 ops over the common op surface (``interpreter.py`` lists them; a
deliberately invalid op ends a program early, and matmul or cast may add a ninth).
The generator tracks each value's shape, dtype and a coarse sign ("pos", "nonneg", "any") so
that ops are applied inside their domain: log, sqrt, rsqrt, reciprocal, log1p, xlogy's second
argument, pow's base and divide's denominator only see positive values, which keeps the
programs away from singular points. About 3% of the programs end with a deliberately invalid
op (incompatible shapes, an out-of-range index, mixed dtypes) to compare error types.

Only Python's ``random.Random(seed)`` is used, so a seed gives the same program on every
machine and Python version.
"""

import math
import random

MAX_SIZE = 24  # elements in any value, which bounds the Jacobians' size
INPUT_SHAPES = [
    ([], 3), ([1], 1), ([3], 3), ([4], 2), ([0], 1), ([2, 3], 4), ([3, 2], 2), ([2, 2], 2),
    ([1, 3], 2), ([3, 1], 2), ([2, 0], 1), ([0, 3], 1), ([2, 1, 3], 1), ([2, 2, 2], 1),
]
SIGN_ORDER = {"pos": 2, "nonneg": 1, "any": 0}
TOTAL_UNARY = ["negative", "abs", "square", "exp", "expm1", "sin", "cos", "tanh", "sigmoid",
               "softplus", "relu", "relu6", "elu", "selu", "silu", "atan", "asinh", "erf", "sign",
               "round", "floor", "log_sigmoid", "sinh", "cosh", "softsign", "leaky_relu"]
POSITIVE_UNARY = ["log", "sqrt", "rsqrt", "reciprocal", "log1p"]
UNARY_SIGN = {"abs": "nonneg", "square": "nonneg", "exp": "pos", "sigmoid": "pos",
              "softplus": "pos", "relu": "nonneg", "relu6": "nonneg", "cosh": "pos",
              "sqrt": "pos", "rsqrt": "pos", "reciprocal": "pos"}
SAME_SIGN_UNARY = {"tanh", "atan", "asinh", "erf", "sinh", "expm1", "round", "floor", "sign"}
REDUCTIONS = ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
              "reduce_logsumexp", "reduce_variance", "reduce_std", "reduce_euclidean_norm"]
# op kind -> weight
KINDS = {
    "unary": 14, "positive_unary": 5, "binary": 16, "where": 5, "clip": 3, "reduce": 10,
    "matmul": 5, "reshape": 4, "transpose": 3, "expand_dims": 2, "squeeze": 2, "concat": 3,
    "stack": 2, "split": 3, "gather": 3, "slice": 4, "softmax": 4, "cumsum": 3, "tile": 1,
    "pad": 1, "reverse": 1, "broadcast_to": 1, "cast": 1, "add_n": 1,
}


def size(shape):
    return math.prod(shape)


def broadcast(*shapes):
    """NumPy broadcasting of ``shapes``, or None when they are incompatible."""
    rank = max(len(s) for s in shapes)
    out = []
    for i in range(rank):
        dims = {s[len(s) - rank + i] for s in shapes if len(s) - rank + i >= 0}
        dims.discard(1)
        if len(dims) > 1:
            return None
        out.append(dims.pop() if dims else 1)
    return out


def is_ref(arg):
    return isinstance(arg, (int, str))


def weaker(*signs):
    return min(signs, key=SIGN_ORDER.__getitem__)


class _Value:
    def __init__(self, shape, dtype, sign):
        self.shape, self.dtype, self.sign = list(shape), dtype, sign


class _Builder:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.dtype = "float32" if self.rng.random() < 0.6 else "float64"
        self.inputs = []
        self.vals = {}    # value reference (see interpreter.py) -> _Value
        self.order = []   # the references in creation order
        self.ops = []
        self.error = False

    # ---- values -----------------------------------------------------------------------
    def numbers(self, n, sign="any"):
        rng = self.rng
        style = rng.choice(["ints", "ints", "halves", "floats"])
        lo = {"pos": 1, "nonneg": 0, "any": -3}[sign]
        out = []
        for _ in range(n):
            if style == "ints":
                v = float(rng.randint(lo, 3))
            elif style == "halves":
                v = rng.randint(2 * lo if sign == "any" else max(lo, 0), 5) / 2
                v = v if v > 0 or sign != "pos" else 0.5
            else:
                v = round(rng.uniform(-2.0 if sign == "any" else 0.05, 2.0), 2)
            out.append(float(v))
        return out

    def sign_of(self, values):
        if all(v > 0 for v in values):
            return "pos"
        if all(v >= 0 for v in values):
            return "nonneg"
        return "any"

    def new_input(self, shape, sign="any"):
        values = self.numbers(size(shape), sign)
        key = f"x{len(self.inputs)}"
        self.inputs.append({"shape": list(shape), "values": values})
        self.vals[key] = _Value(shape, self.dtype, self.sign_of(values))
        self.order.append(key)
        return key

    def const(self, shape, sign="any"):
        return {"const": self.numbers(size(shape), sign), "shape": list(shape)}

    def operand(self, shape, sign="any", exact=False):
        """An argument of ``shape`` (or broadcastable to it unless ``exact``) with ``sign``."""
        rng = self.rng
        fits = [i for i, v in self.vals.items()
                if v.dtype == self.dtype and SIGN_ORDER[v.sign] >= SIGN_ORDER[sign]
                and (v.shape == list(shape) if exact else broadcast(v.shape, shape) == list(shape))]
        r = rng.random()
        if fits and r < 0.55:
            return rng.choice(fits)
        if len(self.inputs) < 3 and r < 0.8:
            s = list(shape)
            if not exact and s and rng.random() < 0.4:   # broadcasting partner
                s = s[rng.randint(0, len(s)):] if rng.random() < 0.5 else \
                    [1 if rng.random() < 0.5 else d for d in s]
            return self.new_input(s, sign)
        return self.const(shape, sign)

    def pick(self, pred=lambda v: True):
        cands = [k for k in self.order
                 if self.vals[k].dtype == self.dtype and pred(self.vals[k])]
        if not cands:
            return None
        if self.order[-1] in cands and self.rng.random() < 0.6:
            return self.order[-1]
        return self.rng.choice(cands)

    def emit(self, op, shape, sign, dtype=None):
        if size(shape) > MAX_SIZE or len(shape) > 4:
            return False
        self.ops.append(op)
        key = len(self.ops) - 1
        self.vals[key] = _Value(shape, dtype or self.dtype, sign)
        self.order.append(key)
        return True

    def last(self):
        return self.order[-1]

    # ---- ops ----------------------------------------------------------------------------
    def axis(self, rank):
        a = self.rng.randrange(rank)
        return a - rank if self.rng.random() < 0.3 else a

    def step(self, kind):
        rng = self.rng
        x = self.pick()
        v = self.vals[x]
        shape, rank = v.shape, len(v.shape)
        if kind == "unary":
            name = rng.choice(TOTAL_UNARY)
            op = {"op": name, "args": [x]}
            if name == "leaky_relu":
                op["alpha"] = rng.choice([0.2, 0.5])
            if name in ("exp", "sinh", "cosh") and v.sign != "pos" and rng.random() < 0.5:
                name = "tanh"
                op["op"] = name
            sign = UNARY_SIGN.get(name, v.sign if name in SAME_SIGN_UNARY else "any")
            if name == "sigmoid" or name == "exp":
                sign = "nonneg"   # may underflow to 0
            return self.emit(op, shape, sign)
        if kind == "positive_unary":
            x = self.pick(lambda w: w.sign == "pos")
            if x is None:
                return False
            name = rng.choice(POSITIVE_UNARY)
            return self.emit({"op": name, "args": [x]}, self.vals[x].shape,
                             UNARY_SIGN.get(name, "any"))
        if kind == "binary":
            name = rng.choice(["add", "add", "subtract", "multiply", "multiply", "divide",
                               "maximum", "minimum", "squared_difference", "pow",
                               "divide_no_nan", "atan2", "xlogy"])
            if name in ("divide", "xlogy"):
                other = self.operand(shape, "pos") if rng.random() < 0.8 else \
                    {"py": rng.choice([2.0, -0.5, 4.0])}
                args = [x, other]
            elif name == "pow":
                if v.sign != "pos":
                    args = [x, {"py": rng.choice([2.0, 3.0])}]
                else:
                    args = [x, self.operand(shape) if rng.random() < 0.5 else
                            {"py": rng.choice([2.0, 0.5, -1.0, 3.0])}]
            else:
                other = {"py": rng.choice([0.0, 1.0, -1.0, 2.0, 0.5])} \
                    if rng.random() < 0.25 else self.operand(shape)
                args = [x, other] if rng.random() < 0.7 else [other, x]
            shapes = [self.vals[a].shape if is_ref(a) else
                      (a["shape"] if "const" in a else []) for a in args]
            out = broadcast(*shapes)
            signs = [self.vals[a].sign if is_ref(a) else
                     self.sign_of(a.get("const", [a.get("py")]) or [1.0]) for a in args]
            sign = {"add": weaker(*signs), "multiply": weaker(*signs) if "any" not in signs
                    else "any", "maximum": max(signs, key=SIGN_ORDER.__getitem__),
                    "squared_difference": "nonneg"}.get(name, "any")
            if name in ("divide", "pow", "xlogy") and signs[0] == "pos":
                sign = "pos" if name != "xlogy" else "any"
            return self.emit({"op": name, "args": args}, out, sign)
        if kind == "where":
            b = {"py": rng.choice([0.0, 1.0, -0.5])} if rng.random() < 0.6 else self.operand(shape)
            t = self.operand(shape) if rng.random() < 0.5 else x
            f = self.operand(shape) if t == x or rng.random() < 0.5 else x
            shapes = [self.vals[a].shape if is_ref(a) else a.get("shape", [])
                      for a in (x, b, t, f)]
            out = broadcast(*shapes)
            sign = weaker(*[self.vals[a].sign if is_ref(a) else "any" for a in (t, f)])
            return self.emit({"op": "where", "cmp": rng.choice(
                ["greater", "greater_equal", "less", "less_equal", "equal", "not_equal"]),
                "args": [x, b, t, f]}, out, sign)
        if kind == "clip":
            lo, hi = rng.choice([(-1.0, 1.0), (0.0, 2.0), (-0.5, 0.5), (1.0, 1.0)])
            return self.emit({"op": "clip", "args": [x], "lo": lo, "hi": hi}, shape,
                             "pos" if lo > 0 else "nonneg" if lo == 0 else "any")
        if kind == "reduce":
            name = rng.choice(REDUCTIONS)
            r = rng.random()
            if rank == 0 or r < 0.3:
                axis = None
                kept = [1] * rank
                out = []
            elif r < 0.75:
                a = self.axis(rank)
                axis = a
                kept = [1 if i == a % rank else d for i, d in enumerate(shape)]
                out = [d for i, d in enumerate(shape) if i != a % rank]
            else:
                axes = sorted(rng.sample(range(rank), rng.randint(1, rank)))
                axis = axes
                kept = [1 if i in axes else d for i, d in enumerate(shape)]
                out = [d for i, d in enumerate(shape) if i not in axes]
            keepdims = rng.random() < 0.4
            reduced_empty = size(shape) == 0 and size(kept) > 0 or size(shape) == 0 and not out
            sign = "any" if reduced_empty else {
                "reduce_variance": "nonneg", "reduce_std": "nonneg",
                "reduce_euclidean_norm": "nonneg", "reduce_logsumexp": "any"}.get(name, v.sign)
            return self.emit({"op": name, "args": [x], "axis": axis, "keepdims": keepdims},
                             kept if keepdims else out, sign)
        if kind == "matmul":
            x = self.pick(lambda w: len(w.shape) == 2)
            if x is None:
                if rank != 1 or shape[0] == 0:
                    return False
                self.emit({"op": "expand_dims", "args": [self.order[-1]], "axis": 0},
                          [1] + shape, v.sign)   # a row vector
                x = self.last()
            m, k = self.vals[x].shape
            ta, tb = rng.random() < 0.2, rng.random() < 0.3
            if ta:
                m, k = k, m
            n = rng.choice([1, 2, 3, 0] if rng.random() < 0.1 else [1, 2, 3])
            other = self.operand([n, k] if tb else [k, n], exact=True)
            if self.error_roll():
                other = self.const([k + 1, n])
                tb = False
            return self.emit({"op": "matmul", "args": [x, other], "ta": ta, "tb": tb}, [m, n],
                             "any")
        if kind == "reshape":
            n = size(shape)
            if self.error_roll():
                return self.emit({"op": "reshape", "args": [x], "shape": [n + 1]}, [n + 1], "any")
            factors = [d for d in range(1, n + 1) if n % d == 0] if n else [0, 1, 2]
            a = rng.choice(factors)
            new = [a, n // a] if n else [a, 0] if a else [0, rng.choice([1, 3])]
            if rng.random() < 0.3:
                new = [n]
            if n and rng.random() < 0.3:
                new[rng.randrange(len(new))] = -1
            out = [d if d != -1 else n // max(1, math.prod(e for e in new if e != -1))
                   for d in new]
            return self.emit({"op": "reshape", "args": [x], "shape": new}, out, v.sign)
        if kind == "transpose":
            if rank < 2:
                return False
            perm = list(range(rank))
            rng.shuffle(perm)
            return self.emit({"op": "transpose", "args": [x], "perm": perm},
                             [shape[p] for p in perm], v.sign)
        if kind == "expand_dims":
            a = rng.randint(-rank - 1, rank)
            out = list(shape)
            out.insert(a % (rank + 1), 1)
            return self.emit({"op": "expand_dims", "args": [x], "axis": a}, out, v.sign)
        if kind == "squeeze":
            ones = [i for i, d in enumerate(shape) if d == 1]
            if not ones:
                return False
            axes = rng.sample(ones, rng.randint(1, len(ones)))
            return self.emit({"op": "squeeze", "args": [x], "axis": sorted(axes)},
                             [d for i, d in enumerate(shape) if i not in axes], v.sign)
        if kind in ("concat", "stack", "add_n"):
            if rank == 0 and kind == "concat":
                return False
            a = self.axis(rank) if kind == "concat" else rng.randint(-rank - 1, rank)
            if kind == "concat":
                other_shape = list(shape)
                other_shape[a % rank] = rng.choice([1, 2, 0])
                if self.error_roll() and rank > 1:
                    other_shape[(a + 1) % rank] += 1
                other = x if rng.random() < 0.3 else self.operand(other_shape, exact=True)
                o = self.vals[other].shape if is_ref(other) else other_shape
                out = list(shape)
                out[a % rank] += o[a % rank]
            else:
                other = x if rng.random() < 0.3 else self.operand(shape, exact=True)
                out = list(shape)
                if kind == "stack":
                    out.insert(a % (rank + 1), 2)
            sign = weaker(v.sign, self.vals[other].sign if is_ref(other) else "any")
            op = {"op": kind, "args": [x, other]}
            if kind != "add_n":
                op["axis"] = a
            return self.emit(op, out, sign)
        if kind == "split":
            if rank == 0:
                return False
            a = self.axis(rank)
            d = shape[a % rank]
            if d % 2 == 0 and d and rng.random() < 0.5:
                splits, pieces = 2, [d // 2, d // 2]
            else:
                cut = rng.randint(0, d)
                splits = pieces = [cut, d - cut]
            pick = rng.randrange(2)
            out = list(shape)
            out[a % rank] = pieces[pick]
            return self.emit({"op": "split", "args": [x], "splits": splits, "axis": a,
                              "pick": pick}, out, v.sign)
        if kind == "gather":
            if rank == 0 or (shape[0] == 0 and not self.error_roll()):
                return False
            a = rng.randrange(rank)
            d = shape[a]
            k = rng.randint(0, 4)
            idx = [rng.randrange(d) for _ in range(k)] if d else [0]
            if self.error_roll():
                idx = [d]
            out = list(shape[:a]) + [len(idx)] + list(shape[a + 1:])
            return self.emit({"op": "gather", "args": [x], "indices": idx, "axis": a}, out,
                             v.sign)
        if kind == "slice":
            if rank == 0:
                return False
            spec, out = [], []
            for d in shape[:rng.randint(1, rank)]:
                r = rng.random()
                if r < 0.25 and d > 0:
                    i = rng.randrange(d)
                    spec.append(i - d if rng.random() < 0.3 else i)
                    continue
                step = rng.choice([1, 1, 2, -1])
                start = rng.choice([None, 0, 1, -1])
                stop = rng.choice([None, None, 2, -1])
                spec.append([start, stop, step])
                out.append(len(range(*slice(start, stop, step).indices(d))))
            if rng.random() < 0.2:
                spec.append("...")
            out += shape[len([s for s in spec if s != "..."]):]
            return self.emit({"op": "slice", "args": [x], "spec": spec}, out, v.sign)
        if kind == "softmax":
            if rank == 0:
                return False
            name = rng.choice(["softmax", "log_softmax"])
            return self.emit({"op": name, "args": [x], "axis": self.axis(rank)}, shape,
                             "nonneg" if name == "softmax" else "any")
        if kind == "cumsum":
            if rank == 0:
                return False
            name = "cumsum" if rng.random() < 0.75 else "cumprod"
            return self.emit({"op": name, "args": [x], "axis": self.axis(rank),
                              "exclusive": rng.random() < 0.3, "reverse": rng.random() < 0.3},
                             shape, "any")
        if kind == "tile":
            mult = [rng.choice([1, 2]) for _ in shape]
            return self.emit({"op": "tile", "args": [x], "multiples": mult},
                             [d * m for d, m in zip(shape, mult)], v.sign)
        if kind == "pad":
            if rank == 0:
                return False
            pads = [[rng.randint(0, 1), rng.randint(0, 1)] for _ in shape]
            return self.emit({"op": "pad", "args": [x], "paddings": pads},
                             [d + p + q for d, (p, q) in zip(shape, pads)], weaker(v.sign, "nonneg"))
        if kind == "reverse":
            if rank == 0:
                return False
            return self.emit({"op": "reverse", "args": [x], "axis": [self.axis(rank)]}, shape,
                             v.sign)
        if kind == "broadcast_to":
            out = [rng.choice([2, 3])] + [d if d != 1 or rng.random() < 0.5 else 2 for d in shape]
            return self.emit({"op": "broadcast_to", "args": [x], "shape": out}, out, v.sign)
        if kind == "cast":
            other = "float64" if v.dtype == "float32" else "float32"
            if not self.error_roll(0.3):
                # cast and cast back: a round trip through the other float dtype
                self.emit({"op": "cast", "args": [x], "dtype": other}, shape, v.sign, other)
                return self.emit({"op": "cast", "args": [self.last()],
                                  "dtype": self.dtype}, shape, v.sign)
            self.emit({"op": "cast", "args": [x], "dtype": other}, shape, v.sign, other)
            self.error = True
            return self.emit({"op": "add", "args": [self.last(), x]}, shape, "any")
        raise AssertionError(kind)

    def error_roll(self, p=0.04):
        if not self.error and self.rng.random() < p:
            self.error = True
            return True
        return False


def generate(seed):
    """The fuzz program for ``seed`` (a dict of JSON data; see ``interpreter.py``)."""
    b = _Builder(seed)
    rng = b.rng
    n_ops = rng.randint(3, 8)
    shapes, weights = zip(*INPUT_SHAPES)
    b.new_input(rng.choices(shapes, weights)[0])
    kinds, kweights = zip(*KINDS.items())
    tries = 0
    while len(b.ops) < n_ops and not b.error and tries < 200:
        tries += 1
        b.step(rng.choices(kinds, kweights)[0])
    return {"seed": seed, "dtype": b.dtype, "inputs": b.inputs, "ops": b.ops}
