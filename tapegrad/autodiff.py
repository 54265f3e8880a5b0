"""``tapegrad.autodiff``: tapes and forward mode (TensorFlow's ``tf.autodiff``)."""
from ._forward import ForwardAccumulator  # noqa: F401
from ._tape import GradientTape  # noqa: F401
