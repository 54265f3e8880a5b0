"""tf.train.Checkpoint, CheckpointManager and latest_checkpoint on tapegrad's .npz format (in files
named as TensorFlow names them): the
file names TensorFlow 2.21 gives ("ckpt-1", the "checkpoint" state file), tracking, statuses."""
from __future__ import annotations

import io
import os
import zipfile

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.errors import NotFoundError


class Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0, 2.0]], name="w")
        self.b = tf.Variable([0.5], name="b")


class Duck:  # a Keras-style object: tracked through `variables`
    def __init__(self):
        self.variables = [tf.Variable(3.0), tf.Variable([4.0, 5.0])]


def _train_step(net, opt):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum((net.w * 2.0 + net.b) ** 2)
    opt.apply_gradients(zip(tape.gradient(loss, [net.w, net.b]), [net.w, net.b]))


def test_save_restore_module_optimizer_and_duck(tmp_path):
    net, opt, duck, step = Net(), tf.optimizers.Adam(0.1), Duck(), tf.Variable(7, name="step")
    _train_step(net, opt)
    ckpt = tf.train.Checkpoint(model=net, optimizer=opt, duck=duck, step=step)
    first = ckpt.save(str(tmp_path / "ckpt"))
    assert first == str(tmp_path / "ckpt-1") and os.path.exists(first + ".index")
    assert (tmp_path / "checkpoint").read_text() == ('model_checkpoint_path: "ckpt-1"\n'
                                                     'all_model_checkpoint_paths: "ckpt-1"\n')
    saved = [np.array(v.numpy()) for v in (net.w, net.b, *opt.variables, *duck.variables, step)]
    _train_step(net, opt)
    duck.variables[0].assign(0.0)
    step.assign(0)
    assert ckpt.save(str(tmp_path / "ckpt")) == str(tmp_path / "ckpt-2")
    assert tf.train.latest_checkpoint(str(tmp_path)) == str(tmp_path / "ckpt-2")
    status = ckpt.restore(first)
    assert status.assert_consumed() is status
    now = [v.numpy() for v in (net.w, net.b, *opt.variables, *duck.variables, step)]
    for a, b in zip(saved, now):
        np.testing.assert_array_equal(a, b)
    assert int(opt.iterations.numpy()) == 1 and int(ckpt.save_counter.numpy()) == 1
    assert ckpt.model is net


def test_partial_matches_and_errors(tmp_path):
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    path = tf.train.Checkpoint(a=a, b=b).write(str(tmp_path / "two"))
    assert path == str(tmp_path / "two")
    only_a = tf.train.Checkpoint(a=a)
    status = only_a.read(path)
    status.assert_existing_objects_matched()
    with pytest.raises(AssertionError, match=r"Unresolved values in the checkpoint.*\['b'\]"):
        status.assert_consumed()
    assert status.expect_partial() is status
    more = tf.train.Checkpoint(a=a, c=tf.Variable(0.0))
    # (restore makes the save_counter, which a checkpoint from write() lacks: TF 2.21 says so too)
    with pytest.raises(AssertionError, match=r"not found in the checkpoint.*\['c', 'save_counter'\]"):
        more.restore(path).assert_existing_objects_matched()
    with pytest.raises(NotFoundError, match="Failed to find any matching files"):
        only_a.restore(str(tmp_path / "nothing"))
    with pytest.raises(ValueError, match="expecting 'x' to be a trackable object"):
        tf.train.Checkpoint(x=3)
    wrong = tf.train.Checkpoint(a=tf.Variable([1.0, 2.0]))
    with pytest.raises(ValueError, match="nothing was assigned"):
        wrong.restore(path)
    assert tf.train.latest_checkpoint(str(tmp_path)) is None  # write() records nothing


def test_manager_keeps_the_newest(tmp_path):
    v = tf.Variable(0.0)
    ckpt = tf.train.Checkpoint(v=v)
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path / "run"), max_to_keep=2)
    assert manager.latest_checkpoint is None and manager.restore_or_initialize() is None
    for i in range(4):
        v.assign(float(i))
        manager.save()
    names = [os.path.basename(p) for p in manager.checkpoints]
    assert names == ["ckpt-3", "ckpt-4"]
    assert sorted(os.listdir(tmp_path / "run")) == ["checkpoint", "ckpt-3.data-00000-of-00001", "ckpt-3.index",
                                                          "ckpt-4.data-00000-of-00001", "ckpt-4.index"]
    assert manager.save(checkpoint_number=10).endswith("ckpt-10")
    again = tf.train.CheckpointManager(tf.train.Checkpoint(v=v), str(tmp_path / "run"), max_to_keep=5)
    assert [os.path.basename(p) for p in again.checkpoints] == ["ckpt-4", "ckpt-10"]
    v.assign(-1.0)
    assert again.restore_or_initialize() == str(tmp_path / "run" / "ckpt-10")
    assert float(v) == 3.0
    with pytest.raises(ValueError, match="positive integer or `None` for `max_to_keep`"):
        tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=0)


