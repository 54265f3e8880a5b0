"""Quick start: what ``GradientTape.gradient`` computes for a list (or vector) target.

The program from a well-known question about TensorFlow 2, run unchanged with
``import tapegrad as tf``: a two-sample softmax classifier, the gradient of the per-sample
losses ``xentropy = [y1, y2]`` and the gradient of their mean.

``g.gradient(xentropy, [w, b])`` is not a Jacobian. It is ``[d(y1 + y2)/dw, d(y1 + y2)/db]``:
the gradient of the *sum* of the target's entries, so the mean's gradient is exactly half of it.

Run: ``python examples/quickstart.py`` (``--quick`` does the same; it takes a moment anyway).
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import tapegrad as tf  # noqa: E402


def forward(inputs, labels, var_list):
    w, b = var_list
    logits = tf.matmul(inputs, w) + b
    xentropy = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return xentropy


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="same program (it is already quick)")
    parser.parse_args(argv)

    inputs = tf.convert_to_tensor([[0.1, 0], [0.5, 0.51]])  # two 2-d samples
    w = tf.Variable(initial_value=inputs)
    b = tf.Variable(tf.zeros((2,)))
    labels = tf.convert_to_tensor([0, 1])

    # `xentropy` has two elements (one per sample in the batch)
    with tf.GradientTape(persistent=True) as g:
        xentropy = forward(inputs, labels, [w, b])
        reduced_xentropy = tf.reduce_mean(xentropy)
    # A target with several entries (a vector, or a list of tensors) is summed before
    # differentiating. So this is [d(y1 + y2)/dw, d(y1 + y2)/db], one gradient per source with
    # that source's shape, and not a Jacobian (use g.jacobian for that).
    grads = g.gradient(xentropy, [w, b])
    print("xentropy:", xentropy.numpy().round(4))  # [0.6882 0.7158]
    print("grads[0]:\n", grads[0].numpy().round(4))  # [[ 0.2059 -0.2059]
    #                                                     [ 0.2607 -0.2607]]

    # `reduced_xentropy` is a scalar: 0.5 * (y1 + y2), so its gradient is half of `grads`.
    grads_reduced = g.gradient(reduced_xentropy, [w, b])
    print("reduced_xentropy:", reduced_xentropy.numpy().round(4))  # 0.702
    print("grads_reduced[0] (half of grads[0]):\n", grads_reduced[0].numpy().round(4))

    # `output_gradients` is the vector v in the product vᵀJ that `gradient` computes: each
    # target entry is weighted by v before the sum (the default v is all ones). With
    # v = [0.5, 0.5] the per-sample target gives the gradient of the mean loss.
    weighted = g.gradient(xentropy, [w, b], output_gradients=tf.constant([0.5, 0.5]))
    np.testing.assert_allclose(weighted[0].numpy(), grads_reduced[0].numpy(), rtol=1e-6)

    # The Jacobian keeps the samples apart: one [2, 2] block per loss entry; summing over the
    # target axis gives `grads[0]` back.
    jac = g.jacobian(xentropy, w)
    print("jacobian shape:", jac.shape)  # (2, 2, 2)
    np.testing.assert_allclose(tf.reduce_sum(jac, axis=0).numpy(), grads[0].numpy(), rtol=1e-6)
    del g
    return {"xentropy": xentropy.numpy(), "grads": [t.numpy() for t in grads],
            "grads_reduced": [t.numpy() for t in grads_reduced], "jacobian": jac.numpy()}


if __name__ == "__main__":
    main()
