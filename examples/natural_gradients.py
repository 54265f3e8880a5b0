"""What does ``output_gradients`` do in ``GradientTape.gradient``? A natural-gradient example.

This is the program of a Stack Overflow question, written with tapegrad and without GPflow. A
Gaussian ``q(u) = N(mu, L L^T)`` is parametrised by its mean ``mu`` ([N, 1]) and the
lower-triangular Cholesky factor ``L`` of its covariance ([1, N, N]). GPflow's natural-gradient
optimizer maps these to the *expectation parameters*

    eta1 = mu,        eta2 = mu mu^T + L L^T          (meanvarsqrt_to_expectation)

and back

    mu = eta1,        L = cholesky(eta2 - eta1 eta1^T)  (expectation_to_meanvarsqrt)

and asks the tape for the gradient of the round trip ``(mu, L)`` with respect to
``(eta1, eta2)``, once with ``output_gradients`` and once without.

Why is ``dL_deta1 != dtheta_deta1 * q_mu_grad``? ``tape.gradient(target, source)`` never
builds a Jacobian: it computes one vector-Jacobian product ``vᵀ J``, where ``v`` (the seed) has
the shape of ``target``.

* With ``output_gradients=[dL_dmean, dL_dvarsqrt]`` the seed is the loss gradient with respect
  to ``(mu, L)``, and ``vᵀ J`` is the chain rule: ``dL/deta = Σ_k dL/dtheta_k · dtheta_k/deta``,
  a contraction of the seed with the *whole* Jacobian.
* Without it the seed is all ones, so ``dtheta_deta1[i] = Σ_k dtheta_k/deta1_i``: a sum over all
  outputs, not an elementwise derivative. Multiplying that sum by ``q_mu_grad`` afterwards mixes
  every output's contribution with one weight, which is not the chain rule. Here every entry of
  ``dtheta_deta1`` is the same number, ``1 - sum(mu) = -0.767571``: ``d mu_i / d eta1_i = 1``,
  and each ``eta1_j`` enters every entry of ``L`` through ``eta2 - eta1 eta1^T``.

The numbers match TensorFlow with GPflow (float64):

    dL_deta1     = [-0.62545, -0.106086, -0.159664, -0.192574, -0.100498]   (shape [5, 1])
    dL_deta2     = 0.5 * I                                                    (shape [1, 5, 5])
    dtheta_deta1 = -0.767571 everywhere;   dtheta_deta2 = 0.5 everywhere

Where they come from: at ``L = I`` the Cholesky gradient for a seed ``Ḡ`` is
``(Φ(Ḡ) + Φ(Ḡ)ᵀ) / 2`` (``Φ``: lower triangle, diagonal halved). For ``Ḡ = I`` that is
``0.5 I``; for ``Ḡ = ones`` it is ``0.5`` everywhere. ``eta1`` gets the direct ``mu`` term plus
``-(Ā + Āᵀ) eta1`` from ``eta2 - eta1 eta1ᵀ``: ``0.33 mu - mu = -0.67 mu`` for the first call,
``1 - sum(mu)`` for the second.

Run: ``python examples/natural_gradients.py``.
"""
from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import tapegrad as tf  # noqa: E402


# --------------------------------------------------------------------------- parameter maps
# GPflow keeps the mean as [N, L] (one column per latent GP) and the Cholesky factors as
# [L, N, N]; the maps work on [L, N, 1] columns, so the mean is moved there and back.
def _to_columns(a_nl):
    return tf.linalg.adjoint(a_nl)[:, :, None]          # [N, L] -> [L, N, 1]


def _from_columns(a_ln1):
    return tf.linalg.adjoint(a_ln1[:, :, 0])             # [L, N, 1] -> [N, L]


def meanvarsqrt_to_expectation(mean, varsqrt):
    """(mu, L) -> (eta1, eta2) = (mu, mu mu^T + L L^T)."""
    m = _to_columns(mean)
    var = tf.matmul(varsqrt, varsqrt, transpose_b=True)
    return _from_columns(m), var + tf.matmul(m, m, transpose_b=True)


