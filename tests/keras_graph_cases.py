"""Facts about Keras 3's model structure and training contract, computed the same way for
Keras (tools/record_keras_graph.py writes them to tests/fixtures/keras_graph.json) and for
tapegrad (tests/test_keras_graph.py compares): symbolic inputs and outputs of layers and models,
Sequential graphs, input-rank adjustment, the batch ``train_step`` receives, ``model.metrics``,
variable names and paths, and which variables layers track.

``facts(keras, tf)`` takes the ``keras`` and ``tf`` modules and returns plain JSON values.
"""
import warnings

import numpy as np


def _shape(t):
    return None if t is None else [None if d is None else int(d) for d in t.shape]


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 (the type of error is the fact)
        return type(e).__name__
    return None


def _graph(keras):
    out = {}
    inputs = keras.Input((4,), name="x")
    d1, d2 = keras.layers.Dense(3, name="d1"), keras.layers.Dense(2, name="d2")
    hidden = d1(inputs)
    model = keras.Model(inputs, d2(hidden))
    out["model_shapes"] = [list(model.input_shape), list(model.output_shape)]
    out["layer_io"] = [_shape(d1.input), _shape(d1.output), _shape(d2.input)]
    out["layer_attrs"] = {a: hasattr(d1, a) for a in ("input", "output", "input_shape",
                                                     "output_shape", "inputs", "outputs")}
    out["input_layer_input"] = model.layers[0].input
    two = keras.Model([inputs], [model.output, hidden])
    out["two_output_shape"] = [list(s) for s in two.output_shape]
    out["two_input_is_list"] = isinstance(two.input, list)
    sub = keras.Model(model.inputs, model.get_layer("d1").output)
    out["sub_layers"] = [layer.name for layer in sub.layers]
    out["sub_shares"] = sub.get_layer("d1") is d1
    out["eager_only_output"] = _error(lambda: keras.layers.Dense(2).output)

    seq = keras.Sequential([keras.layers.Dense(3, input_shape=(4,), name="s1"),
                            keras.layers.Dense(2, name="s2")])
    out["seq_shapes"] = [list(seq.input_shape), list(seq.output_shape), _shape(seq.inputs[0]),
                         _shape(seq.outputs[0]), _shape(seq.layers[0].output)]
    out["seq_layers"] = [layer.name for layer in seq.layers]
    out["seq_output_error"] = _error(lambda: seq.output)
    out["seq_sub_layers"] = [layer.name for layer in
                             keras.Model(seq.inputs, seq.get_layer("s1").output).layers]
    seq.add(keras.layers.Dense(5))
    out["seq_added_output_shape"] = list(seq.output_shape)

    lazy = keras.Sequential([keras.layers.Dense(3)])
    out["lazy_errors"] = [_error(lambda a=a: getattr(lazy, a))
                          for a in ("inputs", "outputs", "input_shape", "output_shape")]
    lazy(np.zeros((2, 5), np.float32))
    out["lazy_built"] = [_shape(lazy.inputs[0]), _shape(lazy.layers[0].output),
                         list(lazy(np.zeros((7, 5), np.float32)).shape)]
    out["lazy_rebuild_error"] = _error(lambda: lazy.build((None, 6)))
    return out


def _rank(keras):
    out = {}
    one = keras.Sequential([keras.Input((1,)), keras.layers.Dense(2)])
    out["expand"] = list(one(np.ones((3,), np.float32)).shape)
    inputs = keras.Input((3,))
    model = keras.Model(inputs, keras.layers.Dense(2)(inputs))
    out["squeeze"] = list(model(np.ones((4, 3, 1), np.float32)).shape)
    out["incompatible"] = _error(lambda: model(np.ones((4,), np.float32)))
    return out


def _steps(keras, tf):
    out = {}
    seen = []

    class Recorder(keras.Model):
        def train_step(self, data):
            seen.append(len(data) if isinstance(data, tuple) else "x")
            return super().train_step(data)

    inputs = keras.Input((2,))
    model = Recorder(inputs, keras.layers.Dense(1)(inputs))
    model.compile(optimizer="sgd", loss="mse", metrics=["mae", "mse"])
    out["metrics_names_compiled"] = model.metrics_names
    x, y = np.ones((4, 2), np.float32), np.zeros((4, 1), np.float32)
    out["train_step_data"] = []  # (Keras runs train_step when it traces it: a set per fit)
    for data in ((x, y), (x, y, np.ones(4, np.float32)),
                 (tf.data.Dataset.from_tensor_slices((x, y)).batch(4),)):
        seen.clear()
        history = model.fit(*data[:2], sample_weight=data[2] if len(data) > 2 else None,
                            batch_size=None if len(data) == 1 else 4, verbose=0, shuffle=False)
        out["train_step_data"].append(sorted(set(seen)))
    out["history_keys"] = sorted(history.history)
    out["metrics_names_fitted"] = model.metrics_names
    out["compile_metrics_result"] = sorted(model.metrics[1].result())
    out["metrics_result_keys"] = sorted(model.get_metrics_result())
    out["evaluate"] = len(model.evaluate(x, y, verbose=0))

    class WithTracker(keras.Model):
        def __init__(self):
            super().__init__()
            self.tracker = keras.metrics.Mean(name="extra")
            self.dense = keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

    tracked = WithTracker()
    tracked.compile(optimizer="sgd", loss="mse")
    out["metric_attribute_names"] = tracked.metrics_names
    return out


def _variables(keras, tf):
    out = {}
    v = keras.Variable(initializer="ones", shape=(2,), name="w")
    out["keras_variable"] = [v.name, v.path]
    dense = keras.layers.Dense(3, name="solo")
    dense.build((None, 2))
    out["built_directly"] = [[w.name, w.path] for w in dense.weights]
    seq = keras.Sequential([keras.Input((2,)), keras.layers.Dense(3, name="dd")], name="seq")
    out["in_sequential"] = [w.path for w in seq.weights]

    class Outer(keras.Model):
        def __init__(self):
            super().__init__(name="outer")
            self.inner = keras.layers.Dense(2, name="inner")

        def call(self, x):
            return self.inner(x)

    outer = Outer()
    outer(np.zeros((1, 3), np.float32))
    out["in_subclassed"] = [w.path for w in outer.weights]

    class Mixed(keras.layers.Layer):
        def __init__(self):
            super().__init__(name="mixed")
            self.plain = tf.Variable(2.0)
            self.plain_list = [tf.Variable(1.0)]
            self.kept = keras.Variable(3.0, name="kept")

        def call(self, x):
            return x * self.plain + self.kept

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out["tracked"] = [w.name for w in Mixed().weights]

    class Linear(keras.Model):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(5.0)

        def call(self, x):
            return self.w * x

    linear = Linear()
    linear.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        linear.fit(np.ones((4, 1), np.float32), np.ones((4, 1), np.float32), verbose=0)
    out["untracked_not_trained"] = [len(linear.trainable_weights), float(linear.w.numpy())]
    return out


def facts(keras, tf):
    keras.backend.clear_session()
    return {"graph": _graph(keras), "rank": _rank(keras), "steps": _steps(keras, tf),
            "variables": _variables(keras, tf)}
