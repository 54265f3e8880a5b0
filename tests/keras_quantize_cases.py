"""Cases for Keras 3's quantization (``Model.quantize``/``Layer.quantize``, the int8 Dense,
EinsumDense and Embedding, ``keras.quantizers``, ``keras.dtype_policies``), run by
tools/record_keras_quantize.py under TensorFlow 2.21 + Keras 3.15 and by
tests/test_keras_quantize.py under tapegrad: each takes the ``tf`` and ``keras`` modules and
returns ``{name: value}`` (lists of numbers, strings, or ``[dtype, shape]`` pairs).
"""
import os
import tempfile

import numpy as np


def _f(t):
    return np.asarray(t).tolist()


def _weights(layer_or_model):
    return [[w.name, str(np.dtype(w.dtype.name if hasattr(w.dtype, "name") else w.dtype)), list(w.shape),
             bool(w.trainable)] for w in layer_or_model.weights]


def _x(*shape, seed=0):
    return np.random.RandomState(seed).uniform(-2.0, 2.0, size=shape).astype("float32")


def _fill(layer, seed):
    """Give the layer's float weights fixed values (Keras's and tapegrad's initializers draw
    other numbers)."""
    layer.set_weights([_x(*w.shape, seed=seed + i) for i, w in enumerate(layer.weights)])


def _run(tf, layer, x, extra=()):
    """Outputs, the gradient of a weighted sum of them with respect to the inputs and to the
    trainable weights, the layer's variables."""
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
        w = tf.constant(np.linspace(-1.0, 1.0, int(np.prod(y.shape))).reshape(y.shape).astype("float32"))
        loss = tf.reduce_sum(y * w)
    grads = tape.gradient(loss, [x] + list(layer.trainable_weights))
    out = {"y": _f(y), "dx": _f(grads[0]), "weights": _weights(layer),
           "values": {w.name: _f(w.numpy()) for w in layer.weights},
           "policy": layer.dtype_policy.name, "mode": str(layer.quantization_mode)}
    for w, g in zip(layer.trainable_weights, grads[1:]):
        out["d_" + w.name] = _f(g)
    return out


def _dense(tf, keras, config=None, activation=None, units=5):
    layer = keras.layers.Dense(units, activation=activation)
    layer.build((None, 6))
    _fill(layer, 10)
    before = _f(layer(tf.constant(_x(4, 6))))
    if config is None:
        layer.quantize("int8")
    else:
        layer.quantize(config=config)
    return {"float_y": before, **_run(tf, layer, _x(4, 6))}


def case_dense_int8(tf, keras):
    return _dense(tf, keras, activation="relu")


def case_dense_int8_weights_only(tf, keras):
    return _dense(tf, keras, keras.quantizers.Int8QuantizationConfig(activation_quantizer=None))


def case_dense_int8_custom_quantizers(tf, keras):
    q = keras.quantizers
    config = q.Int8QuantizationConfig(weight_quantizer=q.AbsMaxQuantizer(axis=0, value_range=(-100, 100)),
                                      activation_quantizer=q.AbsMaxQuantizer(axis=-1, value_range=(-64, 64)))
    return _dense(tf, keras, config)


def case_dense_int8_3d_inputs(tf, keras):
    layer = keras.layers.Dense(3)
    layer.build((None, 2, 4))
    _fill(layer, 20)
    layer.quantize("int8")
    return _run(tf, layer, _x(2, 2, 4, seed=3))


def _int4_dense(tf, keras, config, rows=6, units=5):
    layer = keras.layers.Dense(units)
    layer.build((None, rows))
    _fill(layer, 80)
    if config is None:
        layer.quantize("int4")
    else:
        layer.quantize(config=config)
    out = _run(tf, layer, _x(3, rows, seed=8))
    out["unpacked"] = _f(keras.quantizers.unpack_int4(layer._kernel, units, axis=-1))
    out["config"] = layer.get_config()["dtype"]
    return out


