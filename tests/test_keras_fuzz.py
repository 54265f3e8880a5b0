"""Differential fuzzing of tapegrad.keras against Keras 3.15 (on TensorFlow 2.21).

``tools/record_keras_fuzz.py`` generated small Keras programs (``tests/keras_fuzz/generator.py``:
model styles, layers, compile and fit arguments, data pipelines, callbacks, saving), ran them
under Keras with ``tests/keras_fuzz/interpreter.py`` and stored programs and results in
``tests/fixtures/keras_fuzz.json.gz``. Here the same interpreter runs each program with
``import tapegrad as tf`` and every section is compared:

* structure exact: the same keys (history's metric names, the callback's log keys, the sections),
  the same list lengths (epochs run, batches seen), ints, strings and bools exact;
* errors: Keras's exception type must be tapegrad's type or one of its bases;
* float results (weights, losses, metrics, predictions): within tests/tf_compare.py's float32 floor
  (512 units in the last place relative, plus 64 units times the array's largest magnitude): the
  programs train for at most 3 epochs of at most 8 steps in float32, where each step's matmuls and
  reductions add in another order than TensorFlow's (a few units in the last place per step) and
  training carries those differences forward; Adam-like optimizers divide by the root of a second
  moment, which can double a relative difference per step on near-zero gradients. A
  prediction-derived metric that counts (accuracy, precision) moves in steps of 1/n, so a
  mismatch there is a real difference, not round-off.

Programs whose trained values are round-off noise amplified by the optimizer (``noise_driven``)
are compared on everything but their float values. Where tapegrad deliberately differs from Keras
(docs/differences.md), a rule of ``DIFFERENCES`` says which section is compared how. ``PENDING`` lists divergences found and not
yet fixed: they run as strict xfails.

TensorFlow is not needed (nor imported) here.
"""
import gzip
import importlib.util
import json
import os
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
for _path in (os.path.dirname(HERE), HERE):
    if _path not in sys.path:
        sys.path.insert(0, _path)

import tapegrad as tf  # noqa: E402
import tf_compare  # noqa: E402
from tapegrad import keras  # noqa: E402

from keras_fuzz.generator import generate  # noqa: E402
from keras_fuzz.interpreter import run  # noqa: E402
from tf_programs._encoding import decode_float  # noqa: E402

with gzip.open(os.path.join(HERE, "fixtures", "keras_fuzz.json.gz"), "rt", encoding="ascii") as _fh:
    FIXTURE = json.load(_fh)
PROGRAMS = {p["program"]["seed"]: p for p in FIXTURE["programs"]}
RTOL = tf_compare.floor("float32")
ATOL = RTOL * tf_compare.ATOL_FRACTION

# seed -> reason: divergences found by this fuzzer and not fixed yet (strict xfail)
PENDING: dict = {}


NORMALIZING_OPTIMIZERS = {"adam", "rmsprop", "Adam", "AdamW", "RMSprop", "Adagrad", "Nadam", "Adamax"}
PIECEWISE_LINEAR = {None, "relu", "leaky_relu", "linear", "relu6"}


def noise_driven(program):
    """Whether training moves a weight by noise: a bias of a layer with a piecewise-linear activation
    (or none) right before ``BatchNormalization``, trained by an optimizer that divides by the root
    of a gradient moment (Adam, RMSprop, Adagrad and their kin).

    For a unit whose batch lies on one linear piece, batch normalization cancels the bias exactly,
    so its gradient is pure round-off (about 1e-8, in TensorFlow too, with other last bits);
    ``m / sqrt(v)`` turns that noise into a full learning-rate step in its sign's direction. The
    bias then wanders differently in the two libraries, moves units across the kink and changes
    the other weights: the trained numbers are not reproducible from the program (seed 2: TensorFlow
    with oneDNN off moves the first epoch's loss by 5e-4 relative, tapegrad lands 6e-3 away). Such programs are compared on everything but their
    float values (keys, lengths, shapes, dtypes, integers, strings and error types).
    """
    opt = program["compile"]["optimizer"]
    if (opt if isinstance(opt, str) else opt["cls"]) not in NORMALIZING_OPTIMIZERS:
        return False
    body = program["body"]
    for layer, after in zip(body, body[1:]):
        kw = layer.get("kw", {})
        if after["cls"] == "BatchNormalization" and layer["cls"] not in ("BatchNormalization", "Lambda") \
                and kw.get("use_bias", True) \
                and (kw.get("activation") in PIECEWISE_LINEAR or kw.get("kernel_initializer") == "zeros") \
                and layer["cls"] not in ("Dropout", "GaussianNoise", "GaussianDropout", "Activation") \
                and not layer["cls"].startswith("SpatialDropout"):
            return True  # (a zero kernel makes the layer's output one constant per unit: all bias)
    return False


