"""``tapegrad.keras.random``: Keras 3's random functions and seeds, drawn through TensorFlow's
stateless random ops (``tapegrad.random.stateless_*``) as Keras's TensorFlow backend draws them.

A seed is an int or a :class:`SeedGenerator`. An int seed ``s`` is the stateless seed pair
``[s, 0]``: the same int gives the same numbers on every call. A ``SeedGenerator`` holds the pair
``[s, n]`` in a variable and adds one to ``n`` at each draw. ``seed=None`` draws from a global
``SeedGenerator`` with a random start (``keras.utils.set_random_seed`` fixes it).

>>> from tapegrad import keras
>>> a = keras.random.uniform((2,), seed=7)
>>> bool((a == keras.random.uniform((2,), seed=7)).numpy().all())
True
>>> g = keras.random.SeedGenerator(7)
>>> bool((keras.random.uniform((2,), seed=g) == a).numpy().all())
True
"""
from __future__ import annotations

import random as _pyrandom
from typing import Any

import numpy as np

from .. import random as _random
from ._engine import convert_to_tensor
from ._engine import Tensor
from ..ops.array import identity
from ..ops.indexing import gather
from ..ops.array import broadcast_to
from ..ops.math import cast, greater_equal, multiply
from . import backend
from ._variables import KerasVariable, NameScope

__all__ = ["SeedGenerator", "draw_seed", "make_default_seed", "normal", "uniform",
           "truncated_normal", "dropout", "shuffle", "randint", "categorical", "gamma", "beta",
           "binomial"]

_INT32_MAX = 2147483647


def make_default_seed() -> int:
    """A random int seed in ``[1, 1e9]`` from Python's ``random`` (as Keras draws one)."""
    return _pyrandom.randint(1, int(1e9))


class SeedGenerator:
    """A seed that moves on at every draw: the state ``[seed, n]`` becomes ``[seed, n + 1]``.

    >>> from tapegrad import keras
    >>> g = keras.random.SeedGenerator(42)
    >>> keras.random.draw_seed(g).numpy(), keras.random.draw_seed(g).numpy()
    (array([42,  0]), array([42,  1]))
    """

    def __init__(self, seed: int | None = None, name: str | None = None, **kwargs: Any) -> None:
        kwargs.pop("backend", None)
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments: {kwargs}")
        self.name = name if name is not None else backend.unique_name("seed_generator")
        self._initial_seed = seed
        if seed is None:
            seed = make_default_seed()
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"Argument `seed` must be an integer. Received: seed={seed!r}")
        with NameScope(self.name, caller=self):   # (its path: "<scope>/seed_generator/...", as Keras)
            self.state = KerasVariable(np.array([seed, 0], np.int64), dtype="int64", trainable=False,
                                       name="seed_generator_state")

    def next(self, ordered: bool = True) -> Tensor:
        """The current state; then the state moves on (``ordered=False``: a scrambled step)."""
        value = identity(self.state)  # (ops: a tf.function trace replays the state's update)
        if ordered:
            self.state.assign_add(np.array([0, 1], np.int64))
        else:
            self.state.assign((value + 1) * 5387 % 933199)
        return value

    def get_config(self) -> dict:
        return {"seed": self._initial_seed, "name": self.name}

    @classmethod
    def from_config(cls, config: dict) -> "SeedGenerator":
        return cls(**config)


def global_seed_generator() -> SeedGenerator:
    """The generator behind ``seed=None`` (made on first use, reset by ``clear_session``)."""
    gen = backend._global_state.get("global_seed_generator")
    if gen is None:
        gen = backend._global_state["global_seed_generator"] = SeedGenerator()
    return gen


def draw_seed(seed: Any) -> Tensor:
    """The stateless seed pair (int64) for ``seed``: an int, a :class:`SeedGenerator` or ``None``."""
    if isinstance(seed, SeedGenerator):
        return seed.next()
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        return convert_to_tensor(np.array([int(seed), 0], np.int64))
    if seed is None:
        return global_seed_generator().next(ordered=False)
    raise ValueError("Argument `seed` must be either an integer or an instance of `SeedGenerator`. "
                     f"Received: seed={seed!r} (of type {type(seed)})")


def _seed_pair(seed: Any) -> Tensor:
    # Keras's seeds are int64; TF's stateless ops get them modulo int32.max - 1, as int32.
    return cast(draw_seed(seed) % (_INT32_MAX - 1), "int32")


def normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = None,
           seed: Any = None) -> Tensor:
    """Normal draws of ``shape`` (``dtype`` defaults to ``floatx()``)."""
    dtype = backend.standardize_dtype(dtype)
    return _random.stateless_normal(shape, seed=_seed_pair(seed), mean=mean, stddev=stddev,
                                          dtype=dtype)


def uniform(shape: Any, minval: float = 0.0, maxval: float = 1.0, dtype: Any = None,
            seed: Any = None) -> Tensor:
    """Uniform draws in ``[minval, maxval)`` of ``shape``."""
    dtype = backend.standardize_dtype(dtype)
    return _random.stateless_uniform(shape, seed=_seed_pair(seed), minval=minval,
                                           maxval=maxval, dtype=dtype)


def truncated_normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = None,
                     seed: Any = None) -> Tensor:
    """Normal draws cut at two standard deviations (redrawn beyond)."""
    dtype = backend.standardize_dtype(dtype)
    return _random.stateless_truncated_normal(shape, seed=_seed_pair(seed), mean=mean,
                                                    stddev=stddev, dtype=dtype)