def case_dense_int4(tf, keras):
    q = keras.quantizers
    return {"default": _int4_dense(tf, keras, None),
            "per_channel": _int4_dense(tf, keras, q.Int4QuantizationConfig(block_size=None)),
            "blocks": _int4_dense(tf, keras, q.Int4QuantizationConfig(block_size=2), rows=5, units=4),
            "with_inputs": _int4_dense(tf, keras, q.Int4QuantizationConfig(
                block_size=-1, activation_quantizer=q.AbsMaxQuantizer(value_range=(-127, 127))))}


def case_einsum_dense_int4(tf, keras):
    q = keras.quantizers
    out = {}
    configs = (("default", None), ("per_channel", q.Int4QuantizationConfig(block_size=None)),
               ("blocks", q.Int4QuantizationConfig(block_size=4)),
               ("with_inputs", q.Int4QuantizationConfig(block_size=-1, activation_quantizer=q.AbsMaxQuantizer())))
    for i, (eq, shape, bias, in_shape) in enumerate(EINSUM[:5]):
        for name, config in configs:
            layer = keras.layers.EinsumDense(eq, output_shape=shape, bias_axes=bias)
            layer.build(in_shape)
            _fill(layer, 130 + 3 * i)
            layer.quantize("int4", config=config)
            out[f"{eq} {name}"] = _run(tf, layer, _x(*in_shape, seed=20 + i))
    return out


def _run_traced(tf, layer, x, training):
    """``_run``'s outputs and gradients, computed in a ``tf.function`` (Keras 3.15's float8
    gradient fails under an eager GradientTape in TensorFlow; ``fit`` traces its step too)."""
    x = tf.constant(x)

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = layer(x, training=training)
            w = tf.reshape(tf.linspace(-1.0, 1.0, tf.size(y)), tf.shape(y))
            loss = tf.reduce_sum(y * w)
        return y, tape.gradient(loss, [x] + list(layer.trainable_weights))
    y, grads = step(x)
    return {"y": _f(y), "dx": _f(grads[0]),
            **{"d_" + v.name: None if g is None else _f(g) for v, g in zip(layer.trainable_weights, grads[1:])}}


def case_float8(tf, keras):
    policy = keras.dtype_policies.QuantizedFloat8DTypePolicy("float8", "float32", amax_history_length=4)
    dense = keras.layers.Dense(5, activation="relu")
    dense.build((None, 6))
    _fill(dense, 140)
    dense.quantize("float8")
    out = {"dense": _run_traced(tf, dense, _x(4, 6, seed=14), False),
           "dense_history": dense.inputs_amax_history.shape[0]}
    small = keras.layers.Dense(3, dtype=policy)
    small.build((None, 4))
    _fill(small, 150)
    out["dense_training"] = _run_traced(tf, small, _x(2, 4, seed=15) * 50, True)
    out["weights"] = _weights(small)
    ein = keras.layers.EinsumDense("abc,cde->abde", output_shape=(None, 4, 5), bias_axes="de", dtype=policy)
    ein.build((2, 3, 6))
    _fill(ein, 160)
    out["einsum"] = _run_traced(tf, ein, _x(2, 3, 6, seed=16), False)
    out["einsum_training"] = _run_traced(tf, ein, _x(2, 3, 6, seed=17) * 0.01, True)
    return out


def case_float8_fit_save(tf, keras):
    policy = keras.dtype_policies.QuantizedFloat8DTypePolicy("float8", "float32", amax_history_length=3)
    model = keras.Sequential([keras.Input((2, 6)), keras.layers.Dense(4, dtype=policy),
                              keras.layers.EinsumDense("abc,cd->abd", output_shape=(2, 3), bias_axes="d",
                                                       dtype=policy)])
    for i, layer in enumerate(model.layers):
        _fill(layer, 170 + 10 * i)
    x, y = _x(6, 2, 6, seed=18), _x(6, 2, 3, seed=19)
    model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
    hist = model.fit(x, y, epochs=2, batch_size=2, shuffle=False, verbose=0)
    out = {"loss": hist.history["loss"], "after": [[w.name, _f(w.numpy())] for w in model.weights],
           "y": _f(model(x))}
    path = os.path.join(tempfile.mkdtemp(), "f8.keras")
    model.save(path)
    loaded = keras.saving.load_model(path)
    out["y_loaded"] = _f(loaded(x))
    out["policies"] = [keras.dtype_policies.serialize(l.dtype_policy) for l in loaded.layers]
    return out


