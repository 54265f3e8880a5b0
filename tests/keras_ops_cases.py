"""The keras.ops calls that tests/test_keras_utils.py replays on tapegrad.keras.ops and that
tools/record_keras_losses.py records under Keras 3 (shared, so both run the same calls)."""
import numpy as np


def ops_cases(ops):
    """name -> a call of ``ops`` (keras.ops or tapegrad.keras.ops) on fixed inputs."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(3, 4)).astype(np.float32); i = np.array([[0, 2, 1, 3], [1, 1, 0, 2], [3, 0, 0, 1]])
    cases = {
     "add_int": lambda: ops.add(x, np.arange(4, dtype=np.int32)), "sum": lambda: ops.sum(x, axis=(0, 1)),
     "mean_k": lambda: ops.mean(x, axis=1, keepdims=True), "max": lambda: ops.max(x, axis=0),
     "argmax": lambda: ops.argmax(x), "argmin1": lambda: ops.argmin(x, axis=1), "clip": lambda: ops.clip(x, -0.5, 0.5),
     "concat": lambda: ops.concatenate([x, x], axis=1), "stack": lambda: ops.stack([x, x], axis=1),
     "transpose": lambda: ops.transpose(x), "expand": lambda: ops.expand_dims(x, (0, 2)), "squeeze": lambda: ops.squeeze(x[None]),
     "where": lambda: ops.where(x > 0, x, 0.0), "cast": lambda: ops.cast(x, "int32"), "shape": lambda: np.array(ops.shape(x)),
     "arange": lambda: ops.arange(5), "arangef": lambda: ops.arange(0.5, 3), "linspace": lambda: ops.linspace(0, 1, 5),
     "softmax": lambda: ops.softmax(x), "one_hot": lambda: ops.one_hot(np.array([0, 2]), 3), "lse": lambda: ops.logsumexp(x, axis=1),
     "norm": lambda: ops.norm(x), "norm1": lambda: ops.norm(x, axis=1), "normord1": lambda: ops.norm(x, ord=1, axis=1),
     "std": lambda: ops.std(x, axis=0), "var": lambda: ops.var(x), "cumsum": lambda: ops.cumsum(x), "cumsum1": lambda: ops.cumsum(x, axis=1),
     "take": lambda: ops.take(x, np.array([0, -1]), axis=1), "take_flat": lambda: ops.take(x, np.array([5, 2])),
     "tal": lambda: ops.take_along_axis(x, i, axis=1),  "tal0": lambda: ops.take_along_axis(x, i[:1, :] % 3, axis=0),
     "erf": lambda: ops.erf(x), "einsum": lambda: ops.einsum("ij,kj->ik", x, x), "dot": lambda: ops.dot(x, x.T),
     "matmul_vec": lambda: ops.matmul(x, x[0]), "tile": lambda: ops.tile(x, 2), "repeat": lambda: ops.repeat(x, 2, axis=0),
     "flip": lambda: ops.flip(x, axis=1), "pad": lambda: ops.pad(x, [[1, 0], [0, 2]]), "divide_int": lambda: ops.divide(np.arange(3, dtype=np.int32), 2),
     "power": lambda: ops.power(x, 2), "maximum": lambda: ops.maximum(x, 0), "relu": lambda: ops.relu(x), "sigmoid": lambda: ops.sigmoid(x),
     "gelu": lambda: ops.gelu(x), "leaky": lambda: ops.leaky_relu(x), "elu": lambda: ops.elu(x, 0.5), "ones": lambda: ops.ones((2, 3)),
     "zeros_like": lambda: ops.zeros_like(x, dtype="int32"), "full": lambda: ops.full((2,), 3.0), "eye": lambda: ops.eye(3, 4, 1),
     "trace": lambda: ops.trace(x), "diagonal": lambda: ops.diagonal(x, 1), "log2": lambda: ops.log2(np.abs(x)), "round": lambda: ops.round(x, 1),
     "top_k": lambda: ops.top_k(x, 2)[1], "sort": lambda: ops.sort(x), "argsort": lambda: ops.argsort(x), "split": lambda: ops.split(x, [1, 3], axis=1)[1],
     "normalize": lambda: ops.normalize(x), "bce": lambda: ops.binary_crossentropy((x > 0).astype(np.float32), ops.sigmoid(x)),
     "cce": lambda: ops.categorical_crossentropy(np.eye(4, dtype=np.float32)[[0, 1, 2]], ops.softmax(x)),
     "scce": lambda: ops.sparse_categorical_crossentropy(np.array([0, 1, 2]), x, from_logits=True),
     "mod": lambda: ops.mod(x, 0.3), "floor_divide": lambda: ops.floor_divide(np.arange(5, dtype=np.int32), 2),
     "prod": lambda: ops.prod(x, axis=1), "all": lambda: ops.all(x > -3), "any": lambda: ops.any(x > 3, axis=0),
     "sum_int": lambda: ops.sum(np.arange(4, dtype=np.int32)), "mean_int": lambda: ops.mean(np.arange(4, dtype=np.int32)),
    }
    return cases
