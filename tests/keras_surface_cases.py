"""The models whose ``summary()`` and progress lines tests/test_keras_summary.py compares with
Keras 3.15's (recorded by tools/record_keras_surface.py). ``summaries(keras, np)`` runs with
either Keras or tapegrad.keras and returns the printed texts."""
import contextlib
import io
import os


def printed(fn):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        fn()
    return buf.getvalue()


def narrow(fn, columns=80):
    """``fn``'s printed text on a terminal ``columns`` wide (the summary's default width follows it)."""
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(columns)
    try:
        return printed(fn)
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before


def summaries(keras, np):
    """{model: {what: printed text}}."""
    out = {}
    rng = np.random.default_rng(0)
    x = rng.normal(size=(40, 4)).astype("float32")
    y = rng.normal(size=(40, 1)).astype("float32")

    def sequential():
        return keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu"),
                                 keras.layers.BatchNormalization(), keras.layers.Dense(1)], name="seq")

    def branches():
        inp = keras.Input((4,), name="features")
        a = keras.layers.Dense(8, activation="relu", name="left")(inp)
        b = keras.layers.Dense(3, name="right")(inp)
        c = keras.layers.Concatenate(name="join")([a, b])
        return keras.Model(inp, keras.layers.Dense(1, name="head")(c), name="branchy")

    def chain():
        inp = keras.Input((4,))
        h = keras.layers.Dense(16, activation="tanh")(inp)
        return keras.Model(inp, keras.layers.Dense(1)(keras.layers.Dropout(0.1)(h)))

    class Sub(keras.Model):
        def __init__(self):
            super().__init__(name="sub")
            self.d1 = keras.layers.Dense(6, activation="relu")
            self.d2 = keras.layers.Dense(1)

        def call(self, x):
            return self.d2(self.d1(x))

    def nested():
        inner = keras.Sequential([keras.Input((4,)), keras.layers.Dense(5, name="inner_dense")],
                                 name="inner")
        a, b = keras.Input((4,), name="a"), keras.Input((4,), name="b")
        ea, eb = inner(a), inner(b)
        total = keras.layers.Add(name="sum")([ea, eb])
        aux = keras.layers.Dense(2, name="a_rather_long_layer_name_for_the_auxiliary_output")(ea)
        return keras.Model([a, b], [total, aux], name="nested")

    keras.utils.set_random_seed(0)
    keras.backend.clear_session()
    model = nested()
    out["nested"] = {"summary": printed(model.summary),
                     "expand_nested": printed(lambda: model.summary(expand_nested=True)),
                     "layer_range": printed(lambda: model.summary(layer_range=["inner", "sum"])),
                     "narrow": narrow(model.summary),
                     "narrow_expand_trainable": narrow(lambda: model.summary(expand_nested=True,
                                                                             show_trainable=True))}
    def with_ops():
        inp = keras.Input((4,), name="x")
        h = keras.layers.Dense(3, name="hidden")(inp)
        h = h * 2.0 + keras.ops.mean(inp, axis=-1, keepdims=True)
        return keras.Model(inp, keras.layers.Dense(1, name="out")(h), name="with_ops")

    keras.backend.clear_session()
    deferred = keras.Sequential([keras.layers.Dense(3, activation="relu"), keras.layers.Dense(1)])
    rec = {"unbuilt": printed(deferred.summary)}
    deferred(np.ones((2, 4), "float32"))
    rec["called"] = printed(deferred.summary)
    deferred.compile(optimizer="sgd", loss="mse")
    rec["compiled"] = printed(deferred.summary)
    out["deferred"] = rec

    keras.utils.set_random_seed(0)
    keras.backend.clear_session()
    out["with_ops"] = {"summary": printed(with_ops().summary)}
    keras.backend.clear_session()
    app = keras.applications.MobileNetV2(weights=None, alpha=0.35, input_shape=(32, 32, 3),
                                         include_top=False, pooling="avg")
    out["mobilenet_v2"] = {"summary": printed(app.summary)}
    for name, build in (("sequential", sequential), ("branches", branches), ("chain", chain),
                        ("subclassed", Sub)):
        keras.utils.set_random_seed(0)
        keras.backend.clear_session()
        model = build()
        rec = {}
        if name == "subclassed":
            rec["unbuilt"] = printed(model.summary)
            model(x[:2])
        rec["before_fit"] = printed(model.summary)
        model.compile(optimizer="adam", loss="mse", metrics=["mae"])
        rec["compiled"] = printed(model.summary)
        rec["fit_verbose1"] = printed(lambda: model.fit(x, y, batch_size=16, epochs=2, verbose=1,
                                                        validation_data=(x[:8], y[:8])))
        rec["fit_verbose2"] = printed(lambda: model.fit(x, y, batch_size=16, epochs=1, verbose=2,
                                                        validation_split=0.25))
        rec["evaluate"] = printed(lambda: model.evaluate(x, y, batch_size=16, verbose=1))
        rec["predict"] = printed(lambda: model.predict(x, batch_size=16, verbose=1))
        rec["after_fit"] = printed(model.summary)
        rec["show_trainable"] = printed(lambda: model.summary(show_trainable=True))
        rec["line_length_70"] = printed(lambda: model.summary(line_length=70))
        rec["narrow"] = narrow(model.summary)
        out[name] = rec
    return out