def case_mixed_float16(tf, keras):
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        out = {}
        for mode in ("int4", "float8"):
            layer = keras.layers.Dense(4)
            layer.build((None, 6))
            _fill(layer, 190)
            layer.quantize(mode)
            y = layer(tf.constant(_x(3, 6, seed=23)))
            out[mode] = {"y": _f(tf.cast(y, "float32")), "dtype": str(np.dtype(y.dtype.name)),
                         "policy": layer.dtype_policy.name,  # (float8 in place: weights in another order)
                         "weights": sorted(_weights(layer))}
        return out
    finally:
        keras.mixed_precision.set_global_policy("float32")


def case_embedding_int4(tf, keras):
    out = {}
    ids = np.array([[0, 3, 6], [2, 2, 5]], "int32")
    for name, config in (("default", None), ("per_channel", keras.quantizers.Int4QuantizationConfig(block_size=None)),
                         ("blocks", keras.quantizers.Int4QuantizationConfig(block_size=2))):
        layer = keras.layers.Embedding(7, 5)
        layer.build()
        _fill(layer, 65)
        layer.quantize("int4", config=config)
        out[name] = {"y": _f(layer(ids)), "weights": _weights(layer), "policy": layer.dtype_policy.name,
                     "values": {w.name: _f(w.numpy()) for w in layer.weights}}
    return out


def case_int4_model_save(tf, keras):
    inputs = keras.Input((3,), dtype="int32")
    x = keras.layers.Embedding(9, 4, name="emb")(inputs)
    x = keras.layers.Flatten()(x)
    outputs = keras.layers.Dense(3, name="out")(x)
    model = keras.Model(inputs, outputs)
    for i, layer in enumerate(model.layers):
        if layer.weights:
            _fill(layer, 100 + i)
    model.quantize(config=keras.quantizers.Int4QuantizationConfig(block_size=4))
    path = os.path.join(tempfile.mkdtemp(), "q4.keras")
    model.save(path)
    loaded = keras.saving.load_model(path)
    return {"y": _f(model(IDS)), "y_loaded": _f(loaded(IDS)), "weights": _weights(loaded),
            "policies": [l.dtype_policy.name for l in loaded.layers[1:]]}


EINSUM = [("ab,bc->ac", (4,), "c", (3, 5)), ("abc,cde->abde", (None, 4, 5), "de", (2, 3, 6)),
          ("abcd,cde->abe", (None, 4), "e", (2, 3, 5, 6)), ("abc,dc->abd", (None, 4), "d", (2, 3, 5)),
          ("abc,bd->adc", (4, 3), None, (2, 5, 3)), ("abc,cd->abd", (None, 4), None, (2, 3, 5))]
ELLIPSIS = [("...b,bc->...c", (4,), None, (2, 3, 5)), ("ab...,bc->ac...", (4, None), None, (2, 3, 5))]


def _error(f):
    try:
        f()
    except Exception as e:  # noqa: BLE001 (the error Keras raises is the result)
        return [type(e).__name__, str(e)]
    return None


def case_einsum_dense_int8_ellipsis(tf, keras):
    """Keras 3.15 cannot quantize an EinsumDense whose equation has an ellipsis (it takes the
    length of the input's rank): tapegrad can (docs/differences.md)."""
    out = {}
    for eq, shape, bias, in_shape in ELLIPSIS:
        layer = keras.layers.EinsumDense(eq, output_shape=shape, bias_axes=bias)
        layer.build(in_shape)
        out[eq] = _error(lambda: layer.quantize("int8"))
    return out


def case_einsum_dense_int8(tf, keras):
    out = {}
    for i, (eq, shape, bias, in_shape) in enumerate(EINSUM):
        layer = keras.layers.EinsumDense(eq, output_shape=shape, bias_axes=bias)
        layer.build(in_shape)
        _fill(layer, 30 + 3 * i)
        layer.quantize("int8")
        out[eq] = _run(tf, layer, _x(*in_shape, seed=i))
    return out


