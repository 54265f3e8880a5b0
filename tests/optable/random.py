"""Op table: tf.random's ops (tapegrad/ops/random.py)."""
import numpy as np

import tapegrad as tf
from optable import OpCase
from tapegrad.ops import random as tf_random
from tapegrad._dispatch import apply


def _gamma_at_fixed_quantiles(alpha):
    """RandomGamma carrying the samples F⁻¹(u; alpha) for fixed u: their derivative in alpha is
    exactly the implicit-reparameterization gradient the op's rule gives (RandomGammaGrad)."""
    from scipy.special import gammaincinv
    a = alpha.numpy()
    u = np.linspace(0.15, 0.85, 4)[:, None] * np.ones_like(a)
    return apply(tf_random._gamma, (tf.broadcast_to(alpha, u.shape), tf.constant(gammaincinv(a, u).astype(a.dtype))),
                 {})


CASES = [
    # random
    OpCase("RandomShuffle", lambda x: tf.random.shuffle(x, seed=1), [((4, 2),)], nondiff=True),
    OpCase("RandomGamma", _gamma_at_fixed_quantiles, [((3,),)], ops=("RandomGamma", "RandomGammaGrad"),
           domain=(0.5, 3.0), order=1, rtol=1e-4),
]
