"""Run one fuzz program with a given ``tf`` module (``tensorflow`` or ``tapegrad``).

A program (see ``generator.py``) is pure data:

``{"seed": int, "dtype": "float32" | "float64",
   "inputs": [{"shape": [..], "values": [flat floats]}, ...],
   "ops": [{"op": name, "args": [arg, ...], ...parameters}, ...]}``

An ``arg`` is ``"x<i>"`` (input ``i``), an int ``j`` (the value of op ``j``, counted from 0),
``{"py": float}`` (a Python scalar) or
``{"const": [flat floats], "shape": [..]}`` (a constant tensor of the program's dtype, never
watched). The last op's value is the program's output ``y``.

``run_program`` evaluates the program five times, each under fresh tapes that watch every input
``xs``, and returns one encoded result (``_encoding.encode``) per section:

* ``forward``: ``y``;
* ``gradient``: ``tape.gradient(y, xs)``;
* ``seeded``: ``tape.gradient(y, xs, output_gradients=s)`` where ``s`` (``seed_for``) has
  ``y``'s shape and holds -1, -0.5, 0, 0.5 and 1, so some cotangents are exactly zero;
* ``second``: for each first-order gradient ``g_i`` computed inside a persistent outer tape,
  ``outer.gradient(g_i, xs)`` (``None`` where ``g_i`` is ``None``);
* ``jacobian``: ``tape.jacobian(y, xs)``.

A section that raises records the exception; when the forward pass raises, only ``forward`` is
recorded. ``IndexedSlices`` gradients are densified (``tf.convert_to_tensor``) so that both
libraries are compared on values; their type is covered by ``tests/tf_programs``.
"""

import functools

import numpy as np

from tf_programs._encoding import encode, encode_error

# op name -> dotted attribute of the tf module, for ops called as f(x) or f(a, b)
UNARY = {
    "negative": "math.negative", "abs": "math.abs", "square": "math.square", "exp": "math.exp",
    "expm1": "math.expm1", "sin": "math.sin", "cos": "math.cos", "tanh": "math.tanh",
    "sigmoid": "math.sigmoid", "softplus": "math.softplus", "relu": "nn.relu", "relu6": "nn.relu6",
    "elu": "nn.elu", "selu": "nn.selu", "silu": "nn.silu", "atan": "math.atan",
    "asinh": "math.asinh", "erf": "math.erf", "sign": "math.sign", "round": "math.round",
    "floor": "math.floor", "log_sigmoid": "math.log_sigmoid", "sinh": "math.sinh",
    "cosh": "math.cosh", "log": "math.log", "sqrt": "math.sqrt", "rsqrt": "math.rsqrt",
    "reciprocal": "math.reciprocal", "log1p": "math.log1p", "softsign": "nn.softsign",
}
BINARY = {
    "add": "math.add", "subtract": "math.subtract", "multiply": "math.multiply",
    "divide": "math.truediv", "maximum": "math.maximum", "minimum": "math.minimum",
    "squared_difference": "math.squared_difference", "pow": "math.pow",
    "divide_no_nan": "math.divide_no_nan", "atan2": "math.atan2", "xlogy": "math.xlogy",
}
REDUCE = {
    "reduce_sum": "math.reduce_sum", "reduce_mean": "math.reduce_mean",
    "reduce_max": "math.reduce_max", "reduce_min": "math.reduce_min",
    "reduce_prod": "math.reduce_prod", "reduce_logsumexp": "math.reduce_logsumexp",
    "reduce_variance": "math.reduce_variance", "reduce_std": "math.reduce_std",
    "reduce_euclidean_norm": "math.reduce_euclidean_norm",
}
COMPARE = ("greater", "greater_equal", "less", "less_equal", "equal", "not_equal")


def _attr(tf, dotted):
    return functools.reduce(getattr, dotted.split("."), tf)


def _slice_key(spec):
    key = []
    for item in spec:
        if item == "...":
            key.append(Ellipsis)
        elif item == "new":
            key.append(None)
        elif isinstance(item, int):
            key.append(item)
        else:
            key.append(slice(*item))
    return tuple(key)


