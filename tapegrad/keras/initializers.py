"""``tapegrad.keras.initializers``: Keras 3's weight initializers (also ``tf.initializers``).

A seeded initializer gives the same values at every call, as in Keras 3 (use a
``keras.random.SeedGenerator`` as the seed for new values at each call); the numbers are drawn
with TensorFlow's stateless random ops, as Keras's TensorFlow backend draws them.

>>> from tapegrad import keras
>>> init = keras.initializers.GlorotUniform(seed=1)
>>> w = init((3, 4))
>>> w.shape, w.dtype.name
(TensorShape([3, 4]), 'float32')
>>> bool((init((3, 4)) == w).numpy().all())
True
>>> keras.initializers.get("ones")((2,)).numpy()
array([1., 1.], dtype=float32)
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import dtypes as _dtypes, random as _tf_random
from ._engine import constant as _constant, convert_to_tensor
from ._engine import Tensor
from ..linalg import qr
from . import _variables, backend, random
from . import saving as _saving

__all__ = ["Initializer", "Zeros", "Ones", "Constant", "Identity", "RandomNormal", "RandomUniform",
           "TruncatedNormal", "VarianceScaling", "GlorotUniform", "GlorotNormal", "HeUniform",
           "HeNormal", "LecunUniform", "LecunNormal", "Orthogonal", "STFT", "STFTInitializer", "get", "serialize",
           "deserialize", "constant_initializer", "ones_initializer", "zeros_initializer",
           "random_normal_initializer", "random_uniform_initializer"]


def _full(shape: Any, value: Any, dtype: Any) -> Tensor:
    dt = backend.standardize_dtype(dtype)
    return convert_to_tensor(np.full(tuple(int(d) for d in shape), value, dtype=dt))


class Initializer:
    """Base class: ``initializer(shape, dtype=None)`` returns a tensor of that shape."""

    def __call__(self, shape: Any, dtype: Any = None) -> Tensor:
        raise NotImplementedError(f"Initializer subclasses must implement __call__; "
                                  f"{type(self).__name__} does not.")

    def get_config(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config: dict) -> "Initializer":
        return cls(**config)

    def clone(self) -> "Initializer":
        return type(self).from_config(self.get_config())


class Zeros(Initializer):
    """All zeros."""

    def __call__(self, shape: Any, dtype: Any = None) -> Tensor:
        return _full(shape, 0, dtype)


class Ones(Initializer):
    """All ones."""

    def __call__(self, shape: Any, dtype: Any = None) -> Tensor:
        return _full(shape, 1, dtype)


class Constant(Initializer):
    """All ``value`` (a scalar)."""

    def __init__(self, value: Any = 0.0) -> None:
        self.value = value

    def __call__(self, shape: Any, dtype: Any = None) -> Tensor:
        return _full(shape, np.asarray(self.value), dtype)

    def get_config(self) -> dict:
        return {"value": self.value}


class Identity(Initializer):
    """``gain`` times the identity matrix (2-D shapes only)."""

    def __init__(self, gain: float = 1.0) -> None:
        self.gain = gain

    def __call__(self, shape: Any, dtype: Any = None) -> Tensor:
        if len(shape) != 2:
            raise ValueError("Identity matrix initializer can only be used for 2D matrices. "
                             f"Received: shape={tuple(shape)} of rank {len(shape)}.")
        dt = backend.standardize_dtype(dtype)
        return convert_to_tensor((self.gain * np.eye(*map(int, shape))).astype(dt))

    def get_config(self) -> dict:
        return {"gain": self.gain}


class _Random(Initializer):
    def __init__(self, seed: Any = None) -> None:
        self._init_seed = seed
        if seed is None:
            seed = random.make_default_seed()
        elif not isinstance(seed, (int, random.SeedGenerator)) or isinstance(seed, bool):
            raise ValueError("`seed` argument should be an instance of `keras.random.SeedGenerator()` "
                             f"or an integer. Received: seed={seed!r}")
        self.seed = seed

    def get_config(self) -> dict:
        return {"seed": self._init_seed}

    def clone(self) -> "Initializer":
        """A new initializer of the same config; as Keras's serialization round trip, a
        ``SeedGenerator`` seed becomes a new generator from its initial seed."""
        config = self.get_config()
        if isinstance(config["seed"], random.SeedGenerator):
            config["seed"] = random.SeedGenerator.from_config(config["seed"].get_config())
        return type(self).from_config(config)


class RandomNormal(_Random):
    """Normal draws with ``mean`` and ``stddev``."""

    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed: Any = None) -> None:
        self.mean, self.stddev = mean, stddev
        super().__init__(seed)

    def __call__(self, shape: Any, dtype: Any = None) -> Tensor:
        return random.normal(shape, self.mean, self.stddev, dtype, self.seed)

    def get_config(self) -> dict:
        return {"mean": self.mean, "stddev": self.stddev, **super().get_config()}


class TruncatedNormal(_Random):
    """Normal draws with ``mean`` and ``stddev``, redrawn beyond two standard deviations."""

    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed: Any = None) -> None:
        self.mean, self.stddev = mean, stddev
        super().__init__(seed)

    def __call__(self, shape: Any, dtype: Any = None) -> Tensor:
        return random.truncated_normal(shape, self.mean, self.stddev, dtype, self.seed)

    def get_config(self) -> dict:
        return {"mean": self.mean, "stddev": self.stddev, **super().get_config()}


class RandomUniform(_Random):
    """Uniform draws in ``[minval, maxval)``."""

    def __init__(self, minval: float = -0.05, maxval: float = 0.05, seed: Any = None) -> None:
        self.minval, self.maxval = minval, maxval
        super().__init__(seed)

    def __call__(self, shape: Any, dtype: Any = None) -> Tensor:
        return random.uniform(shape, self.minval, self.maxval, dtype, self.seed)

    def get_config(self) -> dict:
        return {"minval": self.minval, "maxval": self.maxval, **super().get_config()}


def compute_fans(shape: Any, input_axes: Any = None, output_axes: Any = None) -> tuple[int, int]:
    """``(fan_in, fan_out)`` of a weight shape; a conv kernel ``(..., in, out)`` counts its window."""
    shape = tuple(int(d) for d in shape)
    if input_axes is not None and output_axes is not None:
        return (int(np.prod([shape[a] for a in input_axes])),
                int(np.prod([shape[a] for a in output_axes])))
    if not shape:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    window = int(np.prod(shape[:-2]))
    return shape[-2] * window, shape[-1] * window


class VarianceScaling(_Random):
    """Draws with variance ``scale / fan`` (``mode``: fan_in, fan_out or fan_avg).

    ``distribution``: ``"truncated_normal"`` (``"normal"`` means the same), ``"untruncated_normal"``
    or ``"uniform"``.
    """

    def __init__(self, scale: float = 1.0, mode: str = "fan_in", distribution: str = "truncated_normal",
                 seed: Any = None, input_axes: Any = None, output_axes: Any = None) -> None:
        if scale <= 0.0:
            raise ValueError(f"Argument `scale` must be positive float. Received: scale={scale}")
        modes = ("fan_in", "fan_out", "fan_avg")
        if mode not in modes:
            raise ValueError(f"Invalid `mode` argument: {mode!r}. Please use one of {modes}")
        distribution = distribution.lower()
        if distribution == "normal":
            distribution = "truncated_normal"
        dists = ("uniform", "truncated_normal", "untruncated_normal")
        if distribution not in dists:
            raise ValueError(f"Invalid `distribution` argument: {distribution!r}. "
                             f"Please use one of {dists}")
        self.scale, self.mode, self.distribution = scale, mode, distribution
        self.input_axes, self.output_axes = input_axes, output_axes
        super().__init__(seed)

    def __call__(self, shape: Any, dtype: Any = None) -> Tensor:
        fan_in, fan_out = compute_fans(shape, self.input_axes, self.output_axes)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        scale = self.scale / max(1.0, fan)
        if self.distribution == "truncated_normal":  # the stddev of a unit normal cut at +-2
            return random.truncated_normal(shape, 0.0, math.sqrt(scale) / 0.87962566103423978,
                                           dtype, self.seed)
        if self.distribution == "untruncated_normal":
            return random.normal(shape, 0.0, math.sqrt(scale), dtype, self.seed)
        limit = math.sqrt(3.0 * scale)
        return random.uniform(shape, -limit, limit, dtype, self.seed)

    def get_config(self) -> dict:
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "input_axes": self.input_axes, "output_axes": self.output_axes,
                **super().get_config()}


class _Preset(VarianceScaling):
    _scale, _mode, _distribution = 1.0, "fan_avg", "uniform"

    def __init__(self, seed: Any = None, input_axes: Any = None, output_axes: Any = None) -> None:
        super().__init__(self._scale, self._mode, self._distribution, seed, input_axes, output_axes)

    def get_config(self) -> dict:
        return {"seed": self._init_seed, "input_axes": self.input_axes, "output_axes": self.output_axes}


class GlorotUniform(_Preset):
    """Uniform in ``±sqrt(6 / (fan_in + fan_out))`` (Xavier uniform): Dense's default kernel."""


