"""Late-added tf.* names against TensorFlow 2.21's recorded results (tools/record_tf_api_more.py,
cases in tests/tf_api_more_cases.py), and the behaviour TensorFlow leaves to us."""
import json
import os
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import tapegrad as tf
import tf_api_more_cases as cases
from test_sparse import matches

RECORDED = json.loads((Path(__file__).parent / "fixtures" / "tf_api_more.json").read_text(encoding="utf-8"))
# tapegrad differs on purpose (docs/differences.md): a tf.function runs its ops one by one while
# check_numerics is on, so the op named is TF's eager one (TF names the graph op; same op, same counts)
EAGER_NAMES = {"numerics_function"}


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_matches_tensorflow(name):
    got, want = cases.run(cases.CASES[name], tf), RECORDED["cases"][name]
    matches(name, got, want, cases.MESSAGES)


@pytest.mark.parametrize("name", sorted(n for n in cases.CASES if n.startswith("test_message_")))
def test_testcase_messages_are_tensorflows(name):
    """tf.test.TestCase's failure messages, word for word."""
    assert cases.run(cases.CASES[name], tf)["message"] == RECORDED["cases"][name]["message"]


def test_every_case_is_recorded():
    assert sorted(RECORDED["cases"]) == sorted(cases.CASES)
    assert set(cases.MESSAGES) <= set(cases.CASES)


def test_build_queries_say_cpu_only():
    """TF's wheel answers True for CUDA/GPU/XLA; tapegrad, pure NumPy, answers False (docs/differences.md)."""
    assert tf.test.gpu_device_name() == ""
    assert not any(f() for f in (tf.test.is_gpu_available, tf.test.is_built_with_cuda, tf.test.is_built_with_rocm,
                                 tf.test.is_built_with_gpu_support, tf.test.is_built_with_xla))
    assert tf.test.is_cpu_target_available("x86")


def test_testcase_runs_under_unittest_and_skips_test_session():
    import unittest

    class T(tf.test.TestCase):
        def test_ok(self):
            self.assertAllClose(tf.constant([1.0]) * 2, [2.0])
            self.assertTrue(os.path.isdir(self.get_temp_dir()))
            self.assertEqual(self.get_temp_dir(), self.get_temp_dir())

        def test_bad(self):
            self.assertAllEqual(tf.constant([1]), [2])
    result = unittest.TextTestRunner(stream=open(os.devnull, "w")).run(
        unittest.defaultTestLoader.loadTestsFromTestCase(T))
    assert result.testsRun == 3 and len(result.failures) == 1 and len(result.skipped) == 1  # (test_session)


def test_benchmark_reports():
    class B(tf.test.Benchmark):
        def benchmark_one(self):
            self.report_benchmark(iters=3, wall_time=0.25, extras={"k": 1})
    B().benchmark_one()
    r = tf.test.Benchmark.reports[-1]
    assert r["name"] == "B.benchmark_one" and r["iters"] == 3 and r["extras"] == {"k": 1}


def test_ema_shadows_checkpoint_and_restore():
    w = tf.Variable([1.0, 2.0])
    ema = tf.train.ExponentialMovingAverage(0.5)
    ema.apply([w])
    w.assign([3.0, 4.0])
    ema.apply([w])
    d = tempfile.mkdtemp()
    path = tf.train.Checkpoint(avg=ema.average(w)).save(os.path.join(d, "ckpt"))
    avg = tf.Variable([0.0, 0.0])
    tf.train.Checkpoint(avg=avg).restore(path)
    np.testing.assert_allclose(avg.numpy(), [2.0, 3.0])


def test_ema_float64_decay_is_float32_rounded():
    """TF computes the decay in float32, then casts 1 - decay to the variable's dtype."""
    u = tf.Variable(0.0, dtype=tf.float64)
    ema = tf.train.ExponentialMovingAverage(0.9)
    ema.apply([u])
    u.assign(1.0)
    ema.apply([u])
    assert ema.average(u).numpy() == float(np.float32(1) - np.float32(0.9))


def test_checkpoints_iterator_waits_for_a_new_checkpoint():
    d = tempfile.mkdtemp()
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    first = ckpt.save(os.path.join(d, "ckpt"))

    def later():
        time.sleep(0.2)
        ckpt.save(os.path.join(d, "ckpt"))
    t = threading.Thread(target=later)
    t.start()
    seen = list(tf.train.checkpoints_iterator(d, timeout=3))
    t.join()
    assert [os.path.basename(p) for p in seen] == [os.path.basename(first), "ckpt-2"]


def test_coordinator_names_the_stragglers():
    coord = tf.train.Coordinator()
    ev = threading.Event()
    t = threading.Thread(target=ev.wait, name="slow-one")
    t.start()
    coord.request_stop()
    with pytest.raises(RuntimeError, match="slow-one"):
        coord.join([t], stop_grace_period_secs=0.01)
    ev.set()
    t.join()


def test_sets_in_a_function():
    f = tf.function(lambda a, b: tf.sets.union(a, b).values)
    np.testing.assert_array_equal(f(tf.constant([[1, 3]]), tf.constant([[2, 3]])).numpy(), [1, 2, 3])
    np.testing.assert_array_equal(f(tf.constant([[4, 4]]), tf.constant([[4, 0]])).numpy(), [0, 4])


def test_check_numerics_reaches_gradients():
    tf.debugging.enable_check_numerics()
    try:
        x = tf.Variable(0.0)
        with tf.GradientTape() as tape:
            y = tf.sqrt(x)
        with pytest.raises(tf.errors.InvalidArgumentError, match="Tensor had \\+Inf values"):
            tape.gradient(y, x)
    finally:
        tf.debugging.disable_check_numerics()
    assert np.isinf(tf.math.log(tf.constant(0.0)).numpy())


def test_test_decorators():
    import unittest

    class T(tf.test.TestCase):
        @tf.test.disable_with_predicate(lambda: True, "not here")
        def test_skipped(self):
            raise RuntimeError("ran")

        @tf.test.disable_with_predicate(lambda: False, "not here")
        def test_runs(self):
            tf.test.experimental.sync_devices()
    assert tf.test.with_eager_op_as_function(T) is T and tf.test.with_eager_op_as_function()(T) is T
    result = unittest.TextTestRunner(stream=open(os.devnull, "w")).run(
        unittest.defaultTestLoader.loadTestsFromTestCase(T))
    assert result.wasSuccessful() and ("not here" in [m for _, m in result.skipped])
