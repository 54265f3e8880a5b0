"""tapegrad.saving: .npz round trips without pickle, validation before any assignment."""
import io
import zipfile

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import saving


class Dense(tf.Module):
    def __init__(self, n_in, n_out, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(np.arange(n_in * n_out, dtype=np.float32).reshape(n_in, n_out), name="w")
        self.b = tf.Variable(np.zeros(n_out, np.float64), name="b")


class Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.layers = [Dense(2, 3), Dense(3, 1)]
        self.steps = tf.Variable(np.int64(7), trainable=False, name="steps")
        self.alias = self.layers[0].w


def _scramble(variables):
    for v in variables:
        v.assign(np.full(v.shape, 42, v.dtype.as_numpy_dtype))


def test_module_round_trip(tmp_path):
    net = Net()
    before = [v.numpy() for v in net.variables]
    path = tmp_path / "net.npz"
    saving.save_variables(path, net)
    _scramble(net.variables)
    saving.load_variables(path, net)
    for v, want in zip(net.variables, before):
        np.testing.assert_array_equal(v.numpy(), want)
        assert v.numpy().dtype == want.dtype


def test_module_keys_are_attribute_paths(tmp_path):
    net = Net()
    assert list(saving.variables_by_name(net)) == ["alias", "steps", "layers/0/b", "layers/1/b",
                                                   "layers/1/w"]
    saving.save_variables(tmp_path / "net", net)  # .npz is added
    with np.load(tmp_path / "net.npz", allow_pickle=False) as data:
        assert sorted(data.files) == sorted(saving.variables_by_name(net))


def test_restore_into_a_fresh_module(tmp_path):
    net = Net()
    net.layers[1].w.assign([[1.0], [2.0], [3.0]])
    saving.save_variables(tmp_path / "a.npz", net)
    other = Net()
    saving.load_variables(tmp_path / "a.npz", other)
    np.testing.assert_array_equal(other.layers[1].w.numpy(), [[1.0], [2.0], [3.0]])


def test_list_dict_and_single_variable():
    a, b = tf.Variable([1.0, 2.0], name="a"), tf.Variable(3, name="b")
    for spec, keys in (([a, b], ["a", "b"]), ({"first": a, "second": b}, ["first", "second"]),
                       (a, ["a"])):
        assert list(saving.variables_by_name(spec)) == keys
        buf = io.BytesIO()
        saving.save_variables(buf, spec)
        a.assign([0.0, 0.0])
        buf.seek(0)
        saving.load_variables(buf, spec)
        np.testing.assert_array_equal(a.numpy(), [1.0, 2.0])


def test_optimizer_state_round_trip(tmp_path):
    x = tf.Variable([1.0, 2.0], name="x")
    opt = tf.optimizers.Adam(0.1)
    opt.apply_gradients([(tf.constant([1.0, -1.0]), x)])
    saving.save_variables(tmp_path / "opt.npz", opt.variables + [x])
    x2 = tf.Variable([0.0, 0.0], name="x")
    opt2 = tf.optimizers.Adam(0.1)
    opt2.build([x2])
    saving.load_variables(tmp_path / "opt.npz", opt2.variables + [x2])
    assert int(opt2.iterations) == 1
    for o in (opt, opt2):
        o.apply_gradients([(tf.constant([0.5, 0.5]), o._vars[0])])
    np.testing.assert_array_equal(x.numpy(), x2.numpy())


def test_duplicate_names_in_a_list_are_refused():
    with pytest.raises(ValueError, match=r"\['Variable'\].*dict"):
        saving.save_variables(io.BytesIO(), [tf.Variable(1.0), tf.Variable(2.0)])


def test_wrong_containers_and_entries():
    with pytest.raises(TypeError, match="Module, a dict"):
        saving.save_variables(io.BytesIO(), 3.0)
    with pytest.raises(TypeError, match="not a tf.Variable"):
        saving.save_variables(io.BytesIO(), {"t": tf.constant(1.0)})
    with pytest.raises(TypeError, match="strings"):
        saving.save_variables(io.BytesIO(), {1: tf.Variable(1.0)})


def _saved(**arrays):
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    buf.seek(0)
    return buf


def test_validation_names_shapes_dtypes_and_nothing_assigned():
    a = tf.Variable([1.0, 2.0], name="a")
    b = tf.Variable([[1.0]], name="b")
    c = tf.Variable(np.int32(1), name="c")
    buf = _saved(a=np.array([5.0, 6.0], np.float32), b=np.ones((2, 1), np.float32),
                 c=np.int64(3), extra=np.zeros(1))
    with pytest.raises(ValueError) as e:
        saving.load_variables(buf, [a, b, c])
    msg = str(e.value)
    assert "nothing was assigned" in msg
    assert "'b': the file has shape [2, 1], the variable has shape [1, 1]" in msg
    assert "'c': the file has dtype int64, the variable has dtype int32" in msg
    assert "['extra']" in msg and "strict=False" in msg
    np.testing.assert_array_equal(a.numpy(), [1.0, 2.0])  # a was valid but not assigned


def test_missing_entry_and_non_strict_load():
    a = tf.Variable([1.0, 2.0], name="a")
    z = tf.Variable(0.0, name="z")
    with pytest.raises(ValueError, match=r"missing from the file: \['z'\]"):
        saving.load_variables(_saved(a=np.array([5.0, 6.0], np.float32)), [a, z])
    saving.load_variables(_saved(a=np.array([5.0, 6.0], np.float32), other=np.ones(3)), [a],
                          strict=False)
    np.testing.assert_array_equal(a.numpy(), [5.0, 6.0])


def test_pickled_and_foreign_files_are_refused(tmp_path):
    a = tf.Variable(1.0, name="a")
    obj = io.BytesIO()
    np.savez(obj, a=np.array([{"x": 1}], dtype=object))
    obj.seek(0)
    with pytest.raises(ValueError, match="not a readable .npz"):
        saving.load_variables(obj, [a])
    np.save(tmp_path / "single.npy", np.ones(2))
    with pytest.raises(ValueError, match="single array"):
        saving.load_variables(tmp_path / "single.npy", [a])
    (tmp_path / "junk.npz").write_bytes(b"not a zip file at all")
    with pytest.raises(ValueError, match="not a readable .npz"):
        saving.load_variables(tmp_path / "junk.npz", [a])
    with pytest.raises(ValueError, match="not a readable .npz"):
        saving.load_variables(tmp_path / "missing.npz", [a])
    assert float(a) == 1.0


def test_file_is_a_plain_zip_of_npy(tmp_path):
    saving.save_variables(tmp_path / "v.npz", {"w": tf.Variable([1.0])})
    with zipfile.ZipFile(tmp_path / "v.npz") as z:
        assert z.namelist() == ["w.npy"]
