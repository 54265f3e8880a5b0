"""Cases of the eighth unseen set's leftovers, shared by tools/record_leftovers8.py (under
TensorFlow) and tests/test_leftovers8.py (under tapegrad): each takes the module (``tf``) and
returns a dict of arrays (or numbers)."""
import numpy as np


def _nadam_steps(tf, dtype, learning_rate, steps=5):
    rng = np.random.default_rng(0)
    grads = rng.normal(size=(steps, 64)).astype(dtype)
    v = tf.Variable(np.zeros(64, dtype))   # (zero start: the values are the updates themselves)
    opt = tf.keras.optimizers.Nadam(learning_rate=learning_rate)
    out = []
    for g in grads:
        opt.apply_gradients([(tf.constant(g), v)])
        out.append(v.numpy().copy())
    return {"x": np.array(out)}


def nadam_float32(tf):
    return _nadam_steps(tf, np.float32, 0.01)


def nadam_float64(tf):
    return _nadam_steps(tf, np.float64, 0.01)


def nadam_schedule(tf):
    return _nadam_steps(tf, np.float32, tf.keras.optimizers.schedules.ExponentialDecay(
        0.01, decay_steps=2, decay_rate=0.5), steps=6)


def nadam_fit(tf):
    tf.keras.utils.set_random_seed(1)
    rng = np.random.default_rng(1)
    x, y = rng.normal(size=(64, 8)).astype(np.float32), rng.integers(0, 3, 64)
    model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(3, kernel_initializer="ones")])
    model.compile(optimizer=tf.keras.optimizers.Nadam(0.01),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    cb = tf.keras.callbacks.LearningRateScheduler(lambda epoch: [0.01, 0.02, 0.005][epoch])
    h = model.fit(x, y, batch_size=16, epochs=3, shuffle=False, verbose=0, callbacks=[cb])
    return {"loss": np.array(h.history["loss"]), "kernel": model.layers[-1].kernel.numpy()}


def _ops(graph):
    return [[op.name, op.type] for op in graph.get_operations()]


def graph_cube(tf):
    cf = tf.function(lambda x: x ** 3).get_concrete_function(tf.constant(2.0))
    g = cf.graph
    pow_op = g.get_operation_by_name("pow")
    out = g.get_tensor_by_name("Identity:0")
    return {"ops": _ops(g), "pow_inputs": [t.name for t in pow_op.inputs],
            "pow_outputs": [t.name for t in pow_op.outputs], "identity": [str(out.shape), out.dtype.name],
            "inputs": [t.name for t in g.inputs], "outputs": [t.name for t in g.outputs],
            "input_args": [a.name for a in cf.function_def.signature.input_arg],
            "output_args": [a.name for a in cf.function_def.signature.output_arg],
            "cf_outputs": [t.name for t in cf.outputs]}


def graph_python_loop(tf):
    def add_10(x):
        for _ in range(3):
            x += 1
        return x
    return {"types": [op.type for op in tf.function(add_10).get_concrete_function(tf.constant(5)).graph.get_operations()]}


def graph_loops(tf):
    def tf_range(x):
        for _ in tf.range(10):
            x = x + 1
        return x

    def while_loop(x):
        return tf.while_loop(lambda i, x: i < 10, lambda i, x: (i + 1, x + 1), [tf.constant(0), x])[1]
    has = lambda f: any(op.type in ("While", "StatelessWhile") for op in  # noqa: E731
                        tf.function(f).get_concrete_function(tf.constant(0)).graph.get_operations())
    return {"while": [has(tf_range), has(while_loop)]}


def graph_ops(tf):
    w = tf.Variable(3.0)
    f = tf.function(lambda x, y: tf.nn.relu(tf.matmul(x, y) - 1.0) * w / 2.0 + tf.exp(x))
    g = f.get_concrete_function(tf.ones((2, 2)), tf.ones((2, 2))).graph
    return {"types": sorted(op.type for op in g.get_operations()),
            "inputs": [t.shape.as_list() for t in g.inputs[:2]], "variables": [float(v.numpy()) for v in g.variables],
            "captures": len(g.captures)}


def saved_print(tf):
    import os
    import tempfile
    d = tempfile.mkdtemp()
    log = "file://" + os.path.join(d, "log.txt")

    class Demo(tf.Module):
        def __init__(self):
            self.x = tf.Variable(1.0)

        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def addprint(self, a):
            self.x.assign_add(a)
            tf.print("x:", self.x, {"a": a, "k": 3}, [a * 2, "s"], output_stream=log, sep="|", end=";\n")
            tf.print(self.x * 2, output_stream=log, summarize=-1)
            return self.x
    m = Demo()
    m.addprint(tf.constant(2.0))
    m.addprint.get_concrete_function()   # (a trace: TensorFlow prints nothing then)
    tf.saved_model.save(m, os.path.join(d, "m"), signatures={"serving_default": m.addprint})
    m2 = tf.saved_model.load(os.path.join(d, "m"))
    m2.addprint(tf.constant(5.0))
    m2.signatures["serving_default"](a=tf.constant(1.0))
    with open(log[len("file://"):], encoding="utf-8") as f:
        return {"printed": f.read().splitlines()}


CASES = {f.__name__: f for f in (nadam_float32, nadam_float64, nadam_schedule, nadam_fit, graph_cube,
                                 graph_python_loop, graph_loops, graph_ops, saved_print)}
EXACT = {"graph_cube", "graph_python_loop", "graph_loops", "graph_ops", "saved_print"}
# (rtol, atol) per case: a few ulp of round-off per step of values of about 0.01 (ulp 1e-9 in
# float32); the Nadam bug these catch was 6e-6 relative, 6e-8 absolute at each step
TOL = {"nadam_float32": (2e-6, 1e-8), "nadam_float64": (1e-12, 1e-16),
       "nadam_schedule": (2e-6, 1e-8), "nadam_fit": (2e-5, 0)}
