"""The BLAS thread policy (tapegrad/_blas.py): one thread for a small product, BLAS's count for
a large one, the user's count after set_intra_op_parallelism_threads, an outside limit respected.
Each check runs in a fresh interpreter with two BLAS threads (the policy reads BLAS's count once)."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROGRAM = r'''
import numpy as np, threadpoolctl
import tapegrad as tf

def blas():
    return [p["num_threads"] for p in threadpoolctl.threadpool_info() if p["user_api"] == "blas"]

small, big = tf.ones((64, 256)), tf.ones((512, 512))
_ = tf.matmul(small, tf.ones((256, 128)))
print("small", blas())
_ = tf.matmul(big, tf.ones((512, 256)))        # 2**26 multiply-adds
print("big", blas())
x = tf.ones((8, 28, 28, 1))
_ = tf.nn.conv2d(x, tf.ones((3, 3, 1, 4)), 1, "VALID")
print("conv", blas())
tf.config.threading.set_intra_op_parallelism_threads(1)
_ = tf.matmul(big, tf.ones((512, 256)))
print("fixed", blas(), tf.config.threading.get_intra_op_parallelism_threads())
tf.config.threading.set_intra_op_parallelism_threads(0)
_ = tf.matmul(big, tf.ones((512, 256)))
print("default again", blas(), tf.config.threading.get_intra_op_parallelism_threads())
with threadpoolctl.threadpool_limits(1, user_api="blas"):   # (set while BLAS had 2)
    _ = tf.matmul(big, tf.ones((512, 256)))
    print("outside limit", blas())
'''


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="BLAS runs one thread on one core")
def test_small_products_run_on_one_blas_thread_and_large_ones_on_blas_s_count():
    env = dict(os.environ, OPENBLAS_NUM_THREADS="2", OMP_NUM_THREADS="2", MKL_NUM_THREADS="2",
               PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True, text=True,
                         timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    lines = dict(line.split(" [", 1) for line in out.stdout.splitlines())
    assert lines["small"].startswith("1]")
    assert lines["big"].startswith("2]")
    assert lines["conv"].startswith("1]")
    assert lines["fixed"] == "1] 1"
    assert lines["default again"] == "2] 0"
    assert lines["outside limit"].startswith("1]")


def test_the_thread_count_must_be_an_int():
    import tapegrad as tf
    for bad in ("2", 2.0, True):
        with pytest.raises(TypeError, match="must be an int"):
            tf.config.threading.set_intra_op_parallelism_threads(bad)
    assert tf.config.threading.get_intra_op_parallelism_threads() == 0
