"""Optimizer updates from IndexedSlices whose indices repeat (an Embedding's gradient), run by
tools/record_keras_sparse_updates.py under Keras 3.15 and by tests/test_optimizers_sparse.py under
tapegrad: Keras's ops act on the slices before their rows are summed (Adam's second moment takes
Σ gᵢ², clipping acts on each slice), so the result differs from the summed gradient's."""
import numpy as np

OPTIMIZERS = [
    ("SGD", {"learning_rate": 0.1}), ("SGD", {"learning_rate": 0.1, "momentum": 0.9}),
    ("Adam", {"learning_rate": 0.1}), ("Adam", {"learning_rate": 0.1, "amsgrad": True}),
    ("AdamW", {"learning_rate": 0.1}), ("RMSprop", {"learning_rate": 0.1}),
    ("RMSprop", {"learning_rate": 0.1, "centered": True, "momentum": 0.5}),
    ("Adagrad", {"learning_rate": 0.1}), ("Adadelta", {"learning_rate": 1.0}),
    ("Adamax", {"learning_rate": 0.1}), ("Nadam", {"learning_rate": 0.1}), ("Lion", {"learning_rate": 0.1}),
    ("Ftrl", {"learning_rate": 0.1}),
    ("Adam", {"learning_rate": 0.1, "clipnorm": 1.0}), ("Adam", {"learning_rate": 0.1, "clipvalue": 0.5}),
    ("Adam", {"learning_rate": 0.1, "global_clipnorm": 1.0}),
]
INDICES = np.array([0, 2, 0, 3, 2, 0], np.int32)
VALUES = np.array([[1.0, -2.0], [0.5, 0.25], [-3.0, 1.5], [2.0, 2.0], [-0.5, 4.0], [1.0, 1.0]], np.float32)
START = np.array([[0.5, -0.5], [1.0, 2.0], [-1.5, 0.25], [3.0, -2.0], [0.0, 0.75]], np.float32)


def run(tf, keras, name, kwargs):
    v = tf.Variable(START)
    opt = getattr(keras.optimizers, name)(**kwargs)
    g = tf.IndexedSlices(tf.constant(VALUES), tf.constant(INDICES), tf.constant(START.shape))
    out = []
    for _ in range(3):
        opt.apply_gradients([(g, v)])
        out.append(np.asarray(v.numpy()).tolist())
    return out


def case_id(name, kwargs):
    return name + "".join(f"-{k}={v}" for k, v in sorted(kwargs.items()))
