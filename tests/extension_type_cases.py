"""Extension-type cases run under TensorFlow (tools/record_extension_type.py records their results
in tests/fixtures/extension_type.json) and under tapegrad (tests/test_extension_type.py compares).

``run(tf)`` takes the module (``tensorflow`` or ``tapegrad``) and returns plain Python values:
lists of numbers, strings, booleans, and the type names of the errors raised. No postponed
annotations here: the classes' field annotations are evaluated where they are defined.
"""
import contextlib
import io
import tempfile
import uuid
from typing import List, Mapping, Optional, Tuple, Union

import numpy as np


def _np(x):
    return np.asarray(x).tolist()


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001  (the error's type is the result: its first builtin class)
        return next(c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins")
    return None


def run(tf):
    out = {}

    class MaskedTensor(tf.experimental.ExtensionType):
        values: tf.Tensor
        mask: tf.Tensor

        def __validate__(self):
            self.values.shape.assert_is_compatible_with(self.mask.shape)
            assert self.mask.dtype.is_bool, "mask.dtype must be bool"

    mt = MaskedTensor([[1, 2], [3, 4]], [[True, False], [False, True]])
    out["dtypes"] = [mt.values.dtype.name, mt.mask.dtype.name]
    out["errors"] = [
        _error(lambda: MaskedTensor([1, 2, 3], None)),
        _error(lambda: MaskedTensor([1, 2, 3], [0, 1, 0])),
        _error(lambda: MaskedTensor([1, 2, 3], [True, False])),
        _error(lambda: setattr(mt, "mask", [True])),
        _error(lambda: delattr(mt, "mask")),
        _error(lambda: MaskedTensor([1])),
        _error(lambda: MaskedTensor([1], [True], [True])),
        _error(lambda: hash(mt)),
    ]

    class Config(tf.experimental.ExtensionType):
        name: str
        rate: Union[int, float] = 0.5
        shape: tf.TensorShape = [None, 3]
        dtype: tf.DType = tf.float32
        tags: Tuple[str, ...] = ()
        extra: Optional[tf.Tensor] = None
        weights: Mapping[str, tf.Tensor] = {}

    c = Config("a", weights={"w": [1.0, 2.0]}, tags=["x", "y"])
    out["config"] = [c.name, c.rate, c.shape.as_list(), c.dtype.name, list(c.tags), c.extra is None,
                     sorted(c.weights), _np(c.weights["w"])]
    out["config_errors"] = [_error(lambda: Config(3)), _error(lambda: Config("a", rate="fast")),
                            _error(lambda: Config("a", tags=[1]))]
    out["config_spec"] = repr(tf.type_spec_from_value(Config("b", rate=2)))
    out["spec"] = repr(tf.type_spec_from_value(mt))
    out["spec_eq"] = [tf.type_spec_from_value(mt) == MaskedTensor.Spec(tf.TensorSpec([2, 2], tf.int32),
                                                                       tf.TensorSpec([2, 2], tf.bool)),
                      tf.type_spec_from_value(mt) == tf.type_spec_from_value(MaskedTensor([1], [True]))]
    a = MaskedTensor([1, 2], [True, False])
    out["eq"] = [bool(a == a), bool(a == MaskedTensor([1, 3], [True, False])), bool(a != a),
                 bool(a == MaskedTensor([[1, 2]], [[True, False]])), bool(a == a.values)]
    out["flat"] = [_np(t) for t in tf.nest.flatten({"m": mt, "k": c}, expand_composites=True)]
    packed = tf.nest.pack_sequence_as(mt, [tf.constant([5]), tf.constant([True])], expand_composites=True)
    out["packed"] = [type(packed).__name__, _np(packed.values), _np(packed.mask)]

    # a custom constructor and a subclass
    class Toy(tf.experimental.ExtensionType):
        name: str
        price: tf.Tensor

        def __init__(self, name, price, discount=0):
            self.name = name
            self.price = price * (1 - discount)

    class Priced(Toy):
        count: tf.Tensor = 1

        def __init__(self, name, price, count):
            self.name, self.price, self.count = name, price, count

    out["toy"] = [float(Toy("ball", 5.0, discount=0.2).price), int(Priced("b", 1.0, 3).count),
                  [f for f in ("name", "price", "count") if hasattr(Priced("b", 1.0, 3), f)]]

    # tf.function: one trace per spec
    traced = io.StringIO()

    @tf.function
    def double(x):
        print("traced")
        return MaskedTensor(x.values * 2, x.mask)

    with contextlib.redirect_stdout(traced):
        r1 = double(MaskedTensor([1, 2], [True, False]))
        double(MaskedTensor([3, 4], [False, False]))
        r3 = double(MaskedTensor([1, 2, 3], [True, False, True]))
    out["function"] = [traced.getvalue().count("traced"), type(r1).__name__, _np(r1.values), _np(r3.values)]
    spec = MaskedTensor.Spec(tf.TensorSpec([None], tf.int32), tf.TensorSpec([None], tf.bool))

    @tf.function(input_signature=[spec])
    def total(x):
        return tf.reduce_sum(tf.where(x.mask, x.values, 0))

    out["signature"] = [int(total(MaskedTensor([1, 2, 3], [True, False, True]))),
                        _error(lambda: total(MaskedTensor([1.0], [True])))]

    # dispatch
    @tf.experimental.dispatch_for_unary_elementwise_apis(MaskedTensor)
    def unary(api_func, x):
        return MaskedTensor(api_func(x.values), x.mask)

    @tf.experimental.dispatch_for_binary_elementwise_apis(Union[MaskedTensor, tf.Tensor],
                                                          Union[MaskedTensor, tf.Tensor])
    def binary(api_func, x, y):
        x = x if isinstance(x, MaskedTensor) else MaskedTensor(x, tf.ones_like(x, tf.bool))
        y = y if isinstance(y, MaskedTensor) else MaskedTensor(y, tf.ones_like(y, tf.bool))
        return MaskedTensor(api_func(x.values, y.values), x.mask & y.mask)

    m = MaskedTensor([1.0, -4.0], [True, False])
    out["dispatch"] = [_np(tf.abs(m).values), _np(tf.math.sqrt(tf.abs(m)).values),
                       _np(tf.ones_like(m, dtype=tf.int32).values), tf.ones_like(m, dtype=tf.int32).values.dtype.name,
                       _np(tf.math.add(m, tf.constant([1.0, 1.0])).values),
                       _np(tf.maximum(m, m).mask), _np(tf.cast(m, tf.int32).values)]
    tf.experimental.unregister_dispatch_for(unary)
    out["unregistered"] = [_error(lambda: tf.abs(m)), _error(lambda: tf.experimental.unregister_dispatch_for(unary))]
    tf.experimental.unregister_dispatch_for(binary)

    @tf.experimental.dispatch_for_api(tf.concat, {"values": List[MaskedTensor]})
    def concat(values, axis):
        return MaskedTensor(tf.concat([v.values for v in values], axis), tf.concat([v.mask for v in values], axis))

    cat = tf.concat((m, m), 0)
    out["concat"] = [_np(cat.values), _np(cat.mask), _np(tf.concat([[1], [2]], 0))]
    out["dispatch_errors"] = [
        _error(lambda: tf.experimental.dispatch_for_api(tf.concat, {"values": Tuple[MaskedTensor, ...]})),
        _error(lambda: tf.experimental.dispatch_for_api(tf.concat, {"nope": MaskedTensor}))]
    tf.experimental.unregister_dispatch_for(concat)

    # batchable: tf.data, map_fn
    class Net(tf.experimental.BatchableExtensionType):
        shape: tf.TensorShape
        work: tf.Tensor

        def __init__(self, work):
            self.work = tf.convert_to_tensor(work)
            self.shape = self.work.shape[:-1]

    batch = Net([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    ds = tf.data.Dataset.from_tensor_slices(batch)
    out["data"] = [repr(ds.element_spec), [_np(n.work) for n in ds], [n.shape.as_list() for n in ds],
                   repr(ds.batch(2).element_spec), [b.shape.as_list() for b in ds.batch(2)],
                   [_np(n.work) for n in ds.batch(2).unbatch()],
                   _np(next(iter(tf.data.Dataset.from_tensors(batch))).work)]
    mapped = tf.map_fn(lambda n: Net(n.work * 10), batch)
    out["map_fn"] = [type(mapped).__name__, mapped.shape.as_list(), _np(mapped.work),
                     _np(tf.map_fn(lambda n: tf.reduce_sum(n.work), batch, fn_output_signature=tf.float32))]
    out["not_batchable"] = _error(lambda: tf.data.Dataset.from_tensor_slices(mt))

    # control flow
    picked = tf.cond(tf.constant(False), lambda: a, lambda: MaskedTensor([7, 8, 9], [True, True, False]))
    _, looped = tf.while_loop(lambda i, _: i < 3, lambda i, x: (i + 1, MaskedTensor(x.values + 1, x.mask)), [0, a])
    out["control_flow"] = [_np(picked.values), _np(looped.values)]

    # a SavedModel of a function taking and returning an extension type (known by its __name__,
    # unique per run: a name registers once per process)
    class Reg(tf.experimental.ExtensionType):
        __name__ = "extension_type_cases.Reg" + uuid.uuid4().hex[:8]
        values: tf.Tensor
        mask: tf.Tensor

    class Scaler(tf.Module):
        @tf.function
        def scale(self, x):
            return Reg(x.values * 2.0, x.mask)

    module = Scaler()
    module.scale.get_concrete_function(Reg.Spec(tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.bool)))
    with tempfile.TemporaryDirectory() as d:
        tf.saved_model.save(module, d)
        restored = tf.saved_model.load(d).scale(Reg([1.0, 2.0, 3.0], [True, False, True]))
    out["saved_model"] = [type(restored).__name__, _np(restored.values), _np(restored.mask)]

    # gradients through tensor fields
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        mx = MaskedTensor(x * x, [True, False, True])
        loss = tf.reduce_sum(tf.where(mx.mask, mx.values, 0.0))
    out["gradient"] = _np(tape.gradient(loss, x))

    def whole():
        with tf.GradientTape() as tape:
            tape.watch(mx)  # (its tensors)
            y = tf.reduce_sum(mx.values)
        return tape.gradient(y, mx)
    out["gradient_source"] = _error(whole)
    return out
