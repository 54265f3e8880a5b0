"""Record Keras 3 semantics that decide a program's numbers without being arithmetic: which
initial weights layers get, which batches (in which shuffled order) ``fit`` gives each epoch,
when random streams advance, what dtype ``fit`` hands ``train_step``, which steps the callbacks
hear (``steps_per_execution``, data that runs out), the metrics layers hold, where
BackupAndRestore resumes (for tests/test_keras_semantics.py).

Run with a Python that has TensorFlow 2.21 and Keras 3 (never needed by tapegrad or by CI; the
test reads only the JSON this script writes, and runs the same case functions on tapegrad)::

    python tools/record_keras_semantics.py

Every case is a function ``case(tf, keras, np)`` returning plain lists, numbers and strings.
"""
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "keras_semantics.json")


def _weights(layer):
    return {w.path: [round(float(v), 6) for v in w.numpy().ravel()] for w in layer.weights}


def mha_then_dense(tf, keras, np):
    """Initial weights of a MultiHeadAttention (default initializers: a clone per sub-layer,
    each with a new default seed) and of a Dense made after it, under set_random_seed."""
    keras.utils.set_random_seed(3)
    mha = keras.layers.MultiHeadAttention(num_heads=2, key_dim=3, name="mha")
    mha(np.ones((1, 2, 4), "float32"), np.ones((1, 3, 4), "float32"))
    dense = keras.layers.Dense(2, name="dense")
    dense(np.ones((1, 4), "float32"))
    return {**_weights(mha), **_weights(dense)}


def mha_seeded_initializer(tf, keras, np):
    """A seeded kernel initializer: every clone has the same seed, so q, k and v start equal."""
    keras.utils.set_random_seed(4)
    mha = keras.layers.MultiHeadAttention(num_heads=1, key_dim=2, name="mha", use_gate=True,
                                          kernel_initializer=keras.initializers.GlorotUniform(seed=5),
                                          bias_initializer="random_normal")
    mha(np.ones((1, 2, 3), "float32"), np.ones((1, 2, 3), "float32"))
    return _weights(mha)


def _floats(tf, elements):
    return [[round(float(v), 5) for v in np_ravel(tf, e)] for e in elements]


def np_ravel(tf, e):
    return [v for t in tf.nest.flatten(e) for v in t.numpy().ravel().tolist()]


def data_map_random(tf, keras, np):
    """Random ops in dataset functions: op seeds of the function's graph (0, 1, ... under the
    global seed when the dataset was made), kernels made afresh by each iterator, the eager
    stream untouched; filter's predicate and a map of a map likewise; an op seed without a
    global seed."""
    tf.random.set_seed(7)
    out = {"eager_before": _floats(tf, [tf.random.uniform([])])}
    ds = tf.data.Dataset.range(3).map(lambda x: (tf.random.uniform([]), tf.random.normal([]),
                                                 tf.random.uniform([], seed=4)))
    out["epoch1"], out["epoch2"] = _floats(tf, ds), _floats(tf, ds)
    out["eager_after"] = _floats(tf, [tf.random.uniform([])])
    tf.random.set_seed(8)  # the function's graph keeps the seed it was traced with
    out["after_set_seed"] = _floats(tf, ds)
    out["map_of_map"] = _floats(tf, ds.map(lambda a, b, c: a + tf.random.uniform([])))
    it1, it2 = iter(ds), iter(ds)
    out["two_iterators"] = _floats(tf, [next(it1), next(it2), next(it1)])
    tf.random.set_seed(9)
    kept = tf.data.Dataset.range(8).filter(lambda x: tf.random.uniform([]) < 0.5)
    out["filter"] = [[int(x) for x in kept], [int(x) for x in kept]]
    tf.random.set_seed(None)
    seeded = tf.data.Dataset.range(2).map(lambda x: tf.random.uniform([], seed=5))
    out["op_seed_only"] = [_floats(tf, seeded), _floats(tf, seeded)]
    return out


def data_shuffle_repeat_iterators(tf, keras, np):
    """Two iterators of ``shuffle(seed=1).repeat(2)`` taking turns: each pass's reshuffle seeds
    are the next of the dataset's seed stream, drawn when the pass before ran out (asked for an
    element after its last). TF's injected prefetch thread runs ahead by a varying number of
    elements, so with it the moment is a race; recorded without it (TF's own order)."""
    out = {}
    options = tf.data.Options()
    options.experimental_optimization.inject_prefetch = False
    for buf in (2, 6):
        runs = []
        for k in (1, 5, 6, 7):
            ds = tf.data.Dataset.range(6).shuffle(buf, seed=1).repeat(2).with_options(options)
            it1 = iter(ds)
            first = [int(next(it1)) for _ in range(k)]
            second = [int(x) for x in iter(ds)]
            runs.append([first, second, [int(x) for x in it1]])
        out[f"buffer{buf}"] = runs
    return out


def data_iterator_seeds(tf, keras, np):
    """A reshuffling dataset's next seeds go to the iterator made first, whatever is consumed
    first: TF's shuffle draws its seeds when its iterator is made, and the pipeline above it
    makes it with the outer iterator (a concatenation's second part and a repeat's next pass
    when they start)."""
    def first(it):
        return [int(np.asarray(x).ravel()[0]) for x in it]

    def shuffled():
        return tf.data.Dataset.range(6).shuffle(6, seed=1)

    slices = tf.data.Dataset.from_tensor_slices(np.arange(6)).shuffle(6, seed=1)
    pipelines = {
        "slices": slices, "slices_batch": slices.batch(2), "range_map": shuffled().map(lambda x: x * 1),
        "zip": tf.data.Dataset.zip((shuffled(), tf.data.Dataset.range(6))).map(lambda a, b: a),
        "concatenate": tf.data.Dataset.range(3).concatenate(shuffled()), "cache": shuffled().cache(),
        "repeat": tf.data.Dataset.from_tensor_slices(np.arange(6)).shuffle(6, seed=1).repeat(2),
        "take": tf.data.Dataset.from_tensor_slices(np.arange(6)).shuffle(6, seed=1).take(3),
        "unbatch_window": slices.batch(2).unbatch().window(2).flat_map(lambda w: w),
        "padded_scan": shuffled().padded_batch(2).scan(np.int64(0), lambda s, x: (s, x)),
    }
    out = {}
    for name, ds in pipelines.items():
        before = first(ds) if name == "cache" else None
        it1, it2 = iter(ds), iter(ds)
        out[name] = [before, first(it2), first(it1)]
    return out