def noise_weights(program):
    """Whether one trained weight is pure round-off: ``MultiHeadAttention``'s key bias adds the same
    ``q . b_k`` to every score of a query, which the softmax cancels, so its gradient is round-off
    (seed 28: about 1e-9) that Adam-like optimizers turn into steps of about 1e-6. The model's
    outputs do not depend on it, so only ``weights`` is compared without float values."""
    opt = program["compile"]["optimizer"]
    return program.get("attention") == "mha" and \
        (opt if isinstance(opt, str) else opt["cls"]) in NORMALIZING_OPTIMIZERS


def _uses_huber_delta(program):
    """``keras.losses.Huber(delta=...)``: Keras 3.15's ``Huber.get_config`` leaves ``delta`` out, so
    a model loaded from a ``.keras`` file evaluates with ``delta=1``; tapegrad's config keeps it
    (docs/differences.md, Keras model files): the loaded model's ``evaluate`` differs, its
    predictions do not."""
    losses = program["compile"]["loss"]
    losses = losses.values() if isinstance(losses, dict) and "cls" not in losses else \
        losses if isinstance(losses, list) else [losses]
    if any(isinstance(v, dict) and v.get("cls") == "Huber" and v["kw"].get("delta", 1.0) != 1.0
           for v in losses):
        return {"keras_save.evaluate": "values"}
    return {}


def _one_weight_array_for_dict_targets(program):
    """A model with a list of outputs, targets given as a dict by output name and one
    ``sample_weight`` array: Keras 3.15 spreads the array over the dict's keys and then looks the
    weights up by list position, raising ``KeyError: 0``; tapegrad weighs every output's loss by the
    array (docs/differences.md, Keras training extras)."""
    if program.get("two_outputs") and program.get("y_form") == "dict" and program["data"].get("sample_weight"):
        return {"fit": "runs"}
    return {}


DIFFERENCES = [_uses_huber_delta, _one_weight_array_for_dict_targets]


def _floats(node):
    def walk(v):
        return [walk(w) for w in v] if isinstance(v, list) else decode_float(v)

    return np.array(walk(node["value"]), dtype=np.float64).reshape(node["shape"])


def _close(e, a, scale):
    e, a = np.asarray(e, np.float64), np.asarray(a, np.float64)
    if not np.array_equal(np.isnan(e), np.isnan(a)):
        return False
    finite = np.isfinite(e)
    if not np.array_equal(np.where(finite, 0, e), np.where(finite, 0, a)):
        return False
    return bool(tf_compare.within(a[finite], e[finite], spread=0.0, rtol=RTOL, atol=ATOL,
                                  scale=scale).all())