def case_int8_large_sums(tf, keras):
    """int8 sums past 2**24, where float32 would round: Keras's int8 matmuls and einsums sum in
    int32."""
    rs = np.random.RandomState(21)
    x = rs.uniform(0.5, 1.0, (1, 2, 3000)).astype("float32")
    dense = keras.layers.Dense(2)
    dense.build((None, 2, 3000))
    ein = keras.layers.EinsumDense("abc,cd->abd", output_shape=(2, 2))
    ein.build((None, 2, 3000))
    kernel = rs.uniform(0.5, 1.0, (3000, 2)).astype("float32")
    dense.set_weights([kernel, np.zeros(2, "float32")])
    ein.set_weights([kernel])
    dense.quantize("int8")
    ein.quantize("int8")
    return {"dense": _f(dense(x)), "einsum": _f(ein(x))}


def case_einsum_dense_int8_weights_only(tf, keras):
    layer = keras.layers.EinsumDense("abc,cde->abde", output_shape=(None, 4, 5), bias_axes="de")
    layer.build((2, 3, 6))
    _fill(layer, 50)
    layer.quantize(config=keras.quantizers.Int8QuantizationConfig(activation_quantizer=None))
    return _run(tf, layer, _x(2, 3, 6, seed=5))


def case_embedding_int8(tf, keras):
    layer = keras.layers.Embedding(7, 4)
    layer.build()
    _fill(layer, 60)
    ids = np.array([[0, 3, 6], [2, 2, 5]], "int32")
    before = _f(layer(ids))
    layer.quantize("int8")
    return {"float_y": before, "y": _f(layer(ids)), "weights": _weights(layer), "policy": layer.dtype_policy.name,
            "values": {w.name: _f(w.numpy()) for w in layer.weights}}


def _model(keras, seed=70):
    inputs = keras.Input((3,), dtype="int32")
    x = keras.layers.Embedding(9, 4, name="emb")(inputs)
    x = keras.layers.EinsumDense("abc,cd->abd", output_shape=(3, 5), bias_axes="d", name="ein")(x)
    x = keras.layers.Flatten()(x)
    outputs = keras.layers.Dense(2, name="out")(x)
    model = keras.Model(inputs, outputs)
    for i, layer in enumerate(model.layers):
        if layer.weights:
            _fill(layer, seed + 5 * i)
    return model


IDS = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 0], [3, 3, 1]], "int32")


def case_model_quantize_fit_save(tf, keras):
    model = _model(keras)
    model.quantize("int8")
    y = _f(model(IDS))
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    hist = model.fit(IDS, _x(4, 2, seed=9), epochs=2, batch_size=2, shuffle=False, verbose=0)
    out = {"y": y, "loss": hist.history["loss"], "weights": _weights(model),
           "after_fit": [_f(w.numpy()) for w in model.trainable_weights],
           "y_fit": _f(model(IDS)), "policies": [l.dtype_policy.name for l in model.layers[1:]]}
    root = tempfile.mkdtemp()
    path = os.path.join(root, "q.keras")
    model.save(path)
    loaded = keras.saving.load_model(path)
    out["y_loaded"] = _f(loaded(IDS))
    out["loaded_policies"] = [l.dtype_policy.name for l in loaded.layers[1:]]
    other = _model(keras, seed=90)
    other.quantize("int8")
    model.save_weights(os.path.join(root, "q.weights.h5"))
    other.load_weights(os.path.join(root, "q.weights.h5"))
    out["y_weights_loaded"] = _f(other(IDS))
    out["dense_config"] = {k: v for k, v in loaded.get_layer("out").get_config().items()
                           if k in ("dtype", "quantization_config")}
    return out


