"""Run one program of ``generator.py`` with a given ``tf`` module (``tensorflow`` or ``tapegrad``).

``run(program, tf)`` returns a JSON-able list of events, in the order they happened:
``["spec", ...]``, ``["card", n]``, ``["epoch", [element, ...]]``, ``["next", i, element]``,
``["value", ...]`` (a random op's or a function call's result), ``["error", stage, TypeName]``.
An element is its ``tf.nest.flatten`` list of tensors, each ``[dtype, shape, values]`` (ragged
tensors ``["ragged", dtype, nested list]``); strings are decoded as latin-1.
"""

import itertools
import os
import tempfile

import numpy as np

from .generator import ELEMENT_CAP


# ---------------------------------------------------------------------- encoding
def enc_tensor(tf, t):
    if isinstance(t, tf.RaggedTensor):
        return ["ragged", t.dtype.name, _plain(t.to_list())]
    a = t.numpy() if hasattr(t, "numpy") else np.asarray(t)
    a = np.asarray(a)
    name = t.dtype.name if hasattr(t, "dtype") and hasattr(t.dtype, "name") else str(a.dtype)
    if name in ("string",) or a.dtype.kind in "SO":
        name = "string"
    return [name, list(a.shape), _plain(a.tolist())]


def _plain(v):
    if isinstance(v, list):
        return [_plain(w) for w in v]
    if isinstance(v, bytes):
        return v.decode("latin-1")
    if isinstance(v, float) and not np.isfinite(v):
        return repr(v)
    return v


def enc_element(tf, e):
    return [enc_tensor(tf, t) for t in tf.nest.flatten(e)]


def enc_spec(tf, spec):
    def one(s):
        name = type(s).__name__
        shape = s.shape.as_list() if s.shape.rank is not None else None
        return [name, s.dtype.name, shape]

    return [str(tf.nest.map_structure(lambda s: 0, spec)), [one(s) for s in tf.nest.flatten(spec)]]


def error(stage, exc):
    return ["error", stage, type(exc).__name__]


# ---------------------------------------------------------------------- functions
def _args(fn):
    """A dataset function taking a tuple element as ``*args`` (as tf.data passes it)."""
    def wrapped(*a):
        return fn(a[0] if len(a) == 1 else tuple(a))
    return wrapped


def _first_num(tf, x):
    t = tf.nest.flatten(x)[0]
    if t.dtype == tf.string:
        t = tf.strings.length(t)
    return tf.cast(tf.reduce_sum(t), tf.int64)


def map_fn(tf, name, seed):
    def each(f):
        return lambda x: tf.nest.map_structure(lambda t: t if t.dtype == tf.string else f(t), x)

    if name == "double":
        return each(lambda t: t * 2)
    if name == "inc":
        return each(lambda t: t + 1)
    if name == "sq":
        return each(lambda t: t * t)
    if name == "noise_uniform":
        def f(t):
            if t.dtype.is_floating:
                return t + tf.random.uniform(tf.shape(t), dtype=t.dtype, seed=seed)
            return t + tf.random.uniform(tf.shape(t), maxval=5, dtype=t.dtype, seed=seed)
        return each(f)
    if name == "noise_normal":
        def f(t):
            return t + tf.cast(tf.random.normal(tf.shape(t), seed=seed) * 4, t.dtype)
        return each(f)
    if name == "stateless":
        def f(t):
            s = [seed or 3, 5]
            if t.dtype.is_floating:
                return t + tf.random.stateless_uniform(tf.shape(t), seed=s, dtype=t.dtype)
            return t + tf.random.stateless_uniform(tf.shape(t), seed=s, minval=0, maxval=5,
                                                   dtype=t.dtype)
        return each(f)
    if name == "generator":   # a Generator's state moves on from call to call, epoch to epoch
        g = tf.random.Generator.from_seed(seed or 1)

        def f(t):
            return t + tf.cast(g.uniform(tf.shape(t), maxval=4.0), t.dtype)
        return each(f)
    if name == "keras_seed":
        sg = tf.keras.random.SeedGenerator(seed or 1)

        def f(t):
            return t + tf.cast(tf.keras.random.uniform(tf.shape(t), maxval=4.0, seed=sg), t.dtype)
        return each(f)
    if name == "to_var":
        return lambda x: tf.range(tf.math.abs(_first_num(tf, x)) % 4)
    if name == "strlen":
        return lambda x: tf.strings.length(x)
    raise AssertionError(name)


def sub_fn(tf, name):
    """flat_map / interleave functions: an element to a dataset."""
    def count(x):
        return tf.math.abs(_first_num(tf, x)) % 3 + (1 if name == "enum" else 0)

    if name == "rep":
        return lambda x: tf.data.Dataset.from_tensors(x).repeat(count(x))
    return lambda x: tf.data.Dataset.range(count(x)).map(lambda i: (i, x))


