"""tf.name_scope, tf.get_current_name_scope, tf.device, tf.DeviceSpec and Tensor.set_shape, with
the behaviour TensorFlow 2.21 shows in eager mode."""
from __future__ import annotations

import threading

import pytest

import tapegrad as tf

CPU = "/job:localhost/replica:0/task:0/device:CPU:0"


def test_nested_scopes_and_variable_names():
    assert tf.get_current_name_scope() == ""
    with tf.name_scope("a") as a:
        with tf.name_scope("b") as b:
            assert (a, b, tf.get_current_name_scope()) == ("a/", "a/b/", "a/b")
            v, u = tf.Variable(1.0, name="w"), tf.Variable(1.0)
        with tf.name_scope("b") as again:  # eager scopes are not made unique
            assert again == "a/b/"
        with tf.name_scope("c/") as absolute:
            assert (absolute, tf.get_current_name_scope()) == ("c/", "c")
        with tf.name_scope("") as top:
            assert (top, tf.get_current_name_scope()) == ("", "")
        assert tf.get_current_name_scope() == "a"
    assert tf.get_current_name_scope() == ""
    assert (v.name, u.name) == ("a/b/w:0", "a/b/Variable:0")


def test_eager_scope_names_are_not_validated_but_must_be_strings():
    with tf.name_scope("a b:-") as s:  # TF's eager mode accepts any string
        assert s == "a b:-/"
    with pytest.raises(ValueError, match="name for name_scope must be a string"):
        tf.name_scope(None)


def test_scope_is_restored_after_an_exception_and_is_per_thread():
    with pytest.raises(RuntimeError):
        with tf.name_scope("x"):
            raise RuntimeError
    assert tf.get_current_name_scope() == ""
    seen = []
    with tf.name_scope("main"):
        t = threading.Thread(target=lambda: seen.append(tf.get_current_name_scope()))
        t.start()
        t.join()
    assert seen == [""]


def test_module_scope_is_the_scope_it_was_created_in():
    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(1.0, name="w")
            with self.name_scope:
                self.b = tf.Variable(1.0, name="b")

    with tf.name_scope("outer"):
        m = M()
    with tf.name_scope("z"):
        with m.name_scope as s:
            assert (s, tf.get_current_name_scope()) == ("outer/m/", "outer/m")
    assert (m.w.name, m.b.name, m.name_scope.name) == ("outer/w:0", "outer/m/b:0", "outer/m/")


@pytest.mark.parametrize("name", ["/CPU:0", "/cpu:0", "/GPU:0", "/device:GPU:1", "CPU:0", "cpu",
                                  "/job:localhost", "/gpu:0", "/TPU:0", "", None, "/cpu:*",
                                  "/job:localhost/replica:0/task:0/device:CPU:0"])
def test_any_valid_device_runs_on_the_cpu(name):
    with tf.device(name) as d:
        y = tf.constant(2.0) + 1
        v = tf.Variable(1.0)
    assert d is None and y.device == CPU and v.device == CPU


@pytest.mark.parametrize("name,msg", [
    ("garbage", "Unknown attribute 'garbage' is encountered while parsing the device spec: 'garbage'"),
    ("/XPU:3", "Unknown attribute 'XPU' is encountered while parsing the device spec: '/XPU:3'"),
    ("/cpu:0/gpu:0", "Multiple device types are not allowed"),
    ("/gpu:x", "Expected an integer or '\\*'"),
])
def test_malformed_device_is_a_value_error(name, msg):
    with pytest.raises(ValueError, match=msg):
        tf.device(name)


def test_device_spec():
    s = tf.DeviceSpec.from_string("/job:worker/replica:1/task:2/gpu:3")
    assert (s.job, s.replica, s.task, s.device_type, s.device_index) == ("worker", 1, 2, "GPU", 3)
    assert s.to_string() == "/job:worker/replica:1/task:2/device:GPU:3"
    assert tf.DeviceSpec(device_type="CPU").to_string() == "/device:CPU:*"
    assert s == tf.DeviceSpec.from_string(s.to_string())
    with tf.device(s):
        assert tf.ones([1]).device == CPU


def test_set_shape():
    x = tf.constant([[1.0, 2.0, 3.0]])
    for ok in ([1, 3], [None, 3], [None, None], None, tf.TensorShape([1, None])):
        x.set_shape(ok)
    assert x.shape == (1, 3)
    for bad, shown in (([3], "(3,)"), ([1, 4], "(1, 4)"), ([1, 3, 1], "(1, 3, 1)")):
        with pytest.raises(ValueError, match=rf"Tensor's shape \(1, 3\) is not compatible with "
                                             rf"supplied shape {shown.replace('(', '[(]').replace(')', '[)]')}\."):
            x.set_shape(bad)
