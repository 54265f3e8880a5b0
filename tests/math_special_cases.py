"""The cases of tf.math.special, run the same way on TensorFlow (tools/record_tf_special.py) and
on tapegrad (tests/test_math_special.py)."""

NAMES = ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1", "bessel_k0",
         "bessel_k0e", "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1", "dawsn", "expint",
         "fresnel_cos", "fresnel_sin", "spence"]
# each function's special points (0, 1, negative arguments) and its ordinary range
GRID = [-3.0, -1.0, -0.5, 0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 5.0, 12.0]


def derivatives(tf, fn, x):
    """``fn(x)`` and its first and second derivatives, with nested GradientTapes."""
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = fn(x)
        g = inner.gradient(y, x)
    return y, g, outer.gradient(g, x)
