"""Programs over control flow, TensorArray and py_function, run with ``tf`` = TensorFlow 2.21 by
``tools/record_tf_control_flow.py`` (results in ``tests/fixtures/tf_control_flow.json``) and with
``tf`` = tapegrad by the tests, which compare the two. Each returns a nest of tensors, ``None``
and Python values; a program that raises is recorded as its exception's type name."""
from __future__ import annotations

import numpy as np

PROGRAMS: dict = {}


def program(fn):
    PROGRAMS[fn.__name__] = fn
    return fn


def _x(tf):
    return tf.constant([[0.5, -1.0], [2.0, 0.25], [-0.75, 1.5]])


# ---------------------------------------------------------------------------- cond, case, switch
@program
def cond_gradient_both_branches(tf):
    w = tf.Variable(1.5)
    out = []
    for v in (2.0, -3.0):
        x = tf.constant(v)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(x > 0, lambda: x * w ** 2, lambda: tf.sin(x) + w)
        out.append((y, tape.gradient(y, [x, w])))
    return out


@program
def cond_nested_structure(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        r = tf.cond(tf.constant(True), lambda: {"a": x * 2, "b": (x ** 2, [x])},
                    lambda: {"a": x, "b": (x, [x])})
        y = tf.reduce_sum(r["a"] * r["b"][0]) + tf.reduce_sum(r["b"][1][0])
    return r, tape.gradient(y, x)


@program
def cond_python_and_numpy_predicates(tf):
    return (tf.cond(True, lambda: tf.constant(1.0), lambda: tf.constant(2.0)),
            tf.cond(np.bool_(False), lambda: tf.constant(1.0), lambda: tf.constant(2.0)),
            tf.cond(tf.constant([True]), lambda: tf.constant(1.0), lambda: tf.constant(2.0)),
            tf.cond(tf.constant(True), lambda: [tf.constant(3.0)], lambda: [tf.constant(4.0)]))


@program
def case_gradient(tf):
    w = tf.Variable([1.0, -2.0])
    res = []
    for v in (-1.0, 0.5, 3.0):
        x = tf.constant(v)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.case([(x < 0, lambda: tf.reduce_sum(w) * x),
                         (x < 1, lambda: tf.reduce_sum(w ** 2) * x ** 2)],
                        default=lambda: tf.exp(x) * w[0])
        res.append((y, tape.gradient(y, [x, w])))
    return res


@program
def case_first_true_wins_and_default_is_last(tf):
    t, f = tf.constant(True), tf.constant(False)
    return (tf.case([(t, lambda: tf.constant(1.0)), (t, lambda: tf.constant(2.0))],
                    default=lambda: tf.constant(3.0)),
            tf.case([(f, lambda: tf.constant(1.0)), (t, lambda: tf.constant(2.0))]),
            tf.case([(f, lambda: tf.constant(1.0))], default=lambda: tf.constant(3.0), exclusive=True))


@program
def case_none_true_without_default(tf):
    f = tf.constant(False)
    return tf.case([(f, lambda: tf.constant(1.0)), (f, lambda: tf.constant(2.0))])


@program
def case_exclusive_two_true(tf):
    t = tf.constant(True)
    return tf.case([(t, lambda: tf.constant(1.0)), (t, lambda: tf.constant(2.0))],
                   default=lambda: tf.constant(3.0), exclusive=True)


@program
def case_python_bool_pred(tf):
    return tf.case([(True, lambda: tf.constant(1.0))], default=lambda: tf.constant(3.0))


@program
def switch_case_gradient_and_out_of_range(tf):
    w = tf.Variable(2.0)
    x = tf.constant(3.0)
    fns = [lambda: x * w, lambda: x ** 2 * w, lambda: tf.sqrt(x) * w]
    out = []
    for i in (0, 1, 2, 7, -1):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.switch_case(tf.constant(i), fns)
        out.append((y, tape.gradient(y, [x, w])))
    out.append(tf.switch_case(tf.constant(-1, tf.int64), fns[:2], default=lambda: x + 100))
    out.append(tf.switch_case(tf.constant(1), {0: fns[0], 1: fns[1]}))
    return out


@program
def switch_case_python_int(tf):
    return tf.switch_case(1, [lambda: tf.constant(1.0), lambda: tf.constant(2.0)])


@program
def switch_case_float_index(tf):
    return tf.switch_case(tf.constant(1.0), [lambda: tf.constant(1.0), lambda: tf.constant(2.0)])


@program
def switch_case_keys_not_contiguous(tf):
    return tf.switch_case(tf.constant(1), {0: lambda: tf.constant(1.0), 2: lambda: tf.constant(2.0)})


# ---------------------------------------------------------------------------- while_loop
@program
def while_loop_gradient_captured_variable(tf):
    w = tf.Variable(0.9)
    x = tf.constant(1.25)
    with tf.GradientTape() as tape:
        tape.watch(x)
        i, y = tf.while_loop(lambda i, y: i < 4, lambda i, y: (i + 1, tf.sin(y) * w + x),
                             (tf.constant(0), x))
    return i, y, tape.gradient(y, [x, w])


@program
def while_loop_nested_loop_vars(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = tf.while_loop(
            lambda i, d: i < 3,
            lambda i, d: (i + 1, {"a": d["a"] * x, "b": (d["b"][0] + tf.reduce_sum(d["a"]),)}),
            (0, {"a": x, "b": (tf.constant(0.0),)}))
        y = tf.reduce_sum(out[1]["a"]) + out[1]["b"][0]
    return out, tape.gradient(y, x)


@program
def while_loop_python_numbers(tf):
    return tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * 2), (0, 1))