def compare(e, a, path="", scale=None, values=True):
    """Mismatches between Keras's encoded result ``e`` and tapegrad's ``a`` (float values only
    when ``values``)."""
    if e["kind"] == "error":
        if a["kind"] != "error":
            return [f"{path}: expected {e['type']} ({e['message'][:200]}), got {a['kind']}"]
        if e["type"] not in [a["type"]] + a.get("bases", []):
            return [f"{path}: expected {e['type']}, got {a['type']}: {a['message'][:200]}"]
        return []
    if a["kind"] != e["kind"]:
        extra = f" {a['type']}: {a['message'][:300]}" if a["kind"] == "error" else ""
        return [f"{path}: expected {e['kind']}, got {a['kind']}{extra}"]
    kind = e["kind"]
    if kind == "dict":
        if sorted(e["items"]) != sorted(a["items"]):
            return [f"{path}: keys {sorted(e['items'])} != {sorted(a['items'])}"]
        return [m for k in e["items"] for m in compare(e["items"][k], a["items"][k], f"{path}.{k}", scale, values)]
    if kind == "list":
        if len(e["items"]) != len(a["items"]):
            return [f"{path}: expected {len(e['items'])} items, got {len(a['items'])}"]
        floats = [decode_float(x["value"]) for x in e["items"] if x["kind"] == "float"]
        if floats and len(floats) == len(e["items"]):  # a series (a metric per epoch): one scale
            scale = max([1.0] + [abs(v) for v in floats if np.isfinite(v)])
        return [m for i, (x, y) in enumerate(zip(e["items"], a["items"]))
                for m in compare(x, y, f"{path}[{i}]", scale, values)]
    if kind == "float":
        if not values:
            return []
        ev, av = decode_float(e["value"]), decode_float(a["value"])
        s = scale or max(1.0, abs(ev) if np.isfinite(ev) else 1.0)
        return [] if _close(ev, av, s) else [f"{path}: expected {ev!r}, got {av!r}"]
    if kind == "tensor":
        if e["dtype"] != a["dtype"] or e["shape"] != a["shape"]:
            return [f"{path}: expected {e['dtype']}{e['shape']}, got {a['dtype']}{a['shape']}"]
        if e["dtype"] in ("float32", "float64", "float16"):
            if not values:
                return []
            ev, av = _floats(e), _floats(a)
            finite = np.isfinite(ev)
            s = max(1.0, float(np.abs(ev[finite]).max()) if finite.any() else 1.0)
            if not _close(ev, av, s):
                diff = np.abs(ev - av)
                return [f"{path}: values differ (max abs {np.nanmax(diff):.3g}, scale {s:.3g}):\n"
                        f"  expected {json.dumps(e['value'])[:300]}\n  got      {json.dumps(a['value'])[:300]}"]
            return []
        return [] if e["value"] == a["value"] else [f"{path}: {e['value']} != {a['value']}"]
    return [] if e.get("value") == a.get("value") else [f"{path}: {e.get('value')!r} != {a.get('value')!r}"]


def mismatches(seed):
    entry = PROGRAMS[seed]
    program = entry["program"]
    actual = run(program, tf, keras)
    expected = entry["result"]
    out = []
    if sorted(expected) != sorted(actual):
        out.append(f"sections {sorted(expected)} != {sorted(actual)}")
    values = not noise_driven(program)
    rules = {k: v for rule in DIFFERENCES for k, v in rule(program).items()}
    if noise_weights(program):
        rules["weights"] = "all values"
    for section in expected:
        if section == "save_weights" and not HAVE_H5PY:   # (an optional extra: tapegrad[h5])
            continue
        if rules.get(section) == "runs":  # Keras raised; tapegrad runs the program through
            assert expected[section]["kind"] == "error" and actual[section]["kind"] != "error", section
            return []
        if section not in actual:
            continue
        e, a = expected[section], actual[section]
        for path, how in rules.items():
            head, _, key = path.partition(".")
            if head == section and how == "values" and e["kind"] == a["kind"] == "dict" and key in e["items"]:
                e = dict(e, items={k: v for k, v in e["items"].items() if k != key})
                a = dict(a, items={k: v for k, v in a["items"].items() if k != key})
                out.extend(compare(expected[section]["items"][key], actual[section]["items"][key],
                                   path, values=False))
        out.extend(compare(e, a, section, values=values and rules.get(section) != "all values"))
    return out


def test_programs_are_what_the_generator_makes():
    for seed, entry in PROGRAMS.items():
        assert generate(seed) == entry["program"], seed


HAVE_H5PY = importlib.util.find_spec("h5py") is not None


def _params():
    for seed in sorted(PROGRAMS):
        marks = [pytest.mark.xfail(strict=True, reason=PENDING[seed])] if seed in PENDING else []
        yield pytest.param(seed, marks=marks, id=f"seed{seed}")


@pytest.mark.parametrize("seed", list(_params()))
def test_program_matches_keras(seed):
    found = mismatches(seed)
    assert not found, f"seed {seed}:\n" + "\n".join(found[:8])


