"""tf.experimental.dtensor on one client: layouts and values against TensorFlow's
(tests/fixtures/dtensor.json, recorded by tools/record_dtensor.py from tests/dtensor_cases.py),
and the API's own behaviour (meshes, layouts' text, pack/unpack, DVariable, gradients,
tf.function, checkpoints)."""
import json
import os

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.experimental import dtensor

import dtensor_cases

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "dtensor.json")
U = dtensor.UNSHARDED


@pytest.fixture(scope="module")
def cpus():
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 8)
    yield [f"CPU:{i}" for i in range(8)]
    tf.config.set_logical_device_configuration(cpu, None)


@pytest.fixture(scope="module")
def results(cpus):
    return dtensor_cases.run(tf, dtensor)


FIXTURE_DATA = json.load(open(FIXTURE))
RECORDED = FIXTURE_DATA["cases"]


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_layouts_values_and_errors_are_tensorflows(results, name):
    want, got = RECORDED[name], results[name]
    if "error" in want:
        assert got == want
        return
    if "text" in want:  # (TensorFlow's text, the class named as it is here)
        assert got["text"] == want["text"].replace("tf.Tensor", "tapegrad.Tensor")
        return
    assert got["specs"] == want["specs"] and got["shape"] == want["shape"] and got["dtype"] == want["dtype"]
    # float32 results of the same math; TF's sharded reductions (the gradients' all-reduce over
    # the batch shards) sum in another order: round-off of a few ulps of the largest terms
    assert len(got["components"]) == len(want["components"]) == 8
    for g, w in zip(got["components"], want["components"]):
        np.testing.assert_allclose(np.asarray(g, np.float64), np.asarray(w, np.float64), rtol=1e-5, atol=1e-6)


def test_the_ml_tutorials_training_is_tensorflows(cpus, tmp_path):
    want = FIXTURE_DATA["training"]
    got = dtensor_cases.train_tutorial(tf, dtensor, str(tmp_path))
    for key in ("accuracy", "logits", "variables"):
        assert got[key] == want[key], key
    # 12 SGD steps in float32; TF's sharded matmuls and reductions (the batch, feature and model
    # shards' partial sums) add in another order: a few ulps per step, compounded
    np.testing.assert_allclose(got["loss"], want["loss"], rtol=2e-5)
    np.testing.assert_allclose(got["restored"], want["restored"], rtol=1e-4, atol=1e-6)


def test_mesh_api(cpus):
    mesh = dtensor.create_mesh([("x", 2), ("y", 4)], devices=cpus)
    assert mesh.dim_names == ["x", "y"] and mesh.shape() == [2, 4] and mesh.size == 8
    assert mesh.dim_size("y") == 4 and mesh.device_type() == "CPU" and mesh.num_local_devices() == 8
    assert mesh.local_devices()[3] == "/job:localhost/replica:0/task:0/device:CPU:3"
    assert mesh.local_device_locations()[5] == {"x": 1, "y": 1}
    text = ("|x=2,y=4|0,1,2,3,4,5,6,7|0,1,2,3,4,5,6,7|" +
            ",".join(f"/job:localhost/replica:0/task:0/device:CPU:{i}" for i in range(8)))
    assert mesh.to_string() == text and repr(mesh) == f"Mesh.from_string({text})"
    assert dtensor.Mesh.from_string(text) == mesh
    assert dtensor.create_distributed_mesh([("x", 2), ("y", 4)]) == mesh  # (the 8 logical CPUs)
    with pytest.raises(ValueError, match="not a dimension"):
        mesh.dim_size("z")


def test_layout_api(cpus):
    mesh = dtensor.create_mesh([("x", 2), ("y", 4)], devices=cpus)
    layout = dtensor.Layout(["x", U], mesh)
    assert layout.rank == 2 and layout.shape == [2, 4] and layout.num_shards(0) == 2
    assert layout.to_string() == "sharding_specs:x,unsharded, mesh:" + mesh.to_string()
    assert dtensor.Layout.from_string(layout.to_string()) == layout
    assert hash(layout) == hash(dtensor.Layout(["x", U], mesh)) and layout != dtensor.Layout(["y", U], mesh)
    assert dtensor.Layout.batch_sharded(mesh, "x", rank=3, axis=1).sharding_specs == [U, "x", U]
    assert dtensor.Layout.inner_sharded(mesh, "y", rank=2).sharding_specs == [U, "y"]
    assert dtensor.Layout.replicated(mesh, 2).is_fully_replicated() and not layout.is_fully_replicated()
    assert layout.delete([0]).sharding_specs == [U]
    assert layout.offset_to_shard()[4] == (1, 0)


