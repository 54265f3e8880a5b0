"""tapegrad.Module: TF's attribute walk, names, tracking through containers, use with tapes."""
import collections

import numpy as np
import pytest

import tapegrad as tf


class Dense(tf.Module):
    def __init__(self, n_in, n_out, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.ones([n_in, n_out]), name="w")
        self.b = tf.Variable(tf.zeros([n_out]), name="b")

    def __call__(self, x):
        return x @ self.w + self.b


def test_own_attributes_sorted_by_name_then_submodules():
    m = tf.Module()
    m.zeta = tf.Variable(1.0, name="zeta")
    m.alpha = tf.Variable(2.0, name="alpha")
    m.Upper = tf.Variable(3.0, name="Upper")  # uppercase sorts before lowercase
    m._under = tf.Variable(4.0, name="_under")  # "_" sorts between upper and lower case
    m.child = Dense(1, 1, name="child")
    m.aaa_child = Dense(1, 1, name="aaa")
    names = [v.name for v in m.variables]
    assert names == ["Upper:0", "_under:0", "alpha:0", "zeta:0", "b:0", "w:0", "b:0", "w:0"]
    assert [s.name for s in m.submodules] == ["aaa", "child"]
    assert m.variables[4] is m.aaa_child.b


def test_lists_tuples_dicts_and_namedtuples_are_walked():
    Pair = collections.namedtuple("Pair", "second first")
    m = tf.Module()
    a, b, c, d, e = (tf.Variable(float(i), name=n) for i, n in enumerate("abcde"))
    m.items = [a, (b, {"z": c, "y": d})]
    m.pair = Pair(e, None)
    assert m.variables == (a, b, d, c, e)


def test_each_object_reported_once():
    shared = tf.Variable(0.0, name="shared")
    inner = tf.Module(name="inner")
    inner.v = shared
    inner.deep = tf.Module(name="deep")
    inner.deep.x = tf.Variable(1.0, name="x")
    outer = tf.Module(name="outer")
    outer.a_first = inner
    outer.b_second = Dense(1, 1)
    outer.c_again = [inner, shared]
    assert [s.name for s in outer.submodules] == ["inner", "dense", "deep"]
    # a module's own leaves come first, then each submodule is walked completely in turn
    assert [v.name for v in outer.variables] == ["shared:0", "x:0", "b:0", "w:0"]


def test_cycles_terminate():
    a, b = tf.Module(name="a"), tf.Module(name="b")
    a.b, b.a = b, a
    b.v = tf.Variable(1.0)
    assert a.submodules == (b,)
    assert len(a.variables) == 1
    assert b.submodules == (a,)


def test_trainable_and_non_trainable():
    m = tf.Module()
    m.t = tf.Variable(1.0, name="t")
    m.f = tf.Variable(2.0, name="f", trainable=False)
    assert [v.name for v in m.trainable_variables] == ["t:0"]
    assert [v.name for v in m.non_trainable_variables] == ["f:0"]
    assert [v.name for v in m.variables] == ["f:0", "t:0"]


def test_tensors_are_not_variables():
    m = tf.Module()
    m.c = tf.constant(1.0)
    m.v = tf.Variable(1.0)
    assert m.variables == (m.v,)


def test_flatten_with_path_does_not_deduplicate():
    m = tf.Module()
    m.layer = Dense(1, 1)
    m.alias = m.layer.w
    paths = [p for p, _ in m._flatten(predicate=lambda x: isinstance(x, tf.Variable), with_path=True)]
    assert paths == [("alias",), ("layer", "b"), ("layer", "w")]
    shallow = list(m._flatten(recursive=False, predicate=lambda x: isinstance(x, tf.Variable)))
    assert shallow == [m.alias]


def test_attribute_traversal_key():
    m = tf.Module()
    m.a = tf.Variable(1.0, name="a")
    m.b = tf.Variable(2.0, name="b")
    rev = list(m._flatten(predicate=lambda x: isinstance(x, tf.Variable),
                          attribute_traversal_key=lambda k: -ord(k[0])))
    assert [v.name for v in rev] == ["b:0", "a:0"]


@pytest.mark.parametrize("cls_name, expected", [
    ("Module", "module"), ("MyDense", "my_dense"), ("HTTPServer2", "http_server2"),
    ("mlp", "mlp"), ("ResNet50Block", "res_net50_block"),
])
def test_default_name_is_snake_case(cls_name, expected):
    cls = tf.Module if cls_name == "Module" else type(cls_name, (tf.Module,), {})
    assert cls().name == expected


@pytest.mark.parametrize("bad", ["has space", "1abc", "a-b", ""])
def test_invalid_names(bad):
    with pytest.raises(ValueError, match="not a valid module name"):
        tf.Module(name=bad)


def test_name_scope_prefixes_variables_created_inside():
    m = Dense(2, 1, name="dense_1")
    with m.name_scope as scope:
        v = tf.Variable(1.0, name="v")
    assert scope == "dense_1/" and m.name_scope.name == "dense_1/"
    assert v.name == "dense_1/v:0" and m.w.name == "w:0"  # (TF 2.21 names them the same)

    class WithScope(tf.Module):
        @tf.Module.with_name_scope
        def __call__(self, x):
            """Doubles."""
            return 2 * x

    assert float(WithScope()(tf.constant(2.0))) == 4.0
    assert WithScope.__call__.__doc__ == "Doubles."


def test_missing_super_init_is_explained():
    class Broken(tf.Module):
        def __init__(self):
            self.v = tf.Variable(1.0)

    b = Broken()
    with pytest.raises(AttributeError, match=r"super\(\)\.__init__"):
        b.name
    assert b.variables == (b.v,)


def test_unsortable_dict_keys_are_an_error():
    m = tf.Module()
    m.d = {1: tf.Variable(1.0), "a": tf.Variable(2.0)}
    with pytest.raises(ValueError, match="property 'd'"):
        m.variables


def test_gradients_for_trainable_variables():
    class MLP(tf.Module):
        def __init__(self):
            super().__init__()
            self.layers = [Dense(3, 4), Dense(4, 2)]
            self.scale = tf.Variable(2.0, trainable=False)

        def __call__(self, x):
            for layer in self.layers:
                x = tf.nn.relu(layer(x))
            return x * self.scale

    mlp = MLP()
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(mlp(x))
    grads = tape.gradient(loss, mlp.trainable_variables)
    assert len(grads) == 4 and all(g is not None for g in grads)
    assert [g.shape for g in grads] == [v.shape for v in mlp.trainable_variables]
    # d loss / d b_last = scale per output, summed over the batch of 2
    np.testing.assert_allclose(grads[2].numpy(), [4.0, 4.0])


@pytest.mark.parametrize("name", ["tapegrad.module", "tapegrad.optimizers",
                                  "tapegrad.optimizers.optimizer", "tapegrad.optimizers.algorithms",
                                  "tapegrad.optimizers.schedules", "tapegrad.saving"])
def test_training_tools_docstring_examples_run(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
