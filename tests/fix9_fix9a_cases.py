"""Cases of what the ninth unseen set showed (depth max pooling, Keras 3's automatic get_config,
the names and paths of Keras variables, a functional model's one output given as a list), shared
by tools/record_fix9_fix9a.py (under TensorFlow) and tests/test_fix9_fix9a.py (under tapegrad):
each takes the module (``tf``) and returns a dict of JSON values (numbers, strings, lists)."""
import numpy as np


def _error(f):
    """``[error type, message]`` of ``f()``, the message without TensorFlow's ``{{function_node
    ...}}`` prefix and ``[Op:...]`` suffix, whitespace collapsed; ``["ok", ""]`` when it returns."""
    try:
        f()
    except Exception as e:  # noqa: BLE001
        msg = " ".join(str(e).split("}} ")[-1].split(" [Op:")[0].split())
        return [type(e).__name__, msg]
    return ["ok", ""]


def depth_max_pool(tf):
    rng = np.random.default_rng(0)
    x = rng.random((2, 3, 4, 6)).astype(np.float32)
    out = {}
    for key, ks, st, pad in [("valid3", (1, 1, 1, 3), (1, 1, 1, 3), "VALID"),
                             ("same3", [1, 1, 1, 3], [1, 1, 1, 3], "SAME"),
                             ("spatial_strides_unused", (1, 1, 1, 2), (1, 2, 2, 2), "VALID"),
                             ("whole_depth", (1, 1, 1, 6), (1, 1, 1, 6), "VALID")]:
        y = tf.nn.max_pool(x, ksize=ks, strides=st, padding=pad)
        out[key] = y.numpy().tolist()
        out[key + "_v1"] = tf.compat.v1.nn.max_pool(x, ks, st, pad).numpy().tolist()
        out[key + "_2d"] = tf.nn.max_pool2d(x, ks, st, pad).numpy().tolist()
    # (a float64 tensor: TensorFlow's eager MaxPool turns a float64 NumPy array into float64 on its
    # first call in a process and float32 on later ones, a quirk not matched)
    y64 = tf.nn.max_pool(tf.constant(x.astype(np.float64)), (1, 1, 1, 2), (1, 1, 1, 2), "VALID")
    out["float64"] = y64.numpy().tolist()
    out["float64_dtype"] = y64.dtype.name
    xi = (np.arange(48).reshape(2, 2, 2, 6) * 7 % 11).astype(np.int32)
    out["int32"] = tf.nn.max_pool(xi, (1, 1, 1, 3), (1, 1, 1, 3), "VALID").numpy().tolist()
    x1 = rng.random((2, 5, 6)).astype(np.float32)
    out["pool1d"] = tf.nn.max_pool1d(x1, (1, 1, 3), (1, 1, 3), "VALID").numpy().tolist()
    out["function"] = tf.function(lambda t: tf.nn.max_pool(t, (1, 1, 1, 2), (1, 1, 1, 2), "VALID"))(
        tf.constant(x)).numpy().tolist()
    # a channel stride goes unused when the channel window is 1
    out["channel_stride_only"] = tf.nn.max_pool(x, (1, 2, 2, 1), (1, 1, 1, 2), "VALID").numpy().tolist()
    return out


def depth_max_pool_errors(tf):
    x = np.random.default_rng(1).random((2, 3, 4, 6)).astype(np.float32)
    mp = tf.nn.max_pool
    return {
        "stride_not_window": _error(lambda: mp(x, (1, 1, 1, 3), (1, 1, 1, 2), "VALID")),
        "not_dividing": _error(lambda: mp(x, (1, 1, 1, 4), (1, 1, 1, 4), "VALID")),
        "depth_and_space": _error(lambda: mp(x, (1, 2, 2, 3), (1, 1, 1, 3), "VALID")),
        "explicit_padding": _error(lambda: mp(x, [1, 1, 1, 3], [1, 1, 1, 3], [[0, 0]] * 4)),
        "batch_window": _error(lambda: mp(x, (2, 1, 1, 1), (2, 1, 1, 1), "VALID")),
        "batch_stride": _error(lambda: mp(x, (1, 1, 1, 3), (2, 1, 1, 3), "VALID")),
    }


def _auto_classes(keras):
    class M1(keras.Model):  # all arguments have defaults; a name and **kwargs
        def __init__(self, units=30, activation="relu", **kwargs):
            super().__init__(**kwargs)
            self.d = keras.layers.Dense(units, activation=activation)

        def call(self, x):
            return self.d(x)

    class M2(keras.Model):  # an argument without a default
        def __init__(self, units, activation="relu", **kwargs):
            super().__init__(**kwargs)
            self.d = keras.layers.Dense(units, activation=activation)

        def call(self, x):
            return self.d(x)

    class M3(keras.Model):  # no name and no **kwargs: the name is left out
        def __init__(self, units=3, act=None):
            super().__init__()
            self.d = keras.layers.Dense(units)

        def call(self, x):
            return self.d(x)

    class L1(keras.layers.Layer):
        def __init__(self, units=30, activation="relu", **kwargs):
            super().__init__(**kwargs)
            self.units = units

        def call(self, x):
            return x

    class L2(keras.layers.Layer):  # variadic positional arguments
        def __init__(self, *sizes, **kwargs):
            super().__init__(**kwargs)
            self.sizes = sizes

        def call(self, x):
            return x

    class L3(keras.layers.Layer):
        def __init__(self, units, table=None, **kwargs):
            super().__init__(**kwargs)
            self.units = units

        def call(self, x):
            return x

    return M1, M2, M3, L1, L2, L3


