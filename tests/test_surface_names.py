"""The rest of the commonly used tf.* surface (tf.losses/tf.metrics, scatters, partitions,
histograms, searchsorted, bitcast, tf.nn extras, sqrtm, tf.gradients): TensorFlow 2.21's numbers,
dtypes, errors and gradients, recorded by tools/record_tf_surface_names.py."""
from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import tapegrad as tf
from cf_encoding import encode_value
from tapegrad import _missing

ENV = {"tf": tf, "np": np, "tnp": tf.experimental.numpy}
FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "tf_surface_names.json").read_text())


def _encode(v):
    return encode_value(v, tf)


def _same(got, want):
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    assert got.keys() == want.keys()
    if "value" not in want:
        assert got == want
        return
    assert (got["dtype"], got["shape"]) == (want["dtype"], want["shape"])
    tol = 1e-5 if want["dtype"] in ("float32", "float16", "complex64") else 1e-12
    for part in ("value", "imag"):
        if part in want:
            np.testing.assert_allclose(np.asarray(got[part], float), np.asarray(want[part], float),
                                       rtol=tol, atol=tol)


@pytest.mark.parametrize("code", sorted(FIXTURE["values"]))
def test_values_dtypes_and_errors_match_tensorflow(code):
    kind, want = FIXTURE["values"][code]
    if kind != "ok":
        with pytest.raises(Exception) as e:
            eval(code, ENV)  # noqa: S307  (the fixture's own case strings)
        assert type(e.value).__name__ == kind, str(e.value)
        assert str(e.value), "an error says what was wrong"
        return
    _same(_encode(eval(code, ENV)), want)  # noqa: S307


@pytest.mark.parametrize("key", sorted(FIXTURE["grads"]))
def test_gradients_match_tensorflow(key):
    code, args = key.split(" @ ")
    want = FIXTURE["grads"][key]
    xs = [tf.constant(np.asarray(a, np.float64)) for a in json.loads(args)]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = eval(code, ENV)(*xs)  # noqa: S307
        loss = tf.reduce_sum(tf.sin(y))
    tol = 1e-5 if y.dtype == tf.float32 else 1e-9
    np.testing.assert_allclose(y.numpy(), np.asarray(want["value"]), rtol=tol, atol=tol)
    for g, w in zip(tape.gradient(loss, xs), want["grads"]):
        np.testing.assert_allclose(tf.convert_to_tensor(g).numpy(), np.asarray(w), rtol=tol, atol=tol)


def test_tf_losses_and_tf_metrics_are_the_keras_modules():
    assert tf.losses is tf.keras.losses and tf.metrics is tf.keras.metrics
    assert tf.losses.Reduction is tf.keras.losses.Reduction


def test_gradients_raise_inside_tf_function_too():
    @tf.function
    def f(x):
        return tf.gradients(x * x, x)

    with pytest.raises(RuntimeError, match="Use tf.GradientTape instead"):
        f(tf.constant(1.0))


def test_inside_function_is_true_while_tracing():
    seen = []

    @tf.function
    def f(x):
        seen.append(tf.inside_function())
        return x + 1

    f(tf.constant(1.0))
    assert seen and all(seen) and not tf.inside_function()


@pytest.mark.parametrize("ns,typo,hint", [("signal", "rfftt", "'rfft'"), ("image", "resiz", "'resize'")])
def test_signal_and_image_typos_give_attribute_errors_with_a_hint(ns, typo, hint):
    with pytest.raises(AttributeError, match=f"Did you mean: {hint}"):
        getattr(getattr(tf, ns), typo)


def test_a_signal_name_tapegrad_lacks_points_to_the_guide():
    with pytest.raises(AttributeError, match="does not cover tf.signal.fftnd yet") as e:
        _ = tf.signal.fftnd
    assert _missing.GUIDE in str(e.value)


def test_scatter_max_splits_the_gradient_between_ties_as_tensorflow():
    t, u = tf.constant([1.0, 0.0]), tf.constant([1.0, 1.0])
    with tf.GradientTape() as tape:
        tape.watch([t, u])
        y = tf.tensor_scatter_nd_max(t, [[0], [0]], u)
    gt, gu = tape.gradient(y, [t, u])
    np.testing.assert_allclose(gt.numpy(), [1 / 3, 1.0])
    np.testing.assert_allclose(gu.numpy(), [1 / 3, 1 / 3])


def test_compute_average_loss_divides_by_the_replicas_in_sync():
    strategy = tf.distribute.get_strategy()
    assert strategy.num_replicas_in_sync == 1
    assert float(tf.nn.compute_average_loss(tf.ones([4]) * 2.0)) == 2.0
    assert "compute_average_loss" in dir(tf.nn)


