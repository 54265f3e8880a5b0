"""tf.config: the truth about tapegrad's devices (one CPU), as TensorFlow 2.21 reports a CPU-only
machine; thread settings."""
from __future__ import annotations

import numpy as np
import pytest

import tapegrad as tf

c = tf.config
CPU = c.PhysicalDevice(name="/physical_device:CPU:0", device_type="CPU")


def test_devices():
    assert c.list_physical_devices() == [CPU] == c.list_physical_devices("CPU")
    assert repr(CPU) == "PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')"
    assert c.list_physical_devices("GPU") == [] == c.list_physical_devices("cpu")
    assert c.list_logical_devices() == [c.LogicalDevice(name="/device:CPU:0", device_type="CPU")]
    assert c.experimental.list_physical_devices("GPU") == []
    assert c.get_visible_devices() == [CPU] and c.get_soft_device_placement()


def test_usual_gpu_setup_runs_unchanged():
    gpus = c.list_physical_devices("GPU")
    for gpu in gpus:
        c.experimental.set_memory_growth(gpu, True)
    c.set_visible_devices(gpus, "GPU")
    c.set_visible_devices([CPU])
    assert c.get_visible_devices() == [CPU]
    with pytest.raises(ValueError, match="Unrecognized device: 'x'"):
        c.set_visible_devices("x")
    with pytest.raises(ValueError, match="Cannot set memory growth on non-GPU"):
        c.experimental.set_memory_growth(CPU, True)
    c.experimental.enable_op_determinism()


def test_threads():
    t = c.threading
    assert t.get_intra_op_parallelism_threads() == 0 == t.get_inter_op_parallelism_threads()
    try:
        t.set_inter_op_parallelism_threads(2)
        t.set_intra_op_parallelism_threads(1)
        assert (t.get_intra_op_parallelism_threads(), t.get_inter_op_parallelism_threads()) == (1, 2)
        threadpoolctl = pytest.importorskip("threadpoolctl")
        blas = [p for p in threadpoolctl.threadpool_info() if p["user_api"] == "blas"]
        assert all(p["num_threads"] == 1 for p in blas)
        assert np.allclose(np.ones((3, 3)) @ np.ones(3), 3.0)
    finally:
        t.set_intra_op_parallelism_threads(0)
        t.set_inter_op_parallelism_threads(0)
