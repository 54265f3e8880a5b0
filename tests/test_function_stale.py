"""tf.function never replays a stale value (issue 23, section 2).

A trace replays NumPy calls; every read of tensor data into Python while tracing must be a guard
(the trace is redone when the value changes) or part of a recorded step. The source test below
makes that structural: op code reads a tensor argument's data only through
``_convert.host_value`` (a guard) or ``_convert.check_values`` (a validation recorded as a step);
any other data read of ``._value`` outside the engine fails it. The property test passes a
tensor for every argument that TensorFlow accepts as one, across the op table, and compares two
calls with other values against eager.
"""
from __future__ import annotations

import ast
import dataclasses
import gc
import inspect
import logging
import warnings
from pathlib import Path

import numpy as np
import pytest

import tapegrad as tf

PACKAGE = Path(tf.__file__).resolve().parent

# --------------------------------------------------------------------------- the source rule
# The engine: modules whose reads of ``_value`` are the machinery itself (the tensor and its
# guards, conversion, dispatch running forwards on arrays, the autodiff walks, the tracer and
# replay), or that run outside any trace. No op is declared or wrapped in them.
ENGINE = {
    "_tensor.py": "the Tensor: its numpy/__array__/__bool__/__int__ are the guards",
    "_variable.py": "the Variable: reads go through the recorders' read and escape hooks",
    "_backend.py": "Dask/CuPy arrays: a trace on them runs eagerly (never replayed)",
    "_convert.py": "conversion, and the two readers host_value and check_values",
    "_dispatch.py": "runs each op's NumPy forward on its inputs' arrays",
    "_tape.py": "the tape", "_walk.py": "the backward walk", "_jacobian.py": "Jacobians",
    "_forward.py": "forward mode", "_vmap.py": "vectorized_map's batching",
    "_trace.py": "the tracer and the replay", "_function.py": "tf.function itself",
    "_custom.py": "custom_gradient: made per call, so its traces run eagerly",
    "_functional.py": "the functional autodiff API (jacobians of whole functions)",
    "_numpy_interop.py": "NumPy's protocols: every read is an escape the recorders see",
    "_pyfunc.py": "numpy_function: its call is a step of the trace",
    "diagnosis.py": "diagnosis of a tape, eager only", "visualize.py": "tape pictures, eager only",
    "test.py": "tf.test assertions, eager only",
    "optimizers/optimizer.py": "apply_gradients is one replayable step (_trace.replayable)",
    "data/_dataset.py": "tf.data runs its pipeline in Python, outside traces",
    "data/_structure.py": "tf.data's element structures",
    "compat/_program.py": "a TF1 graph's recorder, and Session.run replaying its steps on fed arrays",
}
# Functions of the op library whose data reads are no control input (each says why).
ALLOWED = {
    ("ops/math.py", "zeros_like"): "passes a backend's array to _bk.filled for its shape and device",
    ("ops/math.py", "ones_like"): "passes a backend's array to _bk.filled for its shape and device",
    ("ops/random.py", "kernel_draw"): "the draw itself: _trace.draw records it as a step",
    ("ops/random.py", "_draw"): "a Generator's eager draw (in a trace: Tracer.draw_from's step)",
    ("keras/backend.py", "on_variable_assign"): "a recorder restoring Variables after Keras's stateless calls",
    ("saved_model/_load.py", "run"): "a restored tf.function replays its saved trace on its inputs' arrays",
    ("experimental/dtensor.py", "unpack"): "eager only (raises in a tf.function, as TF's): cuts the global value into components",
    ("experimental/dtensor.py", "pack"): "eager only (as unpack): checks that replicated components are equal",
    ("experimental/dtensor.py", "__init__"): "a component shares its tensor's array (no read)",
    ("compat/_graph.py", "resource"): "a TF1 SavedModel export writes a placeholder's default (outside any trace)",
}
READERS = {("_convert.py", "host_value"), ("_convert.py", "check_values")}
# attributes and functions that read an array's metadata, not its data
META_ATTRS = {"shape", "ndim", "dtype", "size", "itemsize", "nbytes", "backend"}
META_CALLS = {"len", "type", "isinstance", "id", "shape", "ndim"}