def test_bad_arguments_say_what_to_do():
    with pytest.raises(ValueError, match="side must be 'left' or 'right'"):
        tf.searchsorted([1.0], [1.0], side="middle")
    with pytest.raises(ValueError, match="seq_axis"):
        tf.reverse_sequence(tf.zeros([2, 3]), [1, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="must have sorted_sequence's dtype"):
        tf.searchsorted([1.0], [1])
    with pytest.raises(ValueError, match="as many index tensors as data tensors"):
        tf.dynamic_stitch([[0]], [])


def test_numpy_module_follows_numpy_where_tensorflow_has_bugs():
    tnp = tf.experimental.numpy
    x = np.array([[1.0, 2.0, 4.0], [0.0, 0.5, 3.0]])
    np.testing.assert_allclose(tnp.var(x, axis=1, ddof=1).numpy(), np.var(x, axis=1, ddof=1))
    np.testing.assert_allclose(tnp.around(tnp.asarray([0.125, 2.5]), 2).numpy(), np.around([0.125, 2.5], 2))
    assert tnp.sqrt(tnp.asarray([4])).dtype == tf.float64  # (TensorFlow 2.21 raises AttributeError)
    assert tnp.zeros(2, dtype=float).dtype == tf.float64 and tnp.ones(1, int).dtype == tf.int64


def test_numpy_behavior_adds_array_methods_to_tensors():
    code = ("import tapegrad as tf, tapegrad.experimental.numpy as tnp\n"
            "tnp.experimental_enable_numpy_behavior()\n"
            "x = tnp.asarray([[1, 2], [3, 4]])\n"
            "assert x.T.numpy().tolist() == [[1, 3], [2, 4]] and x.tolist() == [[1, 2], [3, 4]]\n"
            "assert x.reshape(4).shape == (4,) and x.reshape(1, 4).shape == (1, 4) and x.size == 4\n"
            "assert x.astype(tf.float32).dtype == tf.float32 and float(x.mean()) == 2.5\n"
            "assert int(x.max()) == 4 and x.ravel().shape == (4,) and x.transpose().shape == (2, 2)\n")
    import subprocess
    import sys
    subprocess.run([sys.executable, "-c", code], check=True, cwd=pathlib.Path(__file__).parent.parent)


# ---------------------------------------------------------------------------- tf.summary
def _fields(buf: bytes) -> dict:
    """A protocol buffer's fields: number -> values (ints, or bytes for length-delimited and fixed)."""
    out, i = {}, 0

    def varint() -> int:
        nonlocal i
        n = shift = 0
        while True:
            b = buf[i]
            i += 1
            n |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                return n

    while i < len(buf):
        key = varint()
        kind = key & 7
        if kind == 0:
            v = varint()
        elif kind == 2:
            n = varint()
            v, i = buf[i:i + n], i + n
        else:
            n = 8 if kind == 1 else 4
            v, i = buf[i:i + n], i + n
        out.setdefault(key >> 3, []).append(v)
    return out


_DTYPES = {1: np.float32, 2: np.float64, 3: np.int32, 4: np.uint8, 9: np.int64}


def _read_events(path: pathlib.Path) -> list:
    data, i, out = path.read_bytes(), 0, []
    while i < len(data):
        (n,) = np.frombuffer(data[i:i + 8], "<u8")
        event = _fields(data[i + 12:i + 12 + int(n)])
        i += 16 + int(n)
        if 3 in event:
            out.append(["file_version", event[3][0].decode()])
        for summary in event.get(5, []):
            value = _fields(_fields(summary)[1][0])
            tensor, meta = _fields(value[8][0]), _fields(value.get(9, [b""])[0])
            plugin = _fields(meta[1][0])[1][0].decode() if 1 in meta else ""
            shape = [_fields(d).get(1, [0])[0] for d in _fields(tensor[2][0]).get(2, [])] if 2 in tensor else []
            if tensor[1][0] == 7:
                vals = tensor.get(8, [])
            else:
                vals = np.frombuffer(tensor[4][0], _DTYPES[tensor[1][0]]).reshape(shape)
            step = event.get(2, [0])[0]
            out.append([step, value[1][0].decode(), plugin, meta.get(4, [0])[0], shape, vals])
    return out


def test_summary_event_files_read_back_as_tensorflow_reads_them(tmp_path):
    import subprocess
    import sys
    subprocess.run([sys.executable, "-c", FIXTURE["summary_script"], str(tmp_path)], check=True,
                   cwd=pathlib.Path(__file__).parent.parent)
    (path,) = tmp_path.glob("events.out.tfevents.*.v2")
    got, want = _read_events(path), FIXTURE["summary"]
    assert got[0] == want[0] == ["file_version", "brain.Event:2"]
    assert [g[:4] for g in got[1:]] == [w[:4] for w in want[1:]]
    for g, w in zip(got[1:], want[1:]):
        if w[1] == "img":  # TensorFlow decoded the PNG: convert_image_dtype's pixels
            pixels = (np.clip(np.linspace(-0.1, 1.1, 2 * 4 * 5 * 3).reshape(2, 4, 5, 3), 0, 1) * 255.5).astype(np.uint8)
            assert np.array_equal(np.asarray(w[6], np.uint8), pixels[:1])
            assert [int(b) for b in g[5][:2]] == [5, 4] and len(g[5]) == 3
        elif w[4] == "object":
            assert [v.decode() for v in g[5]] == w[6]
        else:
            assert g[4] == w[5]
            np.testing.assert_allclose(np.asarray(g[5], float), np.asarray(w[6], float), rtol=1e-7)


def test_summary_without_a_writer_or_step():
    assert not tf.summary.scalar("x", 1.0, step=0) and not tf.summary.should_record_summaries()
    writer = tf.summary.create_noop_writer()
    with writer.as_default():
        with pytest.raises(ValueError, match="No step set"):
            tf.summary.scalar("x", 1.0)
        with pytest.raises(ValueError, match="needs a scalar"):
            tf.summary.scalar("x", [1.0, 2.0], step=0)
    with pytest.raises(NotImplementedError, match="tf.summary.audio"):
        tf.summary.audio("a", tf.zeros([1, 4, 1]), 8000, step=0)