def expectation_to_meanvarsqrt(eta1, eta2):
    """(eta1, eta2) -> (mu, L) = (eta1, cholesky(eta2 - eta1 eta1^T))."""
    e1 = _to_columns(eta1)
    var = eta2 - tf.matmul(e1, e1, transpose_b=True)
    return _from_columns(e1), tf.linalg.cholesky(var)


# --------------------------------------------------------------------------- parameters
class TriangularParameter:
    """A lower-triangular matrix stored unconstrained as its ``fill_triangular_inverse``
    vector (GPflow's ``Parameter(..., transform=triangular())``)."""

    def __init__(self, value):
        self.unconstrained_variable = tf.Variable(tf.linalg.fill_triangular_inverse(value))

    def constrained(self):
        return tf.linalg.fill_triangular(self.unconstrained_variable)


class IdentityParameter:
    """A parameter without a transform: constrained and unconstrained values coincide."""

    def __init__(self, value):
        self.unconstrained_variable = tf.Variable(value)

    def constrained(self):
        return tf.identity(self.unconstrained_variable)


def natgrad_apply_gradients(q_mu_grad, q_sqrt_grad, q_mu, q_sqrt):
    # The loss gradients in the constrained space: identity for the mean, fill_triangular for
    # the Cholesky factor (its gradient vector [1, 15] becomes a [1, 5, 5] matrix).
    dL_dmean = q_mu_grad
    dL_dvarsqrt = tf.linalg.fill_triangular(q_sqrt_grad)

    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch([q_mu.unconstrained_variable, q_sqrt.unconstrained_variable])
        eta1, eta2 = meanvarsqrt_to_expectation(q_mu.constrained(), q_sqrt.constrained())
        meanvarsqrt = expectation_to_meanvarsqrt(eta1, eta2)

    # vᵀJ with v = the loss gradients: the chain rule, dL/deta.
    dL_deta1, dL_deta2 = tape.gradient(meanvarsqrt, [eta1, eta2],
                                       output_gradients=[dL_dmean, dL_dvarsqrt])
    # vᵀJ with v = ones: for each eta entry, the SUM over all outputs of d output / d eta.
    dtheta_deta1, dtheta_deta2 = tape.gradient(meanvarsqrt, [eta1, eta2], output_gradients=None)
    del tape
    return dL_deta1, dL_deta2, dtheta_deta1, dtheta_deta2


def main(verbose: bool = True) -> dict:
    num_data, num_latent_gps = 5, 1
    mu = np.array([[0.93350756], [0.15833747], [0.23830378], [0.28742445], [0.14999759]])
    q_mu = IdentityParameter(mu)                                           # [5, 1] float64
    q_sqrt = TriangularParameter(tf.eye(num_data, batch_shape=[num_latent_gps], dtype=tf.float64))

    q_mu_grad = q_mu.unconstrained_variable * 0.33
    q_sqrt_grad = tf.convert_to_tensor(q_sqrt.unconstrained_variable)     # [1, 15]

    dL_deta1, dL_deta2, dtheta_deta1, dtheta_deta2 = natgrad_apply_gradients(
        q_mu_grad, q_sqrt_grad, q_mu, q_sqrt)
    out = {"dL_deta1": dL_deta1.numpy(), "dL_deta2": dL_deta2.numpy(),
           "dtheta_deta1": dtheta_deta1.numpy(), "dtheta_deta2": dtheta_deta2.numpy()}
    if verbose:
        np.set_printoptions(precision=6, suppress=True)
        for k, v in out.items():
            print(f"{k} (shape {list(v.shape)}):\n{v}\n")
        naive = (dtheta_deta1 * q_mu_grad).numpy()
        print("dtheta_deta1 * q_mu_grad (not the chain rule):", naive.ravel())
        print("dL_deta1 (vᵀJ with v = dL_dmean, dL_dvarsqrt):  ", out["dL_deta1"].ravel())
    return out


if __name__ == "__main__":
    main()