def window_batch(tf, size):
    def f(*w):
        if len(w) > 1:
            return tf.data.Dataset.zip(tuple(w)).batch(size)
        w = w[0]
        if isinstance(w, dict):
            return tf.data.Dataset.zip(w).batch(size)
        return w.batch(size)
    return f


# ---------------------------------------------------------------------- pipelines
def build_source(tf, src, tmp):
    kind = src["src"]
    if kind == "range":
        return tf.data.Dataset.range(*src["args"])
    if kind == "slices":
        if src["kind"] == "int":
            v = np.array(src["values"], dtype=src["dtype"])
            if src["width"]:
                v = v.reshape(-1, src["width"])
            return tf.data.Dataset.from_tensor_slices(v)
        if src["kind"] == "float":
            return tf.data.Dataset.from_tensor_slices(np.array(src["values"], np.float32))
        ints = np.array(src["ints"], np.int32)
        floats = np.array(src["floats"], np.float32)
        if src["kind"] == "pair":
            return tf.data.Dataset.from_tensor_slices((ints, floats))
        return tf.data.Dataset.from_tensor_slices({"a": ints, "b": floats})
    if kind == "slices_str":
        return tf.data.Dataset.from_tensor_slices(list(src["lines"]) or tf.constant([], tf.string))
    if kind == "random":
        kw = {"rerandomize_each_iteration": src["rerandomize"]} if "rerandomize" in src else {}
        return tf.data.Dataset.random(seed=src["seed"], **kw).take(src["n"])
    if kind == "counter":
        return tf.data.Dataset.counter(src["start"], src["step"]).take(src["n"])
    if kind == "tensors":
        return tf.data.Dataset.from_tensors(np.array(src["values"], np.int64))
    if kind == "generator":
        values = list(src["values"])

        def gen():
            for v in values:
                yield np.int64(v)
        return tf.data.Dataset.from_generator(
            gen, output_signature=tf.TensorSpec(shape=(), dtype=tf.int64))
    if kind == "text":
        path = os.path.join(tmp, "lines.txt")
        with open(path, "w") as fh:
            fh.write("".join(line + "\n" for line in src["lines"]))
        return tf.data.TextLineDataset(path)
    parts = [build(tf, p, tmp) for p in src["parts"]]
    if kind == "zip":
        return tf.data.Dataset.zip(tuple(parts))
    if kind == "concatenate":
        return parts[0].concatenate(parts[1])
    if kind == "choose":
        choices = tf.data.Dataset.from_tensor_slices(np.array(src["choices"], np.int64))
        return tf.data.Dataset.choose_from_datasets(
            parts, choices, stop_on_empty_dataset=src["stop_on_empty"])
    if kind == "sample":
        kw = {"rerandomize_each_iteration": src["rerandomize"]} if "rerandomize" in src else {}
        return tf.data.Dataset.sample_from_datasets(
            parts, weights=src["weights"], seed=src["seed"],
            stop_on_empty_dataset=src["stop_on_empty"], **kw)
    raise AssertionError(kind)


