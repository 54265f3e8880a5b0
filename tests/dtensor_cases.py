"""DTensor cases run under TensorFlow by tools/record_dtensor.py (tests/fixtures/dtensor.json) and
under tapegrad by tests/test_dtensor.py: ``run(tf, dtensor)`` on a mesh of 8 logical CPUs (the
caller splits the CPU first) gives, per case, the result's sharding specs and its per-device
components (``dtensor.unpack``), or the error's type."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

A = np.arange(64, dtype=np.float32).reshape(8, 8) / 7.0 - 4.0
B = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) % 13) / 5.0 - 1.0
IDX = np.array([1, 6, 3, 0], np.int32)
LAB = (np.arange(8) % 3).astype(np.int64)


def cases(tf: Any, dtensor: Any) -> dict[str, Callable]:
    devices = [f"CPU:{i}" for i in range(8)]
    m2 = dtensor.create_mesh([("x", 2), ("y", 4)], devices=devices)
    m3 = dtensor.create_mesh([("a", 2), ("b", 2), ("c", 2)], devices=devices)
    U = dtensor.UNSHARDED

    def D(value: Any, *specs: str, mesh: Any = m2) -> Any:
        t = tf.constant(value)
        rep = dtensor.copy_to_mesh(t, dtensor.Layout.replicated(mesh, rank=len(t.shape)))
        return dtensor.relayout(rep, dtensor.Layout(list(specs), mesh))

    @tf.function
    def grads(x: Any, y: Any, w: Any, b: Any) -> Any:
        with tf.GradientTape() as tape:
            z = tf.add(tf.matmul(x, w), b)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=z))
        return [loss] + tape.gradient(loss, [w, b])

    def grad_case(i: int) -> Callable:
        def run() -> Any:
            w = dtensor.DVariable(dtensor.call_with_layout(tf.function(tf.random.stateless_uniform),
                                                           dtensor.Layout([U, U], m2), shape=(8, 4), seed=(1, 2)))
            b = dtensor.DVariable(dtensor.call_with_layout(tf.zeros, dtensor.Layout([U], m2), shape=[4]))
            return grads(D(A, "x", U), D(LAB % 4, "x"), w, b)[i]
        return run

    return {
        "add x,U + U,y": lambda: D(A, "x", U) + D(A, U, "y"),
        "add x,U + y,U": lambda: D(A, "x", U) + D(A, "y", U),
        "add y,U + x,U": lambda: D(A, "y", U) + D(A, "x", U),
        "add x,y + y,x": lambda: D(A, "x", "y") + D(A, "y", "x"),
        "add x,y + y,U": lambda: D(A, "x", "y") + D(A, "y", U),
        "add x,U + U,x": lambda: D(A, "x", U) + D(A, U, "x"),
        "add 3 U + U,a,b + c,U,U": lambda: (D(B, U, U, U, mesh=m3) + D(B, U, "a", "b", mesh=m3)
                                            + D(B, "c", U, U, mesh=m3)),
        "add broadcast row y": lambda: D(A, "x", U) + D(A[0], "y"),
        "add broadcast column": lambda: D(A[:, :1], "x", U) + D(A[0], "y"),
        "mul scalar": lambda: D(A, "x", "y") * 2.0,
        "matmul x,U @ U,y": lambda: tf.matmul(D(A, "x", U), D(A, U, "y")),
        "matmul x,y @ y,U": lambda: tf.matmul(D(A, "x", "y"), D(A, "y", U)),
        "matmul U,x @ x,U": lambda: tf.matmul(D(A, U, "x"), D(A, "x", U)),
        "matmul x,U @ U,x": lambda: tf.matmul(D(A, "x", U), D(A, U, "x")),
        "matmul transpose_a": lambda: tf.matmul(D(A, "x", U), D(A, U, "y"), transpose_a=True),
        "matmul batch": lambda: tf.matmul(D(B, "a", "b", U, mesh=m3), D(B, U, U, "c", mesh=m3)),
        "matmul contracting clash": lambda: tf.matmul(D(A, U, "y"), D(A, "x", U)),
        "einsum ij,jk->ik": lambda: tf.einsum("ij,jk->ik", D(A, "x", "y"), D(A, "y", U)),
        "einsum ij->ji": lambda: tf.einsum("ij->ji", D(A, "x", "y")),
        "reduce_sum 0": lambda: tf.reduce_sum(D(A, "x", "y"), 0),
        "reduce_sum 1 keepdims": lambda: tf.reduce_sum(D(A, "x", "y"), 1, keepdims=True),
        "reduce_mean all": lambda: tf.reduce_mean(D(A, "x", "y")),
        "reduce_max 1": lambda: tf.reduce_max(D(A, "x", "y"), 1),
        "argmax 1": lambda: tf.argmax(D(A, "x", "y"), 1),
        "transpose": lambda: tf.transpose(D(B, "a", "b", "c", mesh=m3), [2, 0, 1]),
        "reshape 8,8->64": lambda: tf.reshape(D(A, "x", "y"), [64]),
        "reshape 8,8->2,4,8": lambda: tf.reshape(D(A, "x", "y"), [2, 4, 8]),
        "reshape 8,8->8,2,4": lambda: tf.reshape(D(A, "x", "y"), [8, 2, 4]),
        "reshape 8,8->1,64": lambda: tf.reshape(D(A, "x", "y"), [1, 64]),
        "reshape 64->8,8 y": lambda: tf.reshape(D(A.reshape(64), "y"), [8, 8]),
        "reshape 8,8,8->64,8": lambda: tf.reshape(D(B, "a", "b", "c", mesh=m3), [64, 8]),
        "expand_dims": lambda: tf.expand_dims(D(A, "x", "y"), 1),
        "concat 0": lambda: tf.concat([D(A, "x", "y"), D(A, "x", "y")], 0),
        "concat 1 mixed": lambda: tf.concat([D(A, "x", "y"), D(A, U, U)], 1),
        "gather axis 0": lambda: tf.gather(D(A, U, "y"), D(IDX, "x"), axis=0),
        "gather axis 1": lambda: tf.gather(D(A, "x", "y"), D(IDX, U), axis=1),
        "softmax": lambda: tf.nn.softmax(D(A, "x", "y")),
        "log_softmax y,x": lambda: tf.nn.log_softmax(D(A, "y", "x")),
        "relu": lambda: tf.nn.relu(D(A, "x", "y")),
        "cast": lambda: tf.cast(D(A, "x", "y"), tf.int32),
        "equal": lambda: tf.equal(D(A, "x", "y"), D(A, U, U)),
        "where": lambda: tf.where(D(A, "x", "y") > 0.5, D(A, "x", "y"), D(A, U, U)),
        "slice rows": lambda: D(A, "x", "y")[2:6],
        "slice step": lambda: D(A, "x", "y")[::2],
        "index 0": lambda: D(A, "x", "y")[0],
        "index 0 of 3 dims": lambda: D(B, "a", "b", "c", mesh=m3)[0],
        "index and slice": lambda: D(B, "a", "b", "c", mesh=m3)[0, 2:4],
        "index 1 of 3 dims": lambda: D(B, "a", "b", "c", mesh=m3)[:, 1],
        "stack 0": lambda: tf.stack([D(A, "x", "y"), D(A, "x", "y")], 0),
        "stack 1 of 3 dims": lambda: tf.stack([D(B, "a", "b", "c", mesh=m3)] * 2, 1),
        "sort": lambda: tf.sort(D(A, "x", "y"), axis=1),
        "top_k": lambda: tf.math.top_k(D(A, "x", "y"), 2).values,
        "moments": lambda: tf.nn.moments(D(A, "x", "y"), axes=[0])[1],
        "broadcast_to": lambda: tf.broadcast_to(D(A[0], "y"), [8, 8]),
        "add_n": lambda: tf.add_n([D(A, "x", U), D(A, U, "y")]),
        "l2_normalize": lambda: tf.math.l2_normalize(D(A, "x", "y"), axis=1),
        "softmax xent": lambda: tf.nn.softmax_cross_entropy_with_logits(labels=tf.nn.softmax(D(A, "x", U)),
                                                                        logits=D(A, "x", "y")),
        "zeros_like": lambda: tf.zeros_like(D(A, "x", "y")),
        "ones_like int": lambda: tf.ones_like(D(A, U, "y"), dtype=tf.int32),
        "ones_like same dtype": lambda: tf.ones_like(D(A, U, "y"), dtype=tf.float32),
        "cumsum": lambda: tf.cumsum(D(A, "x", "y"), axis=1),
        "unstack": lambda: tf.unstack(D(A, "x", "y"), axis=0)[3],
        "sparse xent": lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=D(LAB, U), logits=D(A, "x", "y")),
        "one_hot": lambda: tf.one_hot(D(LAB, "x"), 4),
        "call_with_layout ones": lambda: dtensor.call_with_layout(tf.ones, dtensor.Layout(["x", "y"], m2),
                                                                  shape=(4, 8)),
        "call_with_layout normal replicated": lambda: dtensor.call_with_layout(
            tf.function(tf.random.stateless_normal), dtensor.Layout([U, U], m2), shape=(4, 4), seed=(1, 1)),
        "pack": lambda: dtensor.pack([[i // 4, 7] for i in range(8)], dtensor.Layout(["x"], m2)),
        "relayout rank mismatch": lambda: dtensor.relayout(D(A, U, U), dtensor.Layout(["x"], m2)),
        "relayout not divisible": lambda: D(np.zeros((3, 8), np.float32), "x", U),
        "layout unknown dim": lambda: dtensor.Layout(["z", U], m2),
        "layout repeated dim": lambda: dtensor.Layout(["x", "x"], m2),
        "pack wrong count": lambda: dtensor.pack([tf.constant(1.0)] * 3, dtensor.Layout([], m2)),
        "unpack regular tensor": lambda: dtensor.unpack(tf.constant(1.0)),
        "fetch_layout regular tensor": lambda: dtensor.fetch_layout(tf.constant(1.0)),
        "numpy of sharded": lambda: D(A, "x", "y").numpy(),
        "create_mesh wrong size": lambda: dtensor.create_mesh([("x", 3)], devices=devices),
        "unpack a DVariable": lambda: dtensor.unpack(dtensor.DVariable(D(A, "x", U))),
        "unpack in tf.function": lambda: tf.function(dtensor.unpack)(D(A, "x", U)),
        "pack in tf.function": lambda: tf.function(lambda t: dtensor.pack([t] * 8, dtensor.Layout([U], m2)))(
            tf.ones([2])),
        "relayout with MATCH": lambda: dtensor.relayout(D(A, "x", U), dtensor.Layout([dtensor.MATCH, "y"], m2)),
        "relayout in tf.function": lambda: tf.function(lambda t: dtensor.relayout(t, dtensor.Layout([U, "y"], m2)))(
            D(A, "x", U)),
        "layout text": lambda: dtensor.Layout(["x", U], m2).to_string(),
        "layout text rank 0": lambda: dtensor.Layout([], m2).to_string(),
        "layout repr": lambda: repr(dtensor.Layout.batch_sharded(m3, "b", rank=3, axis=1)),
        "mesh text": lambda: m3.to_string(),
        "repr sharded": lambda: repr(D(A[:2, :3], "x", U)),
        "str sharded": lambda: str(D(B[:4, :2, :2], "a", U, "c", mesh=m3)),
        "repr replicated": lambda: repr(D(A[:2, :3], U, U)),
        "str scalar": lambda: str(dtensor.copy_to_mesh(tf.constant(2.5), dtensor.Layout([], m2))),
        "str large sharded": lambda: str(D(np.ones((64, 8), np.float32), U, "y")),
        "stateless normal sharded": lambda: dtensor.call_with_layout(
            tf.function(tf.random.stateless_normal), dtensor.Layout(["x", "y"], m2), shape=(4, 8), seed=(1, 1)),
        "stateless uniform sharded one dim": lambda: dtensor.call_with_layout(
            tf.function(tf.random.stateless_uniform), dtensor.Layout([U, "y"], m2), shape=(2, 8), seed=(3, 4)),
        "stateless truncated normal 3 dims": lambda: dtensor.call_with_layout(
            tf.function(tf.random.stateless_truncated_normal), dtensor.Layout(["c", U, "a"], m3), shape=(2, 3, 4), seed=(5, 6)),
        "stateless normal replicated": lambda: dtensor.call_with_layout(
            tf.random.stateless_normal, dtensor.Layout([U, U], m2), shape=(2, 3), seed=(1, 1)),
        "assign from another mesh": lambda: dtensor.DVariable(D(A[:2, :2], U, U)).assign(
            D(A[:2, :2], U, U, mesh=m3)),
        "grad loss": grad_case(0),
        "grad w": grad_case(1),
        "grad b": grad_case(2),
    }


def describe(dtensor: Any, out: Any) -> dict:
    """The layout and components of a case's result (a layout's text for a Layout or Mesh)."""
    if not hasattr(out, "dtype"):
        return {"text": str(out)}
    layout = dtensor.fetch_layout(out)
    return {"specs": layout.sharding_specs, "shape": list(out.shape), "dtype": out.dtype.name,
            "components": [np.asarray(c.numpy()).tolist() for c in dtensor.unpack(out)]}


def run(tf: Any, dtensor: Any) -> dict:
    results = {}
    for name, fn in cases(tf, dtensor).items():
        try:
            results[name] = describe(dtensor, fn())
        except Exception as e:  # (the recorded error type is the case's result)
            results[name] = {"error": type(e).__name__}
    return results


def train_tutorial(tf: Any, dtensor: Any, directory: str) -> dict:
    """The DTensor ML tutorial's training (tensorflow/docs, dtensor_ml_tutorial.ipynb: its Dense,
    BatchNorm and MLP modules, repack_local_tensor, train_step and checkpoint manager) on 16x32
    random batches instead of IMDB: data, model and spatial parallel in turn, each restoring the
    last one's checkpoint onto its own mesh and layouts."""
    U = dtensor.UNSHARDED
    devices = [f"CPU:{i}" for i in range(8)]

    class Dense(tf.Module):
        def __init__(self, input_size: int, output_size: int, init_seed: Any, weight_layout: Any,
                     activation: Any = None) -> None:
            super().__init__()
            init = tf.function(tf.random.stateless_normal)
            self.weight = dtensor.DVariable(dtensor.call_with_layout(
                init, weight_layout, shape=[input_size, output_size], seed=init_seed))
            self.activation = activation or (lambda x: x)
            self.bias = dtensor.DVariable(dtensor.call_with_layout(tf.zeros, weight_layout.delete([0]), [output_size]))

        def __call__(self, x: Any) -> Any:
            return self.activation(tf.matmul(x, self.weight) + self.bias)

    class MLP(tf.Module):
        def __init__(self, layouts: Any) -> None:
            super().__init__()
            self.dense1 = Dense(32, 16, (1, 2), layouts[0], activation=tf.nn.relu)
            self.dense2 = Dense(16, 2, (3, 4), layouts[1])

        def __call__(self, x: Any) -> Any:
            y = self.dense1(x)
            mean, variance = tf.nn.moments(y, axes=[0])
            return self.dense2(tf.nn.batch_normalization(y, mean, variance, 0.0, 1.0, 1e-5))

    def repack(x: Any, layout: Any) -> Any:
        queue, sharded = [tf.convert_to_tensor(x)], []
        for axis, dim in enumerate(layout.sharding_specs):
            if dim != U:
                queue = tf.nest.map_structure(lambda t: tf.split(t, layout.shape[axis], axis=axis), queue)
                sharded.append(dim)
        parts = []
        for where in layout.mesh.local_device_locations():
            t = queue[0]
            for dim in sharded:
                t = t[where[dim]]
            parts.append(t)
        return dtensor.pack(parts, layout)

    @tf.function
    def train_step(model: Any, x: Any, y: Any, learning_rate: Any) -> Any:
        with tf.GradientTape() as tape:
            logits = model(x)
            loss = tf.reduce_sum(tf.nn.sparse_softmax_cross_entropy_with_logits(logits=logits, labels=y))
        parameters = model.trainable_variables
        for p, g in zip(parameters, tape.gradient(loss, parameters)):
            p.assign_sub(learning_rate * g)
        accuracy = 1.0 - tf.reduce_sum(tf.cast(tf.argmax(logits, axis=-1, output_type=tf.int64) != y,
                                               tf.float32)) / x.shape[0]
        return loss / len(x), accuracy, logits

    rng = np.random.default_rng(0)
    data = [(rng.random((16, 32)).astype(np.float32), rng.integers(0, 2, 16).astype(np.int64)) for _ in range(4)]
    out: dict = {"loss": [], "accuracy": [], "logits": [], "variables": [], "restored": []}
    for dims, layouts, xspec in (([("batch", 8)], [[U, U], [U, U]], ["batch", U]),
                                 ([("batch", 4), ("model", 2)], [[U, "model"], ["model", U]], ["batch", U]),
                                 ([("batch", 2), ("feature", 2), ("model", 2)], [["feature", "model"], ["model", U]],
                                  ["batch", "feature"])):
        mesh = dtensor.create_mesh(dims, devices=devices)
        model = MLP([dtensor.Layout(s, mesh) for s in layouts])
        ckpt = tf.train.Checkpoint(root=model)
        manager = tf.train.CheckpointManager(ckpt, directory, max_to_keep=3)
        if manager.latest_checkpoint:
            ckpt.restore(manager.latest_checkpoint).assert_consumed()
            out["restored"].append([float(v) for v in dtensor.unpack(model.dense2.bias.read_value())[0].numpy()])
        for x, y in data:
            loss, accuracy, logits = train_step(model, repack(x, dtensor.Layout(xspec, mesh)),
                                                repack(y, dtensor.Layout(["batch"], mesh)), 1e-2)
            out["loss"].append(float(loss.numpy()))
            out["accuracy"].append(float(accuracy.numpy()))
            out["logits"].append(dtensor.fetch_layout(logits).sharding_specs)
        manager.save()
        out["variables"].append([dtensor.fetch_layout(v).sharding_specs for v in model.trainable_variables])
    return out