def _meta_use(node: ast.AST, parent: dict) -> bool:
    p = parent.get(id(node))
    if isinstance(p, ast.Attribute) and p.attr in META_ATTRS:
        return True
    if isinstance(p, ast.Call) and node in p.args:
        f = p.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        return name in META_CALLS
    return False


def _data_reads(path: Path) -> list[tuple[int, str]]:
    """(line, function) of every data read of ``._value`` in ``path``: a read whose array is
    used for more than its metadata (directly, or through a local name it was assigned to)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parent = {id(c): n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}

    def func_of(node: ast.AST) -> ast.AST | None:
        while id(node) in parent:
            node = parent[id(node)]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return node
        return None

    out = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and node.attr == "_value" and isinstance(node.ctx, ast.Load)):
            continue
        if isinstance(node.value, ast.Name) and node.value.id == "self":
            continue  # (a class's own attribute: op code never holds a tensor as ``self``)
        if _meta_use(node, parent):
            continue
        fn = func_of(node)
        p = parent.get(id(node))
        if isinstance(p, ast.Tuple):
            p = parent.get(id(p))
        if isinstance(p, ast.Assign) and fn is not None:  # ``v = t._value``: judge v's uses
            names = {t.id for t in ast.walk(ast.Module(body=[ast.Expr(t) for t in p.targets], type_ignores=[]))
                     if isinstance(t, ast.Name)}
            uses = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id in names
                    and isinstance(n.ctx, ast.Load)]
            if names and all(_meta_use(u, parent) for u in uses):
                continue
        out.append((node.lineno, fn.name if fn is not None else "<module>"))
    return out


def test_tensor_data_is_read_only_through_the_guarded_reader() -> None:
    """No module outside the engine reads a tensor's data except through ``host_value`` (a
    guard) or ``check_values`` (a recorded validation); a new op that does fails here."""
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel in ENGINE:
            continue
        for line, fn in _data_reads(path):
            if (rel, fn) not in ALLOWED and (rel, fn) not in READERS:
                bad.append(f"tapegrad/{rel}:{line} in {fn}()")
    assert not bad, ("these read a tensor's data with ._value; read an argument that steers the op "
                     "with _convert.host_value (a tf.function guard), validate values with "
                     "_convert.check_values, or compute with ops:\n" + "\n".join(bad))


def test_engine_modules_declare_no_ops() -> None:
    """The engine's exemption covers no op: none of its modules declares one with defop."""
    for rel in ENGINE:
        tree = ast.parse((PACKAGE / rel).read_text(encoding="utf-8"))
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                 and n.func.id == "defop"]
        assert not calls or rel in ("_dispatch.py", "_custom.py"), rel


def test_the_scan_catches_a_stale_read(tmp_path: Path) -> None:
    """The rule sees the reads that made replays stale, and lets metadata and aliases of it pass."""
    src = tmp_path / "op.py"
    src.write_text(
        "import numpy as np\n"
        "def pad(x, paddings):\n"
        "    pads = np.asarray(paddings._value)\n"          # data: flagged
        "    n = x._value.shape[0]\n"                        # metadata
        "    v = x._value\n"                                 # alias used for metadata only
        "    return v.ndim, type(v), len(x._value), n, pads\n"
        "def rot(x, k):\n"
        "    v = k._value\n"                                 # alias used as data: flagged
        "    return int(v)\n")
    assert sorted(_data_reads(src)) == [(3, "pad"), (8, "rot")]


# --------------------------------------------------------------------------- the property
# The arguments, by name, that steer an op and that TensorFlow takes as a tensor (an op input): the
# functions of these namespaces that have one are found from their signatures, so a new op with
# such an argument is tested (or must be listed in UNREACHED below) without anyone adding it here.
NAMESPACES = {"tf": tf, "math": tf.math, "linalg": tf.linalg, "image": tf.image, "signal": tf.signal, "nn": tf.nn}
TENSOR_ARGS = {
    "axis", "axes", "dims", "paddings", "k", "shape", "size", "fft_length", "frame_length", "frame_step",
    "num_segments", "depth", "maxlen", "multiples", "begin", "end", "perm", "shift", "repeats", "num",
    "num_rows", "num_columns", "block_shape", "crops", "num_lower", "num_upper", "seq_axis", "batch_axis",
    "seq_lengths", "num_or_size_splits", "padding_value", "lengths", "num_samples", "sample_rate", "beta",
    "central_fraction", "target_height", "target_width", "offset_height", "offset_width", "batch_dims",
    "constant_values", "delta", "gamma", "limit", "start"}


