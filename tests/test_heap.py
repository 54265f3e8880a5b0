"""The heap policy of a model's steps (tapegrad/_memory.py, ``keep_freed``): inside ``fit``,
``evaluate`` and ``predict`` glibc keeps freed memory for the next step instead of handing it back
and faulting it in again; on leaving, the thresholds are glibc's adaptive rule's; nothing happens
when the user has set glibc's malloc tunables, or off glibc."""
import resource
import sys

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import _memory


class FakeMallopt:
    def __init__(self):
        self.calls = []

    def __call__(self, param, value):
        self.calls.append((param, value))
        return 1


@pytest.fixture
def fake(monkeypatch):
    f = FakeMallopt()
    monkeypatch.setattr(_memory, "_mallopt", f)
    return f


def _model():
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    m.compile("sgd", "mse")
    return m


def test_fit_keeps_freed_memory_and_leaves_glibc_s_own_thresholds(fake):
    m = _model()
    x = np.ones((8, 3), np.float32)
    seen = []

    class Look(tf.keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            seen.append(list(fake.calls))

    m.fit(x, x[:, :2], epochs=1, batch_size=4, validation_split=0.5, verbose=0, callbacks=[Look()])
    mmap, trim = _memory._M_MMAP_THRESHOLD, _memory._M_TRIM_THRESHOLD
    # set once on entering fit (the validation's evaluate inside it changes nothing) ...
    assert seen[0] == [(mmap, 32 * 2**20), (trim, 2**31 - 1)]
    # ... and trimming restored on leaving, at twice the mmap threshold, as glibc's rule sets it
    assert fake.calls == [(mmap, 32 * 2**20), (trim, 2**31 - 1), (trim, 64 * 2**20)]
    fake.calls.clear()
    m.predict(x, verbose=0)
    m.evaluate(x, x[:, :2], verbose=0)
    assert fake.calls == [(mmap, 32 * 2**20), (trim, 2**31 - 1), (trim, 64 * 2**20)] * 2


def test_the_user_s_malloc_tunables_are_left_alone(monkeypatch):
    for env in ({"MALLOC_TRIM_THRESHOLD_": "0"}, {"GLIBC_TUNABLES": "glibc.malloc.trim_threshold=0"}):
        monkeypatch.setattr(_memory, "_mallopt", None)
        for k, v in env.items():
            monkeypatch.setenv(k, v)
        assert _memory._glibc_mallopt() is False
        for k in env:
            monkeypatch.delenv(k)


def test_an_exception_in_fit_still_restores_trimming(fake):
    m = _model()
    with pytest.raises(ValueError):
        m.fit(np.ones((4, 3), np.float32), np.ones((5, 2), np.float32), verbose=0)
    assert fake.calls[-1] == (_memory._M_TRIM_THRESHOLD, 64 * 2**20)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's heap")
def test_a_conv_fit_s_steps_no_longer_fault_their_pages_in(monkeypatch):
    monkeypatch.setattr(_memory, "_mallopt", None)
    for k in [k for k in __import__("os").environ if k.startswith("MALLOC_")] + ["GLIBC_TUNABLES"]:
        monkeypatch.delenv(k, raising=False)
    if not _memory._glibc_mallopt():
        pytest.skip("not glibc")
    tf.keras.utils.set_random_seed(0)
    m = tf.keras.Sequential([tf.keras.Input((28, 28, 1)), tf.keras.layers.Conv2D(16, 3, activation="relu"),
                             tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])
    m.compile("adam", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    x = np.random.default_rng(0).standard_normal((640, 28, 28, 1)).astype(np.float32)
    y = np.arange(640) % 10
    m.fit(x, y, batch_size=64, epochs=1, verbose=0)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    m.fit(x, y, batch_size=64, epochs=1, verbose=0)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
    # each step's activations and gradients are 2.8 MB arrays (about 700 pages each, several a
    # step): faulted in afresh they would be thousands a step; kept, the ten steps need few
    assert faults < 2000, faults


def test_a_tf_function_call_keeps_freed_memory_too(fake):
    f = tf.function(lambda x: tf.reduce_sum(x * 2.0))
    f(tf.ones((3,)))
    f(tf.ones((3,)))
    mmap, trim = _memory._M_MMAP_THRESHOLD, _memory._M_TRIM_THRESHOLD
    assert fake.calls == [(mmap, 32 * 2**20), (trim, 2**31 - 1), (trim, 64 * 2**20)] * 2


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's heap")
def test_a_custom_loop_s_traced_steps_no_longer_fault_their_pages_in(monkeypatch):
    monkeypatch.setattr(_memory, "_mallopt", None)
    for k in [k for k in __import__("os").environ if k.startswith("MALLOC_")] + ["GLIBC_TUNABLES"]:
        monkeypatch.delenv(k, raising=False)
    if not _memory._glibc_mallopt():
        pytest.skip("not glibc")
    tf.keras.utils.set_random_seed(0)
    m = tf.keras.Sequential([tf.keras.Input((28, 28, 1)), tf.keras.layers.Conv2D(16, 3, activation="relu"),
                             tf.keras.layers.MaxPooling2D(2), tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])
    opt = tf.keras.optimizers.Adam()
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, m(x, training=True))
        opt.apply_gradients(zip(tape.gradient(loss, m.trainable_variables), m.trainable_variables))
        return loss

    x = np.random.default_rng(0).standard_normal((64, 28, 28, 1)).astype(np.float32)
    y = np.arange(64) % 10
    for _ in range(3):
        step(x, y)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(10):
        step(x, y)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
    # the step's activations and gradients (2.8 MB each) faulted in afresh were about 3,900
    # faults a step; kept, ten steps need few
    assert faults < 2000, faults