def dropout(inputs: Any, rate: float, noise_shape: Any = None, seed: Any = None) -> Tensor:
    """Zero each entry with probability ``rate`` and scale the others by ``1 / (1 - rate)``.

    As TF's stateless dropout: keep where a uniform draw of ``noise_shape`` is ``>= rate``.
    """
    x = convert_to_tensor(inputs)
    if rate == 1.0:
        return x * 0
    if rate == 0.0:
        return x
    if noise_shape is None:
        noise_shape = x.shape
    else:
        noise_shape = [x.shape[i] if d is None else d for i, d in enumerate(noise_shape)]
    u = uniform(noise_shape, dtype=x.dtype.name, seed=seed)
    keep = cast(greater_equal(u, convert_to_tensor(rate, x.dtype)), x.dtype)
    return multiply(x * convert_to_tensor(1.0 / (1.0 - rate), x.dtype), keep)


def shuffle(x: Any, axis: int = 0, seed: Any = None) -> Tensor:
    """``x`` with its entries along ``axis`` in a random order (argsort of uniform draws)."""
    x = convert_to_tensor(x)
    order = np.argsort(uniform([x.shape[axis]], seed=seed).numpy(), kind="stable")
    return gather(x, convert_to_tensor(order.astype(np.int32)), axis=axis)


def randint(shape: Any, minval: Any, maxval: Any, dtype: Any = "int32", seed: Any = None) -> Tensor:
    """Integers drawn uniformly from ``[minval, maxval)`` (TF's stateless int draw; other int dtypes
    are drawn as int64 and cast).

    >>> from tapegrad import keras
    >>> keras.random.randint((3,), 0, 10, seed=1).dtype.name
    'int32'
    """
    if dtype and not backend.is_int_dtype(dtype):
        raise ValueError(f"`keras.random.randint` requires an integer `dtype`. Received: dtype={dtype} ")
    dtype = backend.standardize_dtype(dtype)
    drawn = dtype if dtype in ("int32", "int64") else "int64"
    out = _random.stateless_uniform(shape, seed=_seed_pair(seed), minval=minval, maxval=maxval,
                                    dtype=drawn)
    return cast(out, dtype)


def categorical(logits: Any, num_samples: int, dtype: Any = "int32", seed: Any = None) -> Tensor:
    """``num_samples`` class indices per row of the 2-D ``logits`` (``[batch, num_classes]``).

    >>> from tapegrad import keras
    >>> keras.random.categorical([[0.0, 50.0]], 3, seed=1).numpy()
    array([[1, 1, 1]], dtype=int32)
    """
    logits = convert_to_tensor(logits)
    if len(logits.shape) != 2:
        raise ValueError("`logits` should be a 2-D tensor with shape [batch_size, num_classes]. "
                         f"Received: logits={logits}")
    out = _random.stateless_categorical(logits, num_samples, seed=_seed_pair(seed))
    return cast(out, backend.standardize_dtype(dtype))


def _gamma(shape: Any, alpha: Any, dtype: str, seed: Tensor) -> Tensor:
    drawn = "float32" if dtype == "bfloat16" else dtype
    return cast(_random.stateless_gamma(shape, seed=seed, alpha=alpha, dtype=drawn), dtype)


def gamma(shape: Any, alpha: Any, dtype: Any = None, seed: Any = None) -> Tensor:
    """Gamma draws of shape ``alpha`` (scale 1), TF's stateless gamma.

    >>> from tapegrad import keras
    >>> keras.random.gamma((2, 3), alpha=2.0, seed=1).shape
    TensorShape([2, 3])
    """
    return _gamma(shape, alpha, backend.standardize_dtype(dtype), _seed_pair(seed))


def binomial(shape: Any, counts: Any, probabilities: Any, dtype: Any = None, seed: Any = None) -> Tensor:
    """Binomial draws: successes in ``counts`` trials of probability ``probabilities``.

    >>> from tapegrad import keras
    >>> keras.random.binomial((4,), counts=5.0, probabilities=1.0, seed=1).numpy()
    array([5., 5., 5., 5.], dtype=float32)
    """
    dtype = backend.standardize_dtype(dtype)
    drawn = "float32" if dtype == "bfloat16" else dtype
    out = _random.stateless_binomial(shape, seed=_seed_pair(seed), counts=counts,
                                     probs=probabilities, output_dtype=drawn)
    return cast(out, dtype)


def beta(shape: Any, alpha: Any, beta: Any, dtype: Any = None, seed: Any = None) -> Tensor:
    """Beta draws as Keras makes them: ``X / (X + Y)`` for gamma draws ``X ~ Gamma(alpha)`` on the
    drawn seed and ``Y ~ Gamma(beta)`` on that seed plus 12.

    >>> from tapegrad import keras
    >>> x = keras.random.beta((3,), alpha=2.0, beta=3.0, seed=1).numpy()
    >>> bool(((x > 0) & (x < 1)).all())
    True
    """
    dtype = backend.standardize_dtype(dtype)
    drawn = "float32" if dtype == "bfloat16" else dtype
    seed_1 = _seed_pair(seed)
    seed_2 = seed_1 + 12
    a = broadcast_to(convert_to_tensor(alpha, drawn), shape)
    b = broadcast_to(convert_to_tensor(beta, drawn), shape)
    gamma_a = _gamma(shape, a, dtype, seed_1)
    gamma_b = _gamma(shape, b, dtype, seed_2)
    return gamma_a / (gamma_a + gamma_b)