@program
def while_loop_one_item_list(tf):
    x = tf.constant(3.0)
    return tf.while_loop(lambda v: v < 10, lambda v: [v + 1], [x])


@program
def while_loop_maximum_iterations(tf):
    x = tf.constant(1.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        i, y = tf.while_loop(lambda i, y: i < 100, lambda i, y: (i + 1, y * x), (0, x),
                             maximum_iterations=3)
    return i, y, tape.gradient(y, x), tf.while_loop(lambda v: v < 100, lambda v: [v * 2],
                                                    [x], maximum_iterations=tf.constant(2))


@program
def while_loop_back_prop_false_is_ignored_eagerly(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        _, y = tf.while_loop(lambda i, y: i < 2, lambda i, y: (i + 1, y * x), (0, x), back_prop=False)
    return y, tape.gradient(y, x)


@program
def while_loop_second_derivative(tf):
    x = tf.constant(0.7)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            _, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, tf.tanh(y * x)), (0, x))
        g = t1.gradient(y, x)
    return y, g, t2.gradient(g, x)


@program
def while_loop_tensor_array_accumulator(tf):
    x = tf.constant([0.5, 1.0, 1.5])
    w = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        _, ta, _ = tf.while_loop(lambda i, ta, h: i < 3,
                                 lambda i, ta, h: (i + 1, ta.write(i, h * w + x[i]), h * w + x[i]),
                                 (0, ta, tf.constant(0.0)))
        s = ta.stack()
        y = tf.reduce_sum(s ** 2)
    return s, tape.gradient(y, [x, w])


@program
def while_loop_body_returns_another_structure(tf):
    x = tf.constant(3.0)
    return tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v, v), (0, x))


@program
def while_loop_cond_not_scalar(tf):
    return tf.while_loop(lambda v: v < 4, lambda v: [v + 1], [tf.constant([1.0, 2.0])])


@program
def while_loop_empty_loop_vars(tf):
    return tf.while_loop(lambda: True, lambda: (), [])


@program
def while_loop_maximum_iterations_not_scalar(tf):
    return tf.while_loop(lambda v: v < 4, lambda v: [v + 1], [tf.constant(1.0)], maximum_iterations=[3])


