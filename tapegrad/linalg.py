"""``tapegrad.linalg``: matrix products and decompositions (TensorFlow's ``tf.linalg``)."""
from .ops.array_ops import eye  # noqa: F401
from .ops.linalg_ops import matmul, matvec  # noqa: F401
