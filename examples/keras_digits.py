"""A Keras CNN on scikit-learn's bundled 8x8 digits (no download), written as in Keras.

``tf.keras.Sequential`` of Conv2D, MaxPooling2D, Flatten, Dropout and Dense layers, compiled with
Adam and sparse categorical crossentropy, trained with ``fit`` (a held-out validation set, early
stopping on its loss) and scored with ``evaluate``. The same program runs under TensorFlow with
``import tensorflow as tf``.

Run: ``python examples/keras_digits.py`` (a few seconds of CPU; ``--quick`` trains one epoch on
part of the data). Needs the ``examples`` extra: ``pip install tapegrad[examples]``.
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import tapegrad as tf  # noqa: E402


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one epoch on 512 images")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--verbose", type=int, default=2, help="fit's verbose (0, 1 or 2)")
    args = parser.parse_args(argv)
    from sklearn.datasets import load_digits

    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32).reshape(-1, 8, 8, 1)
    y = digits.target.astype(np.int32)
    order = np.random.default_rng(args.seed).permutation(len(x))
    x, y = x[order], y[order]
    n_train = 512 if args.quick else 1437
    (x_train, y_train), (x_test, y_test) = (x[:n_train], y[:n_train]), (x[1437:], y[1437:])

    tf.keras.utils.set_random_seed(args.seed)  # initial weights, dropout and shuffling
    model = tf.keras.Sequential([
        tf.keras.Input((8, 8, 1)),
        tf.keras.layers.Conv2D(16, 3, activation="relu", padding="same"),
        tf.keras.layers.MaxPooling2D(2),
        tf.keras.layers.Conv2D(32, 3, activation="relu"),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dropout(0.25),
        tf.keras.layers.Dense(10, activation="softmax"),
    ])
    model.compile(optimizer=tf.keras.optimizers.Adam(3e-3), loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    stop = tf.keras.callbacks.EarlyStopping(monitor="val_loss", patience=3, restore_best_weights=True)
    history = model.fit(x_train, y_train, batch_size=64, epochs=1 if args.quick else args.epochs,
                        validation_split=0.1, callbacks=[stop], verbose=args.verbose)
    loss, accuracy = model.evaluate(x_test, y_test, verbose=0)
    print(f"test loss {loss:.3f}, test accuracy {accuracy:.3f}")
    return {"history": history.history, "test_loss": loss, "test_accuracy": accuracy, "model": model}


if __name__ == "__main__":
    main()