def test_a_checkpoint_tracks_a_random_generator(tmp_path):
    """TF 2.21: ``Checkpoint(gen=g)`` saves the state as ``gen/_state_var``; restoring it into another
    generator replays the same draws (the draws below are TensorFlow's, run with TF 2.21)."""
    g = tf.random.Generator.from_seed(42)
    g.normal([2])
    path = tf.train.Checkpoint(gen=g).save(str(tmp_path / "ck"))
    after = g.normal([3]).numpy()
    np.testing.assert_allclose(after, [0.9029392, -0.12441138, 1.8243233], rtol=1e-6)
    g2 = tf.random.Generator.from_seed(7)
    tf.train.Checkpoint(gen=g2).restore(path).assert_consumed()
    np.testing.assert_array_equal(g2.normal([3]).numpy(), after)
    assert [n for n, _ in tf.train.list_variables(path)] == ["_CHECKPOINTABLE_OBJECT_GRAPH",
                                                             "gen/_state_var/.ATTRIBUTES/VARIABLE_VALUE",
                                                             "save_counter/.ATTRIBUTES/VARIABLE_VALUE"]


def test_an_iterator_in_nested_checkpoints_and_a_module(tmp_path):
    """A dataset iterator tracked anywhere a Checkpoint reaches is saved under TF's key and
    restored in place; a nested Checkpoint has no save_counter of its own (TF 2.21's names)."""
    ds = tf.data.Dataset.from_tensor_slices(np.arange(20.0, dtype=np.float32)).shuffle(8, seed=5).batch(3).repeat()
    it, w = iter(ds), tf.Variable(0.0)
    seen = [next(it).numpy() for _ in range(5)]
    root = tf.train.Checkpoint(inner=tf.train.Checkpoint(data=it, w=w))
    path = root.save(str(tmp_path / "ck"))
    names = [n for n, _ in tf.train.list_variables(path)]
    assert names == ["_CHECKPOINTABLE_OBJECT_GRAPH", "inner/data/.ATTRIBUTES/ITERATOR_STATE", "inner/w/.ATTRIBUTES/VARIABLE_VALUE",
                     "save_counter/.ATTRIBUTES/VARIABLE_VALUE"]
    after = [next(it).numpy() for _ in range(9)]
    again = iter(ds)
    status = tf.train.Checkpoint(inner=tf.train.Checkpoint(data=again, w=w)).restore(path)
    status.assert_consumed()
    for a, b in zip(after, [next(again).numpy() for _ in range(9)]):
        np.testing.assert_array_equal(a, b)
    assert sorted(np.concatenate(seen + after[:2]).tolist()) == list(range(20))  # one epoch, shuffled
    missing = tf.train.Checkpoint(inner=tf.train.Checkpoint(data=iter(ds), other=iter(ds), w=w)).restore(path)
    with pytest.raises(AssertionError, match=r"\['inner/other'\]"):
        missing.assert_existing_objects_matched()


def test_an_iterator_that_cannot_be_saved_writes_nothing(tmp_path):
    def gen():
        yield from range(3)
    it = iter(tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int64)))
    next(it)
    ckpt = tf.train.Checkpoint(it=it, v=tf.Variable(1.0))
    with pytest.raises(tf.errors.FailedPreconditionError, match="from_generator"):
        ckpt.save(str(tmp_path / "ck"))
    assert os.listdir(tmp_path) == []
    bad = tf.train.Checkpoint(it=iter(tf.data.Dataset.range(3)))
    path = bad.write(str(tmp_path / "fine"))
    with open(path + ".data-00000-of-00001", "rb") as f:
        data = f.read()
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        member = [n for n in z.namelist() if "ITERATOR" in n][0]
        raw = z.read(member)
    with zipfile.ZipFile(str(tmp_path / "broken.npz"), "w") as z:
        z.writestr(member, raw.replace(b'"version"', b'"versio!"'))
    with pytest.raises(NotFoundError, match="not one tapegrad wrote"):
        tf.train.Checkpoint(it=iter(tf.data.Dataset.range(3))).read(str(tmp_path / "broken"))


