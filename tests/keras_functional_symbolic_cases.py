"""Facts about Keras 3's symbolic functional construction, computed the same way for Keras
(tools/record_keras_functional_symbolic.py writes them to
tests/fixtures/keras_functional_symbolic.json) and for tapegrad
(tests/test_keras_functional_symbolic.py compares): reshapes and shape ops on the unknown batch
dimension while a layer's ``call`` is traced, ``keras.activations`` and ``keras.ops`` on
KerasTensors (the nodes they record, their configs, the values of the model they build, its
``get_config``/``from_config`` and ``.keras`` round trips), TF functions given a KerasTensor, and
construction without side effects.

``facts(keras, tf, tmp)`` takes the ``keras`` and ``tf`` modules and a scratch folder and returns
plain JSON values (float arrays as nested lists).
"""
import os
import warnings

import numpy as np

ACTIVATIONS = ["relu", "leaky_relu", "relu6", "elu", "selu", "gelu", "silu", "swish", "sigmoid", "tanh",
               "softmax", "log_softmax", "softplus", "softsign", "exponential", "hard_sigmoid", "hard_silu",
               "hard_swish", "linear", "mish", "celu", "glu", "hard_shrink", "hard_tanh", "log_sigmoid",
               "soft_shrink", "sparse_plus", "sparse_sigmoid", "sparsemax", "squareplus", "tanh_shrink"]

DATA = (np.arange(24, dtype=np.float32).reshape(6, 4) - 11.0) / 4.0


def _shape(t):
    return [None if d is None else int(d) for d in t.shape]


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 (the type of error is the fact)
        return [type(e).__name__, str(e).split(".")[0]]
    return None


def _set_weights(layer):
    """Deterministic weights (no initializer stream involved)."""
    layer.set_weights([np.linspace(-1.0, 1.0, w.size, dtype=np.float32).reshape(w.shape)
                       for w in layer.get_weights()])


def _reshapes(keras, tf):
    """Reshapes during tracing: to a constant token count (the switch-transformer pattern), and
    back with ``tf.shape(x)[0]``; a batch dim read with ``tf.shape`` and ``keras.ops.shape``."""
    tokens = 12  # the batch of 3 the model is run on, times 4 positions

    class Tokens(keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(2, 2), initializer="ones")

        def call(self, x):
            batch, length = tf.shape(x)[0], tf.shape(x)[1]
            flat = tf.reshape(x, [tokens, 2])  # a constant count: unknown until run
            self.seen = _shape(flat)
            mixed = tf.matmul(flat, self.w) + tf.reduce_sum(flat, axis=0)
            return tf.reshape(mixed, [batch, length, 2])

    class Rows(keras.layers.Layer):
        def call(self, x):
            return keras.ops.reshape(x, (keras.ops.shape(x)[0], -1))

    inputs = keras.Input((4, 2))
    layer = Tokens()
    hidden = layer(inputs)
    out = Rows()(hidden)
    model = keras.Model(inputs, out)
    x = DATA.reshape(3, 4, 2)
    return {"traced_flat_shape": layer.seen, "hidden_shape": _shape(hidden), "output_shape": _shape(out),
            "values": np.asarray(model(x)).round(5).tolist(),
            "wrong_batch": _error(lambda: model(DATA[:4].reshape(2, 4, 2)))[0],
            "minus_one": _shape(keras.layers.Lambda(lambda t: tf.reshape(t, [-1, 4]))(keras.Input((5,)))),
            "static_batch": _shape(keras.layers.Lambda(lambda t: tf.reshape(t, [12, 2]))(
                keras.Input((4, 2), batch_size=3)))}


def _traced_shapes(keras, tf):
    """Shapes TF's symbolic tracing gives a ``Lambda`` on ``keras.Input((4,))``: the unknown batch
    unifies with a constant one in broadcasting ops, shape ops keep it unknown."""
    fns = {"add_constant_batch": lambda t: t + tf.zeros([12, 4]),
           "where_constant_batch": lambda t: tf.where(tf.zeros([12, 4]) > 0, t, 0.0),
           "concat_constant_batch": lambda t: tf.concat([t, tf.zeros([12, 4])], axis=1),
           "stack_constant_batch": lambda t: tf.stack([t, tf.zeros([12, 4])]),
           "broadcast_to": lambda t: tf.broadcast_to(t, [12, 4]),
           "matmul_over_batch": lambda t: tf.matmul(tf.transpose(t), tf.zeros([12, 3])),
           "einsum_over_batch": lambda t: tf.einsum("bi,bj->ij", t, tf.zeros([12, 3])),
           "tile": lambda t: tf.tile(t, [2, 1]), "reshape_dynamic": lambda t: tf.reshape(t, [tf.shape(t)[0] * 2, 2]),
           "gather": lambda t: tf.gather(t, [0, 1]), "row": lambda t: t[0], "range": lambda t: tf.range(tf.shape(t)[0]),
           "one_hot": lambda t: tf.one_hot(tf.cast(t[:, 0], tf.int32), 5),
           "split_constant": lambda t: tf.split(tf.reshape(t, [12, 4]), [4, 8])[1],
           "sum_batch": lambda t: tf.reduce_sum(t, 0), "static_dim": lambda t: tf.zeros([t.shape[1], 2]),
           "pad": lambda t: tf.pad(t, [[0, 0], [1, 1]])}
    return {k: _shape(keras.layers.Lambda(f)(keras.Input((4,)))) for k, f in fns.items()}


