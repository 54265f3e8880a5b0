"""``tapegrad.nn``: activations, softmax and losses (TensorFlow's ``tf.nn``)."""
from .ops.math_ops import sigmoid, tanh  # noqa: F401
from .ops.special_ops import softplus  # noqa: F401
from .ops.sort_ops import top_k  # noqa: F401
from .ops.combine_ops import l2_normalize  # noqa: F401
from .ops.nn_ops import (  # noqa: F401
    log_softmax, relu, sigmoid_cross_entropy_with_logits, softmax, softmax_cross_entropy_with_logits,
    sparse_softmax_cross_entropy_with_logits,
)
from .ops.array_extra import embedding_lookup  # noqa: F401