class GlorotNormal(_Preset):
    """Truncated normal with stddev ``sqrt(2 / (fan_in + fan_out))``."""
    _distribution = "truncated_normal"


class HeUniform(_Preset):
    """Uniform in ``±sqrt(6 / fan_in)``."""
    _scale, _mode = 2.0, "fan_in"


class HeNormal(_Preset):
    """Truncated normal with stddev ``sqrt(2 / fan_in)``."""
    _scale, _mode, _distribution = 2.0, "fan_in", "truncated_normal"


class LecunUniform(_Preset):
    """Uniform in ``±sqrt(3 / fan_in)``."""
    _mode = "fan_in"


class LecunNormal(_Preset):
    """Truncated normal with stddev ``sqrt(1 / fan_in)``."""
    _mode, _distribution = "fan_in", "truncated_normal"


class Orthogonal(_Random):
    """An orthogonal matrix (QR of normal draws), times ``gain``; shapes of rank 2 or more."""

    def __init__(self, gain: float = 1.0, seed: Any = None) -> None:
        self.gain = gain
        super().__init__(seed)

    def __call__(self, shape: Any, dtype: Any = None) -> Tensor:
        shape = tuple(int(d) for d in shape)
        if len(shape) < 2:
            raise ValueError("The tensor to initialize must be at least two-dimensional. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        rows, cols = int(np.prod(shape[:-1])), shape[-1]
        a = random.normal((max(rows, cols), min(rows, cols)), dtype=dtype, seed=self.seed)
        q, r = qr(a)
        q = q.numpy() * np.sign(np.diagonal(r.numpy()))
        if rows < cols:
            q = q.T
        return convert_to_tensor((self.gain * q.reshape(shape)).astype(q.dtype))

    def get_config(self) -> dict:
        return {"gain": self.gain, **super().get_config()}


class STFT(Initializer):
    """The kernel of a convolution that computes a short-time Fourier transform: for a shape
    ``(frame_length, 1, fft_length // 2 + 1)``, ``cos`` (``side="real"``) or ``sin``
    (``side="imag"``) of ``-2π t f / fft_length``, times a window over the time axis ``t``.

    ``window``: the name of a ``scipy.signal.windows`` window (``"hann"``, ``"hamming"``, ...;
    ``periodic=True`` for its periodic form), an array of ``frame_length`` values, or ``None``.
    ``scaling``: the window divided by its L2 norm (``"density"``) or its L1 norm
    (``"spectrum"``), or ``None``.

    >>> from tapegrad import keras
    >>> init = keras.initializers.STFT("real", window=None, scaling=None)
    >>> init((2, 1, 3)).numpy()[:, 0, :].round(4)
    array([[ 1.,  1.,  1.],
           [ 1., -0., -1.]], dtype=float32)
    """

    def __init__(self, side: str = "real", window: Any = "hann", scaling: str | None = "density",
                 periodic: bool = False) -> None:
        if side not in ("real", "imag"):
            raise ValueError(f"side should be 'real' or 'imag', not {side}")
        if isinstance(window, str):
            _scipy_window(window, 1, False)  # an unknown window name fails here
        if scaling is not None and scaling not in ("density", "spectrum"):
            raise ValueError(f"Scaling is invalid, it must be `None`, 'density' or 'spectrum'. "
                             f"Received scaling={scaling}")
        self.side, self.window, self.scaling, self.periodic = side, window, scaling, periodic

    def __call__(self, shape: Any, dtype: Any = None) -> Tensor:
        dt = np.dtype(backend.standardize_dtype(dtype))
        if len(shape) != 3:
            raise ValueError(f"STFT initializes kernels of shape (frame_length, channels, fft_length // 2 + 1); "
                             f"got shape={tuple(shape)}.")
        frame_length, _, bins = (int(d) for d in shape)
        win = None
        scale = dt.type(1)
        if self.window is not None:
            win = self.window
            if isinstance(win, str):
                win = _scipy_window(win, frame_length, self.periodic)
            win = np.asarray(win).astype(dt)
            if win.ndim != 1 or win.shape[-1] != frame_length:
                raise ValueError(f"The shape of `window` must be equal to [frame_length]. Received: window "
                                 f"shape={win.shape}")
            win = win.reshape(frame_length, 1, 1)
            if self.scaling == "density":
                scale = np.sqrt(np.sum(np.square(win)))
            elif self.scaling == "spectrum":
                scale = np.sum(np.abs(win))
        with np.errstate(divide="ignore", invalid="ignore"):  # (a single bin divides by 0, as Keras does)
            freq = np.arange(bins, dtype=dt).reshape(1, 1, bins) / dt.type((bins - 1) * 2)
            time = np.arange(frame_length, dtype=dt).reshape(frame_length, 1, 1)
            args = (dt.type(-2) * time) * freq * np.arccos(dt.type(-1))
            kernel = (np.cos(args) if self.side == "real" else np.sin(args)).astype(dt)
            if win is not None:
                kernel = (kernel * win / scale).astype(dt)
        return convert_to_tensor(kernel)

    def get_config(self) -> dict:
        return {"side": self.side, "window": self.window, "periodic": self.periodic, "scaling": self.scaling}


def _scipy_window(name: str, length: int, periodic: bool) -> np.ndarray:
    import scipy.signal  # (SciPy's signal module loads on first use)
    return scipy.signal.get_window(name, length, fftbins=periodic)


_ALL = {c.__name__: c for c in (Zeros, Ones, Constant, Identity, RandomNormal, RandomUniform,
                                TruncatedNormal, VarianceScaling, GlorotUniform, GlorotNormal,
                                HeUniform, HeNormal, LecunUniform, LecunNormal, Orthogonal, STFT)}
_ALIASES = {backend.snake_case(n): c for n, c in _ALL.items()}
_ALIASES.update(zeros=Zeros, ones=Ones, constant=Constant, identity=Identity, orthogonal=Orthogonal,
                uniform=RandomUniform, normal=RandomNormal, random_normal=RandomNormal,
                random_uniform=RandomUniform, truncated_normal=TruncatedNormal)
zeros, ones, constant, identity, orthogonal = Zeros, Ones, Constant, Identity, Orthogonal
random_normal, random_uniform, truncated_normal = RandomNormal, RandomUniform, TruncatedNormal
glorot_uniform, glorot_normal, he_uniform, he_normal = GlorotUniform, GlorotNormal, HeUniform, HeNormal
lecun_uniform, lecun_normal, variance_scaling = LecunUniform, LecunNormal, VarianceScaling
IdentityInitializer, OrthogonalInitializer = Identity, Orthogonal
STFTInitializer = stft = STFT
_ALIASES.update(STFTInitializer=STFT)


def serialize(initializer: Initializer) -> dict:
    """``{"module", "class_name", "config", "registered_name"}`` of an initializer, as
    ``keras.saving.serialize_keras_object`` gives (a registered class of your own too)."""
    return _saving.serialize_keras_object(initializer)


def deserialize(config: dict, custom_objects: dict | None = None) -> Initializer:
    """The initializer that :func:`serialize` described; a class of your own (registered with
    ``keras.saving.register_keras_serializable``, or named in ``custom_objects``) too."""
    if not isinstance(config, dict):
        raise ValueError(f"Could not interpret initializer config: {config!r} (expected a dict from serialize()).")
    cls = _ALL.get(config.get("class_name")) or _ALIASES.get(config.get("class_name"))
    if cls is None or custom_objects and config.get("class_name") in custom_objects:
        obj = _saving.deserialize_keras_object(config, custom_objects=custom_objects)
        if not isinstance(obj, Initializer):
            raise ValueError(f"Could not interpret initializer config: {config!r}")
        return obj
    return cls.from_config(config.get("config", {}))


def get(identifier: Any) -> Any:
    """The initializer ``identifier`` stands for, as Keras 3 resolves it: a name
    (``"glorot_uniform"``, ``"GlorotUniform"``) or a config dict gives a new initializer, a class
    gives an instance made with its defaults, a tensor or array gives an initializer returning it
    (cast to the dtype asked for; the shape asked for must be its shape), an instance or any
    callable ``(shape, dtype=None)`` is returned as it is; ``None`` gives ``None``.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.initializers.get(keras.initializers.Ones)((2,)).numpy()
    array([1., 1.], dtype=float32)
    >>> keras.initializers.get(np.eye(2))((2, 2), dtype="float32").numpy()
    array([[1., 0.],
           [0., 1.]], dtype=float32)
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        cls = _ALL.get(identifier) or _ALIASES.get(identifier)
        if cls is None:
            import difflib
            close = difflib.get_close_matches(identifier, list(_ALIASES), n=3)
            raise ValueError(f"Could not interpret initializer identifier: {identifier!r}."
                             + (f" Did you mean {' or '.join(map(repr, close))}?" if close else
                                f" Known names: {sorted(_ALIASES)}"))
        return cls()
    if isinstance(identifier, (Tensor, np.ndarray, np.generic)):
        return _FromValue(identifier)
    if isinstance(identifier, type):
        init = identifier()
        if not callable(init):
            raise ValueError(f"Could not interpret initializer identifier: {identifier!r}: its "
                             f"instance {init!r} is not callable as (shape, dtype=None).")
        return init
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret initializer identifier: {identifier!r} "
                     f"(a {type(identifier).__name__}); expected a name, a config dict, an "
                     "initializer (class or instance), a tensor or a callable (shape, dtype=None).")


class _FromValue:
    """``get(tensor)``: an initializer that returns the tensor, cast to the dtype asked for."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __call__(self, shape: Any, dtype: Any = None) -> Tensor:
        want, have = tuple(int(d) for d in shape), tuple(np.shape(self.value))
        if want != have:
            raise ValueError(f"Expected `shape` to be {have} for direct tensor as initializer. "
                             f"Received shape={want}")
        value = self.value.numpy() if isinstance(self.value, Tensor) else np.asarray(self.value)
        return convert_to_tensor(value.astype(backend.standardize_dtype(dtype)))


# ---- TensorFlow's own initializers (tf.constant_initializer, ...: init_ops_v2, not Keras) ----

class _TFInitializer(Initializer):
    def __init__(self, seed: Any = None) -> None:
        self.seed = seed

    def _draw(self, kind: str, shape: Any, dtype: Any, a: Any, b: Any) -> Tensor:
        """A seed gives TF's stateless draw with seed ``[seed, 0]``; none, the stateful op
        (which follows ``tf.random.set_seed``)."""
        shape = [int(d) for d in shape]
        if kind == "uniform":
            if self.seed is not None:
                return _tf_random.stateless_uniform(shape, [self.seed, 0], a, b, dtype=dtype)
            return _tf_random.uniform(shape, a, b, dtype=dtype)
        if self.seed is not None:
            return _tf_random.stateless_normal(shape, [self.seed, 0], a, b, dtype=dtype)
        return _tf_random.normal(shape, a, b, dtype=dtype)


class zeros_initializer(_TFInitializer):
    """TF's ``tf.zeros_initializer()``: ``init(shape, dtype=tf.float32)`` is all zeros.

    >>> import tapegrad as tf
    >>> tf.zeros_initializer()([2], tf.int32).numpy()
    array([0, 0], dtype=int32)
    """

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, shape: Any, dtype: Any = "float32", **kwargs: Any) -> Tensor:
        return _full(shape, 0, _tf_dtype(dtype, "numeric or boolean"))

    def get_config(self) -> dict:
        return {}