# ---------------------------------------------------------------------------- map_fn and vectorized_map
@program
def map_fn_gradient_captured_variable(tf):
    x = _x(tf)
    w = tf.Variable([[1.0, -0.5, 0.25], [0.5, 2.0, -1.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.map_fn(lambda r: tf.tanh(tf.linalg.matvec(w, r, transpose_a=True)), x)
        loss = tf.reduce_sum(y * y)
    return y, tape.gradient(loss, [x, w])


@program
def map_fn_nested_elems_and_output_signature(tf):
    x = _x(tf)
    ids = tf.constant([2, 0, 1])
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = tf.map_fn(lambda e: {"s": tf.reduce_sum(e[0] * e[0]), "k": e[1] * 2,
                                   "p": (e[0][0] * e[0][1],)},
                        (x, ids), fn_output_signature={"s": tf.float32, "k": tf.int32, "p": (tf.float32,)})
        y = tf.reduce_sum(out["s"]) + tf.reduce_sum(out["p"][0])
    return out, tape.gradient(y, x)


@program
def map_fn_dtype_argument_and_numpy_elems(tf):
    return (tf.map_fn(lambda r: tf.cast(tf.reduce_sum(r), tf.int32), _x(tf), dtype=tf.int32),
            tf.map_fn(lambda a: a * 2, np.array([1.0, 2.0])),
            tf.map_fn(lambda a: a * 2, tf.zeros((0, 3))))


@program
def map_fn_wrong_output_dtype(tf):
    return tf.map_fn(lambda r: tf.cast(tf.reduce_sum(r), tf.int32), _x(tf))


@program
def map_fn_wrong_output_structure(tf):
    return tf.map_fn(lambda d: {"s": d["a"] * 2}, {"a": _x(tf)})


@program
def map_fn_output_shape_changes(tf):
    return tf.map_fn(lambda a: tf.ones(tf.cast(a, tf.int32)), tf.constant([1.0, 2.0]))


@program
def map_fn_scalar_elems(tf):
    return tf.map_fn(lambda a: a, tf.constant(1.0))


@program
def map_fn_mismatched_lengths(tf):
    return tf.map_fn(lambda a: a[0], (_x(tf), tf.constant([1.0, 2.0])))


@program
def vectorized_map_gradient(tf):
    x = _x(tf)
    w = tf.Variable([0.5, -1.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y, c = tf.vectorized_map(lambda r: (tf.reduce_sum(tf.sin(r) * w), tf.constant(1.0)), x)
        loss = tf.reduce_sum(y ** 2) + tf.reduce_sum(c)
    return y, c, tape.gradient(loss, [x, w])


@program
def vectorized_map_tuple_elems_and_ints(tf):
    x = _x(tf)
    return (tf.vectorized_map(lambda a: tf.matmul(a[0][None, :], a[1][:, None]), (x, x)),
            tf.vectorized_map(lambda a: a * 2, tf.constant([1, 2])),
            tf.vectorized_map(lambda a: a * 2, tf.zeros((0, 3))))


# ---------------------------------------------------------------------------- scan, foldl, foldr
@program
def scan_gradient(tf):
    x = _x(tf)
    w = tf.Variable(0.8)
    out = []
    for reverse in (False, True):
        with tf.GradientTape() as tape:
            tape.watch(x)
            s = tf.scan(lambda a, r: a * w + r, x, reverse=reverse)
            loss = tf.reduce_sum(s * s)
        out.append((s, tape.gradient(loss, [x, w])))
    return out


@program
def scan_initializer_tuple_accumulator(tf):
    x = _x(tf)
    w = tf.Variable([1.0, 0.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        s, p = tf.scan(lambda a, r: (a[0] + r * w, a[1] * tf.reduce_sum(r)), x,
                       initializer=(tf.zeros(2), tf.constant(1.0)), reverse=True)
        loss = tf.reduce_sum(s) + tf.reduce_sum(p)
    return s, p, tape.gradient(loss, [x, w])


@program
def scan_multiple_elems(tf):
    x = _x(tf)
    return (tf.scan(lambda a, e: (a[0] + e[0], a[1]), (x, x)),
            tf.scan(lambda a, e: a + e, tf.zeros((0,)), initializer=1.0))


@program
def scan_accumulator_structure_changes(tf):
    return tf.scan(lambda a, x: (a, a), _x(tf))


@program
def foldl_foldr_gradient(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    w = tf.Variable(0.5)
    out = []
    for fold in (tf.foldl, tf.foldr):
        with tf.GradientTape() as tape:
            tape.watch(x)
            a = fold(lambda a, e: a * w + e ** 2, x)
            b = fold(lambda a, e: a * e + w, x, initializer=tf.constant(2.0))
            loss = a + b
        out.append((a, b, tape.gradient(loss, [x, w])))
    return out


@program
def foldl_nested(tf):
    x = _x(tf)
    return (tf.foldl(lambda a, e: a, (x, x)),
            tf.foldl(lambda a, e: a + e, tf.zeros((0,)), initializer=1.0),
            tf.foldr(lambda a, e: {"s": a["s"] + e}, x, initializer={"s": tf.zeros(2)}))


@program
def foldl_empty_without_initializer(tf):
    return tf.foldl(lambda a, x: a + x, tf.zeros((0,)))


# ---------------------------------------------------------------------------- TensorArray
@program
def tensor_array_write_stack_gradient(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    w = tf.Variable(1.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        ta = tf.TensorArray(tf.float32, size=4, element_shape=[])
        for i in range(3):
            ta = ta.write(i, x[i] ** 2 * w)
        s = ta.stack()  # element 3 was never written: zeros
        y = tf.reduce_sum(s * tf.constant([1.0, 2.0, 3.0, 4.0]))
    return s, ta.size(), tape.gradient(y, [x, w])


@program
def tensor_array_unstack_read_gradient(tf):
    x = _x(tf)
    with tf.GradientTape() as tape:
        tape.watch(x)
        ta = tf.TensorArray(tf.float32, size=3).unstack(x)
        y = tf.reduce_sum(ta.read(2) * 3.0) + tf.reduce_sum(ta.read(0) ** 2)
    return y, tape.gradient(y, x)


@program
def tensor_array_gather_scatter_concat_split(tf):
    x = _x(tf)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        g = tf.TensorArray(tf.float32, size=3, clear_after_read=False).unstack(x).gather([2, 0, 2])
        sc = tf.TensorArray(tf.float32, size=4, element_shape=[2]).scatter([3, 1], x[:2] * 2.0).stack()
        flat = tf.reshape(x, [-1])
        sp = tf.TensorArray(tf.float32, size=3).split(flat, [1, 2, 3])
        parts = (sp.read(0), sp.read(1), sp.read(2))
        cat = tf.TensorArray(tf.float32, size=2, infer_shape=False).write(0, x[0]).write(1, flat[2:5]).concat()
        lg, ls, lp, lc = (tf.reduce_sum(g * g), tf.reduce_sum(sc ** 3),
                          tf.reduce_sum(parts[2] * 2.0) + parts[1][0], tf.reduce_sum(cat * cat))
    out = (g, sc, parts, cat) + tuple(tape.gradient(v, x) for v in (lg, ls, lp, lc))
    del tape
    return out


@program
def tensor_array_dynamic_size_and_properties(tf):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    ta = ta.write(2, [1.0, 2.0]).write(0, [3.0, 4.0])
    return (ta.size(), ta.stack(), ta.element_shape.as_list(), ta.dtype == tf.float32,
            tf.TensorArray(tf.float32, size=0, element_shape=[2]).stack(),
            tf.TensorArray(tf.float32, size=tf.constant(2)).size(),
            tf.TensorArray("int32", size=1).write(0, 7).read(0))


@program
def tensor_array_write_twice_overwrites(tf):
    ta = tf.TensorArray(tf.float32, size=2)
    ta = ta.write(0, 1.0).write(0, 2.0)
    return ta.read(0)


@program
def tensor_array_read_twice(tf):
    ta = tf.TensorArray(tf.float32, size=2).write(0, 1.0)
    ta.read(0)
    return ta.read(0)


@program
def tensor_array_read_twice_without_clear(tf):
    ta = tf.TensorArray(tf.float32, size=2, clear_after_read=False).write(0, 1.0)
    return ta.read(0), ta.read(0)


@program
def tensor_array_read_out_of_range(tf):
    return tf.TensorArray(tf.float32, size=2).read(5)


@program
def tensor_array_read_negative(tf):
    return tf.TensorArray(tf.float32, size=2).read(-1)


@program
def tensor_array_write_out_of_range(tf):
    return tf.TensorArray(tf.float32, size=2).write(2, 1.0)


@program
def tensor_array_write_wrong_dtype(tf):
    return tf.TensorArray(tf.float32, size=2).write(0, tf.constant(1))


@program
def tensor_array_inconsistent_shapes(tf):
    return tf.TensorArray(tf.float32, size=2).write(0, [1.0, 2.0]).write(1, [1.0, 2.0, 3.0])


@program
def tensor_array_read_unwritten_unknown_shape(tf):
    return tf.TensorArray(tf.float32, size=2).read(0)


@program
def tensor_array_unstack_too_many(tf):
    return tf.TensorArray(tf.float32, size=2).unstack(_x(tf))


@program
def tensor_array_concat_scalars(tf):
    return tf.TensorArray(tf.float32, size=2).write(0, 1.0).write(1, 2.0).concat()


@program
def tensor_array_split_bad_lengths(tf):
    return tf.TensorArray(tf.float32, size=2).split([1.0, 2.0, 3.0], [1, 1])


@program
def tensor_array_without_size(tf):
    return tf.TensorArray(tf.float32)


# ---------------------------------------------------------------------------- py_function, numpy_function
@program
def py_function_gradient_to_inputs(tf):
    x = tf.constant([1.0, 2.0])
    z = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch([x, z])
        a, b = tf.py_function(lambda u, v: (tf.reduce_sum(u ** 2) * v, u * v), [x, z],
                              [tf.float32, tf.float32])
        y = a + tf.reduce_sum(b)
    return a, b, tape.gradient(y, [x, z])


@program
def py_function_converts_python_and_numpy_results(tf):
    x = tf.constant([1.0, 2.0])
    return (tf.py_function(lambda a: np.array([1, 2]), [x], tf.float32),
            tf.py_function(lambda a: 3, [x], tf.int32),
            tf.py_function(lambda a: [a * 2], [x], [tf.float32]),
            tf.py_function(lambda a: None, [x], []),
            tf.py_function(lambda a: a * 2, [1.0], tf.float32))


@program
def py_function_result_of_another_dtype(tf):
    return tf.py_function(lambda a: a * 2, [tf.constant([1.0])], tf.float64)


@program
def py_function_without_tout(tf):
    return tf.py_function(lambda a: a, [tf.constant(1.0)], None)


@program
def numpy_function_is_a_constant(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.numpy_function(lambda a: a * 2, [x], tf.float32)
        z = tf.reduce_sum(y * x)
    with tf.GradientTape() as tape2:
        tape2.watch(x)
        y2 = tf.numpy_function(lambda a: a ** 2, [x], tf.float32)
    return y, tape.gradient(z, x), tape2.gradient(y2, x)


@program
def numpy_function_dtypes_as_returned(tf):
    x = tf.constant([1.0, 2.0])
    return (tf.numpy_function(lambda a: np.array([1, 2]), [x], tf.float32),
            tf.numpy_function(lambda a: a * 2, [1.0], tf.float32),
            tf.numpy_function(lambda a: [a * 2], [x], [tf.float32]),
            tf.numpy_function(lambda a: (a, a + 1), [x], [tf.float32, tf.float32]))


# ---------------------------------------------------------------------------- small names
@program
def identity_n_ensure_shape_static_value(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        a, b = tf.identity_n([x, x * 2])
        c = tf.ensure_shape(a * b, [None])
        y = tf.reduce_sum(c)
    return (tape.gradient(y, x), tf.get_static_value(x), tf.get_static_value(tf.Variable(1.0)),
            tf.get_static_value(3), tf.is_tensor(x), tf.is_tensor(tf.Variable(1.0)),
            tf.is_tensor(np.ones(2)), tf.is_tensor(1.0), tf.executing_eagerly(), tf.no_op(),
            tf.group(x, x), tf.ensure_shape(x, None))


@program
def ensure_shape_mismatch(tf):
    return tf.ensure_shape(tf.constant([1.0, 2.0]), [3])


@program
def control_dependencies_calls_callables(tf):
    calls = []
    with tf.control_dependencies([lambda: calls.append(1), tf.constant(1.0)]):
        y = tf.constant(2.0) * 3
    with tf.control_dependencies(None):
        pass
    return y, len(calls)