def case_filters_and_errors(tf, keras):
    out = {}
    model = _model(keras)
    model.quantize("int8", filters="ein")
    out["filtered"] = [str(l.quantization_mode) for l in model.layers]
    model.quantize("int8", filters=lambda layer: layer.name == "out")
    out["filtered_2"] = [str(l.quantization_mode) for l in model.layers]
    err = _error
    out["again"] = err(lambda: model.get_layer("ein").quantize("int8"))
    out["bad_mode"] = err(lambda: keras.layers.Dense(2).quantize("int3"))
    fresh = keras.layers.Dense(2, name="fresh")
    out["unbuilt"] = err(lambda: fresh.quantize("int8"))
    fresh.build((None, 3))
    out["bad_mode_built"] = err(lambda: fresh.quantize("int3"))
    out["contradiction"] = err(lambda: fresh.quantize("int8", config=keras.quantizers.Float8QuantizationConfig()))
    out["no_mode"] = err(lambda: fresh.quantize())
    out["bad_config"] = err(lambda: fresh.quantize(config="float32"))
    out["bad_filters"] = err(lambda: model.quantize("int8", filters=3))
    out["unknown_kwarg"] = err(lambda: model.quantize("int8", foo=1))
    out["gptq_without_config"] = err(lambda: fresh.quantize("gptq"))
    out["bad_int8_quantizer"] = err(lambda: keras.quantizers.AbsMaxQuantizer(value_range=(-200, 127)))
    out["bad_int4_block"] = err(lambda: keras.quantizers.Int4QuantizationConfig(block_size=0))
    out["bad_policy"] = err(lambda: keras.dtype_policies.get("int8"))
    out["bad_int4_policy"] = err(lambda: keras.dtype_policies.Int4DTypePolicy("int4/0", "float32"))
    out["float16_int8"] = err(lambda: keras.dtype_policies.QuantizedDTypePolicy("int8", "float16"))
    return out


def case_built_from_policy(tf, keras):
    layer = keras.layers.Dense(3, dtype="int8_from_float32")
    layer.build((None, 4))
    emb = keras.layers.Embedding(5, 2, dtype="int8_from_float32")
    emb.build()
    ein = keras.layers.EinsumDense("abc,cd->abd", output_shape=(2, 3), bias_axes="d", dtype="int8_from_float32")
    ein.build((None, 2, 4))
    set_later = keras.layers.Dense(3)
    set_later.build((None, 4))
    set_later.dtype_policy = "int8_from_float32"
    return {"dense": _weights(layer), "embedding": _weights(emb), "einsum": _weights(ein),
            "set_later": _weights(set_later), "policy": layer.dtype_policy.name,
            "compute": layer.compute_dtype, "variable": layer.variable_dtype,
            "set_later_policy": set_later.dtype_policy.name}


def case_fake_quant(tf, keras):
    q = keras.quantizers
    x = np.array([[-3.0, -0.51, -0.2, 0.0, 0.33, 0.7, 1.49, 2.5], [-0.6, 0.05, 0.125, 0.4, 0.99, 1.0, 1.2, -0.1]],
                 "float32")
    out = {}
    for name, lo, hi, kw in (("tensor", -0.5, 1.5, {}), ("narrow4", -0.37, 1.1, {"num_bits": 4, "narrow_range": True}),
                             ("channel", [-0.5, -0.2], [1.0, 1.3], {"axis": 0})):
        xt, lo_t, hi_t = tf.constant(x), tf.constant(lo, "float32"), tf.constant(hi, "float32")
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([xt, lo_t, hi_t])
            y = q.fake_quant_with_min_max_vars(xt, lo_t, hi_t, **kw)
            loss = tf.reduce_sum(y * tf.constant(np.arange(16, dtype="float32").reshape(2, 8)))
        out[name] = {"y": _f(y), "dx": _f(tape.gradient(loss, xt)), "dmin": _f(tape.gradient(loss, lo_t)),
                     "dmax": _f(tape.gradient(loss, hi_t))}
    return out


