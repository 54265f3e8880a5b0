"""Instructions per call of small NumPy-path ops, for callgrind (docs/backends.md's figures).

Run, for a checkout at TREE (its ``tapegrad`` folder is imported) and a MODE among unary,
scalar, tt, var, apply, tape::

    PYTHONHASHSEED=1 valgrind --tool=callgrind --collect-atstart=no \\
        --toggle-collect=functools_reduce --callgrind-out-file=/dev/null \\
        python benchmarks/callgrind_ops.py TREE MODE 2000

and divide the "Collected" count by 2000. Only the timed loop (run inside ``functools.reduce``)
is counted; the calls before it warm CPython's specialising interpreter and NumPy's caches.
"""
from __future__ import annotations

import functools
import sys

sys.path.insert(0, sys.argv[1])

import numpy as np

import tapegrad as tf

mode, n = sys.argv[2], int(sys.argv[3])
x = tf.constant(np.linspace(0.1, 1.0, 8))
v = tf.Variable(np.ones(8))


def tape_step() -> tf.Tensor:
    with tf.GradientTape() as t:
        t.watch(x)
        s = tf.reduce_sum(tf.exp(x * 2.0) + x) * v
    return t.gradient(s, x)


f = {"unary": lambda: tf.exp(x), "scalar": lambda: x * 2.0, "tt": lambda: x + x,
     "var": lambda: x * v, "apply": lambda: tf.reduce_sum(x), "tape": tape_step}[mode]
for _ in range(200):
    f()
functools.reduce(lambda acc, _: f(), range(n), None)