def legacy_random_in_fit(tf, keras, np):
    """``tf.keras.backend.random_normal`` unseeded in a layer trained by fit: its op seed is
    drawn from NumPy once, when the step is traced, and the op's kernel goes on from step to
    step; NumPy's global generator has moved on by that one draw."""
    keras.utils.set_random_seed(2)

    class Noise(keras.layers.Layer):
        def call(self, x, training=None):
            if training:
                return x + tf.keras.backend.random_normal(tf.shape(x))
            return x

    model = keras.Sequential([keras.Input((2,)), Noise(), keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer="sgd", loss="mse")
    losses = []

    class Losses(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            losses.append(round(float(logs["loss"]), 5))

    x = np.arange(16, dtype="float32").reshape(8, 2) / 10
    y = np.ones((8, 1), "float32")
    model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0, callbacks=[Losses()])
    return {"losses": losses, "numpy_next": int(np.random.randint(1000))}


def _recorder(keras, note):
    """A model whose steps only call ``note(kind, data)`` ("train", "test", "predict")."""
    class Recorder(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

        def train_step(self, data):
            note("train", data)
            return {"loss": 0.0}

        def test_step(self, data):
            note("test", data)
            return {"loss": 0.0}

        def predict_step(self, data):
            note("predict", data)
            return keras.ops.zeros((1,))

    model = Recorder()
    model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
    return model


def _rows(tf, np, n=12, seed=None, reshuffle=True):
    x = np.arange(n, dtype="float32").reshape(n, 1)
    return tf.data.Dataset.from_tensor_slices((x, x)).shuffle(n, seed=seed, reshuffle_each_iteration=reshuffle)


def fit_epoch_iterators(tf, keras, np):
    """The batches (their rows) fit, evaluate and predict give the steps over shuffled datasets:
    Keras 3's epoch iterator makes a new dataset iterator when an epoch with a known number of
    batches completes and again when the next epoch starts (each takes the next reshuffle), and
    keeps one across epochs with steps_per_epoch while the data lasts."""
    import warnings

    out = {}
    runs = {
        "global_seed": lambda m: m.fit(_rows(tf, np).batch(4), epochs=3, verbose=0),
        "op_seed": lambda m: m.fit(_rows(tf, np, seed=3).batch(4), epochs=3, verbose=0),
        "validation": lambda m: m.fit(_rows(tf, np, 8, seed=3).batch(4), epochs=2, verbose=0,
                                      validation_data=_rows(tf, np, 6, seed=4).batch(3)),
        "evaluate_twice": lambda m: (m.evaluate(_ds := _rows(tf, np, 6, seed=5).batch(3), verbose=0),
                                     m.evaluate(_ds, verbose=0), m.predict(_ds, verbose=0)),
        "steps_partial": lambda m: m.fit(_rows(tf, np, seed=6).batch(4), steps_per_epoch=2, epochs=3,
                                         verbose=0),
        "steps_run_out": lambda m: m.fit(_rows(tf, np, seed=6).batch(4), steps_per_epoch=5, epochs=2,
                                         verbose=0),
        "repeated": lambda m: m.fit(_rows(tf, np, 6, seed=7).batch(4).repeat(), steps_per_epoch=2,
                                    epochs=3, verbose=0),
        "unknown_size": lambda m: m.fit(_rows(tf, np, seed=8).filter(lambda a, b: a[0] < 10).batch(4),
                                        epochs=2, verbose=0),
        "no_reshuffle": lambda m: m.fit(_rows(tf, np, seed=9, reshuffle=False).batch(4), epochs=2, verbose=0),
    }
    for name, run in runs.items():
        keras.utils.set_random_seed(1)
        seen = []

        def note(kind, data, seen=seen):
            x = data[0] if isinstance(data, tuple) else data
            seen.append([kind] + [int(v) for v in np.asarray(x).ravel()])
        model = _recorder(keras, note)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            run(model)
        out[name] = {"seen": seen, "ran_out": sum("ran out of data" in str(w.message) for w in caught)}
    return out


def input_dtypes(tf, keras, np):
    """The dtypes train_step, test_step and predict_step get: NumPy (and tensor) arrays of a
    float type other than floatx are cast to floatx (x, y and sample_weight, dicts of them
    too); integers, tf.data datasets, generators and train_on_batch keep theirs."""
    seen = []

    def names(data):
        return [str(t.dtype.name) if hasattr(t.dtype, "name") else str(t.dtype)
                for t in tf.nest.flatten(data) if t is not None]

    out = {}
    f64 = np.ones((4, 2), "float64")
    runs = {
        "fit_float64": lambda m: m.fit(f64, np.ones((4, 1)), sample_weight=np.ones(4), batch_size=4, verbose=0),
        "fit_float16_int": lambda m: m.fit(f64.astype("float16"), np.ones((4, 1), "int64"), batch_size=4, verbose=0),
        "fit_dict": lambda m: m.fit({"a": f64, "b": np.ones((4, 2), "int32")}, f64[:, :1], batch_size=4, verbose=0),
        "fit_tensor": lambda m: m.fit(tf.constant(f64), tf.constant(f64[:, :1]), batch_size=4, verbose=0),
        "fit_dataset": lambda m: m.fit(tf.data.Dataset.from_tensor_slices((f64, f64[:, :1])).batch(4), verbose=0),
        "fit_generator": lambda m: m.fit(((f64, f64[:, :1]) for _ in range(1)), verbose=0),
        "fit_validation": lambda m: m.fit(f64, f64[:, :1], batch_size=4, verbose=0,
                                          validation_data=(f64, f64[:, :1])),
        "evaluate": lambda m: m.evaluate(f64, f64[:, :1], batch_size=4, verbose=0),
        "predict": lambda m: m.predict(f64, batch_size=4, verbose=0),
        "train_on_batch": lambda m: m.train_on_batch(f64, f64[:, :1]),
    }
    for name, run in runs.items():
        del seen[:]
        run(_recorder(keras, lambda kind, data: seen.append([kind] + names(data))))
        out[name] = list(seen)
    return out


def small_facts(tf, keras, np):
    """Keras 3 facts programs read: a weight's dtype (a string), the loss after a second
    compile without one, a stateful RNN's states after reset_states, fit's loss tracker, and
    the mask an eager call leaves on its output tensor."""
    out = {}
    dense = keras.layers.Dense(2)
    dense.build((None, 3))
    out["weight_dtype"] = [isinstance(dense.kernel.dtype, str), str(dense.kernel.dtype),
                           dense.kernel.dtype == "float32", dense.kernel.dtype == tf.float32]

    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    model.compile(optimizer="sgd")
    x, y = np.ones((4, 3), "float32"), np.ones((4, 1), "float32")
    try:
        model.fit(x, y, verbose=0)
        out["recompile_without_loss"] = ["ok", model.loss]
    except Exception as e:  # (what Keras raises: recorded)
        out["recompile_without_loss"] = [type(e).__name__, str(e)[:60]]

    rnn = keras.layers.SimpleRNN(2, stateful=True)
    rnn(np.ones((1, 3, 2), "float32"))
    rnn.reset_states()
    out["states_after_reset"] = [[type(s).__name__ for s in rnn.states],
                                 [[float(v) for v in np.asarray(s).ravel()] for s in rnn.states]]

    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    model.fit(x, y, verbose=0)
    tracker = model.metrics[0]
    out["loss_tracker"] = [[m.name for m in model.metrics], type(tracker).__name__,
                           [v.dtype == "float32" for v in tracker.variables]]

    emb = keras.layers.Embedding(5, 2, mask_zero=True)
    e = emb(np.array([[1, 0, 2]]))
    mask = getattr(e, "_keras_mask", None)
    out["eager_mask"] = None if mask is None else [bool(v) for v in np.asarray(mask).ravel()]
    return out


def functional_construction(tf, keras, np):
    """Building a functional model changes nothing (Keras calls each layer symbolically in a
    stateless scope): a kernel assigned in call, a SeedGenerator, the eager random stream and
    NumPy's generator (drawn once, as the Python code runs once) are as before; a custom
    layer after Embedding(mask_zero=True) gets the mask during construction too."""
    ops = keras.ops
    keras.utils.set_random_seed(11)

    class Halving(keras.layers.Layer):
        def build(self, input_shape):
            self.kernel = self.add_weight(shape=(input_shape[-1], 2), initializer="ones")

        def call(self, x):
            self.kernel.assign(self.kernel * 0.5)
            return ops.matmul(x, self.kernel)

    class Noisy(keras.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.gen = keras.random.SeedGenerator(4)

        def call(self, x):
            return x + keras.random.normal(ops.shape(x), seed=self.gen) + float(np.random.uniform())

    class EagerNoise(keras.layers.Layer):
        def call(self, x):
            return x + tf.random.uniform(tf.shape(x))

    class MaskedMean(keras.layers.Layer):
        def call(self, x, mask=None):
            m = ops.expand_dims(ops.cast(mask, x.dtype), -1)
            return ops.sum(x * m, axis=1) / ops.sum(m, axis=1)

    out = {}
    inp = keras.Input((3,))
    halving, noisy = Halving(), Noisy()
    model = keras.Model(inp, EagerNoise()(noisy(halving(inp))))
    out["after_construction"] = {"kernel": [float(v) for v in halving.kernel.numpy().ravel()],
                                 "seed_state": [int(v) for v in noisy.gen.state.numpy()],
                                 "numpy_next": float(np.random.uniform()),
                                 "eager_next": [round(float(v), 5) for v in tf.random.uniform([2]).numpy()]}
    y = model(np.ones((1, 3), "float32"))
    out["first_call"] = {"kernel": [float(v) for v in halving.kernel.numpy().ravel()],
                         "seed_state": [int(v) for v in noisy.gen.state.numpy()],
                         "shape": list(y.shape)}
    tokens = keras.Input((4,), dtype="int32")
    emb = keras.layers.Embedding(6, 2, mask_zero=True, embeddings_initializer="ones")
    pooled = MaskedMean()(emb(tokens))
    masked = keras.Model(tokens, pooled)
    out["masked_mean"] = [[round(float(v), 5) for v in row]
                          for row in masked(np.array([[1, 2, 0, 0], [3, 0, 0, 0]])).numpy()]
    return out


def recompile_keeps_metrics(tf, keras, np):
    """``compile`` without ``metrics`` keeps the metrics compiled before (their names in the logs),
    as it keeps the loss without ``loss``; ``compile`` with metrics replaces them."""
    inp = keras.Input((3,), name="i")
    model = keras.Model(inp, [keras.layers.Dense(1, name="score")(inp),
                              keras.layers.Dense(2, activation="softmax", name="cls")(inp)])
    x, ya, yb = np.ones((4, 3), "float32"), np.ones((4, 1), "float32"), np.ones((4, 2), "float32") / 2
    keys = []
    model.compile(optimizer="sgd", loss=["mse", "categorical_crossentropy"],
                  metrics={"score": [keras.metrics.MeanAbsoluteError()], "cls": ["accuracy"]})
    keys.append(sorted(model.fit(x, [ya, yb], verbose=0).history))
    model.compile(optimizer="sgd", loss=["mse", "categorical_crossentropy"])
    keys.append(sorted(model.fit(x, [ya, yb], verbose=0).history))
    model.compile(optimizer="sgd")
    keys.append(sorted(model.fit(x, [ya, yb], verbose=0).history))
    model.compile(optimizer="sgd", loss=["mse", "categorical_crossentropy"], metrics=[["mse"], None])
    keys.append(sorted(model.fit(x, [ya, yb], verbose=0).history))
    fresh = keras.Model(inp, model.outputs)
    fresh.compile(optimizer="sgd", loss=["mse", "categorical_crossentropy"],
                  metrics=[[keras.metrics.MeanAbsoluteError()], None])
    fresh.compile(optimizer="sgd", loss=["mse", "mse"])  # (compiled, not yet built: still kept)
    keys.append(sorted(fresh.fit(x, [ya, yb], verbose=0).history))
    return keys


def fit_array_steps(tf, keras, np):
    """Array data with ``steps`` and no ``batch_size``: Keras's array adapter makes ``steps``
    batches of one pass (``ceil(rows / steps)`` rows each), so no epoch runs out of data unless
    the rounding leaves fewer batches than steps; with a ``batch_size`` the pass goes on across
    epochs. BackupAndRestore then resumes an interrupted fit at the epoch after its last backup
    (epoch or batch saves), with the optimizer's iterations restored."""
    import tempfile
    import warnings

    x = np.arange(12, dtype="float32").reshape(12, 1)
    out = {}
    runs = {
        "fit_steps": lambda m: m.fit(x, x, steps_per_epoch=3, epochs=2, shuffle=False, verbose=0),
        "fit_steps_rounded": lambda m: m.fit(x, x, steps_per_epoch=5, epochs=2, shuffle=False, verbose=0),
        "fit_steps_batch": lambda m: m.fit(x, x, batch_size=5, steps_per_epoch=2, epochs=2, shuffle=False,
                                           verbose=0),
        "fit_validation_steps": lambda m: m.fit(x, x, steps_per_epoch=2, epochs=1, shuffle=False, verbose=0,
                                                validation_data=(x, x), validation_steps=4),
        "evaluate_steps": lambda m: m.evaluate(x, x, steps=4, verbose=0),
        "predict_steps": lambda m: m.predict(x, steps=2, verbose=0),
    }
    for name, run in runs.items():
        seen = []

        def note(kind, data, seen=seen):
            d = data[0] if isinstance(data, tuple) else data
            seen.append([kind] + [int(v) for v in np.asarray(d).ravel()])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            run(_recorder(keras, note))
        out[name] = {"seen": seen, "ran_out": sum("ran out of data" in str(w.message) for w in caught)}

    class Interrupt(keras.callbacks.Callback):
        def __init__(self, epoch=None, batches=None):
            super().__init__()
            self.epoch, self.batches, self.count = epoch, batches, 0

        def on_train_batch_end(self, batch, logs=None):
            self.count += 1
            if self.count == self.batches:
                raise RuntimeError("interrupted")

        def on_epoch_end(self, epoch, logs=None):
            if epoch == self.epoch:
                raise RuntimeError("interrupted")

    def model():
        m = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
        m.compile(optimizer="adam", loss="mse")
        return m

    for name, save_freq, stop in (("resume_epoch", "epoch", {"epoch": 1}),
                                  ("resume_batches", 3, {"batches": 7})):
        backup = keras.callbacks.BackupAndRestore(tempfile.mkdtemp(), save_freq=save_freq)
        m = model()
        try:
            m.fit(x, x, steps_per_epoch=3, epochs=4, verbose=0, callbacks=[backup, Interrupt(**stop)])
        except RuntimeError:
            pass
        interrupted = int(m.optimizer.iterations.numpy())
        m = model()
        epochs = m.fit(x, x, steps_per_epoch=3, epochs=4, verbose=0, callbacks=[backup]).epoch
        out[name] = {"interrupted": interrupted, "epochs": list(epochs),
                     "iterations": int(m.optimizer.iterations.numpy()),
                     "kept": os.path.exists(backup.backup_dir)}
    return out


def layer_metrics(tf, keras, np):
    """Metrics a layer holds (in attributes, lists, nested layers) and updates in its call: fit
    logs them under their names beside the add_loss loss of a model compiled without a loss,
    resets them each epoch, and evaluate and metrics_names list them after the compiled ones
    (a nested layer's metric once for each layer above it, as Keras's Trainer.metrics walks)."""
    class Endpoint(keras.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.acc = keras.metrics.BinaryAccuracy(name="acc")
            self.extra = [keras.metrics.Mean(name="mean_logit")]

        def call(self, logits, targets=None):
            if targets is not None:
                self.add_loss(keras.ops.mean(keras.ops.square(logits - targets)))
                self.acc.update_state(targets, keras.ops.sigmoid(logits))
                self.extra[0].update_state(logits)
            return logits

    class Outer(keras.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.inner = Endpoint(name="inner")
            self.count = keras.metrics.Sum(name="rows")

        def call(self, logits, targets=None):
            self.count.update_state(keras.ops.ones_like(logits[:, 0]))
            return self.inner(logits, targets)

    rng = np.random.default_rng(0)
    x = rng.normal(size=(10, 3)).astype("float32")
    t = (rng.random((10, 1)) > 0.5).astype("float32")
    out = {}
    keras.utils.set_random_seed(2)
    inp, tgt = keras.Input((3,), name="x"), keras.Input((1,), name="t")
    endpoint = Endpoint(name="endpoint")
    model = keras.Model([inp, tgt], endpoint(keras.layers.Dense(1, name="d")(inp), tgt))
    model.compile(keras.optimizers.SGD(0.1))
    hist = model.fit([x, t], epochs=2, batch_size=4, shuffle=False, verbose=0).history
    out["functional"] = {k: [round(float(v), 5) for v in hist[k]] for k in sorted(hist)}
    out["functional_names"] = model.metrics_names
    out["functional_evaluate"] = [round(float(v), 5) for v in model.evaluate([x, t], batch_size=4, verbose=0)]
    out["layer_metric_names"] = [m.name for m in endpoint.metrics]

    keras.utils.set_random_seed(3)
    inp, tgt = keras.Input((3,), name="x"), keras.Input((1,), name="t")
    outer = Outer(name="outer")
    model = keras.Model([inp, tgt], outer(keras.layers.Dense(1, name="d")(inp), tgt))
    model.compile(keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    hist = model.fit([x, t], t, epochs=2, batch_size=4, shuffle=False, verbose=0).history
    out["nested"] = {k: [round(float(v), 5) for v in hist[k]] for k in sorted(hist)}
    out["nested_names"] = model.metrics_names
    out["nested_evaluate"] = [round(float(v), 5) for v in model.evaluate([x, t], t, batch_size=4, verbose=0)]
    out["outer_metric_names"] = [m.name for m in outer.metrics]
    return out


def steps_per_execution(tf, keras, np):
    """``compile(steps_per_execution=n)``: the callbacks hear of each execution of up to ``n``
    steps (``on_*_batch_begin`` at its first step, ``on_*_batch_end`` at its last step number,
    with the last step's logs); an execution takes up to ``n`` batches while the data lasts, even
    past ``steps_per_epoch``; the epoch iterator counts ``n`` steps per execution. A dataset of
    unknown size ends each epoch on an execution that gets no batch (its begin is heard); with
    ``steps_per_epoch`` the number of steps it learnt counts that execution too. Also the
    optimizer's iterations in traced steps of such data."""
    import warnings

    def recorder(spe, events):
        class Recorder(keras.Model):
            def __init__(self):
                super().__init__()
                self.dense = keras.layers.Dense(1)

            def call(self, x):
                return self.dense(x)

            def train_step(self, data):
                events.append(["train"] + [int(v) for v in np.asarray(data[0]).ravel()])
                return {"loss": 0.0}

            def test_step(self, data):
                events.append(["test"] + [int(v) for v in np.asarray(data[0]).ravel()])
                return {"loss": 0.0}

            def predict_step(self, data):
                x = data[0] if isinstance(data, tuple) else data
                events.append(["predict"] + [int(v) for v in np.asarray(x).ravel()])
                return x

        class Heard(keras.callbacks.Callback):
            def on_train_batch_begin(self, batch, logs=None):
                events.append(["begin", int(batch)])

            def on_train_batch_end(self, batch, logs=None):
                events.append(["end", int(batch)])

            def on_test_batch_begin(self, batch, logs=None):
                events.append(["test_begin", int(batch)])

            def on_test_batch_end(self, batch, logs=None):
                events.append(["test_end", int(batch)])

            def on_predict_batch_begin(self, batch, logs=None):
                events.append(["predict_begin", int(batch)])

            def on_predict_batch_end(self, batch, logs=None):
                events.append(["predict_end", int(batch), int(np.asarray(logs["outputs"]).shape[0])])

            def on_epoch_end(self, epoch, logs=None):
                events.append(["epoch_end", int(epoch)])

        model = Recorder()
        model.compile(optimizer="sgd", loss="mse", run_eagerly=True, steps_per_execution=spe)
        return model, Heard()

    x = np.arange(14, dtype="float32").reshape(14, 1)
    ds = lambda: tf.data.Dataset.from_tensor_slices((x, x)).batch(2)  # noqa: E731 (7 batches)
    unknown = lambda: tf.data.Dataset.from_tensor_slices((x, x)).filter(lambda a, b: a[0] < 6).batch(2)  # noqa: E731
    runs = {
        "known": (3, lambda m, cb: m.fit(ds(), epochs=2, verbose=0, callbacks=[cb])),
        "steps": (3, lambda m, cb: m.fit(ds(), steps_per_epoch=5, epochs=2, verbose=0, callbacks=[cb])),
        "past_steps": (10, lambda m, cb: m.fit(x, x, batch_size=4, steps_per_epoch=2, epochs=2, shuffle=False,
                                               verbose=0, callbacks=[cb])),
        "unknown": (2, lambda m, cb: m.fit(unknown(), epochs=2, verbose=0, callbacks=[cb])),
        "unknown_steps": (1, lambda m, cb: m.fit(unknown(), steps_per_epoch=2, epochs=4, verbose=0,
                                                 callbacks=[cb])),
        "unknown_steps_spe2": (2, lambda m, cb: m.fit(unknown(), steps_per_epoch=2, epochs=3, verbose=0,
                                                      callbacks=[cb])),
        "validation": (2, lambda m, cb: m.fit(x[:4], x[:4], batch_size=2, epochs=1, verbose=0, callbacks=[cb],
                                              shuffle=False, validation_data=ds())),
        "evaluate": (3, lambda m, cb: m.evaluate(ds(), verbose=0, callbacks=[cb])),
        "predict": (3, lambda m, cb: m.predict(x, batch_size=3, verbose=0, callbacks=[cb]).shape),
    }
    out = {}
    for name, (spe, run) in runs.items():
        events = []
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = run(*recorder(spe, events))
        out[name] = {"events": events, "ran_out": sum("ran out of data" in str(w.message) for w in caught)}
        if name == "predict":
            out[name]["shape"] = list(got)
    for name, spe, steps, epochs in (("iterations_unknown", 1, None, 2), ("iterations_unknown_steps", 1, 2, 4),
                                     ("iterations_unknown_spe2", 2, None, 2), ("iterations_known_spe3", 3, None, 2)):
        keras.utils.set_random_seed(1)
        m = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
        m.compile(optimizer="sgd", loss="mse", steps_per_execution=spe)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            hist = m.fit(unknown() if "unknown" in name else ds(), steps_per_epoch=steps, epochs=epochs,
                         verbose=0).history
        out[name] = {"iterations": int(m.optimizer.iterations.numpy()),
                     "loss": [round(float(v), 4) for v in hist["loss"]]}
    return out


def stop_evaluating_predicting(tf, keras, np):
    """A callback that sets ``model.stop_evaluating`` (``stop_predicting``) in its batch end ends
    evaluate (predict) there, with the logs (outputs) of the batches run; fit's validation and
    the next evaluate start afresh."""
    x = np.arange(12, dtype="float32").reshape(12, 1)

    class Stop(keras.callbacks.Callback):
        def __init__(self, at):
            super().__init__()
            self.at, self.heard = at, []

        def on_test_batch_end(self, batch, logs=None):
            self.heard.append(["test", int(batch)])
            if batch == self.at:
                self.model.stop_evaluating = True

        def on_predict_batch_end(self, batch, logs=None):
            self.heard.append(["predict", int(batch)])
            if batch == self.at:
                self.model.stop_predicting = True

    keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, kernel_initializer="zeros")])
    model.compile(optimizer="sgd", loss="mae")
    stop = Stop(1)
    out = {"evaluate": round(float(model.evaluate(x, x, batch_size=3, verbose=0, callbacks=[stop])), 5),
           "again": round(float(model.evaluate(x, x, batch_size=3, verbose=0, callbacks=[Stop(9)])), 5),
           "predict": [round(float(v), 5) for v in model.predict(x, batch_size=5, verbose=0,
                                                                   callbacks=[stop]).ravel()]}
    hist = model.fit(x, x, batch_size=6, epochs=2, shuffle=False, verbose=0, callbacks=[stop],
                     validation_data=(x, x), validation_batch_size=4).history
    out["fit"] = {k: [round(float(v), 5) for v in hist[k]] for k in sorted(hist)}
    out["heard"] = stop.heard
    return out


def validation_freq_list(tf, keras, np):
    """``fit(validation_freq=[...])`` validates after the listed epochs (from 1): the history's
    ``val_`` lists hold those epochs' values only."""
    x = np.arange(8, dtype="float32").reshape(8, 1) / 8
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, kernel_initializer="zeros")])
    model.compile(optimizer="sgd", loss="mse")
    hist = model.fit(x, x, batch_size=4, epochs=4, shuffle=False, verbose=0, validation_data=(x, x),
                     validation_freq=[1, 3]).history
    return {k: [round(float(v), 5) for v in hist[k]] for k in sorted(hist)}


