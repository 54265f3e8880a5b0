"""Cases for tests/test_keras_api_more.py, shared with tools/record_keras_api_more.py: each case
``case(tf, keras, np)`` runs the same Keras 3 program on ``tf``/``keras`` (TensorFlow with Keras,
or tapegrad with ``tapegrad.keras``) and returns its numbers through :func:`enc` (JSON)."""


def enc(x):
    """A result as JSON: ``{"dtype", "value"}`` for arrays and tensors, lists and dicts by item."""
    import numpy as np
    if isinstance(x, dict):
        return {str(k): enc(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [enc(v) for v in x]
    if isinstance(x, (str, bool, type(None))):
        return x
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    return {"dtype": str(a.dtype), "value": a.tolist()}


def fixed(np, shape, k=0):
    """Deterministic float32 numbers of ``shape`` in about [-1, 1]."""
    n = int(np.prod(shape))
    return np.sin(np.arange(n, dtype=np.float64) * 0.37 + k).reshape(shape).astype(np.float32)


def grads(tf, layer, x):
    """Output, d(sum(out * cos(i)))/dx and the same for each trainable weight."""
    import numpy as np
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = layer(xt)
        w = tf.constant(np.cos(np.arange(int(np.prod(y.shape)))).reshape(y.shape).astype(y.dtype.name))
        loss = tf.reduce_sum(y * w)
    g = tape.gradient(loss, [xt] + list(layer.trainable_weights))
    return {"y": enc(y), "dx": enc(g[0]), "dw": [enc(v) for v in g[1:]]}


def set_fixed(np, layer):
    layer.set_weights([fixed(np, w.shape, k + 1) for k, w in enumerate(layer.get_weights())])


# ---- keras.random ----

def random_draws(tf, keras, np):
    r = keras.random
    g = r.SeedGenerator(5)
    return enc({
        "randint": r.randint((6,), 0, 10, seed=3),
        "randint_int64": r.randint((2, 3), -5, 5, dtype="int64", seed=4),
        "randint_uint8": r.randint((5,), 0, 200, dtype="uint8", seed=3),
        "categorical": r.categorical([[1.0, 2.0, 3.0], [0.0, 0.0, 5.0]], 7, seed=3),
        "categorical_int64": r.categorical(np.log([[0.2, 0.8]]).astype("float32"), 5, dtype="int64", seed=9),
        "gamma": r.gamma((5,), 2.0, seed=3),
        "gamma_small": r.gamma((2, 3), 0.3, dtype="float64", seed=11),
        "beta": r.beta((2, 2), [1.0, 2.0], 3.0, seed=3),
        "beta64": r.beta((4,), 0.5, 0.5, dtype="float64", seed=7),
        "binomial": r.binomial((5,), 10.0, 0.3, seed=3),
        "binomial_vec": r.binomial((2, 3), [5.0, 20.0, 100.0], [0.1, 0.5, 0.9], seed=8),
        "gen": [r.randint((3,), 0, 100, seed=g), r.gamma((3,), 1.5, seed=g), r.beta((2,), 2.0, 2.0, seed=g)],
    })


# ---- top-level scopes and aliases ----

def stateless_scope(tf, keras, np):
    layer = keras.layers.Dense(2, activity_regularizer="l2")
    layer.build((None, 3))
    set_fixed(np, layer)
    mapping = [(w, fixed(np, w.shape, 7 + k)) for k, w in enumerate(layer.weights)]
    x = fixed(np, (2, 3), 3)
    with keras.StatelessScope(mapping, collect_losses=True) as scope:
        y = layer(x)
        layer.kernel.assign_add(layer.kernel * 2.0)
        layer.bias.assign(np.array([5.0, 6.0], "float32"))
        inside = layer.kernel + 0.0
    return enc({"y": y, "inside": inside, "kernel": scope.get_current_value(layer.kernel),
                "bias": scope.get_current_value(layer.bias), "losses": scope.losses,
                "left": layer.get_weights(), "layer_losses": len(layer.losses)})


def remat_and_function(tf, keras, np):
    f = keras.remat(lambda t: keras.ops.sin(t) * keras.ops.exp(t))
    x = tf.constant(fixed(np, (4,), 2))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    inp = keras.Input((3,))
    dense = keras.layers.Dense(2)
    out = dense(inp)
    fn = keras.Function(inp, {"a": out, "b": keras.ops.sum(out * out, axis=-1)})
    dense.set_weights([fixed(np, (3, 2), 1), fixed(np, (2,), 2)])
    r = fn(fixed(np, (2, 3), 4))
    return enc({"y": y, "dy": tape.gradient(y, x), "fn": r,
                "shape": [list(s) for s in sorted(fn.compute_output_shape((None, 3)).values(), key=len)],
                "ops": [type(o).__name__ for o in fn.operations]})


CASES = [random_draws, stateless_scope, remat_and_function]
