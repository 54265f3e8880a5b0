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
    return {"y": y, "dx": g[0], "dw": list(g[1:])}


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


# ---- keras.tree ----

def tree_api(tf, keras, np):
    import collections
    t = keras.tree
    P = collections.namedtuple("P", "x y")
    s = {"b": [1, (2, None)], "a": P(3, collections.OrderedDict([("z", 4), ("c", 5)])), "d": collections.deque([6, 7])}
    out = {}
    out["flatten"] = t.flatten(s)
    out["flatten1"] = [t.flatten([5]), t.flatten(None), t.flatten(((1,),))]
    out["fwp"] = [(list(p), v) for p, v in t.flatten_with_path(s)]
    out["map"] = repr(t.map_structure(lambda x: None if x is None else x * 10, s))
    out["map_nl"] = repr(t.map_structure(lambda x: x * 10, s, none_is_leaf=False))
    out["map2"] = repr(t.map_structure(lambda x, y: (x, y), [1, {"a": 2}], [3, {"a": 4}]))
    out["upto"] = repr(t.map_structure_up_to([0, 0], lambda a, b: (len(a), b), [[1, 2], (3,)], [5, 6]))
    out["pack"] = repr(t.pack_sequence_as(s, list(range(8))))
    out["l2t"] = repr(t.lists_to_tuples(s))
    out["shape"] = repr(t.map_shape_structure(lambda x: sum(e or 0 for e in x), {"x": (None, 3), "y": [[2], (4, 5)], "z": []}))
    out["trav"] = repr(t.traverse(lambda x: t.MAP_TO_NONE if x == 2 else None, [1, [2, 3]]))
    out["trav_bu"] = repr(t.traverse(lambda x: len(x) if isinstance(x, list) else None, [1, [2, 3]], top_down=False))
    out["nested"] = [t.is_nested(x) for x in (1, None, [], (), {}, P(1, 2), collections.deque(), "ab", {1, 2})]
    errs = {}
    for name, f in {"same_lt": lambda: t.assert_same_structure([1, 2], (1, 2)),
                    "same_deep": lambda: t.assert_same_structure([1, 2], [1, [2]]),
                    "same_len": lambda: t.assert_same_structure([1, 2], [1, 2, 3]),
                    "same_ok": lambda: t.assert_same_structure({"a": 1}, {"a": [2]}[:0] if False else {"a": 3}),
                    "paths_ok": lambda: t.assert_same_paths([1, 2], (1, 2)),
                    "paths_bad": lambda: t.assert_same_paths([1, 2], [1]),
                    "map_bad": lambda: t.map_structure(lambda a, b: a, [1, 2], [1, [2]]),
                    "map_bad2": lambda: t.map_structure(lambda a, b: a, [1, [2]], [1, 2]),
                    "pack_few": lambda: t.pack_sequence_as([1, 2], [1]),
                    "upto_bad": lambda: t.map_structure_up_to([0, [0]], lambda a: a, [1, 2]),
                    }.items():
        try:
            f(); errs[name] = None
        except Exception as e:
            errs[name] = type(e).__name__
    out["errs"] = errs
    return enc(out)


# ---- layers ----

def _layer_case(tf, np, layer, shape, k=0):
    x = fixed(np, shape, k)
    layer.build(shape)
    set_fixed(np, layer)
    out = grads(tf, layer, x)
    out["shape"] = list(layer.compute_output_shape(shape))
    return out


def conv1d_layers(tf, keras, np):
    L = keras.layers
    return enc({
        "dw": _layer_case(tf, np, L.DepthwiseConv1D(3, depth_multiplier=2), (2, 7, 3)),
        "dw_same_stride": _layer_case(tf, np, L.DepthwiseConv1D(3, strides=2, padding="same"), (2, 8, 3), 1),
        "dw_dilated_cf": _layer_case(tf, np, L.DepthwiseConv1D(2, dilation_rate=2, data_format="channels_first",
                                                               activation="tanh"), (2, 3, 7), 2),
        "sep": _layer_case(tf, np, L.SeparableConv1D(4, 3, depth_multiplier=2), (2, 7, 3)),
        "sep_same_stride": _layer_case(tf, np, L.SeparableConv1D(2, 3, strides=2, padding="same", use_bias=False),
                                       (2, 9, 3), 3),
        "sep_cf": _layer_case(tf, np, L.SeparableConvolution1D(3, 2, data_format="channels_first",
                                                               dilation_rate=2), (2, 3, 7), 4),
    })