def test_each_hook_gets_its_own_copy_of_the_logs():
    """Keras's CallbackList passes every hook a fresh, key-sorted dict of Python floats
    (``pythonify_logs``): ``learning_rate``, which ``LearningRateScheduler`` adds at each epoch's
    end, reaches ``History`` but not ``on_train_end``'s logs (seeds 15, 17, 20 found it)."""
    seen = {}

    class Spy(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            seen["epoch"] = list(logs)

        def on_train_end(self, logs=None):
            seen["end"] = sorted(logs)

    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    history = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=0,
                        callbacks=[keras.callbacks.LearningRateScheduler(lambda e, lr: lr), Spy()])
    assert seen == {"epoch": ["loss", "mae", "learning_rate"], "end": ["loss", "mae"]}
    assert sorted(history.history) == ["learning_rate", "loss", "mae"]


# Keras 3.15's ArrayDataAdapter(np.arange(n), batch_size=b, shuffle="batch").get_tf_dataset() after
# keras.utils.set_random_seed(g), on TensorFlow 2.21: (g, n, b) -> the first epoch's batches
BATCH_SHUFFLES = {
    (5, 10, 4): [[1, 0, 3, 2], [4, 7, 6, 5], [8, 9]],
    (978, 23, 5): [[2, 0, 4, 1, 3], [8, 9, 7, 5, 6], [10, 12, 14, 13, 11], [15, 18, 17, 16, 19],
                   [22, 20, 21]],
    (0, 9, 3): [[0, 1, 2], [3, 4, 5], [6, 8, 7]],
    (12, 7, 8): [[0, 2, 6, 5, 4, 3, 1]],
}


@pytest.mark.parametrize("g,n,b", sorted(BATCH_SHUFFLES))
def test_fit_shuffle_batch_permutes_within_each_batch(g, n, b):
    """``shuffle="batch"`` keeps the batches in order and permutes the rows inside each one with
    TensorFlow's stream (seeds 46, 53, 66 found tapegrad shuffling across batches)."""
    keras.utils.set_random_seed(g)
    order = tf.random.fit_batch_permutation(n, b).tolist()
    assert [order[i:i + b] for i in range(0, n, b)] == BATCH_SHUFFLES[(g, n, b)]
    assert tf.random.fit_batch_permutation(n, b).tolist() == order  # the same every epoch


# Keras 3.15 on TF 2.21: keras.utils.set_random_seed(1), then Sequential([Input(shape), layer(
# bias_initializer="lecun_normal", ...)]): each weight's first values (4 decimals)
CONV_BIAS_FIRST = {
    "Conv1D": ((4, 3), {"filters": 3, "kernel_size": 3}, [[-0.2783, 0.4185, 0.5062], [0.3875, -0.5501, -0.1649]]),
    "Conv2D": ((4, 4, 2), {"filters": 2, "kernel_size": 2}, [[-0.2952, 0.4439, 0.5369], [0.4746, -0.6737]]),
    "Conv2DTranspose": ((3, 3, 2), {"filters": 2, "kernel_size": 2},
                        [[-0.2952, 0.4439, 0.5369], [0.4746, -0.6737]]),
    "DepthwiseConv2D": ((4, 4, 2), {"kernel_size": 2}, [[-0.3408, 0.5126, 0.62], [0.4746, -0.6737]]),
    "SeparableConv2D": ((4, 4, 2), {"filters": 2, "kernel_size": 2},
                        [[-0.3408, 0.5126, 0.62], [0.2235, -0.2392, 0.7619], [0.5757, -0.747]]),
}


@pytest.mark.parametrize("name", sorted(CONV_BIAS_FIRST))
def test_conv_layers_make_the_bias_initializer_after_the_kernels(name):
    """An unseeded initializer draws its seed when made; Keras's conv layers make the kernels'
    initializers first, then the bias's (seed 48 found tapegrad's conv layers the other way round)."""
    shape, kw, expected = CONV_BIAS_FIRST[name]
    keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input(shape), getattr(keras.layers, name)(bias_initializer="lecun_normal", **kw)])
    got = [np.round(w.ravel()[:3].astype(float), 4).tolist() for w in model.get_weights()]
    np.testing.assert_allclose(sum(got, []), sum(expected, []), atol=1.5e-4)
