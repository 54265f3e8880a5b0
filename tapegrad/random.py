"""``tapegrad.random``: random tensors (TensorFlow's ``tf.random``) with TensorFlow's numbers.

The ops, their kernels and the seeds live in the op family ``tapegrad/ops/random.py`` (its
docstring says how the numbers match TensorFlow's); the candidate samplers in
``tapegrad/ops/sampled.py``.

>>> import tapegrad as tf
>>> tf.random.set_seed(42)
>>> a = tf.random.uniform([2])
>>> tf.random.set_seed(42)
>>> bool(tf.reduce_all(a == tf.random.uniform([2])))
True
"""
import types as _types
import typing as _typing

from .ops.random import (  # noqa: F401
    Algorithm, Generator, categorical, create_rng_state, fold_in, gamma, get_global_generator, index_shuffle,
    normal, poisson, set_global_generator, set_seed, shuffle, split, stateless_binomial, stateless_categorical,
    stateless_gamma, stateless_normal, stateless_poisson, stateless_shuffle, stateless_truncated_normal,
    stateless_uniform, truncated_normal, uniform,
)
from .ops.random import (  # noqa: F401  (the seeds' machinery, for tf.data, Keras and tf.distribute)
    FunctionSeeds, call_in_graph, fit_batch_permutation, fit_permutation, graph_step, in_graph, kernel_draw,
    op_seeds, seed_setting, take_seed, trace_time,
)
from .ops.sampled import (  # noqa: F401  (candidate samplers: tf.random's and tf.nn's)
    all_candidate_sampler, fixed_unigram_candidate_sampler, learned_unigram_candidate_sampler,
    log_uniform_candidate_sampler, uniform_candidate_sampler,
)

__all__ = ["set_seed", "normal", "uniform", "truncated_normal", "shuffle", "categorical", "gamma",
           "poisson", "stateless_normal", "stateless_uniform", "stateless_truncated_normal",
           "stateless_categorical", "stateless_gamma", "stateless_poisson", "stateless_binomial",
           "split", "fold_in", "Algorithm", "create_rng_state", "Generator", "get_global_generator",
           "set_global_generator", "experimental", "log_uniform_candidate_sampler",
           "uniform_candidate_sampler", "fixed_unigram_candidate_sampler", "learned_unigram_candidate_sampler",
           "all_candidate_sampler"]

experimental = _types.SimpleNamespace(
    Algorithm=Algorithm, Generator=Generator, create_rng_state=create_rng_state,
    get_global_generator=get_global_generator, set_global_generator=set_global_generator,
    stateless_split=split, stateless_fold_in=fold_in, index_shuffle=index_shuffle,
    stateless_shuffle=stateless_shuffle)


if not _typing.TYPE_CHECKING:  # hidden from type checkers: they report a missing name
    def __getattr__(name: str) -> object:  # "not covered yet" for a TF name, "did you mean" for a typo
        if name.startswith("_"):  # (private and special names: no lookup, no import)
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        from ._missing import attribute_error  # loaded on the first miss, not at import
        raise attribute_error("random", name)