def apply_op(tf, ds, op, tmp):
    name = op["op"]
    if name == "take":
        return ds.take(op["n"])
    if name == "skip":
        return ds.skip(op["n"])
    if name == "shuffle":
        kw = {}
        if "reshuffle" in op:
            kw["reshuffle_each_iteration"] = op["reshuffle"]
        return ds.shuffle(op["buffer"], seed=op["seed"], **kw)
    if name == "repeat":
        return ds.repeat(op["count"])
    if name == "map":
        kw = {}
        if "parallel" in op:
            kw["num_parallel_calls"] = tf.data.AUTOTUNE if op["parallel"] == -1 else op["parallel"]
            kw["deterministic"] = op["deterministic"]
        return ds.map(_args(map_fn(tf, op["fn"], op.get("seed"))), **kw)
    if name == "filter":
        m, r = op["m"], op["r"]
        return ds.filter(_args(lambda x: _first_num(tf, x) % m != r))
    if name == "batch":
        kw = {}
        if "parallel" in op:
            kw = {"num_parallel_calls": op["parallel"], "deterministic": op["deterministic"]}
        return ds.batch(op["size"], drop_remainder=op["drop"], **kw)
    if name == "padded_batch":
        if "shape" in op:
            pad = op["pad"]
            return ds.padded_batch(op["size"], padded_shapes=op["shape"],
                                   padding_values=None if pad is None else tf.constant(
                                       pad, ds.element_spec.dtype),
                                   drop_remainder=op["drop"])
        return ds.padded_batch(op["size"], drop_remainder=op["drop"])
    if name == "ragged_batch":
        return ds.ragged_batch(op["size"], drop_remainder=op["drop"])
    if name == "unbatch":
        return ds.unbatch()
    if name == "rebatch":
        return ds.rebatch(op["size"], drop_remainder=op["drop"])
    if name == "shard":
        return ds.shard(op["num"], op["index"])
    if name == "cache":
        return ds.cache()
    if name == "prefetch":
        return ds.prefetch(tf.data.AUTOTUNE if op["n"] == -1 else op["n"])
    if name == "enumerate":
        return ds.enumerate(op["start"])
    if name == "scan":
        def step(s, x):
            return s + _first_num(tf, x), (s, x)
        return ds.scan(tf.constant(0, tf.int64), lambda s, *x: step(s, x[0] if len(x) == 1 else x))
    if name == "window":
        return ds.window(op["size"], shift=op["shift"], stride=op["stride"],
                         drop_remainder=op["drop"]).flat_map(window_batch(tf, op["size"]))
    if name == "interleave":
        kw = {}
        if "parallel" in op:
            kw["num_parallel_calls"] = op["parallel"]
            kw["deterministic"] = op["deterministic"]
        return ds.interleave(_args(sub_fn(tf, op["fn"])), cycle_length=op["cycle"],
                             block_length=op["block"], **kw)
    if name == "flat_map":
        return ds.flat_map(_args(sub_fn(tf, op["fn"])))
    if name == "take_while":
        limit = op["limit"]
        return ds.take_while(_args(lambda x: _first_num(tf, x) < limit))
    if name == "apply":
        inner = op["inner"]
        return ds.apply(lambda d: apply_op(tf, d, inner, tmp))
    if name == "group_by_window":
        k, w = op["keys"], op["window"]
        return ds.group_by_window(
            key_func=_args(lambda x: tf.math.abs(_first_num(tf, x)) % k),
            reduce_func=lambda key, d: d.batch(w), window_size=w)
    if name == "bucket":
        return ds.bucket_by_sequence_length(
            lambda x: tf.cast(tf.shape(x)[0], tf.int32), op["bounds"], op["sizes"],
            pad_to_bucket_boundary=op["pad_to_bound"], drop_remainder=op["drop"])
    if name == "unique":
        return ds.unique()
    raise AssertionError(name)


def build(tf, pipeline, tmp):
    ds = build_source(tf, pipeline["src"], tmp)
    for op in pipeline["ops"]:
        ds = apply_op(tf, ds, op, tmp)
    return ds


# ---------------------------------------------------------------------- programs
def _reset(tf, seed):
    tf.random.set_seed(seed)


def run_data(program, tf):
    events = []
    with tempfile.TemporaryDirectory() as tmp:
        _reset(tf, program["seed_before"])
        try:
            ds = build(tf, program["pipeline"], tmp)
        except Exception as exc:   # noqa: BLE001 - the error's type is the result
            return [error("build", exc)]
        if program["seed_after"] is not None:
            tf.random.set_seed(program["seed_after"])
        try:
            events.append(["spec", enc_spec(tf, ds.element_spec)])
        except Exception as exc:   # noqa: BLE001
            events.append(error("spec", exc))
        try:
            events.append(["card", int(ds.cardinality())])
        except Exception as exc:   # noqa: BLE001
            events.append(error("card", exc))
        it = program["iterate"]
        mode = it["mode"]
        if mode == "epochs":
            for n in range(it["n"]):
                if n:
                    between = it["between"][n - 1]
                    if between == "draw":
                        events.append(["draw", enc_tensor(tf, tf.random.uniform([2]))])
                    elif between == "seed":
                        tf.random.set_seed(it["seed"])
                try:
                    out = [enc_element(tf, e) for e in itertools.islice(ds, ELEMENT_CAP)]
                    events.append(["epoch", out])
                except Exception as exc:   # noqa: BLE001
                    events.append(error("epoch", exc))
                    break
        elif mode == "next":
            try:
                its = [iter(ds), iter(ds)]
                for i in it["pattern"]:
                    try:
                        events.append(["next", i, enc_element(tf, next(its[i]))])
                    except StopIteration:
                        events.append(["next", i, "end"])
            except Exception as exc:   # noqa: BLE001
                events.append(error("next", exc))
        elif mode == "partial":
            try:
                first = iter(ds)
                events.append(["head", [enc_element(tf, e)
                                        for e in itertools.islice(first, it["k"])]])
                for _ in range(it["n"]):
                    events.append(["epoch", [enc_element(tf, e)
                                             for e in itertools.islice(ds, ELEMENT_CAP)]])
                events.append(["rest", [enc_element(tf, e)
                                        for e in itertools.islice(first, ELEMENT_CAP)]])
            except Exception as exc:   # noqa: BLE001
                events.append(error("partial", exc))
        elif mode == "numpy":
            try:
                out = []
                for e in itertools.islice(ds.as_numpy_iterator(), ELEMENT_CAP):
                    out.append([enc_tensor(tf, np.asarray(v)) if not isinstance(v, bytes)
                                else ["string", [], v.decode("latin-1")]
                                for v in tf.nest.flatten(e)])
                events.append(["numpy", out])
            except Exception as exc:   # noqa: BLE001
                events.append(error("numpy", exc))
        else:
            try:
                total = ds.take(ELEMENT_CAP).reduce(
                    tf.constant(0, tf.int64), lambda s, *x: s + _first_num(tf, x[0] if len(x) == 1 else x))
                events.append(["reduce", enc_tensor(tf, total)])
            except Exception as exc:   # noqa: BLE001
                events.append(error("reduce", exc))
    return events


