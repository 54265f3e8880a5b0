"""``tapegrad.autodiff``: tapes and forward mode (TensorFlow's ``tf.autodiff``)."""
from ._forward import ForwardAccumulator  # noqa: F401
from ._tape import GradientTape  # noqa: F401
from ._functional import (check_batch_independence, grad, hessian, hvp, jacfwd, jacobian,  # noqa: F401
                          jacrev, jvp, value_and_grad, vjp)
from ._jacobian import DEFAULT_MEMORY_BUDGET, set_jacobian_memory_budget  # noqa: F401
from ._memory import set_memory_limit  # noqa: F401