def _pair_values(p: str, r: int) -> tuple | None:
    """Two valid values of argument ``p`` for an input of rank ``r`` (None: none known)."""
    last = r - 1
    table = {
        "axis": (0, last) if r > 1 else (0, -1), "axes": ([0], [last]) if r > 1 else None,
        "dims": ([0], [last]) if r > 1 else None, "k": (0, 1), "shift": (1, 2),
        "paddings": ([[1, 0]] * r, [[0, 2]] * r), "constant_values": (0.0, 2.0), "padding_value": (0.0, 2.0),
        "size": ([2, 2], [3, 2]) if r >= 3 else ([2], [3]), "shape": ([-1], [2, -1]),
        "fft_length": ([6], [4]), "frame_length": (2, 3), "frame_step": (1, 2), "num_segments": (3, 4),
        "depth": (3, 4), "maxlen": (3, 5), "multiples": ([1] * r, [2] + [1] * last),
        "begin": ([0] * r, [1] * r), "end": ([2] * r, [3] * r), "perm": (list(range(r)), list(range(r))[::-1]),
        "repeats": (1, 2), "num": (3, 5), "num_rows": (2, 3), "num_columns": (2, 3), "num_lower": (0, 1),
        "num_upper": (0, 1), "num_or_size_splits": (2, [1, 3]), "batch_dims": (0, 1), "delta": (0.1, 0.2),
        "gamma": (1.0, 2.0), "beta": (1.0, 2.0), "central_fraction": (0.5, 0.75),
        "sample_rate": (8000.0, 16000.0), "target_height": (2, 3), "target_width": (2, 3),
        "offset_height": (0, 1), "offset_width": (0, 1), "limit": (3, 5), "start": (0, 1),
        "block_shape": ([2], [1]), "seq_lengths": ([1, 2, 3, 4], [4, 3, 2, 1]), "lengths": ([1, 2], [2, 3]),
        "seq_axis": (1, 1), "batch_axis": (0, 0), "num_samples": (2, 3)}
    return table.get(p)