def _apply(tf, op, a, dtype):
    """The value of ``op`` applied to the resolved arguments ``a``."""
    name = op["op"]
    if name in UNARY:
        return _attr(tf, UNARY[name])(a[0])
    if name in BINARY:
        return _attr(tf, BINARY[name])(a[0], a[1])
    if name in REDUCE:
        return _attr(tf, REDUCE[name])(a[0], axis=op["axis"], keepdims=op["keepdims"])
    if name == "leaky_relu":
        return tf.nn.leaky_relu(a[0], alpha=op["alpha"])
    if name == "clip":
        return tf.clip_by_value(a[0], op["lo"], op["hi"])
    if name == "where":
        return tf.where(_attr(tf, "math." + op["cmp"])(a[0], a[1]), a[2], a[3])
    if name == "matmul":
        return tf.linalg.matmul(a[0], a[1], transpose_a=op["ta"], transpose_b=op["tb"])
    if name == "reshape":
        return tf.reshape(a[0], op["shape"])
    if name == "transpose":
        return tf.transpose(a[0], perm=op["perm"])
    if name == "expand_dims":
        return tf.expand_dims(a[0], op["axis"])
    if name == "squeeze":
        return tf.squeeze(a[0], axis=op["axis"])
    if name == "concat":
        return tf.concat(list(a), axis=op["axis"])
    if name == "stack":
        return tf.stack(list(a), axis=op["axis"])
    if name == "split":
        return tf.split(a[0], op["splits"], axis=op["axis"])[op["pick"]]
    if name == "gather":
        return tf.gather(a[0], tf.constant(np.array(op["indices"], dtype=np.int32)),
                         axis=op["axis"])
    if name == "slice":
        return a[0][_slice_key(op["spec"])]
    if name == "softmax":
        return tf.nn.softmax(a[0], axis=op["axis"])
    if name == "log_softmax":
        return tf.nn.log_softmax(a[0], axis=op["axis"])
    if name in ("cumsum", "cumprod"):
        return _attr(tf, "math." + name)(a[0], axis=op["axis"], exclusive=op["exclusive"],
                                          reverse=op["reverse"])
    if name == "tile":
        return tf.tile(a[0], op["multiples"])
    if name == "pad":
        return tf.pad(a[0], op["paddings"])
    if name == "reverse":
        return tf.reverse(a[0], op["axis"])
    if name == "broadcast_to":
        return tf.broadcast_to(a[0], op["shape"])
    if name == "cast":
        return tf.cast(a[0], getattr(tf, op["dtype"]))
    if name == "add_n":
        return tf.add_n(list(a))
    raise ValueError(f"unknown fuzz op {name!r}")


def evaluate(tf, program, xs):
    """Evaluate ``program`` on the input tensors ``xs``; return the output tensor."""
    dtype = program["dtype"]
    values = []
    for op in program["ops"]:
        resolved = []
        for arg in op["args"]:
            if isinstance(arg, int):
                resolved.append(values[arg])
            elif isinstance(arg, str):
                resolved.append(xs[int(arg[1:])])
            elif "py" in arg:
                resolved.append(arg["py"])
            else:
                resolved.append(tf.constant(
                    np.array(arg["const"], dtype=dtype).reshape(arg["shape"])))
        values.append(_apply(tf, op, resolved, dtype))
    return values[-1]


def input_arrays(program):
    return [np.array(x["values"], dtype=program["dtype"]).reshape(x["shape"])
            for x in program["inputs"]]


def seed_for(shape, dtype):
    """The output_gradients seed of the ``seeded`` section: -1, -0.5, 0, 0.5, 1, ... ."""
    n = int(np.prod(shape, dtype=np.int64))
    return ((np.arange(n) * 3 % 5 - 2) / 2).astype(dtype).reshape(shape)


def _dense(tf, g):
    if g is not None and type(g).__name__ == "IndexedSlices":
        return tf.convert_to_tensor(g)
    return g


def _section(tf, fn):
    try:
        return encode(fn(), tf)
    except Exception as exc:  # noqa: BLE001 - the exception is the result
        return encode_error(exc)


def run_program(program, tf):
    """Run ``program`` with module ``tf``; return ``{section: encoded result}``."""
    arrays = input_arrays(program)

    def fresh():
        return [tf.constant(a) for a in arrays]

    try:
        y = evaluate(tf, program, fresh())
    except Exception as exc:  # noqa: BLE001
        return {"forward": encode_error(exc)}

    def gradient(seeded):
        xs = fresh()
        with tf.GradientTape() as tape:
            tape.watch(xs)
            y = evaluate(tf, program, xs)
        seed = None
        if seeded:
            seed = tf.constant(seed_for(tuple(y.shape), y.dtype.name))
        return [_dense(tf, g) for g in tape.gradient(y, xs, output_gradients=seed)]

    def second():
        xs = fresh()
        with tf.GradientTape(persistent=True) as outer:
            outer.watch(xs)
            with tf.GradientTape() as inner:
                inner.watch(xs)
                y = evaluate(tf, program, xs)
            gs = [_dense(tf, g) for g in inner.gradient(y, xs)]
        return [None if g is None else [_dense(tf, h) for h in outer.gradient(g, xs)]
                for g in gs]

    def jacobian():
        xs = fresh()
        with tf.GradientTape() as tape:
            tape.watch(xs)
            y = evaluate(tf, program, xs)
        return [_dense(tf, j) for j in tape.jacobian(y, xs)]

    return {
        "forward": encode(y, tf),
        "gradient": _section(tf, lambda: gradient(False)),
        "seeded": _section(tf, lambda: gradient(True)),
        "second": _section(tf, second),
        "jacobian": _section(tf, jacobian),
    }