def norm_and_pool_layers(tf, keras, np):
    L = keras.layers
    return enc({
        "rms": _layer_case(tf, np, L.RMSNormalization(), (2, 3, 4)),
        "rms_axes": _layer_case(tf, np, L.RMSNormalization(axis=[1, 2], epsilon=1e-3), (2, 3, 4), 1),
        "avg1": _layer_case(tf, np, L.AdaptiveAveragePooling1D(3), (2, 7, 2)),
        "max1": _layer_case(tf, np, L.AdaptiveMaxPooling1D(4), (2, 7, 2), 1),
        "avg2": _layer_case(tf, np, L.AdaptiveAveragePooling2D((2, 3)), (2, 5, 7, 2)),
        "max2_cf": _layer_case(tf, np, L.AdaptiveMaxPooling2D(3, data_format="channels_first"), (2, 2, 5, 7), 2),
        "avg3": _layer_case(tf, np, L.AdaptiveAveragePooling3D((2, 2, 3)), (1, 3, 5, 7, 2)),
        "max3": _layer_case(tf, np, L.AdaptiveMaxPooling3D(2), (1, 3, 5, 4, 2), 3),
    })


def reversible_embedding(tf, keras, np):
    out = {}
    for name, kw in {"tied": {}, "untied": {"tie_weights": False}, "cap": {"logit_soft_cap": 2.0, "mask_zero": True},
                     "f64": {"reverse_dtype": "float64", "tie_weights": False}}.items():
        layer = keras.layers.ReversibleEmbedding(6, 3, **kw)
        layer.build((None, 4))
        set_fixed(np, layer)
        ids = np.array([[1, 0, 5, 2], [3, 3, 0, 4]])
        h = tf.constant(fixed(np, (2, 4, 3), 5))
        with tf.GradientTape() as tape:
            tape.watch(h)
            e = layer(ids)
            logits = layer(h, reverse=True)
            loss = tf.reduce_sum(e * e) + tf.reduce_sum(tf.cast(logits, "float32") * np.cos(np.arange(48)).reshape(2, 4, 6).astype("float32"))
        g = [tf.convert_to_tensor(v) for v in tape.gradient(loss, [h] + layer.trainable_weights)]
        mask = getattr(e, "_keras_mask", None)
        out[name] = {"e": e, "logits": logits, "g": g, "names": [w.name for w in layer.weights],
                     "shape": list(layer.compute_output_shape((2, 4, 3), reverse=True)),
                     "mask": None if mask is None else mask}
    x = keras.Input((4,), dtype="int32")
    layer = keras.layers.ReversibleEmbedding(6, 3, mask_zero=True)
    y = layer(layer(x), reverse=True)
    out["symbolic"] = [list(y.shape), str(y.dtype)]
    return enc(out)


def spectral_normalization(tf, keras, np):
    out = {}
    for name, (layer, shape, iters) in {"dense": (keras.layers.Dense(3), (2, 4), 1),
                                         "conv": (keras.layers.Conv2D(2, 3), (1, 5, 5, 2), 3),
                                         "emb": (keras.layers.Embedding(5, 3), (2, 3), 2)}.items():
        sn = keras.layers.SpectralNormalization(layer, power_iterations=iters)
        sn.build(shape)
        set_fixed(np, sn)
        x = np.array([[1, 4, 0], [2, 2, 3]]) if name == "emb" else fixed(np, shape, 9)
        y_inf = sn(x)
        y_tr = sn(x, training=True)
        y_tr2 = sn(x, training=True)
        out[name] = {"inf": y_inf, "tr": y_tr, "tr2": y_tr2, "w": sn.get_weights(),
                     "names": [w.name for w in sn.weights], "trainable": [w.name for w in sn.trainable_weights]}
    return enc(out)