def backup_steps_per_execution(tf, keras, np):
    """BackupAndRestore's batch saves count the steps from the batch numbers the callbacks hear,
    which ``steps_per_execution`` makes each execution's last step: when it saves (the epoch and
    batch it writes), and where an interrupted fit resumes (the epoch of the last save)."""
    import json
    import tempfile

    class Logged(keras.callbacks.BackupAndRestore):
        saved = []

        def _save_model(self):
            super()._save_model()
            with open(self._training_metadata_path) as fh:
                self.saved.append(json.load(fh))

    class Interrupt(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            if self.model.optimizer.iterations.numpy() >= 10:
                raise RuntimeError("interrupted")

    def model():
        m = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
        m.compile(optimizer="adam", loss="mse", steps_per_execution=2)
        return m

    x = np.arange(12, dtype="float32").reshape(12, 1)
    backup = Logged(tempfile.mkdtemp(), save_freq=3)
    m = model()
    try:
        m.fit(x, x, batch_size=2, epochs=3, shuffle=False, verbose=0, callbacks=[backup, Interrupt()])
    except RuntimeError:
        pass
    out = {"saved": list(Logged.saved), "interrupted": int(m.optimizer.iterations.numpy())}
    m = model()
    out["epochs"] = list(m.fit(x, x, batch_size=2, epochs=3, shuffle=False, verbose=0, callbacks=[backup]).epoch)
    out["iterations"] = int(m.optimizer.iterations.numpy())
    out["saved_after"] = list(Logged.saved)
    return out


def custom_step_epoch_logs(tf, keras, np):
    """The epoch's logs (history, on_epoch_end, evaluate's result) are the model's metrics'
    results when they have the same names as the last step's logs, else the last step's logs: a
    train_step of one's own returning ``{"loss": loss}`` without updating the loss tracker logs
    its result (0 when never updated); one returning other names keeps its last logs."""
    class M(keras.Model):
        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                loss = self.compute_loss(y=y, y_pred=self(x, training=True))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            return {"loss": loss}

        def test_step(self, data):
            x, y = data
            return {"loss": self.compute_loss(y=y, y_pred=self(x, training=False))}

    class N(M):
        def train_step(self, data):
            return {**super().train_step(data), "extra": 2.0}

    x = np.arange(8, dtype="float32").reshape(4, 2) / 8
    out = {}
    for cls in (M, N):
        inp = keras.Input((2,))
        m = cls(inp, keras.layers.Dense(1, kernel_initializer="ones")(inp))
        m.compile(optimizer="sgd", loss="mse")
        batches = []
        cb = keras.callbacks.LambdaCallback(
            on_train_batch_end=lambda batch, logs: batches.append(round(float(logs["loss"]), 4)))
        hist = m.fit(x, x[:, :1], batch_size=2, epochs=2, shuffle=False, verbose=0, callbacks=[cb],
                     validation_data=(x, x[:, :1])).history
        out[cls.__name__] = {"history": {k: [round(float(v), 4) for v in hist[k]] for k in sorted(hist)},
                             "batches": batches,
                             "evaluate": round(float(m.evaluate(x, x[:, :1], batch_size=2, verbose=0)), 4)}
    return out


def means_over_unknown_length(tf, keras, np):
    """The means fit and evaluate report over a dataset of unknown size end on the step begun on
    the batch the data does not have: with a static batch size (``drop_remainder=True``),
    TensorFlow runs the built-in step's additions to the mean metrics' counts (the loss trackers'
    static batch size, each unweighted metric's static number of values) before the missing
    batch fails it, so every such mean is n / (n + 1) of the batches' (a weighted metric fed the
    data's sample weights, a ``Sum``, a step of one's own and a batch of dynamic size are not)."""
    import warnings

    x = np.linspace(-1, 1, 120).reshape(40, 3).astype("float32")
    y = np.linspace(0, 1, 40).astype("float32")
    sw = np.linspace(0.5, 2, 40).astype("float32")

    class Own(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(1, kernel_initializer="ones")
            self.mean = keras.metrics.Mean(name="own_mean")

        def call(self, x):
            return self.dense(x)

        def test_step(self, data):
            a, b = data
            self.mean.update_state(tf.reduce_mean((self(a)[:, 0] - b) ** 2))
            return {"own_mean": self.mean.result()}

    def model(outputs=1):
        inp = keras.Input((3,))
        if outputs == 1:
            return keras.Model(inp, keras.layers.Dense(1, kernel_initializer="ones")(inp))
        return keras.Model(inp, {"a": keras.layers.Dense(1, kernel_initializer="ones", name="a")(inp),
                                 "b": keras.layers.Dense(2, kernel_initializer="zeros", name="b")(inp)})

    def compiled(outputs=1):
        m = model(outputs)
        if outputs == 1:
            m.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse",
                      metrics=["mae", keras.metrics.RootMeanSquaredError(name="rmse"),
                               keras.metrics.Precision(name="precision")],
                      weighted_metrics=["mae"])
        else:
            m.compile(optimizer=keras.optimizers.SGD(0.1), loss_weights={"a": 1.0, "b": 0.5},
                      loss={"a": "mse", "b": keras.losses.SparseCategoricalCrossentropy(from_logits=True)})
        return m

    def rounded(logs):
        return {k: round(float(v), 5) for k, v in sorted(logs.items())}

    unknown = tf.data.Dataset.from_tensor_slices((x, y)).filter(lambda a, b: True)
    weighted = tf.data.Dataset.from_tensor_slices((x, y, sw)).filter(lambda a, b, c: True)
    two = tf.data.Dataset.from_tensor_slices((x, {"a": y, "b": (y > 0.5).astype("int32")}))
    two = two.filter(lambda a, b: True)
    runs = {"static": lambda: unknown.batch(8, drop_remainder=True),
            "static_partial": lambda: unknown.batch(16, drop_remainder=True),
            "dynamic": lambda: unknown.batch(8),
            "known": lambda: tf.data.Dataset.from_tensor_slices((x, y)).batch(8, drop_remainder=True),
            "sample_weights": lambda: weighted.batch(8, drop_remainder=True)}
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, data in runs.items():
            m = compiled()
            out[name] = {"evaluate": rounded(m.evaluate(data(), verbose=0, return_dict=True)),
                         "fit": {k: [round(float(v), 5) for v in h]
                                 for k, h in sorted(m.fit(data(), epochs=2, verbose=0).history.items())}}
        m = compiled(2)
        out["dict_outputs"] = {"evaluate": rounded(m.evaluate(two.batch(8, drop_remainder=True), verbose=0,
                                                              return_dict=True))}
        m = Own()
        m.compile()
        out["own_step"] = rounded(m.evaluate(unknown.batch(8, drop_remainder=True), verbose=0,
                                             return_dict=True))
    return out


def data_take_ends_at_its_last(tf, keras, np):
    """``take(n)`` of a reshuffling ``shuffle().repeat()`` asks for no element after its n-th:
    a pass that the n-th element ends or leaves unfinished draws no next seeds, so the next
    iterators of the dataset (another ``take``, a ``sample_from_datasets`` over it) get the
    seeds that follow (recorded without TF's injected prefetch thread, whose read-ahead is a
    race)."""
    options = tf.data.Options()
    options.experimental_optimization.inject_prefetch = False
    out = {}
    for name, make in (("slices", lambda: tf.data.Dataset.from_tensor_slices(np.arange(10, 16))),
                       ("mapped", lambda: tf.data.Dataset.range(6).map(lambda x: x + 10))):
        keras.utils.set_random_seed(0)
        ds = make().shuffle(100).repeat().with_options(options)
        other = tf.data.Dataset.range(100, 106).shuffle(100).repeat().with_options(options)
        runs = [[int(x) for x in ds.take(n)] for n in (0, 4, 6, 8, 12, 3)]
        mixed = tf.data.Dataset.sample_from_datasets([ds, other], weights=[0.5, 0.5], seed=3)
        runs.append([int(x) for x in mixed.with_options(options).take(10)])
        runs.append([int(x) for x in ds.take(7)])
        out[name] = runs
    return out


def data_prefetch_reads_ahead(tf, keras, np):
    """``prefetch(k)``'s thread fills its buffer while the consumer works: an iterator left after
    its m-th element (m >= 2, a consumer that takes its time) has made k elements more, running
    their ``map`` functions and beginning the passes of a ``shuffle().repeat()`` below it, so the
    next iterator's orders follow those passes (recorded without TF's injected prefetch, with a
    consumer that sleeps 0.2 s per element so that the buffer is full; tapegrad has no thread
    to wait for)."""
    import time

    def pause():
        if tf.__name__ == "tensorflow":
            time.sleep(0.2)

    options = tf.data.Options()
    options.experimental_optimization.inject_prefetch = False
    seen = []
    made = tf.data.Dataset.range(10).map(lambda x: tf.py_function(lambda v: seen.append(int(v)) or v, [x], tf.int64))
    out = {}
    for k, m in ((2, 3), (1, 2), (3, 4)):
        seen.clear()
        for _ in made.prefetch(k).with_options(options).take(m):
            pause()
        pause()
        out[f"made_{k}_{m}"] = sorted(seen)
    keras.utils.set_random_seed(0)
    ds = tf.data.Dataset.range(4).shuffle(10).repeat().batch(3).prefetch(2).with_options(options)
    runs = []
    for m in (2, 3):
        got = []
        for b in ds.take(m):
            got.append([int(x) for x in b])
            pause()
        pause()
        runs.append(got)
    runs.append([[int(x) for x in b] for b in ds.take(2)])
    out["shuffled"] = runs
    return out


def class_weight_dataset_targets(tf, keras, np):
    """``class_weight`` on a Dataset weighs each entry of the target without its last axis (a
    segmentation mask's pixels; argmax of one-hot rows; a class the dict lacks below its largest
    weighs 1, one beyond it fails in tf.gather); arrays of such targets are refused (TypeError,
    Keras's per-row loop)."""
    keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(16, 4, 4, 2)).astype("float32")
    mask = rng.integers(0, 4, (16, 4, 4, 1)).astype("uint8")
    out = {}
    m = keras.Sequential([keras.Input((4, 4, 2)), keras.layers.Conv2D(4, 1)])
    m.compile("sgd", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    h = m.fit(tf.data.Dataset.from_tensor_slices((x, mask)).batch(8), epochs=2,
              class_weight={0: 2.0, 1: 0.5, 3: 1.5}, verbose=0)
    out["mask"] = [round(float(v), 6) for v in h.history["loss"]]
    onehot = np.eye(3, dtype="float32")[rng.integers(0, 3, 16)]
    d = keras.Sequential([keras.Input((4, 4, 2)), keras.layers.Flatten(), keras.layers.Dense(3)])
    d.compile("sgd", keras.losses.CategoricalCrossentropy(from_logits=True))
    h = d.fit(tf.data.Dataset.from_tensor_slices((x, onehot)).batch(8), epochs=1,
              class_weight={0: 3.0, 2: 0.25}, verbose=0)
    out["onehot"] = [round(float(v), 6) for v in h.history["loss"]]
    try:
        m.fit(x, mask, batch_size=8, epochs=1, class_weight={0: 2.0}, verbose=0)
        out["arrays"] = "no error"
    except Exception as e:  # noqa: BLE001 (the error's type is the result)
        out["arrays"] = type(e).__name__
    try:
        m.fit(tf.data.Dataset.from_tensor_slices((x, mask)).batch(8), epochs=1, class_weight={0: 2.0},
              verbose=0)
        out["beyond"] = "no error"
    except Exception as e:  # noqa: BLE001
        out["beyond"] = type(e).__name__
    return out


def steps_call_without_training(tf, keras, np):
    """The built-in steps pass ``training`` only to a model whose ``call`` takes it: a subclassed
    model without it runs its Dropout (nested in a layer of its own or not) as in inference in
    ``fit``, ``evaluate`` and ``predict``, and its seed generators do not advance; with it, or
    in a Sequential model, ``fit`` drops out."""
    keras.utils.set_random_seed(0)

    class Inner(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.drop = keras.layers.Dropout(0.5)

        def call(self, x):
            return self.drop(x)

    class Plain(keras.Model):
        def __init__(self, nested):
            super().__init__()
            self.inner = Inner() if nested else keras.layers.Dropout(0.5)
            self.w = self.add_weight(shape=(), initializer="ones")

        def call(self, x):
            return self.inner(x) * self.w

    class WithTraining(Plain):
        def call(self, x, training=None):
            return self.inner(x, training=training) * self.w

    x, y = np.ones((4, 8), "float32"), np.zeros((4, 8), "float32")
    out = {}
    for name, model in (("nested", Plain(True)), ("direct", Plain(False)), ("with_training", WithTraining(True)),
                        ("sequential", keras.Sequential([keras.Input((8,)), keras.layers.Dropout(0.5),
                                                         keras.layers.Dense(8, kernel_initializer="ones")]))):
        model.compile("sgd", "mse")
        h = model.fit(x, y, batch_size=2, epochs=2, verbose=0)
        drops = [l for l in model._flatten_layers() if isinstance(l, keras.layers.Dropout)]
        out[name] = {"loss": [round(float(v), 5) for v in h.history["loss"]],
                     "evaluate": round(float(model.evaluate(x, y, verbose=0)), 5),
                     "predict_sum": round(float(np.sum(model.predict(x, verbose=0))), 4),
                     "seed_state": [int(v) for v in np.asarray(drops[0].seed_generator.state)]}
    return out


def seed_generator_variables(tf, keras, np):
    # Keras 3: a layer's variables are its whole state, the seed generators' included (not its
    # weights); each state is an int64 Keras variable "<scope>/seed_generator_<n>/seed_generator_state"
    keras.utils.set_random_seed(3)

    def facts(vs):
        return [[v.path, v.name, str(v.dtype), bool(v.trainable), list(v.shape)] for v in vs]

    class Noisy(keras.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self._gen = keras.random.SeedGenerator(5)   # (a private attribute is tracked too)

        def call(self, x):
            return x + keras.random.normal(keras.ops.shape(x), seed=self._gen)

    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.Dropout(0.5, seed=1),
                          Noisy(), keras.layers.GaussianNoise(0.1, seed=2)])
    out = {"variables": facts(m.variables), "non_trainable_variables": facts(m.non_trainable_variables),
           "weights": facts(m.weights), "non_trainable_weights": facts(m.non_trainable_weights),
           "trainable_variables": facts(m.trainable_variables)}
    m.compile("sgd", "mse")
    m.fit(np.ones((4, 3), "float32"), np.ones((4, 2), "float32"), batch_size=2, epochs=1, verbose=0)
    out["states_after_fit"] = [np.asarray(v).tolist() for v in m.variables if "seed" in v.path]
    m.trainable = False
    out["frozen_non_trainable_variables"] = len(m.non_trainable_variables)
    g = keras.random.SeedGenerator(7)
    out["generator"] = facts([g.state]) + [isinstance(g.state, keras.Variable)]
    return out


def fit_under_strategy_reads_a_batch_first(tf, keras, np):
    # Keras 3's TF trainer, for a model made in a strategy's scope, reads one batch of a new pass
    # before fit and before each evaluate (_maybe_symbolic_build): a reshuffling dataset's orders
    # move on by one; array data's do not
    out = {}
    for name in ("mirrored", "default"):
        keras.utils.set_random_seed(1)
        strategy = tf.distribute.MirroredStrategy() if name == "mirrored" else tf.distribute.get_strategy()
        rng = np.random.default_rng(0)
        x = rng.standard_normal((40, 4)).astype("float32")
        y = (np.arange(40) % 3).astype("int64")
        with strategy.scope():
            m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3)])
            m.compile(optimizer="sgd", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        h = m.fit(x, y, batch_size=8, epochs=2, verbose=0, validation_split=0.2)
        ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(100).batch(8)
        h2 = m.fit(ds, epochs=2, verbose=0, validation_data=ds)
        out[name] = {"arrays": [round(float(v), 5) for v in h.history["loss"] + h.history["val_loss"]],
                     "dataset": [round(float(v), 5) for v in h2.history["loss"] + h2.history["val_loss"]],
                     "evaluate": round(float(m.evaluate(ds, verbose=0)), 5)}
    return out


def keras_config(tf, keras, np):
    # keras.config's answers and its debugging caps of fit/evaluate/predict (and their warnings);
    # only models have `layers`
    import warnings
    c = keras.config
    out = {"answers": [c.backend(), c.floatx(), c.epsilon(), c.image_data_format(),
                       c.is_flash_attention_enabled(), c.is_traceback_filtering_enabled(), c.max_epochs(),
                       c.max_steps_per_epoch(), c.dtype_policy().name, c.is_nnx_enabled()]}
    c.disable_flash_attention()
    off = c.is_flash_attention_enabled()
    c.enable_flash_attention()
    out["flash"] = [off, c.is_flash_attention_enabled()]
    c.set_max_epochs(2)
    c.set_max_steps_per_epoch(3)
    try:
        m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
        m.compile("sgd", "mse")
        x, y = np.ones((40, 2), "float32"), np.ones((40, 1), "float32")
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            h = m.fit(x, y, epochs=5, batch_size=4, verbose=0)
            m.evaluate(x, y, batch_size=4, verbose=0)
            p = m.predict(x, batch_size=4, verbose=0)
        out["capped"] = [len(h.history["loss"]), list(p.shape),
                         sorted({str(x.message) for x in w if "Limiting" in str(x.message)})]
    finally:
        c.set_max_epochs(None)
        c.set_max_steps_per_epoch(None)
    out["has_layers"] = [hasattr(keras.layers.Dense(2), "layers"), hasattr(m, "layers")]
    return out


def set_random_seed_resets_generator(tf, keras, np):
    # keras.utils.set_random_seed forgets the global SeedGenerator behind seed=None: the next draw
    # makes a new one from Python's random, so a reseeded program draws the same numbers again
    def draws():
        return [round(float(v), 6) for v in np.concatenate([
            np.asarray(keras.random.uniform((3,))), np.asarray(keras.random.normal((2,)))])]
    keras.utils.set_random_seed(3)
    first = draws()
    keras.utils.set_random_seed(3)
    again = draws()
    keras.utils.set_random_seed(5)
    return {"first": first, "again": again, "other_seed": draws()}


def training_call_context(tf, keras, np):
    """Keras 3.15's call context: a layer called without ``training`` takes the context's value,
    else its call's default, and leaves that value in the context for every layer called after
    it in the same outermost call (a Resizing layer's ``training=True`` reaches the
    BatchNormalization after it, not the one before it: a functional model runs its nodes
    deepest first); an explicit ``training`` is left there too."""
    keras.utils.set_random_seed(1)
    layers = keras.layers
    inp = layers.Input((6, 6, 2))
    naive = layers.Resizing(3, 3)(inp)
    x = layers.BatchNormalization(name="before")(layers.Conv2D(2, 1, name="c1")(inp))
    x = layers.Resizing(3, 3)(x)
    x = layers.BatchNormalization(name="after")(layers.Conv2D(2, 1, name="c2")(x))
    model = keras.Model(inp, layers.Add()([naive, x]))
    data = np.random.default_rng(1).normal(size=(2, 6, 6, 2)).astype("float32")
    out = {"call": [round(float(v), 5) for v in np.asarray(model(data)).ravel()[:12]]}
    out["stats"] = {n: [round(float(v), 6) for v in np.asarray(model.get_layer(n).moving_mean)]
                    for n in ("before", "after")}
    out["training_false"] = [round(float(v), 5) for v in
                             np.asarray(model(data, training=False)).ravel()[:6]]

    class Inner(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.drop = layers.Dropout(0.5, seed=2)
            self.bn = layers.BatchNormalization()

        def call(self, x):
            return self.bn(self.drop(x, training=True))
    inner = Inner()
    inner(np.ones((4, 3), "float32"))
    out["explicit_stays"] = [round(float(v), 6) for v in np.asarray(inner.bn.moving_mean)]
    return out


def random_crop_default_seed(tf, keras, np):
    """An unseeded RandomCrop draws its ``seed`` attribute before its generator's seed, so under
    set_random_seed its windows are those of the generator made second."""
    keras.utils.set_random_seed(0)
    crop = keras.layers.RandomCrop(3, 3)
    images = np.arange(2 * 9 * 9, dtype="float32").reshape(2, 9, 9, 1)
    corners = [float(np.asarray(crop(images, training=True))[0, 0, 0, 0]) for _ in range(3)]
    return {"seed": int(crop.seed), "corners": corners}


CASES = [mha_then_dense, mha_seeded_initializer, data_map_random, data_shuffle_repeat_iterators,
         data_iterator_seeds, legacy_random_in_fit, fit_epoch_iterators, input_dtypes, small_facts,
         functional_construction, recompile_keeps_metrics, fit_array_steps,
         layer_metrics, steps_per_execution,
         stop_evaluating_predicting, validation_freq_list,
         backup_steps_per_execution, custom_step_epoch_logs, means_over_unknown_length,
         data_take_ends_at_its_last, data_prefetch_reads_ahead, class_weight_dataset_targets,
         steps_call_without_training, seed_generator_variables,
         fit_under_strategy_reads_a_batch_first, keras_config, set_random_seed_resets_generator,
         training_call_context, random_crop_default_seed]


def main():
    from _tf import record_keras_cases
    record_keras_cases(CASES, FIXTURE, preview=300)

if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()
