"""``tapegrad.nn``: activations, softmax and losses (TensorFlow's ``tf.nn``)."""
import importlib as _importlib
import importlib.machinery as _machinery
import sys as _sys
import types as _types
import typing as _typing

from .ops.conv import (  # noqa: F401
    atrous_conv2d, avg_pool, avg_pool1d, avg_pool2d, avg_pool3d, conv1d, conv1d_transpose, conv2d,
    conv2d_transpose, conv3d, conv3d_transpose, conv_transpose, convolution, depthwise_conv2d, max_pool,
    atrous_conv2d_transpose, depthwise_conv2d_backprop_filter, depthwise_conv2d_backprop_input, with_space_to_batch,
    max_pool1d, max_pool2d, max_pool3d, max_pool_with_argmax, pool, separable_conv2d,
)
from .ops.array import space_to_batch  # noqa: F401
from .ops.indexing import embedding_lookup  # noqa: F401
from .ops.math import sigmoid, tanh  # noqa: F401
from .ops.nn import (  # noqa: F401
    batch_norm_with_global_normalization, batch_normalization, bias_add, collapse_repeated, crelu,
    ctc_loss, depth_to_space, dropout, elu, gelu, isotonic_regression, l2_loss, l2_normalize,
    leaky_relu, local_response_normalization, log_poisson_loss, log_softmax, lrn, moments,
    normalize_moments, relu, relu6, selu, sigmoid_cross_entropy_with_logits, silu, softmax,
    softmax_cross_entropy_with_logits, softsign, space_to_depth,
    sparse_softmax_cross_entropy_with_logits, sufficient_statistics, swish,
    weighted_cross_entropy_with_logits, weighted_moments,
)
from .ops.sampled import (  # noqa: F401
    all_candidate_sampler, compute_accidental_hits, fixed_unigram_candidate_sampler,
    learned_unigram_candidate_sampler, nce_loss, sampled_softmax_loss, uniform_candidate_sampler,
)
from .ops.sort import approx_max_k, approx_min_k, in_top_k, top_k  # noqa: F401
from .ops.reduction import zero_fraction  # noqa: F401
from .ops.special import softplus  # noqa: F401
from .ops import nn as _nn_ops

experimental = _types.ModuleType("tapegrad.nn.experimental", """TensorFlow's ``tf.nn.experimental``: dropout
with a stateless seed or a caller's sampler.

>>> import tapegrad as tf
>>> tf.nn.experimental.stateless_dropout(tf.ones([4]), 0.5, seed=[1, 2]).shape
TensorShape([4])
""")
experimental.__dict__.update(stateless_dropout=_nn_ops.stateless_dropout, general_dropout=_nn_ops.general_dropout)
experimental.__all__ = ["general_dropout", "stateless_dropout"]
experimental.__spec__ = _machinery.ModuleSpec(experimental.__name__, None)
_sys.modules[experimental.__name__] = experimental  # (importable: import tapegrad.nn.experimental)


# loaded on first use (they need tf.sparse, which `import tapegrad` does not load)
_LAZY = {"ctc_greedy_decoder": "._decoders", "ctc_beam_search_decoder": "._decoders",
         "ctc_unique_labels": "._decoders", "embedding_lookup_sparse": "._embedding",
         "safe_embedding_lookup_sparse": "._embedding", "dilation2d": "._morphology", "erosion2d": "._morphology"}


def __dir__() -> list:
    return sorted(set(globals()) | {"compute_average_loss", "scale_regularization_loss"} | set(_LAZY))


if _typing.TYPE_CHECKING:  # what type checkers see of the names loaded on first use
    from ._decoders import ctc_beam_search_decoder, ctc_greedy_decoder, ctc_unique_labels  # noqa: F401
    from ._embedding import embedding_lookup_sparse, safe_embedding_lookup_sparse  # noqa: F401
    from ._morphology import dilation2d, erosion2d  # noqa: F401

if not _typing.TYPE_CHECKING:  # hidden from type checkers: they report a missing name
    def __getattr__(name: str) -> object:  # "not covered yet" for a TF name, "did you mean" for a typo
        if name.startswith("_"):  # (private and special names: no lookup, no import)
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        if name in ("compute_average_loss", "scale_regularization_loss"):  # (they read the strategy)
            from .distribute import _losses
            value = globals()[name] = getattr(_losses, name)
            return value
        if name in _LAZY:
            value = globals()[name] = getattr(_importlib.import_module(_LAZY[name], "tapegrad"), name)
            return value
        from ._missing import attribute_error
        raise attribute_error("nn", name)