def random_value(tf, step, gens, keras_gens, x=None):
    op, shape = step["op"], step["shape"]
    seed = step.get("seed")
    if op == "like_input":
        return tf.random.uniform(tf.shape(x), seed=seed)
    if op == "keras_int":
        return tf.keras.random.uniform(shape, seed=seed)
    if op == "uniform":
        return tf.random.uniform(shape, seed=seed)
    if op == "normal":
        return tf.random.normal(shape, seed=seed)
    if op == "truncated_normal":
        return tf.random.truncated_normal(shape, seed=seed)
    if op == "uniform_int":
        return tf.random.uniform(shape, maxval=100, dtype=tf.int32, seed=seed)
    if op == "shuffle":
        return tf.random.shuffle(tf.reshape(tf.range(6), [3, 2]), seed=seed)
    if op == "categorical":
        return tf.random.categorical(tf.math.log([[0.2, 0.3, 0.5]]), 4, seed=seed)
    if op == "stateless_uniform":
        return tf.random.stateless_uniform(shape, seed=seed)
    if op == "stateless_normal":
        return tf.random.stateless_normal(shape, seed=seed)
    if op == "gen":
        g = gens[step["id"]]
        return g.uniform(shape) if step["draw"] == "uniform" else g.normal(shape)
    if op == "keras":
        sg = keras_gens[step["id"]]
        f = tf.keras.random.uniform if step["draw"] == "uniform" else tf.keras.random.normal
        return f(shape, seed=sg)
    raise AssertionError(op)


def make_function(tf, step, gens, keras_gens):
    traces = []
    holder = {}

    def body(x):
        traces.append(1)
        outs = [x * 2]
        for op in step["body"]:
            outs.append(random_value(tf, op, gens, keras_gens, x))
        if step["variable"]:
            if "v" not in holder:
                holder["v"] = tf.Variable(tf.zeros([], tf.float32))
            holder["v"].assign_add(tf.reduce_sum(x))
            outs.append(holder["v"].read_value())
        return tuple(outs)

    kw = {}
    if step["signature"]:
        kw["input_signature"] = [tf.TensorSpec([None], tf.float32)]
    if step["reduce_retracing"]:
        kw["reduce_retracing"] = True
    return tf.function(body, **kw), traces


def run_random(program, tf):
    events = []
    _reset(tf, program["seed_first"])
    gens, keras_gens, fns = {}, {}, {}
    for step in program["steps"]:
        s = step["s"]
        try:
            if s == "seed":
                tf.random.set_seed(step["v"])
            elif s == "op":
                events.append(["value", enc_tensor(tf, random_value(tf, step, gens, keras_gens))])
            elif s == "gen_make":
                gens[step["id"]] = tf.random.Generator.from_seed(step["seed"])
            elif s == "keras_make":
                keras_gens[step["id"]] = tf.keras.random.SeedGenerator(step["seed"])
            elif s == "fn_def":
                fns[step["id"]] = make_function(tf, step, gens, keras_gens)
            elif s == "fn_call":
                f, traces = fns[step["id"]]
                x = tf.ones([step["n"]], tf.float32) * float(step["n"])
                out = f(x)
                events.append(["call", step["id"], [enc_tensor(tf, t) for t in out],
                               len(traces), f.experimental_get_tracing_count()])
        except Exception as exc:   # noqa: BLE001
            events.append(error(s, exc))
    return events


def run(program, tf):
    """The encoded events of ``program`` run with the module ``tf``."""
    if program["kind"] == "data":
        return run_data(program, tf)
    return run_random(program, tf)
