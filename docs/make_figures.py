"""Draw the figures of the documentation into docs/images/ (run: ``python docs/make_figures.py``).

``tape.svg``: the tape picture of docs/troubleshooting.md (``tf.visualize.render``; needs the
``graphviz`` package and Graphviz's ``dot`` program, else it is left as it is).

``vjp.svg``: what ``tape.gradient(y, x, output_gradients=v)`` computes for the worked example of
docs/gradient.md, ``y = [x0*x1, x1*x2]`` at ``x = [1, 2, 3]``: the Jacobian ``J`` (2x3) is never
formed; the result is the row ``vᵀJ``. The numbers are computed with tapegrad, not typed in.

``mlp_digits_loss.png``: the loss curves of a full run of ``examples/mlp_digits.py`` (needs the
``examples`` extra, else it is left as it is). Only this script writes into docs/images/.
"""
from __future__ import annotations

import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import tapegrad as tf  # noqa: E402


def worked_example() -> dict:
    x = tf.constant([1.0, 2.0, 3.0])
    v = tf.constant([1.0, 10.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.stack([x[0] * x[1], x[1] * x[2]])
    return {"J": tape.jacobian(y, x).numpy(), "v": v.numpy(),
            "ones": tape.gradient(y, x).numpy(),
            "vJ": tape.gradient(y, x, output_gradients=v).numpy()}


def _cells(ax, values, x0, y0, color, fmt="{:g}", size=1.0):
    """Draw a matrix of labelled squares with its top-left corner at (x0, y0)."""
    values = np.atleast_2d(values)
    for i, row in enumerate(values):
        for j, val in enumerate(row):
            ax.add_patch(plt.Rectangle((x0 + j * size, y0 - (i + 1) * size), size, size,
                                       facecolor=color, edgecolor="#444444", lw=1.2))
            ax.text(x0 + (j + 0.5) * size, y0 - (i + 0.5) * size, fmt.format(val),
                    ha="center", va="center", fontsize=13)


def draw_vjp(path: str) -> None:
    ex = worked_example()
    J, v, vJ, ones = ex["J"], ex["v"], ex["vJ"], ex["ones"]
    fig, axes = plt.subplots(1, 2, figsize=(10.5, 4.0))
    for ax, seed, result, title in (
            (axes[0], np.ones_like(v), ones, "tape.gradient(y, x)\nseed v = ones: the rows of J are summed"),
            (axes[1], v, vJ, "tape.gradient(y, x, output_gradients=v)\nv weights the rows of J: vᵀJ")):
        # v as a column on the left, J to its right, the result row underneath J
        _cells(ax, seed[:, None], 0.0, 3.0, "#fdd0a2")
        _cells(ax, J, 1.6, 3.0, "#deebf7")
        _cells(ax, result[None, :], 1.6, 0.6, "#c7e9c0")
        ax.text(0.5, 3.25, "v", ha="center", fontsize=13, style="italic")
        ax.text(3.1, 3.25, "J = ∂y/∂x", ha="center", fontsize=13)
        ax.text(1.35, 2.0, "×", ha="center", va="center", fontsize=15)
        ax.text(1.35, 0.1, "=", ha="center", va="center", fontsize=15)
        ax.text(4.75, 0.1, "vᵀJ  (shape of x)", ha="left", va="center", fontsize=11)
        ax.text(4.75, 2.5, "row 0: ∂y₀/∂x", ha="left", va="center", fontsize=10, color="#555555")
        ax.text(4.75, 1.5, "row 1: ∂y₁/∂x", ha="left", va="center", fontsize=10, color="#555555")
        ax.set_title(title, fontsize=11, family="monospace")
        ax.set_xlim(-0.2, 7.2)
        ax.set_ylim(-0.6, 3.6)
        ax.set_aspect("equal")
        ax.axis("off")
    fig.suptitle("y = [x₀·x₁, x₁·x₂] at x = [1, 2, 3]", fontsize=12)
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    fig.savefig(path, format="svg", metadata={"Date": None})
    plt.close(fig)


def draw_tape(path: str) -> bool:
    """The small regression step of docs/troubleshooting.md, with cotangent norms on the edges."""
    w = tf.Variable(tf.random.normal([3, 2], seed=1), name="w")
    b = tf.Variable(tf.zeros([2]), name="b")
    x = tf.constant([[1.0, 2.0, 3.0]])
    with tf.GradientTape(persistent=True).explain(cotangents=True) as tape:
        y = tf.tanh(tf.matmul(x, w) + b)
        loss = tf.reduce_mean(tf.square(y - tf.constant([[0.5, -0.5]])))
    tape.gradient(loss, [w, b])
    try:
        tf.visualize.render(tape, path, format="svg", targets=loss)
    except (ImportError, RuntimeError, OSError) as e:     # no graphviz: keep the committed picture
        print(f"tape.svg not redrawn: {e}")
        return False
    return True


def draw_mlp_digits(path: str) -> bool:
    """The loss curves of a full run of examples/mlp_digits.py."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "mlp_digits", os.path.join(os.path.dirname(HERE), "examples", "mlp_digits.py"))
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
        module.main(["--no-progress", "--plot", path])
    except ImportError as e:                              # no scikit-learn or tqdm: keep the picture
        print(f"mlp_digits_loss.png not redrawn: {e}")
        return False
    return True


def main() -> None:
    out = os.path.join(HERE, "images")
    os.makedirs(out, exist_ok=True)
    plt.rcParams["svg.hashsalt"] = "tapegrad"      # reproducible ids: the file only changes with the figure
    draw_vjp(os.path.join(out, "vjp.svg"))
    draw_tape(os.path.join(out, "tape.svg"))
    draw_mlp_digits(os.path.join(out, "mlp_digits_loss.png"))


if __name__ == "__main__":
    main()
