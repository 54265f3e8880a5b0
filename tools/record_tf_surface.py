"""Record TensorFlow 2.21 / Keras 3 behaviour of tf.print, tf.nest and the learning-rate schedules.

Development only (tapegrad and CI never import TensorFlow):

    $TAPEGRAD_TF_PYTHON tools/record_tf_surface.py

Every case is a line of Python run with ``tf`` bound to TensorFlow here and to tapegrad in
tests/test_print.py, tests/test_nest.py and tests/test_optimizers.py; ``P(...)`` is ``tf.print``
to a stream the harness reads back. The results go to ``tests/fixtures/tf_surface.json``.
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _tf import quiet_tensorflow  # noqa: E402

tf = quiet_tensorflow()
import collections  # noqa: E402

import numpy as np  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests",
                       "fixtures", "tf_surface.json")

PRINT_CASES = [
    "P(tf.constant(1.5))", "P(tf.constant(3))", "P(tf.constant(True))",
    "P(tf.constant([1.0, 2.5, 3.0]))", "P(tf.constant(np.arange(10, dtype=np.float32)))",
    "P(tf.reshape(tf.range(24), [2, 3, 4]))", "P(tf.constant(np.arange(100).reshape(10, 10)))",
    "P(tf.reshape(tf.range(48), [8, 3, 2]))", "P(tf.reshape(tf.range(16), [2, 2, 2, 2]))",
    "P('hello', tf.constant(2.0))", "P([1, tf.constant(2.0), 'x'])",
    "P({'b': tf.constant(1), 'a': 2.5})", "P(tf.constant(1 / 3))", "P(tf.constant(1e-8))",
    "P(tf.constant(123456789.0))", "P(tf.constant(np.float64(1 / 3)))",
    "P(tf.constant([True, False]))", "P(tf.constant(np.arange(7.0)))", "P(1.5, 2, None, True)",
    "P((1, 2))", "P(tf.constant(-0.0))", "P(tf.constant([np.nan, np.inf, -np.inf]))",
    "P(tf.constant(np.float16(1 / 3)))", "P(tf.constant(1e20))", "P(tf.constant(0.1))",
    "P(tf.constant(np.int64(5)))", "P(tf.constant([[1.5]]))", "P(tf.Variable([1.0, 2.0]))",
    "P(tf.constant([1 + 2j]))", "P(tf.constant(100.0))", "P(tf.constant(1e6))",
    "P(tf.constant(1234567.0))", "P(tf.constant(np.float32(2.0 ** -20)))",
    "P(tf.range(10), summarize=2)", "P(tf.range(10), summarize=-1)",
    "P(tf.range(10), summarize=None)", "P(tf.range(10), summarize=0)",
    "P(tf.reshape(tf.range(100), [10, 10]), summarize=1)", "P(1, 2, sep=',', end='!\\n')",
    "P(tf.zeros([2, 0]))", "P(tf.zeros([0]))", "P(tf.zeros([0, 2]))", "P(tf.zeros([2, 0, 3]))",
    "P(tf.constant(np.array([200, 1], np.uint8)), tf.constant(np.array([-5, 1], np.int8)))",
    "P(tf.constant([0.1, 1 / 3], tf.float64))", "P(tf.range(6), summarize=3)",
    "P(tf.range(7), summarize=3)", "P([tf.range(10)] * 3)",
    "P({'key': tf.reshape(tf.range(4), [2, 2])})", "P(1 / 3, [0.1, 2.0])", "P('a{}b', tf.constant(1))",
    "P(list(range(40)))", "P(tf.constant([[1.5]]), 'x', sep='\\n')", "P()",
    "P('loss:', tf.constant(0.25), 'step', 3, {'w': [tf.ones([2]), (tf.zeros([1]), None)]})",
    "P(collections.OrderedDict([('z', tf.constant(1)), ('a', 2)]))",
    "P(tf.constant(np.arange(6, dtype=np.float64).reshape(2, 3) / 7))",
    "P(tf.constant(np.arange(-3, 3, dtype=np.float32) * 1e5))",
]

NEST_CASES = [
    "tf.nest.flatten({'b': [1, (2, 3)], 'a': Pt(4, {'d': 5, 'c': None}), "
    "'c': collections.OrderedDict([('z', 6), ('y', 7)])})",
    "tf.nest.flatten(None)", "tf.nest.flatten('ab')", "tf.nest.flatten([])",
    "tf.nest.flatten([[], {}, ()])",
    "tf.nest.pack_sequence_as({'b': [1, (2, 3)], 'a': Pt(4, {'d': 5, 'c': None})}, list(range(6)))",
    "tf.nest.pack_sequence_as({'b': [1, (2, 3)]}, list(range(4)))",
    "tf.nest.pack_sequence_as([1, 2], 5)", "tf.nest.pack_sequence_as(1, [5])",
    "tf.nest.pack_sequence_as(1, [5, 6])", "tf.nest.pack_sequence_as([[], {}], [])",
    "tf.nest.pack_sequence_as(collections.defaultdict(list, {'b': 1, 'a': 2}), [7, 8])",
    "tf.nest.map_structure(lambda a, b: a + b, [1, (2,)], [10, (20,)])",
    "tf.nest.map_structure(lambda a, b: a + b, [1, (2,)], [10, [20]])",
    "tf.nest.map_structure(lambda a, b: a + b, [1, (2,)], [10, [20]], check_types=False)",
    "tf.nest.map_structure(lambda a, b: a + b, [1, 2], [10])",
    "tf.nest.map_structure(lambda a: a, 1, bogus=2)", "tf.nest.map_structure(lambda: 1)",
    "tf.nest.map_structure(lambda x: x * 2, {'b': [1], 'a': 2})",
    "tf.nest.assert_same_structure([1, 2], [1, 2, 3])",
    "tf.nest.assert_same_structure([1, 2], (1, 2))",
    "tf.nest.assert_same_structure({'a': 1}, {'b': 1})",
    "tf.nest.assert_same_structure([1, [2]], [1, 2])",
    "tf.nest.assert_same_structure(Pt(1, 2), (1, 2))",
    "tf.nest.assert_same_structure(Pt(1, 2), (1, 2), check_types=False)",
    "tf.nest.assert_same_structure({'a': 1}, collections.OrderedDict(a=1))",
    "tf.nest.assert_same_structure(Pt(1, 2), Pt2(3, 4))",
    "tf.nest.is_nested([1])", "tf.nest.is_nested('a')", "tf.nest.is_nested(None)",
    "tf.nest.is_nested({})", "tf.nest.is_nested(Pt(1, 2))",
]

_S = "tf.keras.optimizers.schedules."
SCHEDULES = [
    "ExponentialDecay(0.1, decay_steps=7, decay_rate=0.5)",
    "ExponentialDecay(0.1, decay_steps=7, decay_rate=0.5, staircase=True)",
    "PiecewiseConstantDecay([10, 20, 35], [1.0, 0.5, 0.1, 0.01])",
    "PiecewiseConstantDecay([5], [0.3, 0.2])",
    "PolynomialDecay(0.1, 30)", "PolynomialDecay(0.1, 30, end_learning_rate=0.01, power=0.5)",
    "PolynomialDecay(0.1, 30, end_learning_rate=0.01, power=2.0, cycle=True)",
    "InverseTimeDecay(0.1, 10, 0.5)", "InverseTimeDecay(0.1, 10, 0.5, staircase=True)",
    "CosineDecay(0.1, 40)", "CosineDecay(0.1, 40, alpha=0.1)",
    "CosineDecay(0.0, 40, warmup_target=0.1, warmup_steps=10)",
    "CosineDecay(0.01, 40, alpha=0.2, warmup_target=0.1, warmup_steps=10)",
    "CosineDecayRestarts(0.1, 10)", "CosineDecayRestarts(0.1, 10, t_mul=1.0, m_mul=0.5)",
    "CosineDecayRestarts(0.1, 7, t_mul=1.5, m_mul=0.8, alpha=0.05)",
    "CosineDecayRestarts(0.1, 10, t_mul=3.0, m_mul=0.9, alpha=0.1)",
]
STEPS = [0, 1, 3, 5, 7, 9, 10, 11, 14, 19, 20, 21, 29, 30, 31, 35, 36, 45, 50, 60, 69, 70, 95, 130]


def _outcome(code: str, env: dict) -> list:
    try:
        return ["ok", repr(eval(code, env))]  # noqa: S307  (our own case strings)
    except Exception as e:  # noqa: BLE001  (the error is what is recorded)
        return [type(e).__name__, str(e)]


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(), "out.txt")

    def P(*args, **kwargs):  # noqa: N802
        tf.print(*args, output_stream="file://" + path, **kwargs)

    env = {"tf": tf, "np": np, "collections": collections, "P": P,
           "Pt": collections.namedtuple("Pt", "y x"), "Pt2": collections.namedtuple("Pt", "y x")}
    printed = {}
    for code in PRINT_CASES:
        open(path, "w").close()
        eval(code, env)  # noqa: S307
        with open(path, encoding="utf-8") as f:
            printed[code] = f.read()
    nest = {code: _outcome(code, env) for code in NEST_CASES}
    schedules = {}
    for code in SCHEDULES:
        sched = eval(_S + code)  # noqa: S307
        schedules[code] = [float(sched(s)) for s in STEPS]
    out = {"generator": "tools/record_tf_surface.py", "tensorflow": tf.__version__,
           "keras": tf.keras.__version__, "print": printed, "nest": nest,
           "schedule_steps": STEPS, "schedules": schedules}
    with open(FIXTURE, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