def group_query_attention(tf, keras, np):
    out = {}
    q, v = fixed(np, (2, 3, 8), 1), fixed(np, (2, 5, 8), 2)
    qm = np.array([[True, True, False], [True, True, True]])
    vm = np.array([[True, True, True, False, False], [True, False, True, True, True]])
    for name, (kw, call) in {
            "plain": ({}, {}),
            "scores": ({"use_bias": False}, {"return_attention_scores": True}),
            "masks": ({"use_gate": True}, {"query_mask": qm, "value_mask": vm}),
            "masks_scores": ({}, {"query_mask": qm, "value_mask": vm, "return_attention_scores": True}),
            "causal": ({"num_key_value_heads": 1}, {"use_causal_mask": True, "self": True}),
            "window": ({"sliding_window": 2}, {"self": True, "return_attention_scores": True}),
            "attn_mask": ({}, {"attention_mask": np.tril(np.ones((2, 3, 5), bool))}),
            }.items():
        args = dict(head_dim=4, num_query_heads=4, num_key_value_heads=2)
        args.update(kw)
        layer = keras.layers.GroupQueryAttention(**args)
        call = dict(call)
        selfattn = call.pop("self", False)
        vv = q if selfattn else v
        layer.build(q.shape, vv.shape)
        set_fixed(np, layer)
        qt, vt = tf.constant(q), tf.constant(vv)
        with tf.GradientTape() as tape:
            tape.watch([qt, vt])
            r = layer(qt, vt, **call)
            y = r[0] if isinstance(r, tuple) else r
            loss = tf.reduce_sum(y * np.cos(np.arange(y.shape.num_elements())).reshape(y.shape).astype("float32"))
        g = tape.gradient(loss, [qt, vt] + layer.trainable_weights)
        out[name] = {"r": list(r) if isinstance(r, tuple) else r, "g": g,
                     "names": [w.name for w in layer.weights]}
    return enc(out)


def audio_layers(tf, keras, np):
    out = {}
    sig = (np.sin(np.arange(300) * 0.3) + 0.5 * np.cos(np.arange(300) * 1.7)).astype("float32")
    x2 = np.stack([sig[:256], sig[20:276]], 0)
    x3 = np.stack([x2, x2[::-1] * 0.5], -1)
    for name, (kw, x) in {
            "log": ({"frame_length": 16, "frame_step": 8}, x3),
            "mag_same": ({"mode": "magnitude", "frame_length": 16, "padding": "same"}, x3),
            "psd_cf": ({"mode": "psd", "frame_length": 16, "data_format": "channels_first", "scaling": "spectrum"},
                       np.transpose(x3, (0, 2, 1))),
            "real_exp": ({"mode": "real", "frame_length": 12, "fft_length": 16, "expand_dims": True}, x3),
            "angle": ({"mode": "angle", "frame_length": 8, "window": "hamming", "periodic": True}, x3[..., :1]),
            "stft": ({"mode": "stft", "frame_length": 8, "scaling": None, "expand_dims": True,
                      "data_format": "channels_first"}, np.transpose(x3, (0, 2, 1))),
    }.items():
        layer = keras.layers.STFTSpectrogram(**kw)
        y = layer(x)
        out["stft_" + name] = {"y": y, "shape": list(layer.compute_output_shape(x.shape)),
                               "w": layer.get_weights()}
    for name, kw in {"db": {"fft_length": 64, "sequence_stride": 16, "num_mel_bins": 8},
                     "power": {"fft_length": 64, "sequence_stride": 32, "sequence_length": 48, "num_mel_bins": 6,
                               "power_to_db": False, "mag_exp": 1.0, "sampling_rate": 8000, "max_freq": 3000.0},
                     "db_ref": {"fft_length": 32, "sequence_stride": 8, "num_mel_bins": 5, "ref_power": 2.0,
                                "top_db": 20.0, "window": "hamming"}}.items():
        layer = keras.layers.MelSpectrogram(**kw)
        out["mel_" + name] = {"y": layer(x2), "y1": layer(x2[0]), "shape": list(layer.compute_output_shape(x2.shape))}
    return enc(out)


