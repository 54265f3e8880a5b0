"""Record how Keras 3 on TensorFlow 2.21 lets optimizer slots decay to zero (development only).

    $TAPEGRAD_TF_PYTHON tools/record_optimizer_flush.py [CASE ...]

TensorFlow's CPU kernels flush subnormal numbers to zero: a slot that decays geometrically once its
gradient is zero (Adam's first moment for a dead ReLU unit) becomes exactly 0 where it would go
subnormal. Each case trains a four-element variable one step on a gradient, then on zero
gradients, and records the variable and its slots at chosen steps. Writes
tests/fixtures/optimizer_flush.json (tests/test_optimizer_flush.py compares tapegrad with it).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _tf import record_keras_cases  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests",
                       "fixtures", "optimizer_flush.json")
X0 = [0.5, -0.25, 1.0, 2.0]
G0 = [1e-3, -1e-3, 1e-20, 0.0]


def _run(tf, keras, np, make, dtype, steps, marks):
    v = keras.Variable(np.array(X0, dtype), name="x")
    opt = make(keras)
    opt.build([v])
    out = {}
    zero = np.zeros(4, dtype)
    for t in range(1, steps + 1):
        g = np.array(G0, dtype) if t == 1 else zero
        opt.apply_gradients([(tf.constant(g), v)])
        if t in marks:
            out[str(t)] = {"x": v.numpy().tolist(),
                           "slots": [s.numpy().tolist() for s in opt.variables[2:]]}
    return out


def adam_float32(tf, keras, np):
    return _run(tf, keras, np, lambda k: k.optimizers.Adam(1e-3), "float32", 900,
                {1, 500, 700, 750, 800, 850, 900})


def adam_float64(tf, keras, np):
    return _run(tf, keras, np, lambda k: k.optimizers.Adam(1e-3), "float64", 6800,
                {1, 6400, 6600, 6800})


def sgd_momentum_float32(tf, keras, np):
    return _run(tf, keras, np, lambda k: k.optimizers.SGD(0.1, momentum=0.9), "float32", 900,
                {1, 700, 800, 900})


def rmsprop_centered_momentum_float32(tf, keras, np):
    return _run(tf, keras, np,
                lambda k: k.optimizers.RMSprop(1e-3, momentum=0.5, centered=True), "float32", 900,
                {1, 300, 400, 800, 900})


def adagrad_float32(tf, keras, np):
    return _run(tf, keras, np, lambda k: k.optimizers.Adagrad(1e-2, initial_accumulator_value=0.0),
                "float32", 3, {1, 2, 3})


if __name__ == "__main__":
    record_keras_cases([adam_float32, adam_float64, sgd_momentum_float32,
                        rmsprop_centered_momentum_float32, adagrad_float32], FIXTURE)
