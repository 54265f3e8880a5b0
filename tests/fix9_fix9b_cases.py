"""Cases of what the ninth unseen set showed (nlp_translation_transformer, audio_stft_spectrogram),
shared by tools/record_fix9_fix9b.py (under TensorFlow) and tests/test_fix9_fix9b.py (under
tapegrad): each takes the module (``tf``) and returns a dict of arrays (or numbers)."""
import numpy as np


def _masked(tf):
    rng = np.random.default_rng(0)
    p = rng.random((2, 3, 4)).astype("float32")
    p /= p.sum(-1, keepdims=True)
    y = np.array([[0, 1, 2], [1, 3, 0]])
    pt = tf.constant(p)
    pt._keras_mask = tf.constant([[True, True, False], [True, False, True]])
    return y, p, pt


def metrics_read_the_output_mask(tf):
    """Keras 3's MeanMetricWrapper weighs the masked steps of y_pred 0 (with or without weights);
    the values' own mask (ignore_class) counts only when there are weights."""
    keras = tf.keras
    y, p, pt = _masked(tf)
    out = {}
    weights = {"none": None, "per_step": np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "float32")}
    for wname, sw in weights.items():
        for name, make, args in [
                ("sparse_accuracy", keras.metrics.SparseCategoricalAccuracy, (y, pt)),
                ("sparse_top2", lambda: keras.metrics.SparseTopKCategoricalAccuracy(k=2), (y, pt)),
                ("mse", keras.metrics.MeanSquaredError, (np.ones_like(p) * 0.25, pt)),
                ("sparse_ce", keras.metrics.SparseCategoricalCrossentropy, (y, pt)),
                ("sparse_ce_ignore0", lambda: keras.metrics.SparseCategoricalCrossentropy(ignore_class=0),
                 (y, pt)),
                ("sparse_ce_ignore0_unmasked",
                 lambda: keras.metrics.SparseCategoricalCrossentropy(ignore_class=0), (y, p))]:
            m = make()
            m.update_state(*args, sample_weight=sw)
            out[f"{name}/{wname}"] = float(m.result())
    values = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    values._keras_mask = tf.constant([[True, False, True], [False, True, True]])
    for wname, sw in weights.items():
        m = keras.metrics.Mean()
        m.update_state(values, sample_weight=sw)
        out[f"mean_of_masked_values/{wname}"] = float(m.result())
        m = keras.metrics.Sum()
        m.update_state(values, sample_weight=sw)
        out[f"sum_of_masked_values/{wname}"] = float(m.result())
    return out


def _sequence_model(tf):
    keras = tf.keras
    keras.utils.set_random_seed(3)
    inp = keras.Input((None,), dtype="int32")
    x = keras.layers.Embedding(12, 4, mask_zero=True)(inp)
    x = keras.layers.Dense(6, activation="relu")(x)
    out = keras.layers.Dense(12, activation="softmax")(x)
    return keras.Model(inp, out)


def _tokens():
    x = np.array([[3, 5, 7, 0, 0], [2, 4, 0, 0, 0], [1, 2, 3, 4, 5], [9, 0, 0, 0, 0]], "int32")
    y = np.array([[5, 7, 2, 0, 0], [4, 2, 0, 0, 0], [2, 3, 4, 5, 6], [1, 0, 0, 0, 0]], "int32")
    return x, y


def fit_masks_loss_and_accuracy(tf):
    """A model whose output carries Embedding(mask_zero)'s mask: compile's loss given by name (a
    plain function) and "accuracy" average over the unmasked steps only, as Keras 3's
    LossFunctionWrapper and MeanMetricWrapper do; with sample weights too."""
    x, y = _tokens()
    out = {}
    for loss in ("sparse_categorical_crossentropy", "sce_object"):
        model = _sequence_model(tf)
        lf = tf.keras.losses.SparseCategoricalCrossentropy() if loss == "sce_object" else loss
        model.compile(tf.keras.optimizers.SGD(0.5), loss=lf, metrics=["accuracy"])
        out[f"{loss}/evaluate"] = model.evaluate(x, y, verbose=0)
        out[f"{loss}/evaluate_weighted"] = model.evaluate(
            x, y, sample_weight=np.linspace(0.5, 3.0, 20, dtype="float32").reshape(4, 5), verbose=0)
        out[f"{loss}/train_on_batch"] = [float(v) for v in model.train_on_batch(x, y)]
        h = model.fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0)
        out[f"{loss}/history"] = [h.history["loss"], h.history["accuracy"]]
    return out


