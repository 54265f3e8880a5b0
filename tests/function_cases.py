"""tf.function programs run identically under TensorFlow 2.21 (tools/record_tf_function.py
records their results) and tapegrad (tests/test_function.py compares). Each case takes the
library as ``tf`` and a switch ``eagerly(bool)`` (``tf.config.run_functions_eagerly``) and
returns a dict of plain Python values."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np


def _v(t: Any) -> Any:
    return np.asarray(t).tolist()


def retracing_rules(tf: Any, eagerly: Callable) -> dict:
    log = []

    @tf.function
    def f(x, n):
        log.append(n)
        return x * n

    r = [f(tf.constant(1.0), 2), f(tf.constant(2.0), 2), f(tf.constant(1.0), 3),
         f(tf.constant([1.0, 2.0]), 2), f(tf.constant([3.0, 4.0]), 2), f(tf.constant(1, tf.int32), 2),
         f(np.float32(5.0), 2), f(np.array([1.0, 2.0], np.float32), 2)]
    return {"values": [_v(x) for x in r], "count": f.experimental_get_tracing_count(), "log": log}


def side_effects_at_trace_time(tf: Any, eagerly: Callable) -> dict:
    seen = []
    v = tf.Variable(0.0)

    @tf.function
    def f(x):
        seen.append("py")
        v.assign_add(x)
        return v.read_value()

    out = [_v(f(tf.constant(1.0))) for _ in range(3)]
    return {"out": out, "seen": len(seen), "v": _v(v)}


def input_signature_none_dims(tf: Any, eagerly: Callable) -> dict:
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return tf.reduce_sum(x * x)

    out = [_v(f(tf.constant([1.0, 2.0]))), _v(f(tf.constant([1.0, 2.0, 3.0])))]
    errors = []
    for bad in (tf.constant([[1.0]]), tf.constant([1, 2])):
        try:
            f(bad)
            errors.append(None)
        except (TypeError, ValueError) as e:
            errors.append(type(e).__name__)
    return {"out": out, "count": f.experimental_get_tracing_count(), "errors": errors}


def reduce_retracing(tf: Any, eagerly: Callable) -> dict:
    @tf.function(reduce_retracing=True)
    def f(x):
        return tf.reduce_sum(x)

    counts = []
    for n in (2, 3, 4, 5):
        f(tf.ones([n]))
        counts.append(f.experimental_get_tracing_count())
    return {"counts": counts}


def variable_created_once(tf: Any, eagerly: Callable) -> dict:
    class M(tf.Module):
        def __init__(self):
            self.v = None

        @tf.function
        def __call__(self, x):
            if self.v is None:
                self.v = tf.Variable(tf.ones_like(x))
            self.v.assign(self.v * x)
            return self.v.read_value()

    m = M()
    out = [_v(m(tf.constant([2.0, 3.0]))) for _ in range(3)]

    @tf.function
    def every_trace(x):
        w = tf.Variable(1.0)
        return w + x

    try:  # (TensorFlow raises on the first call, tapegrad on the first retrace)
        every_trace(tf.constant(1.0))
        every_trace(tf.constant([1.0, 2.0]))
        err = None
    except ValueError as e:
        err = "singleton" in str(e)
    return {"out": out, "err": err}


def gradients_through_and_inside(tf: Any, eagerly: Callable) -> dict:
    @tf.function
    def f(x):
        return tf.reduce_sum(tf.sin(x) * x)

    x = tf.constant([0.5, 1.5])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    h = outer.gradient(g, x)

    @tf.function
    def grad_inside(x):
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = x ** 3
            d = t1.gradient(y, x)
        return d, t2.gradient(d, x)

    @tf.function
    def jac_inside(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.stack([x[0] * x[1], tf.exp(x[0])])
        return t.jacobian(y, x)

    d1, d2 = grad_inside(tf.constant(2.0))
    d1b, d2b = grad_inside(tf.constant(3.0))
    return {"y": _v(y), "g": _v(g), "h": _v(h), "inside": [_v(d1), _v(d2), _v(d1b), _v(d2b)],
            "jac": [_v(jac_inside(tf.constant([1.0, 2.0]))), _v(jac_inside(tf.constant([0.5, -1.0])))]}


def control_flow_on_values(tf: Any, eagerly: Callable) -> dict:
    @tf.function
    def f(x):
        if tf.reduce_sum(x) > 0:
            y = x * 2.0
        else:
            y = -x
        return y

    @tf.function
    def count_up(n):
        i = tf.constant(0)
        s = tf.constant(0.0)
        while i < n:
            s += tf.cast(i, tf.float32)
            i += 1
        return s

    @tf.function
    def loop(n):
        s = tf.constant(0)
        for i in tf.range(n):
            s += i * i
        return s

    xs = [tf.constant([1.0, 2.0]), tf.constant([-3.0, 1.0]), tf.constant([1.0, 0.5])]
    return {"branches": [_v(f(x)) for x in xs], "f_count": f.experimental_get_tracing_count(),
            "while": [_v(count_up(tf.constant(n))) for n in (3, 5, 0, 3)],
            "for": [_v(loop(tf.constant(n))) for n in (4, 2, 6)]}


def nested_structures(tf: Any, eagerly: Callable) -> dict:
    @tf.function
    def f(d, pair):
        a, b = pair
        return {"sum": d["x"] + a, "prod": [d["y"] * b, b]}

    r1 = f({"x": tf.constant(1.0), "y": tf.constant(2.0)}, (tf.constant(3.0), tf.constant(4.0)))
    r2 = f({"x": tf.constant(5.0), "y": tf.constant(6.0)}, (tf.constant(7.0), tf.constant(8.0)))
    return {"r": [[_v(r["sum"]), _v(r["prod"][0]), _v(r["prod"][1])] for r in (r1, r2)],
            "count": f.experimental_get_tracing_count()}


def training_step(tf: Any, eagerly: Callable) -> dict:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(8, 3)).astype(np.float32)
    Y = rng.normal(size=(8, 1)).astype(np.float32)
    w = tf.Variable(rng.normal(size=(3, 1)).astype(np.float32))
    b = tf.Variable(np.zeros(1, np.float32))
    opt = tf.optimizers.SGD(learning_rate=0.1)

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
        grads = tape.gradient(loss, [w, b])
        opt.apply_gradients(zip(grads, [w, b]))
        return loss

    losses = [_v(step(X, Y)) for _ in range(4)]
    return {"losses": losses, "w": _v(w), "count": step.experimental_get_tracing_count()}


def run_eagerly_switch(tf: Any, eagerly: Callable) -> dict:
    seen = []

    @tf.function
    def f(x):
        seen.append(1)
        return x + 1.0

    eagerly(True)
    try:
        out = [_v(f(tf.constant(1.0))) for _ in range(3)]
    finally:
        eagerly(False)
    return {"out": out, "seen": len(seen)}


def random_ops_draw_at_every_call(tf: Any, eagerly: Callable) -> dict:
    # a graph numbers its unseeded ops 0, 1, ... under the global seed; each op is a kernel of its
    # own whose stream every call continues; set_seed restarts them
    tf.random.set_seed(5)

    @tf.function
    def f(x):
        return [tf.random.normal([2]), tf.random.normal([2]) + x, tf.random.uniform([3], seed=3),
                tf.random.uniform([2], 0, 10, dtype=tf.int32), tf.random.truncated_normal([2], seed=1),
                tf.random.shuffle(tf.range(5)), tf.random.categorical([[0.0, 1.0, 2.0]], 4)]

    draws = [[_v(t) for t in f(tf.constant(0.0))] for _ in range(3)]
    tf.random.set_seed(5)
    again = [_v(t) for t in f(tf.constant(0.0))]
    tf.random.set_seed(5)

    @tf.function
    def g():
        return tf.random.normal([2])

    gs = [_v(g()) for _ in range(2)]
    tf.random.set_seed(None)

    @tf.function
    def h():
        return tf.random.uniform([4])

    fresh = [_v(h()) for _ in range(2)]
    return {"draws": draws, "again": again, "second_function": gs,
            "unseeded_calls_differ": fresh[0] != fresh[1]}


def generator_in_function(tf: Any, eagerly: Callable) -> dict:
    gen = tf.random.Generator.from_seed(7)

    @tf.function
    def f():
        return [gen.normal([2]), gen.uniform([2], 0, 5, dtype=tf.int64), gen.normal([1]) * 2.0]

    out = [[_v(t) for t in f()] for _ in range(3)]
    after = _v(gen.normal([2]))
    return {"out": out, "after": after, "state": _v(gen.state)}


def dropout_training_step(tf: Any, eagerly: Callable) -> dict:
    tf.random.set_seed(11)
    w = tf.Variable(tf.ones([2, 6]))

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            y = tf.nn.dropout(x * w, rate=0.5, seed=2)
            loss = tf.reduce_sum(y * y)
        g = tape.gradient(loss, w)
        w.assign_sub(0.01 * g)
        return y, loss

    outs = [step(tf.constant([[1.0, 2, 3, 4, 5, 6], [6.0, 5, 4, 3, 2, 1]])) for _ in range(3)]
    return {"out": [[_v(y), _v(loss)] for y, loss in outs], "w": _v(w),
            "count": step.experimental_get_tracing_count()}


def _vc(t: Any) -> Any:
    """A result as plain values; a complex one as [real, imag]."""
    a = np.asarray(t)
    return [a.real.tolist(), a.imag.tolist()] if a.dtype.kind == "c" else a.tolist()


def stale_tensor_arguments(tf: Any, eagerly: Callable) -> dict:
    """Control arguments given as tensors: a second call with other values is no replay of the
    first (issue 23: these ops read the tensor behind the tracer)."""
    x = tf.reshape(tf.range(12.0), [3, 4])
    progs = {
        "pad": (lambda x, a: tf.pad(x, a), [[0, 1], [1, 0]], [[2, 0], [0, 1]]),
        "reverse": (lambda x, a: tf.reverse(x, a), [0], [1]),
        "diag_part": (lambda x, a: tf.linalg.diag_part(x, k=a), 0, 1),
        "diag": (lambda x, a: tf.linalg.diag(x[0], k=a), 0, -1),
        "set_diag": (lambda x, a: tf.linalg.set_diag(x, tf.ones([3]), k=a), 0, 1),
        "rot90": (lambda x, a: tf.image.rot90(x[:, :, None], a)[..., 0], 1, 2),
        "rfft": (lambda x, a: tf.signal.rfft(x, fft_length=a), [4], [6]),
    }
    out = {}
    for name, (fn, a, b) in progs.items():
        f = tf.function(fn)
        out[name] = [_vc(f(x, tf.constant(a))), _vc(f(x, tf.constant(b))), _vc(f(x, tf.constant(a)))]
    return {"out": out}


def variable_of_undeclared_shape(tf: Any, eagerly: Callable) -> dict:
    """A Variable declared with an unknown or partial shape takes another shape between calls."""
    v = tf.Variable(tf.zeros([21, 21, 21]), shape=tf.TensorShape(None))

    @tf.function
    def f():
        return tf.shape(tf.reshape(v, [-1]) + 0.0), tf.ones_like(v) * 2.0

    w = tf.Variable(tf.zeros([3]), shape=tf.TensorShape([None]))

    @tf.function
    def g():
        return tf.reduce_sum(w) + tf.cast(tf.size(w), tf.float32), tf.shape(tf.expand_dims(w, 0))

    @tf.function
    def h(x):
        v.assign(x)
        return tf.shape(v + 1.0)

    r = [[_v(t) for t in (f()[0], tf.shape(f()[1]))], [_v(t) for t in g()]]
    v.assign(tf.zeros([21]))
    w.assign(tf.ones([5]))
    r += [[_v(t) for t in (f()[0], tf.shape(f()[1]))], [_v(t) for t in g()]]
    r += [_v(h(tf.zeros([2, 3]))), _v(h(tf.zeros([4])))]
    return {"out": r}


def unhashable_arguments(tf: Any, eagerly: Callable) -> dict:
    """Python arguments that cannot be hashed raise TypeError; lists, dicts and arrays are no
    such arguments (structures and tensors)."""
    import dataclasses

    @dataclasses.dataclass
    class Config:
        scale: float

    @tf.function
    def f(x, c):
        return x * 2.0

    errors, ok = {}, {}
    for name, arg in (("dataclass", Config(2.0)), ("set", {1, 2}), ("bytearray", bytearray(b"ab"))):
        try:
            f(tf.constant(1.0), arg)
            errors[name] = None
        except TypeError as e:
            errors[name] = ["TypeError", str(e).startswith(f"Could not generate a generic TraceType for {arg!r}.")]
    for name, arg in (("list", [1, 2]), ("dict", {"a": 1}), ("array", np.array([1.0, 2.0]))):
        ok[name] = _v(f(tf.constant(1.0), arg))
    return {"errors": errors, "ok": ok}


def numpy_array_captured_at_trace(tf: Any, eagerly: Callable) -> dict:
    """A NumPy array the function reads from its closure is captured by value when traced:
    changing it later changes nothing until the function traces again."""
    arr = np.array([1.0, 2.0], np.float32)

    @tf.function
    def f(x):
        return [x + arr, x * tf.constant(arr), tf.reduce_sum(arr) + x, arr[0] + x, tf.gather(x + arr, [1])]

    r = [[_v(t) for t in f(tf.constant(1.0))]]
    arr[:] = [10.0, 20.0]
    r.append([_v(t) for t in f(tf.constant(1.0))])
    r.append([_v(t) for t in f(tf.constant(2.0))])
    r.append([_v(t) for t in f(tf.constant([1.0, 1.0]))])  # (a new shape traces: the new values)
    return {"captured": r}


def variable_made_on_a_retrace(tf: Any, eagerly: Callable) -> dict:
    """A Variable made on the first trace only is fine; tf.Variable() in a later trace raises
    ValueError at its line, before the rest of the body runs (the line after it would raise a
    dtype error for the third call)."""
    made = []

    @tf.function
    def f(x):
        log.append("start")
        if x.shape.rank == 1 or not made:
            made.append(tf.Variable(1.0))
        log.append("after")
        return x + tf.constant(1, tf.int32)

    outcomes, logs = [], []
    for arg in (tf.constant(1, tf.int32), tf.constant([1, 2], tf.int32), tf.constant(1, tf.int32)):
        log = []
        try:
            outcomes.append(_v(f(arg)))
        except ValueError as e:
            last = str(e).strip().split("\n")[-1].strip()  # (TF's: after its traceback of user code)
            outcomes.append(["ValueError", last.removeprefix("ValueError: ").split(". ")[0]])
        logs.append(sorted(set(log)))
    return {"outcomes": outcomes, "logs": logs}


def retracing_warning(tf: Any, eagerly: Callable) -> dict:
    """TensorFlow's warning on the 'tensorflow' logger when 5 of a function's recent calls traced."""
    import logging
    seen = []

    class Catch(logging.Handler):
        def emit(self, record):
            seen.append(record.getMessage().split(" calls to ")[0])

    handler = Catch(logging.WARNING)
    logger = logging.getLogger("tensorflow")
    level = logger.level
    logger.setLevel(logging.WARNING)
    logger.addHandler(handler)
    try:
        @tf.function
        def f(n):
            return tf.constant(n)

        @tf.function
        def g(n):
            return tf.constant(n)

        counts = []
        for i in range(12):
            f(i)
            counts.append(len(seen))
        for i in range(20):  # a trace every 3rd call: never 5 of the last 10
            g(i // 3)
        counts.append(len(seen))
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    return {"seen": seen, "counts": counts}


def retracing_counts_every_function_of_the_code(tf: Any, eagerly: Callable) -> dict:
    """The warning counts by the Python function's code, so the tf.functions made from one
    function (one per model, as Keras's step functions) share it: each traces once, and the
    calls of the others that did not trace separate the traces (no warning), until they stop."""
    import logging
    seen = []

    class Catch(logging.Handler):
        def emit(self, record):
            seen.append(record.getMessage().split(" calls to ")[0])

    handler = Catch(logging.WARNING)
    logger = logging.getLogger("tensorflow")
    level = logger.level
    logger.setLevel(logging.WARNING)
    logger.addHandler(handler)

    def make():
        @tf.function
        def step(x):
            return x * 2.0

        return step

    try:
        counts = []
        for _ in range(8):  # one per model, each called 3 times (one trace)
            f = make()
            for _ in range(3):
                f(tf.constant(1.0))
            counts.append(len(seen))
        fs = [make() for _ in range(6)]  # traces back to back: the warning
        for f in fs:
            f(tf.constant(1.0))
            counts.append(len(seen))
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    return {"seen": seen, "counts": counts}


def variables_as_arguments(tf: Any, eagerly: Callable) -> dict:
    """A Variable argument is keyed by shape and dtype (and which arguments alias), not by which
    Variable it is: the trace reads and writes each call's own Variable."""
    @tf.function
    def f(v):
        v.assign_add(tf.ones_like(v))
        return v * 2.0

    @tf.function
    def g(v, w):
        return v + w

    a, b, c = tf.Variable(tf.ones([3])), tf.Variable(tf.zeros([3])), tf.Variable(tf.zeros([4]))
    out = [_v(f(a)), _v(f(b)), _v(f(c)), _v(f(a))]
    counts = [f.experimental_get_tracing_count()]
    out += [_v(g(a, b)), _v(g(b, a)), _v(g(a, a))]
    counts.append(g.experimental_get_tracing_count())
    return {"out": out, "counts": counts, "vars": [_v(a), _v(b), _v(c)]}


def relaxed_signature_traces_once(tf: Any, eagerly: Callable) -> dict:
    """A signature of None dimensions (or reduce_retracing's relaxed one) is traced once: the
    Python function's side effects happen once for every size it admits."""
    log = []
    v = tf.Variable(0.0)
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    vec = tf.TensorSpec([None], tf.float32)

    @tf.function(input_signature=(tf.TensorSpec([None], tf.int32),))
    def ident(x):
        log.append("ident")
        return x

    @tf.function(input_signature=(vec, vec))
    def poly(x, y):
        log.append("poly")
        return x * x + 2.0 * y - 1.0, tf.reduce_sum(x * y, axis=0)

    @tf.function(input_signature=(tf.TensorSpec([None, 2], tf.float32),))
    def dense(x):
        log.append("dense")
        v.assign_add(tf.reduce_sum(x))
        return tf.tanh(tf.matmul(x, w)) + v

    @tf.function(reduce_retracing=True)
    def relaxed(x):
        log.append("relaxed")
        return tf.exp(x) - x

    out = [_v(ident(tf.constant([1, 2, 3, 4, 5]))), _v(ident(tf.constant([1, 2, 3])))]
    for n in (3, 1, 4):
        out += [_v(t) for t in poly(tf.range(n, dtype=tf.float32), tf.ones([n]))]
        out.append(_v(dense(tf.reshape(tf.range(2 * n, dtype=tf.float32), [n, 2]) / 10.0)))
    for n in (2, 3, 4, 5, 2):
        out.append(_v(relaxed(tf.range(n, dtype=tf.float32))))
    x = tf.constant([0.5, 1.5, -1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        s = tf.reduce_sum(poly(x, x)[0])
    out.append(_v(tape.gradient(s, x)))
    counts = [f.experimental_get_tracing_count() for f in (ident, poly, dense, relaxed)]
    return {"out": out, "counts": counts, "log": log, "v": _v(v)}


def python_values_returned(tf: Any, eagerly: Callable) -> dict:
    """A traced function's outputs are tensors: Python numbers, strings and NumPy values it
    returns (here on one branch of an ``if`` on a tensor) are converted; a captured Variable
    gives its value at each call; None stays."""
    def relu(x):
        if x > 0:
            return x
        return 0

    f = tf.function(relu)
    v = tf.Variable(2.0)
    g = tf.function(lambda: (1, 2.5, "a", None, True, np.float64(1.5), np.ones(2, np.int64), v, {"k": [3]}))

    def described(x):
        if x is None:
            return None
        if not hasattr(x, "numpy") or isinstance(x, tf.Variable):
            return type(x).__name__
        value = x.numpy()
        return [x.dtype.name, value.decode() if isinstance(value, bytes) else _v(value)]

    first = g()
    v.assign(5.0)
    return {"relu": [described(f(tf.constant(1))), described(f(tf.constant(-1))),
                     described(f(tf.constant(-2)))],
            "first": [described(x) for x in tf.nest.flatten(first)],
            "second": [described(x) for x in tf.nest.flatten(g())]}


def _error_type(fn: Callable) -> str:
    try:
        fn()
        return "none"
    except Exception as e:
        return type(e).__name__


def concrete_function_calls(tf: Any, eagerly: Callable) -> dict:
    """A concrete function runs its graph on the tensors given: any shape, its dtypes only
    (Python numbers converted to them), the traced structure only; a tf.Module's walk leaves
    Keras layers out (Keras 3's layers are no tf.Module)."""
    traced = []

    @tf.function
    def power(a, b):
        traced.append(1)
        return a ** b

    fp = power.get_concrete_function(a=tf.TensorSpec([], tf.float32), b=tf.TensorSpec([], tf.float32))
    before = len(traced)
    vector = fp(tf.constant([1.0, 2.0, 3.0]), tf.constant(2.0))
    python = fp(2.0, 3.0)
    wider = fp(tf.constant([[1.0, 2.0]]), tf.constant([2.0, 3.0]))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def double(x):
        return x * 2.0

    cd = double.get_concrete_function()
    named = cd(x=tf.constant([1.0, 2.0]))  # (a positional spec bound by its parameter's name)

    @tf.function
    def total(features):
        return features["a"] + features["b"]

    ct = total.get_concrete_function({"a": tf.constant([1.0]), "b": tf.constant([2.0])})
    mod = tf.Module()
    mod.v = tf.Variable(1.0)
    layer = tf.keras.layers.Dense(2)
    layer.build((None, 3))
    mod.layers = [layer]
    return {"vector": _v(vector), "python": _v(python), "wider": _v(wider),
            "retraced": len(traced) - before,
            "int_error": _error_type(lambda: fp(tf.constant(1), tf.constant(3))),
            "broadcast_error": _error_type(lambda: fp(tf.constant([1.0, 2.0, 3.0]), tf.constant([4.0, 5.0]))),
            "signature_matrix": _v(cd(tf.constant([[1.0, 2.0]]))), "signature_scalar": _v(cd(tf.constant(1.0))),
            "named": _v(named),
            "signature_error": _error_type(lambda: double(tf.constant(1.0))),
            "structure_error": _error_type(lambda: ct({"a": tf.constant([1.0])})),
            "structure": _v(ct({"a": tf.constant([1.0]), "b": tf.constant([5.0])})),
            "module_variables": len(mod.variables), "module_submodules": len(mod.submodules),
            "printed": fp.pretty_printed_signature(),
            "printed_python": power.get_concrete_function(tf.TensorSpec(None, tf.float32), 2).pretty_printed_signature()}


def py_function_runs_at_every_call(tf: Any, eagerly: Callable) -> dict:
    """A tf.py_function without results is a step of the graph: it runs at every call."""
    seen = []

    @tf.function
    def f(x):
        tf.py_function(lambda v: seen.append(int(v.numpy())), inp=[x], Tout=[])
        return x + 1

    out = [_v(f(tf.constant(i))) for i in range(3)]
    return {"out": out, "seen": seen, "count": f.experimental_get_tracing_count()}


def dataset_made_in_function(tf: Any, eagerly: Callable) -> dict:
    """A dataset shuffled inside a tf.function takes its seeds from the function's graph (op seed
    0, 1, ... under the global seed), not from the eager op-seed counter; TensorFlow's deprecated
    ``experimental_run_functions_eagerly`` alias; ``Sequential.build()`` with no shape builds
    nothing more (Keras 3: a shape that is not one tensor's is ignored)."""
    tf.random.set_seed(0)

    def first(ds):
        out = tf.zeros([10], tf.int64)
        for x in ds.batch(10).take(1):
            out = x
        return out

    eager = _v(first(tf.data.Dataset.range(50).shuffle(40)))
    traced = _v(tf.function(lambda: first(tf.data.Dataset.range(50).shuffle(40)))())
    after = _v(first(tf.data.Dataset.range(50).shuffle(40)))
    tf.config.experimental_run_functions_eagerly(True)
    on = tf.config.experimental_functions_run_eagerly()
    tf.config.experimental_run_functions_eagerly(False)
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    model.build()
    return {"eager": eager, "traced": traced, "after": after, "eagerly_on": on,
            "off": tf.config.functions_run_eagerly(), "built": model.built,
            "weights": len(model.weights)}


def variable_handles(tf: Any, eagerly: Callable) -> dict:
    """``tf.Variable.handle``: the scalar resource tensor's text (the library's name dropped),
    shape and device; its numbers are numbered in creation order (from this case's first)."""
    vs = [tf.Variable(1.0, name="w"), tf.Variable(1, name="w"), tf.Variable([[1.0, 2.0]])]
    first = int(str(vs[0].handle).split('name="w/')[1].split('"')[0])

    def text(h: Any) -> str:
        t = str(h).split("Tensor(", 1)[1]
        name = t.split('name="')[1].split('"')[0]
        base, n = name.rsplit("/", 1)
        return t.replace(f'name="{name}"', f'name="{base}/{int(n) - first}"')

    h = vs[0].handle
    return {"texts": [text(v.handle) for v in vs], "shape": list(h.shape), "device": h.device,
            "numpy": _error_type(h.numpy)}


def keras_layers_in_graphs(tf: Any, eagerly: Callable) -> dict:
    """Keras 3 on TensorFlow: a preprocessing layer (a DataLayer) casts its inputs to its compute
    dtype in a graph (tf.data, tf.function), not eagerly; ``preprocess_input`` keeps an integer
    tensor's dtype (``"tf"`` mode divides it by a float: TypeError); a subclassed model whose
    ``call`` takes several tensors is built by tracing it on all of them."""
    img = tf.constant((np.arange(72) % 256).reshape(8, 3, 3).astype(np.uint8))
    resize = tf.keras.layers.Resizing(5, 5)
    ds = tf.data.Dataset.from_tensors(img).map(resize)
    pre = tf.keras.applications.inception_v3.preprocess_input
    caffe = tf.keras.applications.resnet50.preprocess_input

    class TwoInputs(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.d = tf.keras.layers.Dense(2, kernel_initializer="ones")

        def call(self, x, y, z):
            return self.d(x) + y * z

    m = TwoInputs()
    out = m(tf.ones([1, 3]), tf.ones([1, 2]), tf.ones([1, 2]))
    return {"eager": resize(img).dtype.name, "data": ds.element_spec.dtype.name,
            "function": tf.function(resize)(img).dtype.name,
            "crop_eager": tf.keras.layers.CenterCrop(2, 2)(img).dtype.name,
            "crop_data": tf.data.Dataset.from_tensors(img).map(tf.keras.layers.CenterCrop(2, 2)).element_spec.dtype.name,
            "tf_mode_uint8": _error_type(lambda: pre(tf.constant([[[1, 2, 3]]], tf.uint8))),
            "caffe_uint8": _v(caffe(tf.constant([[[1, 2, 3]]], tf.uint8))),
            "caffe_int32": _v(caffe(tf.constant([[[1, 2, 3]]], tf.int32))),
            "tf_mode_numpy": _v(pre(np.array([[[1, 2, 3]]], np.uint8))),
            "model": _v(out), "built": m.built, "weights": len(m.weights)}


CASES = [retracing_rules, side_effects_at_trace_time, input_signature_none_dims, reduce_retracing,
         variable_created_once, gradients_through_and_inside, control_flow_on_values,
         nested_structures, training_step, run_eagerly_switch, random_ops_draw_at_every_call,
         generator_in_function, dropout_training_step, stale_tensor_arguments,
         variable_of_undeclared_shape, unhashable_arguments, numpy_array_captured_at_trace,
         variable_made_on_a_retrace, retracing_warning, variables_as_arguments, python_values_returned,
         retracing_counts_every_function_of_the_code, relaxed_signature_traces_once,
         concrete_function_calls, py_function_runs_at_every_call, dataset_made_in_function,
         variable_handles, keras_layers_in_graphs]