# values for the other required arguments, by name, given the input ``x``
_OTHER = {
    "segment_ids": lambda x: tf.constant(np.minimum(np.arange(x.shape[0]) // 2, 10), tf.int32),
    "indices": lambda x: tf.constant([0, 1], tf.int32), "seq_lengths": lambda x: tf.constant([1] * x.shape[0]),
    "frame_length": lambda x: 2, "frame_step": lambda x: 1, "k": lambda x: 1, "num_segments": lambda x: 3,
    "size": lambda x: [2, 2], "target_height": lambda x: 2, "target_width": lambda x: 2,
    "offset_height": lambda x: 0, "offset_width": lambda x: 0, "delta": lambda x: 0.1, "depth": lambda x: 3,
    "multiples": lambda x: [1] * len(x.shape), "begin": lambda x: [0] * len(x.shape), "shape": lambda x: [-1],
    "num": lambda x: 3, "stop": lambda x: 1.0, "limit": lambda x: 3, "gamma": lambda x: 1.0, "beta": lambda x: 1.0,
    "diagonal": lambda x: x[..., 0] if len(x.shape) > 1 else x, "lengths": lambda x: tf.constant([1, 2]),
    "maxlen": lambda x: 3, "num_rows": lambda x: 3, "paddings": lambda x: [[0, 1]] * len(x.shape),
    "fft_length": lambda x: [4], "central_fraction": lambda x: 0.5, "num_lower": lambda x: 0,
    "num_upper": lambda x: 0, "dims": lambda x: [0], "block_shape": lambda x: [1], "seq_axis": lambda x: 1,
    "batch_axis": lambda x: 0, "repeats": lambda x: 2, "axis": lambda x: 0, "shift": lambda x: 1,
    "perm": lambda x: list(range(len(x.shape)))[::-1], "end": lambda x: [2] * len(x.shape),
    "sample_rate": lambda x: 8000.0, "num_samples": lambda x: 2, "num_or_size_splits": lambda x: 2,
    "value": lambda x: 1.0, "y": lambda x: x, "b": lambda x: x, "clip_norm": lambda x: 1.0,
    "window_length": lambda x: 8}

# Found in the signatures, but not reached by the generic inputs above (a required argument they
# do not know, an input of a kind they do not make). Each op's own tests cover it; the list is
# exact, so a new op's argument is either reached or written here.
UNREACHED = {
    "tf.constant:shape", "tf.ensure_shape:shape", "tf.print:end",
    "image.pad_to_bounding_box:offset_height", "image.pad_to_bounding_box:offset_width",
    "image.pad_to_bounding_box:target_height", "image.pad_to_bounding_box:target_width",
    "image.stateless_random_crop:size", "tf.batch_to_space:block_shape", "tf.batch_to_space:crops",
    "tf.space_to_batch:block_shape", "tf.space_to_batch:paddings", "tf.space_to_batch_nd:block_shape",
    "tf.space_to_batch_nd:paddings", "tf.unstack:num", 
    "linalg.lu_matrix_inverse:perm", "linalg.lu_solve:perm",
    "tf.boolean_mask:axis", "tf.gather_nd:batch_dims", "tf.reverse_sequence:batch_axis",
    "tf.reverse_sequence:seq_lengths", "tf.scatter_nd:shape", "tf.unravel_index:dims", 
    "nn.batch_norm_with_global_normalization:beta", "nn.batch_norm_with_global_normalization:gamma",
    "nn.moments:shift", "nn.normalize_moments:shift", "nn.sufficient_statistics:shift",
    "nn.softmax_cross_entropy_with_logits:axis", "nn.weighted_moments:axes", "math.bincount:axis",
    "signal.inverse_stft:fft_length", 
    "signal.inverse_stft_window_fn:frame_step", "signal.mdct:frame_length", "signal.stft:fft_length",
    "math.in_top_k:k", "tf.norm:axis", "linalg.normalize:axis", "nn.sufficient_statistics:axes",
    "tf.make_tensor_proto:shape",   # (a protobuf helper of Python values: no op, nothing traced)
}


# arguments the generic inputs miss, with a call of their own: ``label -> (call(a), A, B)``
_M = tf.reshape(tf.range(24.0), [4, 6])
_SPECIAL = {
    "tf.zeros:shape": (lambda a: tf.zeros(a), [2], [3, 1]), "tf.ones:shape": (lambda a: tf.ones(a), [2], [3, 1]),
    "tf.fill:dims": (lambda a: tf.fill(a, 2.0), [2], [3, 1]),
    "tf.required_space_to_batch_paddings:block_shape": (
        lambda a: tf.required_space_to_batch_paddings([4, 6], a)[0], [2, 2], [3, 4]),
    "tf.broadcast_to:shape": (lambda a: tf.broadcast_to(_M[0], a), [6], [2, 6]),
    "tf.reverse:axis": (lambda a: tf.reverse(_M, a), [0], [1]),
    "tf.range:limit": (lambda a: tf.range(0, a), 3, 5), "tf.range:delta": (lambda a: tf.range(0, 6, a), 1, 2),
    "tf.eye:num_columns": (lambda a: tf.eye(2, a), 2, 3),
    "tf.tensordot:axes": (lambda a: tf.tensordot(_M[:, :4], _M[:4, :4], a), 1, 2),
    "signal.kaiser_window:beta": (lambda a: tf.signal.kaiser_window(6, a), 1.0, 2.0),
    "signal.kaiser_bessel_derived_window:beta": (lambda a: tf.signal.kaiser_bessel_derived_window(6, a), 1.0, 2.0),
    "signal.dct:axis": (lambda a: tf.signal.dct(_M, axis=a), -1, -1),  # (TF's only axis)
    "signal.idct:axis": (lambda a: tf.signal.idct(_M, axis=a), -1, -1),
    "signal.rfft2d:fft_length": (lambda a: tf.signal.rfft2d(_M, a), [4, 6], [2, 3]),
    "signal.rfft3d:fft_length": (lambda a: tf.signal.rfft3d(tf.reshape(_M, [2, 3, 4]), a), [2, 3, 4], [2, 2, 2]),
    "signal.irfft2d:fft_length": (lambda a: tf.signal.irfft2d(tf.complex(_M, _M), a), [4, 10], [2, 4]),
    "signal.irfft3d:fft_length": (
        lambda a: tf.signal.irfft3d(tf.complex(tf.reshape(_M, [2, 3, 4]), 1.0), a), [2, 3, 6], [2, 2, 2]),
}


def _templates() -> list:
    r = np.random.default_rng(0)

    def f(*s: int) -> tf.Tensor:
        return tf.constant(r.uniform(0.1, 1.0, s).astype(np.float32))
    return [f(6), f(4, 6), f(4, 4, 3), f(2, 4, 4, 3), f(1, 4, 1), tf.constant([0, 1, 2, 1]),
            tf.constant(r.uniform(size=(4, 6)) > 0.5), tf.complex(f(4, 6), f(4, 6)), f(8, 8)]


def _tensor_arg_pairs() -> dict:
    """``"namespace.name:argument" -> (function, signature)`` for every public function with an
    argument in TENSOR_ARGS (one entry per function object)."""
    out, seen = {}, set()
    for ns, mod in NAMESPACES.items():
        for name in sorted(dir(mod)):
            fn = getattr(mod, name, None)
            if name.startswith("_") or not inspect.isfunction(fn):
                continue
            sig = inspect.signature(fn)
            for p in sig.parameters:
                if p in TENSOR_ARGS and (fn, p) not in seen:
                    seen.add((fn, p))
                    out[f"{ns}.{name}:{p}"] = (fn, sig)
    return out


def _arrays(out: object) -> list | None:
    leaves = tf.nest.flatten(out)
    if not leaves or not all(isinstance(t, tf.Tensor) for t in leaves):
        return None
    return [np.asarray(t) for t in leaves]


def _same(a: list, b: list, shapes_only: bool = False) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if x.shape != y.shape or x.dtype != y.dtype:
            return False
        if shapes_only:
            continue
        if x.dtype.kind in "OSUb" or x.dtype.kind in "iu":
            if not np.array_equal(x, y):
                return False
        elif not np.allclose(x, y, rtol=1e-6, atol=1e-6, equal_nan=True):  # (same kernels: exact but for fusing)
            return False
    return True


def _call_for(fn: object, sig: inspect.Signature, p: str, x: tf.Tensor) -> object | None:
    """``call(a)``: ``fn`` with ``x`` as its first required argument (other than ``p``), ``p=a``
    and the other required arguments from _OTHER; None if one is unknown."""
    kwargs: dict = {}
    first = True
    for q in sig.parameters.values():
        if q.name == p or q.kind in (q.VAR_POSITIONAL, q.VAR_KEYWORD) or q.default is not q.empty:
            continue
        if first:
            kwargs[q.name], first = x, False
        elif q.name in _OTHER:
            kwargs[q.name] = _OTHER[q.name](x)
        else:
            return None
    return lambda a: fn(**kwargs, **{p: a})


def _reach(fn: object, sig: inspect.Signature, p: str) -> tuple | None:
    """(call, A, B) for the first input template under which ``fn`` runs eagerly with ``p`` given
    as a tensor of value A and of value B, preferring one where the results differ."""
    fallback = None
    for x in _templates():
        vals = _pair_values(p, len(x.shape))
        call = _call_for(fn, sig, p, x)
        if vals is None or call is None:
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ra, rb = (_arrays(call(tf.constant(v))) for v in vals)
        except Exception:  # noqa: BLE001 (this template does not fit the op: try the next)
            continue
        if ra is None or rb is None:
            continue
        if not _same(ra, rb):
            return call, vals, ra, rb
        fallback = fallback or (call, vals, ra, rb)
    return fallback


def test_every_tensor_argument_replays_each_calls_value() -> None:
    """For every op argument TF takes as a tensor: two tf.function calls with other tensor values
    (then the first again) give eager's results, and the function is replayed, not run eagerly."""
    logging.getLogger("tensorflow").disabled = True  # (the retracing warning: functions made in a loop)
    pairs = _tensor_arg_pairs()
    reached, stale, eager = set(), [], []
    try:
        for label, (fn, sig) in sorted(pairs.items()):
            p = label.split(":")[1]
            if label in _SPECIAL:
                call, a, b = _SPECIAL[label]
                got = call, (a, b), _arrays(call(tf.constant(a))), _arrays(call(tf.constant(b)))
            else:
                got = _reach(fn, sig, p)
            if got is None:
                continue
            reached.add(label)
            call, (a, b), ra, rb = got
            random = "random" in label or "dropout" in label  # (fresh draws: compare shapes)
            f = tf.function(lambda t: call(t))
            with warnings.catch_warnings(record=True) as seen:
                warnings.simplefilter("always")
                try:
                    fa, fb, fa2 = (_arrays(f(tf.constant(v))) for v in (a, b, a))
                except Exception as e:
                    raise AssertionError(label) from e
            if not (_same(fa, ra, random) and _same(fb, rb, random) and _same(fa2, ra, random)):
                stale.append(label)
            eager += [f"{label}: {w.message}" for w in seen if "runs eagerly" in str(w.message)]
    finally:
        logging.getLogger("tensorflow").disabled = False
    assert not stale, f"tf.function results differ from eager's: {stale}"
    assert set(pairs) - reached == UNREACHED, (
        "update UNREACHED (or teach _OTHER/_pair_values the new argument): "
        f"newly unreached {sorted(set(pairs) - reached - UNREACHED)}, now reached {sorted(UNREACHED & reached)}")
    assert len(reached) >= 120, len(reached)
    assert not eager, eager


# --------------------------------------------------------------------------- checks, random ops
def test_value_checks_run_at_every_call_without_retracing() -> None:
    """An index check is a step of the trace (as TF's kernel checks at run time): new valid
    indices replay the one trace, an out-of-range one raises TF's error at that call."""
    params = tf.reshape(tf.range(12.0), [4, 3])

    @tf.function
    def f(i):
        return tf.gather(params, i)

    for i in ([0, 1], [3, 2], [1, 1]):
        assert f(tf.constant(i)).numpy().tolist() == params.numpy()[i].tolist()
    assert f.experimental_get_tracing_count() == 1 and len(next(iter(f._cache.values())).programs) == 1
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = 4 is not in \[0, 4\)"):
        f(tf.constant([0, 4]))
    assert f(tf.constant([2, 0])).numpy()[0].tolist() == [6.0, 7.0, 8.0]


def test_output_structure_follows_each_trace_of_one_signature() -> None:
    """``tf.unstack(x, axis=t)`` gives 4 or 6 tensors by t's value: each trace keeps its own."""
    x = tf.ones([4, 6])
    f = tf.function(lambda a: tf.unstack(x, axis=a))
    assert [len(f(tf.constant(a))) for a in (0, 1, 0, 1)] == [4, 6, 4, 6]


def test_random_image_ops_draw_at_every_replay() -> None:
    """random_flip_* and random_crop compute with ops on their draws: a tf.function replays
    them (no eager fallback) and each call draws afresh."""
    x = tf.reshape(tf.range(16.0), [4, 4, 1])
    flip = tf.function(lambda t: tf.image.random_flip_left_right(t))
    crop = tf.function(lambda t: tf.image.random_crop(t, [2, 2, 1]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        flips = {tuple(flip(x).numpy().ravel()) for _ in range(30)}
        crops = {tuple(crop(x).numpy().ravel()) for _ in range(60)}
    assert flips == {tuple(x.numpy().ravel()), tuple(x.numpy()[:, ::-1].ravel())}
    assert len(crops) == 9  # (every 2x2 window of the 4x4 image)


def test_generator_binomial_follows_its_tensor_arguments() -> None:
    g = tf.random.Generator.from_seed(1)
    f = tf.function(lambda p: g.binomial([4], counts=tf.constant(5.0), probs=p))
    assert f(tf.constant(0.0)).numpy().tolist() == [0] * 4
    assert f(tf.constant(1.0)).numpy().tolist() == [5] * 4


# --------------------------------------------------------------------------- arguments and Variables
def test_unhashable_arguments_raise_tensorflows_type_error() -> None:
    """A mutable argument keyed by id() gave another call's trace; TF refuses it (and so does
    tapegrad), while a frozen dataclass is keyed by its value."""
    @dataclasses.dataclass
    class Scale:
        k: float

    @dataclasses.dataclass(frozen=True)
    class Frozen:
        k: float

    f = tf.function(lambda x, c: x * c.k)
    for arg in (Scale(2.0), {1.0}, bytearray(b"x")):
        with pytest.raises(TypeError, match="Could not generate a generic TraceType for .*immutable/hashable"):
            f(tf.constant(1.0), arg)
    assert [float(f(tf.constant(1.0), Frozen(k))) for k in (2.0, 3.0, 2.0)] == [2.0, 3.0, 2.0]
    assert f.experimental_get_tracing_count() == 2


def test_a_variable_made_on_a_retrace_raises_at_its_line() -> None:
    log = []

    @tf.function
    def f(x):
        log.append("start")
        tf.Variable(1.0)  # the line the error names
        log.append("after")
        return x + tf.constant(1, tf.int32)  # (a dtype error for a float x: never reached)

    f(tf.constant(1, tf.int32))
    log.clear()
    with pytest.raises(ValueError, match="only supports singleton tf.Variables created on the first call") as e:
        f(tf.constant(1.0))
    assert log == ["start"]
    frame = [fr for fr in traceback_frames(e.value) if fr.name == "f"][-1]
    assert "tf.Variable(1.0)" in frame.line

    @tf.function
    def g(x):  # no Variable on its first trace, one on the next: TF's other message
        if x.shape.rank:
            tf.Variable(1.0)
        return x

    g(tf.constant(1.0))
    with pytest.raises(ValueError, match="Creating variables on a non-first call to a function decorated with tf.function"):
        g(tf.constant([1.0]))


def traceback_frames(exc: BaseException) -> list:
    import traceback
    return traceback.extract_tb(exc.__traceback__)


def test_variables_passed_as_arguments_share_a_trace_and_are_not_kept() -> None:
    """Keyed by TF's VariableSpec (shape, dtype, aliasing): a dropped Variable is freed, and a
    function returning its argument returns each call's own Variable."""
    import weakref

    @tf.function
    def f(v):
        v.assign_add(tf.ones_like(v))
        return v

    refs = []
    for i in range(5):
        v = tf.Variable(np.full(1000, float(i), np.float32))
        assert f(v) is v and float(v[0]) == i + 1.0
        refs.append(weakref.ref(v))
        del v
    gc.collect()
    assert all(r() is None for r in refs)
    assert f.experimental_get_tracing_count() == 1

    g = tf.function(lambda v, w: v + w)
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    assert [float(g(*p)) for p in ((a, b), (b, a), (a, a), (b, b))] == [3.0, 3.0, 2.0, 4.0]
    assert g.experimental_get_tracing_count() == 2  # (aliased arguments are another signature)


def test_the_cache_keeps_the_most_recently_used_keys() -> None:
    """Beyond MAX_TRACES keys the least recently used trace is dropped (a call with its key
    traces again); the trace that made the function's Variables is kept."""
    from tapegrad import _function
    state, traced = [], []
    logging.getLogger("tensorflow").disabled = True
    try:
        @tf.function
        def f(x, n):
            traced.append(n)
            if not state:
                state.append(tf.Variable(0.0))
            return x * n + state[0]

        n = _function.MAX_TRACES + 20
        for i in range(n):
            assert float(f(tf.constant(1.0), i)) == i
        assert len(f._cache) == _function.MAX_TRACES
        assert float(f(tf.constant(1.0), 0)) == 0.0 and traced.count(0) == 1  # (pinned: made the Variable)
        assert float(f(tf.constant(1.0), 1)) == 1.0 and traced.count(1) == 2  # (dropped: traced again)
        assert f.experimental_get_tracing_count() == n + 1  # (TF's count: one per signature, two for the first, which made the Variable)
    finally:
        logging.getLogger("tensorflow").disabled = False


def test_retracing_warns_on_the_tensorflow_logger(caplog: pytest.LogCaptureFixture) -> None:
    def body(n):
        return tf.constant(n)

    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        for i in range(4):
            tf.function(body)(i)  # (made in a loop: one Python function, counted together)
        assert not caplog.records
        tf.function(body)(4)
    assert [r.getMessage().split(" triggered")[0] for r in caplog.records] == [
        f"5 out of the last 5 calls to {body!r}"]