def test_unpack_components_follow_the_layout(cpus):
    mesh = dtensor.create_mesh([("x", 2), ("y", 4)], devices=cpus)
    a = np.arange(16, dtype=np.int32).reshape(2, 8)
    t = dtensor.relayout(dtensor.copy_to_mesh(a, dtensor.Layout.replicated(mesh, 2)), dtensor.Layout(["x", "y"], mesh))
    assert not any(dtensor.is_dtensor(c) for c in dtensor.unpack(t))  # (regular tensors)
    assert [c.device for c in dtensor.unpack(t)] == mesh.local_devices()
    parts = [c.numpy() for c in dtensor.unpack(t)]
    assert [p.tolist() for p in parts[:2]] == [[[0, 1]], [[2, 3]]] and parts[4].tolist() == [[8, 9]]
    back = dtensor.pack(parts, dtensor.Layout(["x", "y"], mesh))
    np.testing.assert_array_equal(dtensor.relayout(back, dtensor.Layout.replicated(mesh, 2)).numpy(), a)
    rep = dtensor.Layout(["x", U], mesh)  # (y replicates: its four components are one)
    with pytest.raises(tf.errors.InvalidArgumentError, match="replicas must be equal"):
        dtensor.pack([np.full((1, 8), i, np.int32) for i in range(8)], rep)


def test_dvariable_gradients_eager_and_in_tf_function(cpus):
    mesh = dtensor.create_mesh([("batch", 8)], devices=cpus)
    w = dtensor.DVariable(dtensor.call_with_layout(tf.ones, dtensor.Layout([U, U], mesh), shape=(4, 2)))
    x = dtensor.copy_to_mesh(np.arange(32, dtype=np.float32).reshape(8, 4), dtensor.Layout(["batch", U], mesh))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.matmul(x, w))
    g = tape.gradient(loss, w)
    assert dtensor.fetch_layout(g).sharding_specs == [U, U]
    column_sums = np.arange(32, dtype=np.float32).reshape(8, 4).sum(0)
    np.testing.assert_allclose(g.numpy(), np.repeat(column_sums[:, None], 2, 1))

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            y = tf.matmul(x, w)
            loss = tf.reduce_mean(y)
        w.assign_sub(0.01 * tape.gradient(loss, w))
        return y

    for _ in range(3):  # (the first call traces, the others replay: layouts all the same)
        y = step(x)
        assert dtensor.fetch_layout(y).sharding_specs == ["batch", U]
        assert dtensor.fetch_layout(w.read_value()) == w.layout
    other = dtensor.create_mesh([("x", 2), ("y", 4)], devices=cpus)
    with pytest.raises(tf.errors.UnknownError, match="layout is fixed"):
        w.assign(dtensor.call_with_layout(tf.ones, dtensor.Layout([U, U], other), shape=(4, 2)))


def test_dvariable_checkpoint_round_trip(cpus, tmp_path):
    mesh = dtensor.create_mesh([("x", 8)], devices=cpus)
    v = dtensor.DVariable(dtensor.call_with_layout(tf.zeros, dtensor.Layout(["x"], mesh), shape=[8]))
    ckpt = tf.train.Checkpoint(v=v)
    path = ckpt.save(str(tmp_path / "c"))
    v.assign(tf.ones([8]))
    ckpt.restore(path)
    np.testing.assert_array_equal(dtensor.relayout(v.read_value(), dtensor.Layout([U], mesh)).numpy(), np.zeros(8))
    assert dtensor.fetch_layout(v.read_value()).sharding_specs == ["x"]


def test_one_client(cpus):
    assert dtensor.num_clients() == 1 and dtensor.client_id() == 0
    assert dtensor.num_global_devices("CPU") == 8 and len(dtensor.local_devices("CPU")) == 8
    assert dtensor.initialize_accelerator_system() == "CPU"
    dtensor.shutdown_accelerator_system()
    mesh = dtensor.create_mesh([("x", 8)], devices=cpus)
    with dtensor.default_mesh(mesh):
        assert dtensor.get_default_mesh() is mesh
        v = dtensor.DVariable(tf.zeros([8]))
    assert v.layout == dtensor.Layout.replicated(mesh, 1) and dtensor.get_default_mesh() is None
    with dtensor.run_on(v.layout):
        assert dtensor.get_default_mesh() == mesh
    assert dtensor.is_dtensor(v.read_value()) and not dtensor.is_dtensor(tf.zeros([2]))
    dtensor.check_layout(v, v.layout)
    with pytest.raises(ValueError, match="did not match"):
        dtensor.check_layout(v, dtensor.Layout(["x"], mesh))