def _activations(keras):
    out = {}
    for name in ACTIVATIONS:
        x = keras.Input((4,))
        fn = getattr(keras.activations, name)
        try:
            y = fn(x)
        except Exception as e:  # noqa: BLE001
            out[name] = {"error": type(e).__name__}
            continue
        if y is x:
            out[name] = {"same": True}
            continue
        model = keras.Model(x, y)
        config = {k: v for k, v in model.operations[-1].get_config().items() if k != "name"}
        out[name] = {"type": type(y).__name__, "shape": _shape(y), "dtype": str(y.dtype),
                     "op": type(model.operations[-1]).__name__, "config": config,
                     "values": np.asarray(model(DATA)).round(5).tolist()}
    kwargs = {"relu": dict(negative_slope=0.1, max_value=2.0, threshold=0.5), "elu": dict(alpha=0.5),
              "leaky_relu": dict(negative_slope=0.3), "gelu": dict(approximate=True), "celu": dict(alpha=2.0),
              "softmax": dict(axis=0), "threshold": dict(threshold=0.2, default_value=-1.0),
              "squareplus": dict(b=2)}
    for name, kw in kwargs.items():
        x = keras.Input((4,))
        model = keras.Model(x, getattr(keras.activations, name)(x, **kw))
        op = model.operations[-1]
        out[name + "_kw"] = {"op": type(op).__name__,
                             "config": {k: v for k, v in op.get_config().items() if k in kw},
                             "values": np.asarray(model(DATA)).round(5).tolist()}
    return out


def _model(keras):
    x = keras.Input((4,))
    dense = keras.layers.Dense(3)
    h = dense(x)
    _set_weights(dense)
    y = keras.activations.relu(h, max_value=1.0)
    z = keras.activations.silu(y) + keras.activations.softmax(h, axis=-1)
    z = keras.ops.mean(keras.activations.tanh(z), axis=-1, keepdims=True) * 2.0
    return keras.Model(x, z)


def _round_trips(keras, tmp):
    model = _model(keras)
    config = model.get_config()
    entries = [[e["class_name"], {k: v for k, v in e["config"].items() if k != "name"}]
               for e in config["layers"] if e["class_name"] not in ("InputLayer", "Dense")]
    modules = {e["class_name"]: e["module"] for e in config["layers"]}
    clone = keras.Model.from_config(config)
    clone.set_weights(model.get_weights())
    path = os.path.join(tmp, "symbolic_ops.keras")
    model.save(path)
    loaded = keras.models.load_model(path)
    return {"entries": entries, "relu_module": modules["ReLU"],
            "operations": [type(op).__name__ for op in model.operations],
            "values": np.asarray(model(DATA)).round(5).tolist(),
            "from_config_ops": [type(op).__name__ for op in clone.operations],
            "from_config_values": np.asarray(clone(DATA)).round(5).tolist(),
            "loaded_ops": [type(op).__name__ for op in loaded.operations],
            "loaded_values": np.asarray(loaded(DATA)).round(5).tolist()}


def _errors(keras, tf):
    x = keras.Input((4,))
    return {"tf.nn.relu": _error(lambda: tf.nn.relu(x)), "tf.reshape": _error(lambda: tf.reshape(x, [-1, 2])),
            "tf.math.exp": _error(lambda: tf.math.exp(x)), "np.array": _error(lambda: np.array(x)),
            "float": _error(lambda: float(x)), "int": _error(lambda: int(x)), "bool": _error(lambda: bool(x)),
            "iter": _error(lambda: list(x)), "keras.ops.relu": type(keras.ops.relu(x)).__name__}


def _tensor_methods(keras):
    """``keras.ops.shape`` and ``convert_to_tensor`` of a KerasTensor, its ``reshape``/``squeeze``."""
    x = keras.Input((4,))
    converted = keras.ops.convert_to_tensor(x, "float16")
    flat = x.reshape((-1, 2, 2)).squeeze()
    model = keras.Model(x, [converted, flat])
    return {"shape": list(keras.ops.shape(x)), "converted": [_shape(converted), str(converted.dtype)],
            "flat": _shape(flat), "operations": [type(op).__name__ for op in model.operations],
            "values": [np.asarray(v).astype(np.float32).round(3).tolist() for v in model(DATA[:1])]}


def _no_side_effects(keras):
    """``call`` that assigns a variable and advances a SeedGenerator: construction changes neither."""
    class Counting(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.seed = keras.random.SeedGenerator(7)

        def build(self, input_shape):
            self.count = self.add_weight(shape=(), initializer="zeros", trainable=False)

        def call(self, x):
            self.count.assign_add(1.0)
            return x + keras.random.uniform(keras.ops.shape(x), seed=self.seed) * 0.0

    layer = Counting()
    y = layer(keras.Input((4,)))
    return {"count": float(np.asarray(layer.count)), "seed_state": np.asarray(layer.seed.state).tolist(),
            "shape": _shape(y)}


def facts(keras, tf, tmp):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {"reshapes": _reshapes(keras, tf), "activations": _activations(keras),
                "round_trips": _round_trips(keras, tmp), "errors": _errors(keras, tf),
                "tensor_methods": _tensor_methods(keras), "traced_shapes": _traced_shapes(keras, tf),
                "no_side_effects": _no_side_effects(keras)}
