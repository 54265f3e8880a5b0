"""Data-parallel Keras training with ``tf.distribute.MirroredStrategy``: the same program as
TensorFlow's, on replicas that are Dask worker processes of this machine.

The model and its optimizer are made under ``strategy.scope()``; ``fit`` then splits every
global batch among the replicas, each computes the gradients of its part, and the gradients are
summed before every replica applies the same update. The losses are averaged over the *global*
batch, so the training follows the single-process run up to float rounding, which the program
checks by training the same model again without the strategy.

Needs the ``dask`` extra (``pip install -e ".[dask]"``).

Run: ``python examples/mirrored_strategy.py [--replicas 2]`` (``--quick``: one short epoch).
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import tapegrad as tf  # noqa: E402


def make_model() -> "tf.keras.Model":
    tf.keras.utils.set_random_seed(0)            # the same initial weights in both runs
    model = tf.keras.Sequential([
        tf.keras.Input((8,)),
        tf.keras.layers.Dense(32, activation="relu"),
        tf.keras.layers.Dense(1),
    ])
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")
    return model


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="one epoch of 4 batches")
    args = parser.parse_args(argv)
    n, epochs, batch = (256, 1, 64) if args.quick else (4096, args.epochs, 128)

    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 8)).astype(np.float32)
    y = (np.sin(x[:, :1]) + 0.5 * x[:, 1:2] * x[:, 2:3]).astype(np.float32)
    # a dataset of global batches; shuffle=False keeps the two runs' batches the same
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(batch)

    strategy = tf.distribute.MirroredStrategy(num_replicas=args.replicas, blas_threads=1)
    try:
        print(f"{strategy.num_replicas_in_sync} replicas")
        with strategy.scope():
            model = make_model()                 # variables mirrored on every replica
        mirrored = model.fit(dataset, epochs=epochs, verbose=2).history["loss"]
        weights = model.get_weights()
    finally:
        strategy.close()                         # stop the worker processes now

    single = make_model()
    alone = single.fit(dataset, epochs=epochs, verbose=0).history["loss"]
    gap = max(float(np.max(np.abs(a - b))) for a, b in zip(weights, single.get_weights()))
    print(f"losses, mirrored: {np.round(mirrored, 4)}; one process: {np.round(alone, 4)}")
    print(f"largest weight difference between the two runs: {gap:.1e}")
    return {"mirrored_loss": mirrored, "single_loss": alone, "weight_gap": gap,
            "replicas": args.replicas}


if __name__ == "__main__":
    main()