# ---- losses and regularizers ----

def generalized_cross_entropy(tf, keras, np):
    yp = np.array([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.25, 0.5, 0.25]], "float32")
    yt = np.array([0, 2, 1])
    out = {}
    out["fn"] = keras.losses.categorical_generalized_cross_entropy(yt, yp, 0.3)
    out["cls"] = keras.losses.CategoricalGeneralizedCrossEntropy()(yt, yp)
    out["cls_w"] = keras.losses.CategoricalGeneralizedCrossEntropy(q=0.7, reduction="sum")(yt, yp, sample_weight=np.array([1., 2., 0.5]))
    out["cls_float"] = keras.losses.CategoricalGeneralizedCrossEntropy(q=0.2)(yt.astype("float32"), yp)
    out["cls_none"] = keras.losses.CategoricalGeneralizedCrossEntropy(q=0.2, reduction=None)(yt[:, None], yp)
    out["cfg"] = str(sorted(keras.losses.CategoricalGeneralizedCrossEntropy(q=0.2).get_config().items()))
    return enc(out)


def orthogonal_regularizer(tf, keras, np):
    w = np.sin(np.arange(12.0) * 0.7).reshape(4, 3).astype("float32")
    out = {}
    out["rows_np"] = keras.regularizers.OrthogonalRegularizer(0.1)(w)
    out["cols_np"] = keras.regularizers.OrthogonalRegularizer(0.1, mode="columns")(w[:3])
    try:
        keras.regularizers.OrthogonalRegularizer(0.1, mode="columns")(w)
    except ValueError:
        out["cols_np_err"] = "ValueError"
    v = keras.Variable(w)
    out["rows_var"] = keras.regularizers.orthogonal_regularizer(factor=0.3)(v)
    d = keras.layers.Dense(3, kernel_regularizer=keras.regularizers.OrthogonalRegularizer(0.05, "columns"))
    d.build((None, 4)); d.set_weights([w, np.zeros(3, "float32")])
    out["layer"] = d.losses[0]
    out["cfg"] = str(sorted(keras.regularizers.OrthogonalRegularizer(0.1).get_config().items()))
    out["get"] = type(keras.regularizers.get("orthogonal_regularizer")).__name__
    return enc(out)


# ---- keras.legacy.saving ----

def legacy_saving(tf, keras, np):
    S, D = keras.legacy.saving.serialize_keras_object, keras.legacy.saving.deserialize_keras_object
    out = {}
    d = keras.layers.Dense(2, activation="relu", kernel_regularizer=keras.regularizers.L2(0.5), name="d")
    s = S(d)
    out["dense"] = {k: v for k, v in s["config"].items() if k not in ("dtype",)}
    out["dense_class"] = s["class_name"]
    out["reg"] = S(keras.regularizers.L1L2(0.1, 0.2))
    out["init"] = S(keras.initializers.HeNormal(seed=1))
    out["none"] = S(None)
    back = D(s, module_objects={"Dense": keras.layers.Dense, "L2": keras.regularizers.L2})
    out["back"] = [type(back).__name__, back.units, back.activation.__name__, type(back.kernel_regularizer).__name__]
    out["str"] = D("l2", custom_objects={"l2": keras.regularizers.L2}).get_config()
    out["fn"] = D("relu", custom_objects={"relu": keras.activations.relu}).__name__
    for name, f in {"unknown": lambda: D({"class_name": "Nope", "config": {}}),
                    "bad": lambda: D({"class_name": "Dense"}), "badtype": lambda: D(3)}.items():
        try:
            f(); out[name] = None
        except Exception as e:
            out[name] = type(e).__name__
    return enc(out)


CASES = [random_draws, stateless_scope, remat_and_function, tree_api, conv1d_layers, norm_and_pool_layers,
         generalized_cross_entropy, orthogonal_regularizer, reversible_embedding,
         spectral_normalization, group_query_attention, audio_layers, legacy_saving]