class ones_initializer(zeros_initializer):
    """TF's ``tf.ones_initializer()``: ``init(shape, dtype=tf.float32)`` is all ones."""

    def __call__(self, shape: Any, dtype: Any = "float32", **kwargs: Any) -> Tensor:
        return _full(shape, 1, _tf_dtype(dtype, "numeric or boolean"))


class constant_initializer(_TFInitializer):
    """TF's ``tf.constant_initializer(value)``: a scalar fills the shape; a list or array must
    have the shape's size (it is reshaped). Without ``dtype`` the value's own dtype is kept.

    >>> import tapegrad as tf
    >>> tf.constant_initializer([1, 2, 3, 4])([2, 2]).numpy()
    array([[1, 2],
           [3, 4]], dtype=int32)
    """

    def __init__(self, value: Any = 0, support_partition: bool = False) -> None:
        if not (np.isscalar(value) or isinstance(value, (list, tuple, np.ndarray))):
            raise TypeError(f"Invalid type for initial value: {type(value).__name__}. Expected "
                            "Python scalar, list or tuple of values, or numpy.ndarray.")
        super().__init__()
        self.value, self.support_partition = value, support_partition

    def __call__(self, shape: Any, dtype: Any = None, **kwargs: Any) -> Tensor:
        return _constant(self.value, dtype=dtype, shape=[int(d) for d in shape])

    def get_config(self) -> dict:
        return {"value": self.value}


