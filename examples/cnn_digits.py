"""A small convolutional network on scikit-learn's bundled 8x8 digits (no download).

Two ``tf.nn.conv2d`` + ReLU + ``tf.nn.max_pool2d`` blocks (8x8x1 -> 4x4x8 -> 2x2x16) and a
dense layer to the 10 classes, written as a ``tf.Module`` and trained exactly like the MLP in
``mlp_digits.py`` (same data split, optimizer, progress bar and loss plot).

Run: ``python examples/cnn_digits.py`` (about 10 s of CPU; ``--quick`` trains for a few steps).
Needs the ``examples`` extra: ``pip install tapegrad[examples]``.
"""
from __future__ import annotations

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import tapegrad as tf  # noqa: E402
from mlp_digits import Dense, train, training_arguments  # noqa: E402


class Conv(tf.Module):
    """3x3 convolution (SAME padding), ReLU, then 2x2 max pooling."""

    def __init__(self, c_in: int, c_out: int, rng: np.random.Generator, name: str | None = None) -> None:
        super().__init__(name=name)
        limit = np.sqrt(6.0 / (9 * c_in + 9 * c_out))
        self.kernel = tf.Variable(rng.uniform(-limit, limit, (3, 3, c_in, c_out)).astype(np.float32),
                                  name="kernel")
        self.bias = tf.Variable(tf.zeros([c_out]), name="bias")

    def __call__(self, x):
        y = tf.nn.relu(tf.nn.conv2d(x, self.kernel, strides=1, padding="SAME") + self.bias)
        return tf.nn.max_pool2d(y, ksize=2, strides=2, padding="VALID")


class CNN(tf.Module):
    def __init__(self, seed: int = 0) -> None:
        super().__init__()
        rng = np.random.default_rng(seed)
        self.blocks = [Conv(1, 8, rng), Conv(8, 16, rng)]
        self.head = Dense(2 * 2 * 16, 10, rng)

    def __call__(self, x):
        x = tf.reshape(x, [-1, 8, 8, 1])  # flat 64 pixels -> NHWC images
        for block in self.blocks:
            x = block(x)
        return self.head(tf.reshape(x, [-1, 2 * 2 * 16]))  # logits


def main(argv: list[str] | None = None) -> dict:
    parser = training_arguments(__doc__, epochs=10, lr=0.02, plot="")
    args = parser.parse_args(argv)
    return train(CNN(seed=args.seed), args, "CNN")


if __name__ == "__main__":
    main()