def test_optimizer_slots_made_after_the_restore_get_their_saved_values(tmp_path):
    """TF restores an optimizer's slot variables when its first apply_gradients makes them (the
    usual `ckpt.restore(manager.latest_checkpoint)` before training): training goes on as it would
    have without the interruption."""
    net, opt = Net(), tf.keras.optimizers.Adam(0.1)
    for _ in range(3):
        _train_step(net, opt)
    path = tf.train.Checkpoint(model=net, optimizer=opt).save(str(tmp_path / "ck"))
    _train_step(net, opt)
    want = [v.numpy() for v in (net.w, net.b, *opt.variables)]
    net2, opt2 = Net(), tf.keras.optimizers.Adam(0.1)
    status = tf.train.Checkpoint(model=net2, optimizer=opt2).restore(path)
    status.assert_existing_objects_matched()
    with pytest.raises(AssertionError, match="_variables/2"):  # not made yet
        status.assert_consumed()
    assert opt2._deferred_restore is not None
    _train_step(net2, opt2)
    assert opt2._deferred_restore is None
    for a, b in zip(want, [v.numpy() for v in (net2.w, net2.b, *opt2.variables)]):
        np.testing.assert_array_equal(a, b)


def test_attributes_lists_and_dicts_are_tracked_and_restored_when_filled(tmp_path):
    """The TF guide's end: objects assigned to a Checkpoint's attributes, in lists and dicts, are
    saved; a restore assigns what exists and keeps the rest waiting until a variable is put where
    it belongs (TF 2.21: v2 == 2.0 at once, v1 == 1.0 when appended)."""
    save = tf.train.Checkpoint()
    save.listed = [tf.Variable(1.0)]
    save.listed.append(tf.Variable(2.0))
    save.mapped = {"one": save.listed[0]}
    save.mapped["two"] = save.listed[1]
    save_path = save.save(str(tmp_path / "tf_list_example"))
    assert {n for n, _ in tf.train.list_variables(save_path)} >= {
        "listed/0/.ATTRIBUTES/VARIABLE_VALUE", "listed/1/.ATTRIBUTES/VARIABLE_VALUE",
        "mapped/two/.ATTRIBUTES/VARIABLE_VALUE"}
    restore = tf.train.Checkpoint()
    v2 = tf.Variable(0.0)
    restore.mapped = {"two": v2}
    status = restore.restore(save_path)
    assert float(v2) == 2.0
    with pytest.raises(AssertionError, match="listed/0"):
        status.assert_consumed()
    restore.listed = []
    assert len(restore.listed) == 0
    v1 = tf.Variable(0.0)
    restore.listed.append(v1)
    assert float(v1) == 1.0
    with pytest.raises(ValueError, match="trackable"):
        restore.listed.append(3)
    with pytest.raises(ValueError, match="strings"):
        restore.other = {1: tf.Variable(0.0)}
    late = tf.Variable(0.0)
    restore.mapped["one"] = late  # (waiting since the restore)
    assert float(late) == 1.0
    restore.listed.append(tf.Variable(0.0))
    assert float(restore.listed[1]) == 2.0
    status.assert_consumed()  # every saved value has found its variable by now


def test_save_and_write_make_the_folder(tmp_path):
    """TF 2.21 makes the folders of a checkpoint's prefix (the tutorials' './training_checkpoints/ckpt')."""
    v = tf.Variable(1.0)
    path = tf.train.Checkpoint(v=v).save(str(tmp_path / "a" / "b" / "ckpt"))
    assert sorted(os.listdir(tmp_path / "a" / "b")) == ["checkpoint", "ckpt-1.data-00000-of-00001", "ckpt-1.index"]
    assert tf.train.latest_checkpoint(str(tmp_path / "a" / "b")) == path
    tf.train.Checkpoint(v=v).write(str(tmp_path / "w" / "x" / "ck"))
    assert sorted(os.listdir(tmp_path / "w" / "x")) == ["ck.data-00000-of-00001", "ck.index"]


def test_files_are_named_as_tensorflows_and_older_npz_files_read(tmp_path):
    import json
    v = tf.Variable([1.0, 2.0])
    path = tf.train.Checkpoint(v=v).save(str(tmp_path / "ckpt"))
    with open(path + ".index", encoding="utf-8") as f:
        index = json.load(f)
    assert index["tensors"]["v/.ATTRIBUTES/VARIABLE_VALUE"] == {"shape": [2], "dtype": "float32"}
    assert index["data"] == "ckpt-1.data-00000-of-00001"
    # a checkpoint written by an earlier tapegrad (one .npz file) is found and read
    os.replace(path + ".data-00000-of-00001", path + ".npz")
    os.remove(path + ".index")
    v.assign([0.0, 0.0])
    assert tf.train.latest_checkpoint(str(tmp_path)) == path
    tf.train.Checkpoint(v=v).restore(path).assert_consumed()
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])
    # removed by the manager with both of its files
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=v), str(tmp_path / "m"), max_to_keep=1)
    manager.save()
    manager.save()
    assert sorted(os.listdir(tmp_path / "m")) == ["checkpoint", "ckpt-2.data-00000-of-00001", "ckpt-2.index"]
