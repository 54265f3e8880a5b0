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