def case_quantizers(tf, keras):
    q = keras.quantizers
    x = _x(3, 4, seed=11)
    x[1] = 0.0
    values, scale = q.abs_max_quantize(x, axis=-1)
    values0, scale0 = q.abs_max_quantize(x, axis=0, value_range=(-8, 7), to_numpy=True)
    amq = q.AbsMaxQuantizer(axis=0, value_range=(-100, 100))
    v2, s2 = amq(tf.constant(x))
    f8 = np.array([0.0, 1e-3, 0.0137, 0.3, -1.7, 3.3, 100.0, 239.9, 460.0, -1e5, 2.0 ** -8, 0.001953125],
                  "float32")
    packed, packed_shape, n = q.pack_int4(np.array([[-3, 7, 1], [2, -8, 0], [1, 0, -1]], "int8"), axis=1)
    cfg = q.Int8QuantizationConfig(weight_quantizer=q.AbsMaxQuantizer(axis=0))
    g = _x(5, 3, seed=12)
    g[:2, 1] = 0.5  # (a constant group)
    return {
        "values": _f(values), "scale": _f(scale), "values0": _f(values0), "scale0": _f(scale0),
        "v2": _f(v2), "s2": _f(s2), "amq_config": amq.get_config(),
        "e4m3": _f(q.quantize_and_dequantize(f8, 1.0, "float8_e4m3fn", "float32")),
        "e4m3_scaled": _f(q.quantize_and_dequantize(f8, 0.5, "float8_e4m3fn", "float32")),
        "e5m2": _f(q.quantize_and_dequantize(f8, 2.0, "float8_e5m2", "float32")),
        "f8_scale": _f(q.compute_float8_scale(np.float32(3.0), np.float32(2.0), np.float32(448.0))),
        "f8_scale_zero": _f(q.compute_float8_scale(np.float32(0.0), np.float32(2.0), np.float32(448.0))),
        "f8_scale_margin": _f(q.compute_float8_scale(np.float32(3.0), np.float32(2.0), np.float32(448.0), 2)),
        "amax_history": _f(q.compute_float8_amax_history(tf.constant([1.0, -5.0]),
                                                         tf.constant([1.0, 2.0, 3.0]))),
        "grouped": [_f(t) for t in q.abs_max_quantize_grouped_with_zero_point(g, block_size=2, to_numpy=True)],
        "grouped_tensor": [_f(t) for t in q.abs_max_quantize_grouped_with_zero_point(tf.constant(g), block_size=2)],
        "packed": _f(packed), "packed_shape": list(packed_shape), "n": n,
        "unpacked": _f(q.unpack_int4(packed, n, axis=1)),
        "config": keras.saving.serialize_keras_object(cfg),
        "config_back": type(q.deserialize(q.serialize(cfg))).__name__,
        "get": q.get(q.serialize(q.AbsMaxQuantizer(axis=1))).get_config(),
        "policy": keras.dtype_policies.serialize(keras.dtype_policies.get("int8_from_float64")),
        "policy_f8": keras.dtype_policies.serialize(keras.dtype_policies.get("float8_from_float32")),
        "policy_int4": keras.dtype_policies.serialize(keras.dtype_policies.get("int4/64_from_float32")),
        "policy_int4_name": keras.dtype_policies.get("int4/64_from_float32").name,
        "policy_mixed": [keras.dtype_policies.get("int4/-1_from_mixed_float16").compute_dtype,
                         keras.dtype_policies.get("int4/-1_from_mixed_float16").variable_dtype],
    }


CASES = [case_dense_int8, case_dense_int8_weights_only, case_dense_int8_custom_quantizers,
         case_dense_int8_3d_inputs, case_int8_large_sums, case_einsum_dense_int8, case_einsum_dense_int8_ellipsis,
         case_einsum_dense_int8_weights_only,
         case_embedding_int8, case_model_quantize_fit_save, case_filters_and_errors, case_built_from_policy,
         case_quantizers, case_dense_int4, case_einsum_dense_int4, case_embedding_int4,
         case_float8, case_float8_fit_save, case_fake_quant, case_mixed_float16, case_int4_model_save]


def h5_model(keras):
    """A model with an int8 Embedding, an int8 and an int4 Dense and a float8 EinsumDense, for a
    weights file Keras writes (tools/record_keras_quantize.py) and tapegrad reads."""
    model = keras.Sequential([keras.Input((3,), dtype="int32"), keras.layers.Embedding(9, 4), keras.layers.Flatten(),
                              keras.layers.Dense(6), keras.layers.Dense(5),
                              keras.layers.EinsumDense("ab,bc->ac", output_shape=(2,), bias_axes="c")])
    for i, layer in enumerate(model.layers):
        if layer.weights:
            _fill(layer, 200 + 10 * i)
    for layer, mode in zip(model.layers, ("int8", None, "int8", "int4", "float8")):
        if mode:
            layer.quantize(mode)
    return model
