"""Keras mixed-precision programs run unchanged on TensorFlow + Keras 3 (recorded by
tools/record_mixed_precision.py) and on tapegrad (tests/test_mixed_precision.py).

Each case takes the framework's ``(tf, keras)``, the recorded initial weights (``None`` when
recording: the case then draws its own and returns them) and returns ``{name: array or value}``.
Every case sets the global policy to ``"mixed_float16"`` and restores ``"float32"`` after.
"""
import numpy as np

_RNG = np.random.default_rng(7)
X_MLP = _RNG.normal(size=(96, 12)).astype("float32")
Y_MLP = _RNG.integers(0, 4, size=96)
X_IMG = _RNG.normal(size=(32, 8, 8, 3)).astype("float32")
Y_IMG = _RNG.integers(0, 3, size=32)
X_SEQ = _RNG.integers(1, 50, size=(40, 7))
Y_SEQ = _RNG.normal(size=(40, 1)).astype("float32")


def _describe(model, out):
    """Layer dtypes, the optimizer's class and loss scale, the model's predictions and weights."""
    for i, layer in enumerate(model.layers):  # (by index: names depend on what ran before)
        out[f"dtypes/{i}"] = [str(layer.dtype_policy.name), str(layer.dtype),
                                       str(layer.compute_dtype), str(layer.variable_dtype)]
    out["optimizer"] = type(model.optimizer).__name__
    if hasattr(model.optimizer, "dynamic_scale"):
        out["loss_scale"] = np.asarray(model.optimizer.dynamic_scale, np.float64)
    for i, w in enumerate(model.weights):
        out[f"weight/{i}"] = np.asarray(w.numpy(), np.float64)
        out[f"weight_dtype/{i}"] = str(np.asarray(w.numpy()).dtype)
    return out


def _train(model, x, y, weights, loss, out, epochs=3, batch_size=16, optimizer="adam"):
    if weights is not None:
        model.set_weights(weights)
    out["initial"] = [np.asarray(w) for w in model.get_weights()]
    model.compile(optimizer=optimizer, loss=loss)
    hist = model.fit(x, y, epochs=epochs, batch_size=batch_size, shuffle=False, verbose=0)
    out["loss"] = np.asarray(hist.history["loss"], np.float64)
    pred = model.predict(x[:5], verbose=0)
    out["pred"] = np.asarray(pred, np.float64)
    out["pred_dtype"] = str(np.asarray(pred).dtype)
    out["evaluate"] = np.float64(model.evaluate(x, y, verbose=0))
    return _describe(model, out)


def case_mlp(tf, keras, weights):
    """The mixed-precision guide's model: float16 Dense layers, a float32 softmax."""
    out = {}
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        inputs = keras.Input(shape=(12,))
        h = keras.layers.Dense(32, activation="relu", name="dense_1")(inputs)
        h = keras.layers.Dense(4, name="dense_logits")(h)
        outputs = keras.layers.Activation("softmax", dtype="float32", name="predictions")(h)
        model = keras.Model(inputs, outputs)
        out["logits_dtype"] = str(h.dtype)
        out["output_dtype"] = str(outputs.dtype)
        return _train(model, X_MLP, Y_MLP, weights, "sparse_categorical_crossentropy", out)
    finally:
        keras.mixed_precision.set_global_policy("float32")


def case_cnn_batchnorm(tf, keras, weights):
    """Conv2D and BatchNormalization (which computes in float32 and keeps float32 statistics)."""
    out = {}
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        model = keras.Sequential([
            keras.Input(shape=(8, 8, 3)),
            keras.layers.Conv2D(6, 3, padding="same", use_bias=False, name="conv"),  # (a bias before BN
            # has a zero gradient, up to rounding, which Adam would amplify)
            keras.layers.BatchNormalization(name="bn"),
            keras.layers.ReLU(name="relu"),
            keras.layers.GlobalAveragePooling2D(name="pool"),
            keras.layers.Dense(3, name="head"),
        ])
        return _train(model, X_IMG, Y_IMG, weights,
                      keras.losses.SparseCategoricalCrossentropy(from_logits=True), out)
    finally:
        keras.mixed_precision.set_global_policy("float32")


def case_embedding_layernorm(tf, keras, weights):
    """Embedding, LayerNormalization (float32 inside) and a regression head; a custom layer
    whose weight is read (autocast) inside ``call``."""
    out = {}

    class Scale(keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")

        def call(self, x):
            return x * self.w

    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        model = keras.Sequential([
            keras.Input(shape=(7,), dtype="int32"),
            keras.layers.Embedding(50, 8, name="embed"),
            keras.layers.LayerNormalization(name="ln"),
            Scale(name="scale"),
            keras.layers.GlobalAveragePooling1D(name="pool"),
            keras.layers.Dense(1, name="out", dtype="float32"),
        ])
        # (SGD: Keras's Adam squares an Embedding gradient's repeated rows one by one, tapegrad's
        # sums them first: a documented difference, docs/differences.md)
        return _train(model, X_SEQ, Y_SEQ, weights, "mse", out, optimizer=keras.optimizers.SGD(0.1))
    finally:
        keras.mixed_precision.set_global_policy("float32")


def case_custom_loop(tf, keras, weights):
    """A custom training loop with a LossScaleOptimizer, as the mixed-precision guide writes it
    for Keras 3: ``scale_loss``, then ``apply`` (which unscales and skips non-finite steps)."""
    out = {}
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        dense = keras.layers.Dense(4, name="dense")
        dense.build((None, 12))
        if weights is not None:
            dense.set_weights(weights)
        out["initial"] = [np.asarray(w) for w in dense.get_weights()]
        opt = keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(0.1))
        losses = []
        for step in range(4):
            xb = tf.constant(X_MLP[step * 8:(step + 1) * 8])
            yb = tf.constant(np.eye(4, dtype="float32")[Y_MLP[step * 8:(step + 1) * 8]])
            with tf.GradientTape() as tape:
                logits = dense(xb)
                loss = tf.reduce_mean(tf.square(tf.cast(logits, "float32") - yb))
                scaled = opt.scale_loss(loss)
            grads = tape.gradient(scaled, dense.trainable_variables)
            out[f"grad_dtype/{step}"] = str(grads[0].dtype.name)
            opt.apply(grads, dense.trainable_variables)
            losses.append(float(loss))
            out["logits_dtype"] = str(logits.dtype.name)
        out["loss"] = np.asarray(losses)
        out["loss_scale"] = np.asarray(opt.dynamic_scale, np.float64)
        for i, w in enumerate(dense.weights):
            out[f"weight/{i}"] = np.asarray(w.numpy(), np.float64)
        return out
    finally:
        keras.mixed_precision.set_global_policy("float32")


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}
