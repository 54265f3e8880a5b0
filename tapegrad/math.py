"""``tapegrad.math``: elementwise math, reductions and scans (TensorFlow's ``tf.math``)."""
from .ops.math_ops import (  # noqa: F401
    abs, add, conj, cos, cumprod, cumsum, divide, equal, exp, expm1, floor_div, floordiv, floormod,
    greater, greater_equal, imag, less, less_equal, log, log1p, logical_and, logical_not, logical_or,
    logical_xor, maximum, minimum, mod, multiply, multiply_no_nan, negative, not_equal, pow, real,
    reciprocal, rsqrt, saturate_cast, sigmoid, sign, sin, sqrt, square, subtract, tan, tanh,
    truediv, truncatemod,
)
from .ops.math_ops import reciprocal as inv  # noqa: F401
from .ops.nn_ops import softmax  # noqa: F401
from .ops.reductions import (  # noqa: F401
    argmax, argmin, reduce_all, reduce_any, reduce_logsumexp, reduce_max, reduce_mean, reduce_min,
    reduce_prod, reduce_std, reduce_sum, reduce_variance,
)
from .ops.array_ops import unsorted_segment_sum  # noqa: F401
