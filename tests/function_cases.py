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


CASES = [retracing_rules, side_effects_at_trace_time, input_signature_none_dims, reduce_retracing,
         variable_created_once, gradients_through_and_inside, control_flow_on_values,
         nested_structures, training_step, run_eagerly_switch, random_ops_draw_at_every_call,
         generator_in_function, dropout_training_step]