class random_uniform_initializer(_TFInitializer):
    """TF's ``tf.random_uniform_initializer(minval=-0.05, maxval=0.05, seed=None)``: float or
    integer dtypes; TF's numbers (a seed draws ``stateless_uniform`` with seed ``[seed, 0]``).

    >>> import tapegrad as tf
    >>> tf.random_uniform_initializer(-1.0, 1.0, seed=4)([3]).numpy().round(4)
    array([ 0.1612,  0.8116, -0.4247], dtype=float32)
    """

    def __init__(self, minval: Any = -0.05, maxval: Any = 0.05, seed: Any = None) -> None:
        super().__init__(seed)
        self.minval, self.maxval = minval, maxval

    def __call__(self, shape: Any, dtype: Any = "float32", **kwargs: Any) -> Tensor:
        dt = _tf_dtype(dtype, "numeric", ints=True)
        return self._draw("uniform", shape, dt, self.minval, self.maxval)

    def get_config(self) -> dict:
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


class random_normal_initializer(_TFInitializer):
    """TF's ``tf.random_normal_initializer(mean=0.0, stddev=0.05, seed=None)``: float dtypes;
    TF's numbers (a seed draws ``stateless_normal`` with seed ``[seed, 0]``)."""

    def __init__(self, mean: Any = 0.0, stddev: Any = 0.05, seed: Any = None) -> None:
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape: Any, dtype: Any = "float32", **kwargs: Any) -> Tensor:
        return self._draw("normal", shape, _tf_dtype(dtype, "floating", floats_only=True),
                          self.mean, self.stddev)

    def get_config(self) -> dict:
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


def _tf_dtype(dtype: Any, what: str, ints: bool = False, floats_only: bool = False) -> str:
    dt = _dtypes.as_dtype(dtype)
    kind = dt._np.kind
    ok = kind == "f" if floats_only else kind in "fiu" if ints else kind in "fiub"
    if not ok:
        raise ValueError(f"Argument `dtype` expected to be {what}. Received {dt.name}.")
    return dt.name


_variables.INITIALIZERS[0] = get
