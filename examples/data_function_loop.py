"""A custom training loop as TensorFlow 2 writes it: a ``tf.data`` pipeline feeding a
``tf.function`` training step, with a Keras model, optimizer, loss and metrics.

The data are two interleaved spirals (made with NumPy, nothing to download). The pipeline
shuffles, batches and prefetches; the step is a ``tf.function`` with an ``input_signature`` whose
batch dimension is ``None``: one signature for the full batches and the smaller last batch of
each epoch (``experimental_get_tracing_count()`` is 2, as in TensorFlow 2.21, which traces a first
call that creates variables, here the optimizer's, twice). The step's Python runs when it is
traced, and every later call replays the recorded NumPy work; tapegrad traces each concrete batch
shape, so the Python body runs twice here too (once per batch size, where TensorFlow runs it twice
for the variables; docs/differences.md, "tf.function").

Run: ``python examples/data_function_loop.py`` (``--quick``: two epochs on a smaller set).
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import tapegrad as tf  # noqa: E402


def spirals(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``n`` points on two spirals, labelled 0 and 1."""
    rng = np.random.default_rng(seed)
    t = np.sqrt(rng.uniform(size=n)) * 3 * np.pi
    label = rng.integers(0, 2, size=n)
    sign = np.where(label == 0, 1.0, -1.0)
    x = np.stack([sign * t * np.cos(t), sign * t * np.sin(t)], axis=1) / (3 * np.pi)
    return (x + rng.normal(scale=0.02, size=x.shape)).astype(np.float32), label.astype(np.int32)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--quick", action="store_true", help="two epochs on 500 points")
    args = parser.parse_args(argv)
    n, epochs = (500, 2) if args.quick else (4000, args.epochs)

    tf.keras.utils.set_random_seed(0)          # weights, shuffle order: TensorFlow's numbers
    x, y = spirals(n)
    split = int(0.8 * n)
    train = (tf.data.Dataset.from_tensor_slices((x[:split], y[:split]))
             .shuffle(split, reshuffle_each_iteration=True)
             .batch(args.batch_size)
             .prefetch(tf.data.AUTOTUNE))
    test = tf.data.Dataset.from_tensor_slices((x[split:], y[split:])).batch(256)

    model = tf.keras.Sequential([
        tf.keras.Input((2,)),
        tf.keras.layers.Dense(64, activation="tanh"),
        tf.keras.layers.Dense(64, activation="tanh"),
        tf.keras.layers.Dense(2),
    ])
    optimizer = tf.keras.optimizers.Adam(1e-2)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    train_loss = tf.keras.metrics.Mean()
    train_acc = tf.keras.metrics.SparseCategoricalAccuracy()
    test_acc = tf.keras.metrics.SparseCategoricalAccuracy()
    traces = []

    signature = [tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([None], tf.int32)]

    @tf.function(input_signature=signature)
    def train_step(xb, yb):
        traces.append(1)                       # Python: runs when traced, not on every call
        with tf.GradientTape() as tape:
            logits = model(xb, training=True)
            loss = loss_fn(yb, logits)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss, logits

    history = []
    for epoch in range(epochs):
        train_loss.reset_state()
        train_acc.reset_state()
        test_acc.reset_state()
        for xb, yb in train:
            loss, logits = train_step(xb, yb)
            train_loss.update_state(loss, sample_weight=tf.shape(xb)[0])
            train_acc.update_state(yb, logits)
        for xb, yb in test:
            test_acc.update_state(yb, model(xb, training=False))
        history.append((float(train_loss.result()), float(train_acc.result()), float(test_acc.result())))
        print(f"epoch {epoch + 1}: loss {history[-1][0]:.4f}  accuracy {history[-1][1]:.3f}  "
              f"test accuracy {history[-1][2]:.3f}")
    signatures = train_step.experimental_get_tracing_count()
    print(f"{epochs * len(train)} calls of train_step: {signatures} traces counted, its Python body ran "
          f"{len(traces)} time(s)")
    return {"history": history, "signatures": signatures, "python_runs": len(traces),
            "calls": epochs * len(train)}


if __name__ == "__main__":
    main()