def auto_config(tf):
    keras = tf.keras
    M1, M2, M3, L1, L2, L3 = _auto_classes(keras)
    makers = {
        "model_positional": lambda: M1(5, activation="tanh", name="cool"),
        "model_keywords": lambda: M1(units=5, name="m"),
        "model_defaults": lambda: M1(name="d"),
        "model_required_positional": lambda: M2(4, name="r"),
        "model_required_keyword": lambda: M2(units=4, name="r"),
        "model_no_name": lambda: M3(7),
        "layer_positional": lambda: L1(5, activation="tanh", name="l"),
        "layer_nested": lambda: L1(units=[1, (2, 3)], name="n"),
        "layer_dict": lambda: L1(units={"a": 1}, name="dct"),
        "layer_varargs_empty": lambda: L2(name="v"),
        "layer_varargs": lambda: L2(1, 2, name="v2"),
        "layer_array_argument": lambda: L3(2, table=np.ones(2), name="a"),
        "layer_required": lambda: L3(units=2, name="q"),
    }
    out = {}
    for key, make in makers.items():
        obj = make()
        try:
            cfg = obj.get_config()
        except Exception as e:  # noqa: BLE001
            out[key] = [type(e).__name__, " ".join(str(e).split())[:150]]
            continue
        cfg = dict(cfg)
        cfg.pop("dtype", None)  # (the policy's serialization is checked elsewhere)
        out[key] = [list(cfg), {k: (list(v) if isinstance(v, tuple) else v) for k, v in cfg.items()}]
    return out


def auto_config_round_trip(tf):
    keras = tf.keras
    M1 = _auto_classes(keras)[0]
    import tempfile, os
    x = np.ones((2, 3), np.float32)
    out = {}
    with tempfile.TemporaryDirectory() as d:
        for key, m in [("defaults", M1(name="same")), ("other_units", M1(4, name="other"))]:
            m(x)
            path = os.path.join(d, key + ".keras")
            m.save(path)

            def load():
                r = keras.models.load_model(path, custom_objects={"M1": M1})
                out[key + "_loaded"] = [r.name, r.d.units]
            out[key] = _error(load)[0]
    return out


def variable_names(tf):
    keras = tf.keras

    class Counts(keras.metrics.Metric):
        def __init__(self, name="my_metric", **kw):
            super().__init__(name=name, **kw)
            self.tp = self.add_variable(shape=(), initializer="zeros", name="tp")
            self.fp = self.add_weight(name="fp", initializer="zeros")

        def update_state(self, y, p, sample_weight=None):
            self.tp.assign_add(1.0)

        def result(self):
            return self.tp

    class Own(keras.layers.Layer):
        def build(self, s):
            self.w = self.add_weight(shape=(2,), name="w")

        def call(self, x):
            return x

    def np_(v):
        return [v.name, getattr(v, "path", None)]
    out = {}
    m = Counts()
    out["metric"] = [np_(v) for v in m.variables]
    out["binary_accuracy"] = [np_(v) for v in keras.metrics.BinaryAccuracy().variables]
    out["mean"] = [np_(v) for v in keras.metrics.Mean(name="avg").variables]
    d = keras.layers.Dense(2, name="dd")
    d.build((None, 3))
    out["dense"] = [np_(v) for v in d.weights]
    own = Own(name="ll")
    own.build((1,))
    out["layer"] = [np_(own.w)]
    out["keras_variable"] = np_(keras.Variable(1.0, name="kv"))
    out["tf_variable"] = np_(tf.Variable(1.0, name="tv"))
    opt = keras.optimizers.Adam()
    x = keras.Variable([1.0, 2.0], name="x")
    opt.build([x, d.kernel, tf.Variable([1.0], name="plain")])
    out["adam"] = [np_(v) for v in opt.variables]
    ema = keras.optimizers.SGD(momentum=0.9, use_ema=True, name="sgd_ema")
    ema.build([x])
    out["sgd_ema"] = [np_(v) for v in ema.variables]
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, name="out")], name="seq")
    model.compile("sgd", "mse", metrics=["mae"])
    model.fit(np.ones((4, 3)), np.ones((4, 1)), verbose=0)
    out["model_weights"] = [np_(v) for v in model.weights]
    out["model_metrics_variables"] = [np_(v) for v in model.metrics_variables]
    out["model_optimizer"] = [np_(v) for v in model.optimizer.variables]
    return out


def functional_single_output_list(tf):
    keras = tf.keras
    i = keras.Input(shape=(2,))
    o = keras.layers.Dense(1, kernel_initializer="ones")(i)
    x = np.ones((3, 2), np.float32)
    out = {}
    for key, ins, outs in [("lists", [i], [o]), ("tensor_in", i, [o]), ("tuple_out", i, (o,)),
                           ("plain", i, o)]:
        m = keras.Model(inputs=ins, outputs=outs)
        called = m(x)
        symbolic = m(keras.Input((2,)))
        out[key] = [type(called).__name__ in ("list", "tuple"), list(np.shape(called)),
                    type(m.predict(x, verbose=0)).__name__ == "list",
                    type(symbolic).__name__, type(m.output).__name__,
                    str(m.compute_output_shape((None, 2)))]
    return out


CASES = {f.__name__: f for f in (depth_max_pool, depth_max_pool_errors, auto_config, auto_config_round_trip,
                                 variable_names, functional_single_output_list)}