def mask_arguments_as_keras_populates_them(tf):
    """Keras 3 passes ``mask`` only to a call with one tensor argument; with several, each
    ``<name>_mask`` argument gets the mask of the argument ``<name>``. The outputs inherit the
    first input's mask, read after building and before the call (MultiHeadAttention takes its
    inputs' masks off)."""
    keras = tf.keras
    seen = {}

    class OneInput(keras.layers.Layer):
        def call(self, x, mask=None):
            seen["one_input"] = mask is not None
            return x

    class TwoInputs(keras.layers.Layer):
        def __init__(self, **kw):
            super().__init__(**kw)
            self.supports_masking = True
            self.attention = keras.layers.MultiHeadAttention(num_heads=1, key_dim=4)

        def call(self, x, context, mask=None):
            seen["two_inputs"] = mask is not None
            return self.attention(query=x, value=context, key=context)

    class NamedMasks(keras.layers.Layer):
        def call(self, query, value, query_mask=None, value_mask=None, mask=None):
            seen["named"] = [query_mask is not None, value_mask is not None, mask is not None]
            return query

    keras.utils.set_random_seed(5)
    emb = keras.layers.Embedding(10, 4, mask_zero=True)

    def pair():
        return emb(np.array([[1, 2, 0], [3, 0, 0]])), emb(np.array([[4, 5, 6, 0], [7, 8, 0, 0]]))
    a, b = pair()
    OneInput()(a)
    two = TwoInputs()
    first = two(a, b)   # (the build run's MultiHeadAttention takes a's mask off before the call)
    a, b = pair()
    second = two(a, b)
    a, b = pair()
    NamedMasks()(a, b)
    out = {k: np.asarray(v, "int32") for k, v in seen.items()}
    out["two_inputs_output"] = np.asarray(second)
    out["output_masks"] = np.asarray([getattr(first, "_keras_mask", None) is not None,
                                      getattr(second, "_keras_mask", None) is not None], "int32")
    out["second_output_mask"] = np.asarray(second._keras_mask).astype("int32")
    return out


def numpy_function_results_answer_array_methods(tf):
    """``np.concatenate`` of tensors is an ndarray in TF; tapegrad's Tensor standing for it
    answers ndarray's methods (``.transpose``, ``.min(axis, keepdims)``, ``.T``, ...)."""
    t = tf.constant(np.arange(24, dtype="float32").reshape(2, 3, 4) / 7.0)
    c = np.concatenate([t, t * 2.0], axis=-1)
    tr = c.transpose([1, 0, 2])
    mn = tr.min(axis=(0, 1), keepdims=True)
    mx = tr.max(axis=(0, 1), keepdims=True)
    return {"transpose": np.asarray(tr), "transpose_varargs": np.asarray(c.transpose(2, 0, 1)),
            "normalized": np.asarray((tr - mn) / (mx - mn)), "T": np.asarray(c.T),
            "reshape": np.asarray(c.reshape(-1, 4)), "sum": np.asarray(c.sum(axis=0)),
            "mean": np.asarray(c.mean()), "ravel": np.asarray(c.ravel()),
            "tolist": np.sum(t, axis=(0, 1)).tolist(), "argmax": np.asarray(c.argmax(axis=-1))}


CASES = {f.__name__: f for f in [metrics_read_the_output_mask, fit_masks_loss_and_accuracy,
                                 mask_arguments_as_keras_populates_them,
                                 numpy_function_results_answer_array_methods]}
# float32 results of a few ops (and two SGD epochs): a few ulps of values of order 1
TOL = {name: (1e-5, 1e-6) for name in CASES}