# ---- ImageDataGenerator: (generator arguments, flow arguments) ------------------------------------
GENERATORS = {
    "everything": ({"rotation_range": 20, "width_shift_range": 0.1, "height_shift_range": [1, 2],
                    "shear_range": 5, "zoom_range": 0.2, "channel_shift_range": 10.0,
                    "horizontal_flip": True, "vertical_flip": True, "brightness_range": (0.5, 1.5),
                    "rescale": 1 / 255.0, "fill_mode": "constant", "cval": 0.3},
                   {"batch_size": 2, "seed": 3}),
    "rotation_nearest": ({"rotation_range": 45}, {"batch_size": 3, "seed": 1, "shuffle": False}),
    "shift_pixels_reflect": ({"width_shift_range": 2, "height_shift_range": 3.0, "fill_mode": "reflect"},
                             {"batch_size": 5, "seed": 7}),
    "zoom_wrap_order3": ({"zoom_range": (0.7, 1.1), "fill_mode": "wrap", "interpolation_order": 3},
                         {"batch_size": 4, "seed": 2}),
    "samplewise": ({"samplewise_center": True, "samplewise_std_normalization": True,
                    "horizontal_flip": True}, {"batch_size": 5, "seed": 4}),
    "featurewise_fit": ({"featurewise_center": True, "featurewise_std_normalization": True,
                         "rotation_range": 10}, {"batch_size": 5, "seed": 5}),
    "zca": ({"zca_whitening": True}, {"batch_size": 5, "shuffle": False}),
    "validation": ({"validation_split": 0.4, "vertical_flip": True},
                   {"batch_size": 2, "seed": 6, "subset": "validation"}),
    "training": ({"validation_split": 0.4, "vertical_flip": True},
                 {"batch_size": 2, "seed": 6, "subset": "training"}),
    "preprocessing_function": ({"preprocessing_function": "double", "rescale": 0.5,
                                "channel_shift_range": 5.0}, {"batch_size": 5, "seed": 8}),
    "channels_first": ({"data_format": "channels_first", "rotation_range": 30, "horizontal_flip": True},
                       {"batch_size": 5, "seed": 9}),
}
DIRECTORY = {
    "categorical": ({"rotation_range": 15}, {"target_size": (8, 8), "batch_size": 4, "seed": 1}),
    "binary_bilinear": ({}, {"target_size": (6, 7), "class_mode": "binary", "batch_size": 6,
                             "interpolation": "bilinear", "shuffle": False}),
    "grayscale_sparse": ({"horizontal_flip": True}, {"target_size": (10, 12), "color_mode": "grayscale",
                                                     "class_mode": "sparse", "batch_size": 3, "seed": 2}),
    "validation_subset": ({"validation_split": 0.34}, {"target_size": (8, 8), "subset": "validation",
                                                       "batch_size": 6, "shuffle": False}),
    "aspect_input": ({}, {"target_size": (5, 9), "keep_aspect_ratio": True, "class_mode": "input",
                          "batch_size": 6, "shuffle": False}),
}


def images(np):
    """The images the generators run on (5 of 8x8x3, values in [0, 255])."""
    return np.random.default_rng(0).uniform(0, 255, (5, 8, 8, 3)).astype("float32")


def write_image_directory(image_module, np, root):
    """Two class folders of three 10x12 RGB PNG files each, written with ``save_img``."""
    rng = np.random.default_rng(1)
    for cls in ("cats", "dogs"):
        os.makedirs(os.path.join(root, cls))
        for i in range(3):
            image_module.save_img(os.path.join(root, cls, f"{i}.png"),
                                  rng.integers(0, 256, (10, 12, 3)).astype("float32"), scale=False)


def generator_batches(image_module, np, root):
    """{case: [arrays]}: two epochs' worth of batches (``next``, then indexing) for each case."""
    out = {}
    x = images(np)
    y = np.arange(5) % 2
    for name, (gen_kwargs, flow_kwargs) in GENERATORS.items():
        gen_kwargs = dict(gen_kwargs)
        if gen_kwargs.get("preprocessing_function") == "double":
            gen_kwargs["preprocessing_function"] = lambda a: a * 2.0
        gen = image_module.ImageDataGenerator(**gen_kwargs)
        data = x.transpose(0, 3, 1, 2) if gen_kwargs.get("data_format") == "channels_first" else x
        if name in ("featurewise_fit", "zca"):
            gen.fit(data, augment=name == "featurewise_fit", rounds=2, seed=11)
        it = gen.flow(data, y, **flow_kwargs)
        batches = [next(it) for _ in range(3)] + [it[0], it[len(it) - 1]]
        out[name] = [np.asarray(a) for b in batches for a in b]
    write_image_directory(image_module, np, root)
    for name, (gen_kwargs, flow_kwargs) in DIRECTORY.items():
        gen = image_module.ImageDataGenerator(**gen_kwargs)
        it = gen.flow_from_directory(root, **flow_kwargs)
        batches = [next(it), it[0]]
        out["dir_" + name] = [np.asarray(a) for b in batches for a in (b if isinstance(b, tuple) else (b,))]
        out["dir_" + name].append(np.asarray(it.classes))
    rng = np.random.default_rng(2)
    one, batch = rng.random((9, 5, 3)).astype("float32"), rng.random((2, 6, 11, 3)).astype("float32")
    out["smart_resize"] = [
        image_module.smart_resize(one, (4, 4)),
        image_module.smart_resize(one, (7, 3), interpolation="nearest"),
        image_module.smart_resize(batch, (5, 5), interpolation="bicubic"),
        image_module.smart_resize(batch.transpose(0, 3, 1, 2), (3, 8), data_format="channels_first"),
        image_module.smart_resize(one.transpose(2, 0, 1), (10, 4), interpolation="area",
                                  data_format="channels_first")]
    return out
