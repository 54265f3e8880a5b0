"""A multilayer perceptron that classifies scikit-learn's bundled 8x8 digits (no download).

A ``tf.Module`` with two hidden layers, trained with ``tf.optimizers.Adam`` on mini-batches
under a ``GradientTape``, with a cosine-decayed learning rate. A tqdm progress bar shows the
loss; the loss curves are saved as a PNG (matplotlib, Agg backend; ``mlp_digits_loss.png`` in the
current directory, or ``--plot PATH``) and the trained weights as an ``.npz`` file with
``tf.saving`` (optional).

Run: ``python examples/mlp_digits.py`` (about 5 s of CPU; ``--quick`` trains for a few steps).
Needs the ``examples`` extra: ``pip install tapegrad[examples]``.
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import tapegrad as tf  # noqa: E402

DEFAULT_PLOT = "mlp_digits_loss.png"  # in the current directory (docs/make_figures.py draws the docs' copy)


class Dense(tf.Module):
    """``activation(x @ w + b)`` with Glorot-uniform initial weights."""

    def __init__(self, n_in: int, n_out: int, rng: np.random.Generator, activation=None,
                 name: str | None = None) -> None:
        super().__init__(name=name)
        limit = np.sqrt(6.0 / (n_in + n_out))
        self.w = tf.Variable(rng.uniform(-limit, limit, (n_in, n_out)).astype(np.float32), name="w")
        self.b = tf.Variable(tf.zeros([n_out]), name="b")
        self.activation = activation

    def __call__(self, x):
        y = tf.matmul(x, self.w) + self.b
        return self.activation(y) if self.activation else y


class MLP(tf.Module):
    def __init__(self, sizes: list[int], seed: int = 0) -> None:
        super().__init__()
        rng = np.random.default_rng(seed)
        self.layers = [Dense(a, b, rng, tf.nn.relu if i < len(sizes) - 2 else None)
                       for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:]))]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x  # logits


def load_data(seed: int = 0):
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)  # pixel values 0..16 -> 0..1
    y = digits.target.astype(np.int32)
    return train_test_split(x, y, test_size=0.25, random_state=seed, stratify=y)


def loss_fn(model, x, y):
    logits = model(x)
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))


def accuracy(model, x, y) -> float:
    pred = tf.argmax(model(tf.constant(x)), axis=1, output_type=tf.int32)
    return float(np.mean(pred.numpy() == y))


def save_plot(path: str, train_curve: list[float], test_curve: list[float], steps_per_epoch: int,
              acc: float, model_name: str = "MLP") -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.8), dpi=100)
    steps = np.arange(1, len(train_curve) + 1)
    ax.plot(steps, train_curve, lw=0.6, alpha=0.35, color="C0", label="training batch loss")
    window = min(20, len(train_curve))
    smooth = np.convolve(train_curve, np.ones(window) / window, mode="valid")
    ax.plot(steps[window - 1:], smooth, lw=1.5, color="C0", label=f"running mean ({window} steps)")
    epochs = np.arange(1, len(test_curve) + 1) * steps_per_epoch
    ax.plot(epochs, test_curve, "o-", ms=3, color="C1", label="test loss (end of epoch)")
    ax.set_yscale("log")
    ax.set_xlabel("optimizer step")
    ax.set_ylabel("cross-entropy")
    ax.set_title(f"{model_name} on scikit-learn digits, Adam: test accuracy {acc:.1%}")
    ax.legend()
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def training_arguments(doc: str, epochs: int, lr: float, plot: str) -> argparse.ArgumentParser:
    """The command-line options shared by the digits examples."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="train for a few steps only")
    parser.add_argument("--epochs", type=int, default=epochs)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=lr, help="initial learning rate (cosine decay)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", default=plot, help="where to save the loss plot ('' for none)")
    parser.add_argument("--save", default="", help="save the trained weights to this .npz file")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def train(model: tf.Module, args: argparse.Namespace, model_name: str) -> dict:
    """Mini-batch Adam with a cosine-decayed learning rate; returns the curves and accuracy."""
    from tqdm.auto import tqdm

    x_train, x_test, y_train, y_test = load_data(args.seed)
    steps_per_epoch = int(np.ceil(len(x_train) / args.batch_size))
    max_steps = 5 if args.quick else args.epochs * steps_per_epoch
    schedule = tf.optimizers.schedules.CosineDecay(args.lr, decay_steps=max_steps, alpha=0.05)
    opt = tf.optimizers.Adam(learning_rate=schedule)
    rng = np.random.default_rng(args.seed)
    xt, yt = tf.constant(x_test), tf.constant(y_test)

    train_curve: list[float] = []
    test_curve: list[float] = []
    bar = tqdm(total=max_steps, desc="training", unit="step", disable=args.no_progress)
    while len(train_curve) < max_steps:
        order = rng.permutation(len(x_train))
        for start in range(0, len(order), args.batch_size):
            idx = order[start:start + args.batch_size]
            xb, yb = tf.constant(x_train[idx]), tf.constant(y_train[idx])
            with tf.GradientTape() as tape:
                loss = loss_fn(model, xb, yb)
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            train_curve.append(float(loss))
            bar.update(1)
            bar.set_postfix(loss=f"{float(loss):.4f}", refresh=False)
            if len(train_curve) >= max_steps:
                break
        test_curve.append(float(loss_fn(model, xt, yt)))
    bar.close()

    acc = accuracy(model, x_test, y_test)
    print(f"{len(train_curve)} steps, test loss {test_curve[-1]:.4f}, test accuracy {acc:.3f}")
    if args.plot:
        save_plot(args.plot, train_curve, test_curve, steps_per_epoch, acc, model_name)
        print(f"loss plot saved to {args.plot}")
    if args.save:
        tf.saving.save_variables(args.save, model)
        print(f"weights saved to {args.save}")
    return {"accuracy": acc, "train_loss": train_curve, "test_loss": test_curve, "model": model}


def main(argv: list[str] | None = None) -> dict:
    parser = training_arguments(__doc__, epochs=20, lr=0.01, plot=DEFAULT_PLOT)
    parser.add_argument("--hidden", type=int, nargs="+", default=[64, 32])
    args = parser.parse_args(argv)
    model = MLP([64, *args.hidden, 10], seed=args.seed)
    return train(model, args, "MLP")


if __name__ == "__main__":
    main()
