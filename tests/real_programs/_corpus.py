"""What the corpus programs add to the originals: fixed weights and synthetic data, the same under
TensorFlow and tapegrad (NumPy draws with fixed seeds; no TensorFlow import here)."""
import numpy as np


def _dtype(v) -> np.dtype:
    return np.dtype(getattr(v.dtype, "name", v.dtype))  # a DType, or Keras 3's dtype string


def fix_weights(obj, seed: int = 0, vectors: bool = False) -> None:
    """Give every weight of rank >= 2 (kernels, embeddings) a fixed Glorot-uniform draw.

    ``obj`` is a model/layer/module (its ``weights`` or ``variables``) or a list of variables;
    biases and normalization vectors keep their (constant) initial values unless ``vectors``
    (then they get a uniform draw in [-0.05, 0.05)).
    """
    variables = obj if isinstance(obj, (list, tuple)) else getattr(obj, "weights", None)
    if variables is None:
        variables = obj.variables
    rng = np.random.default_rng(seed)
    for v in variables:
        shape = tuple(int(d) for d in v.shape)
        if len(shape) < 2:
            if vectors:
                v.assign(rng.uniform(-0.05, 0.05, shape).astype(_dtype(v)))
            continue
        receptive = int(np.prod(shape[:-2])) if len(shape) > 2 else 1
        limit = np.sqrt(6.0 / (shape[-2] * receptive + shape[-1] * receptive))
        v.assign(rng.uniform(-limit, limit, shape).astype(_dtype(v)))


def images(n: int, h: int, w: int, c: int = 1, seed: int = 0) -> np.ndarray:
    """``n`` synthetic images in [0, 1), float32."""
    return np.random.default_rng(seed).random((n, h, w, c)).astype(np.float32)


def labels(n: int, classes: int, seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, classes, n).astype(np.int64)


class CartPole:
    """gym's CartPole-v1 dynamics and API (reset -> (state, info); step -> 5-tuple), seeded."""

    action_space = type("Discrete", (), {"n": 2})()

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)
        self.state = None

    def reset(self):
        self.state = self.rng.uniform(-0.05, 0.05, 4)
        return self.state.astype(np.float32), {}

    def step(self, action):
        x, x_dot, theta, theta_dot = self.state
        force = 10.0 if int(action) == 1 else -10.0
        cos, sin = np.cos(theta), np.sin(theta)
        temp = (force + 0.05 * theta_dot ** 2 * sin) / 1.1
        theta_acc = (9.8 * sin - cos * temp) / (0.5 * (4.0 / 3.0 - 0.1 * cos ** 2 / 1.1))
        x_acc = temp - 0.05 * theta_acc * cos / 1.1
        x, x_dot = x + 0.02 * x_dot, x_dot + 0.02 * x_acc
        theta, theta_dot = theta + 0.02 * theta_dot, theta_dot + 0.02 * theta_acc
        self.state = np.array([x, x_dot, theta, theta_dot])
        done = bool(abs(x) > 2.4 or abs(theta) > 12 * 2 * np.pi / 360)
        return self.state.astype(np.float32), 1.0, done, False, {}


class Frame:
    """The few DataFrame features a program uses (``columns``, ``len``, row slices, ``np.array``)."""

    def __init__(self, values, columns) -> None:
        self.values, self.columns = np.asarray(values, np.float64), list(columns)

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, rows) -> "Frame":
        return Frame(self.values[rows], self.columns)

    def __array__(self, dtype=None, copy=None):
        return self.values if dtype is None else self.values.astype(dtype)
