"""tf.string tensors and tf.strings: every case of tests/strings_cases.py against TensorFlow's
recorded results (tests/fixtures/tf_strings.json, from tools/record_tf_strings.py), plus the
behaviour the fixture cannot show (immutability, gradients, bad input, tf.function, tf.data)."""
import json
import pathlib
import sys

import numpy as np
import pytest

import tapegrad as tf
import tapegrad.strings  # noqa: F401

sys.path.insert(0, str(pathlib.Path(__file__).parent.parent / "tools"))
import strings_cases as sc  # noqa: E402
import strings_unicode_cases as uc  # noqa: E402
from record_tf_strings import printed  # noqa: E402

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "tf_strings.json").read_text())


@pytest.mark.parametrize("name", sorted(sc.CASES))
def test_matches_tensorflow(name):
    with pytest.warns(UserWarning) if name == "watch_string" else _nothing():
        got = sc.run(sc.CASES[name], tf, np)
    assert got == FIXTURE["cases"][name]


@pytest.mark.parametrize("name", sorted(sc.PRINTS))
def test_print_matches_tensorflow(name):
    assert printed(tf, eval(sc.PRINTS[name], {"tf": tf})) == FIXTURE["prints"][name]


@pytest.mark.parametrize("name", sorted(sc.REPRS))
def test_repr_matches_tensorflow(name):
    assert repr(eval(sc.REPRS[name], {"tf": tf})).split(":", 1)[1] == FIXTURE["reprs"][name]


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_every_tf_strings_function_has_a_fixture_case():
    names = [n for n in tf.strings.__dict__ if not n.startswith("_") and callable(getattr(tf.strings, n))]
    text = " ".join(sc.CASES.values()) + " ".join(uc.CASES.values())  # (Unicode: tests/test_strings_unicode.py)
    missing = [n for n in names if n != "RaggedTensor" and f"tf.strings.{n}(" not in text]
    assert not missing


def test_values_are_object_arrays_of_bytes():
    t = tf.constant(["a", "é"])
    v = t.numpy()
    assert v.dtype == object and [type(e) for e in v] == [bytes, bytes]
    v[0] = b"z"  # (numpy() is a copy, as TensorFlow's: the tensor keeps its value)
    assert t.numpy()[0] == b"a"
    assert type(tf.constant("a").numpy()) is bytes
    assert tf.string.size == 0 and tf.string.as_numpy_dtype is object and not tf.string.is_numeric
    assert tf.constant(["x"]).dtype == tf.string and tf.as_dtype(np.dtype(object)) == tf.string


def test_numpy_text_arrays_convert():
    assert tf.constant(np.array(["ab", "c"])).numpy().tolist() == [b"ab", b"c"]
    assert tf.constant(np.array([b"ab"])).numpy().tolist() == [b"ab"]
    assert tf.constant(["é", b"\xff"]).numpy().tolist() == ["é".encode(), b"\xff"]


def test_strings_carry_no_gradient():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        s = tf.strings.as_string(x)
        y = tf.strings.to_number(s) * x
    assert tape.gradient(y, x).numpy() == 2.0  # only the direct path: the text path is constant


def test_bad_input_says_what_to_do():
    with pytest.raises(tf.errors.InvalidArgumentError, match="takes a string tensor.*as_string"):
        tf.strings.length([1, 2])
    with pytest.raises(ValueError, match="mixed types"):
        tf.constant(["a", 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Sub does not accept a string"):
        tf.constant("a") - "b"
    assert tf.strings.split([["a b"]]).to_list() == [[[b"a", b"b"]]]  # (rank 2: ragged rank 2, as TF)
    with pytest.raises(tf.errors.InvalidArgumentError, match="attr 'unit'"):
        tf.strings.length("a", unit="CHAR")
    with pytest.raises(tf.errors.InvalidArgumentError, match="could not correctly convert string: 1x"):
        tf.strings.to_number("1x")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid pattern"):
        tf.strings.regex_full_match("a", "(")
    with pytest.raises(tf.errors.InvalidArgumentError, match="AddN does not accept string"):
        tf.add_n([tf.constant("a"), tf.constant("b")])


def test_ragged_tensor_basics():
    r = tf.strings.split(["a b c", "", "d"])
    assert int(r.nrows()) == 3 and r.shape.as_list() == [3, None] and r.dtype == tf.string
    assert r.nrows().numpy() == 3 and r.row_lengths().numpy().tolist() == [3, 0, 1]
    assert r[-1].numpy().tolist() == [b"d"] and [t.numpy().tolist() for t in r][1] == []
    assert [list(a) for a in r.numpy()] == [[b"a", b"b", b"c"], [], [b"d"]]
    assert repr(r) == "<tf.RaggedTensor [[b'a', b'b', b'c'], [], [b'd']]>"
    same = tf.RaggedTensor.from_row_splits(r.values, r.row_splits)
    assert same.to_list() == r.to_list()
    with pytest.raises(tf.errors.InvalidArgumentError, match="row_splits"):  # (as TensorFlow)
        tf.RaggedTensor.from_row_splits(["a"], [0, 2])
    codes = tf.strings.unicode_decode(["ab", "c"], "UTF-8").to_tensor()
    assert codes.numpy().tolist() == [[97, 98], [99, 0]] and codes.dtype == tf.int32


def test_text_classification_pipeline_in_a_function():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def featurize(lines):
        words = tf.strings.split(tf.strings.regex_replace(tf.strings.lower(lines), r"[^a-z ]", ""))
        return tf.strings.to_hash_bucket_fast(words.to_tensor(default_value="<pad>"), 50)

    a = featurize(tf.constant(["The cat!", "A dog, ran"]))
    b = featurize(tf.constant(["the CAT", "a dog ran"]))
    assert a.shape == (2, 3) and a.dtype == tf.int64
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    pad = tf.strings.to_hash_bucket_fast("<pad>", 50).numpy()
    assert a.numpy()[0, 2] == pad


def test_ragged_results_in_a_function_follow_each_call():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def f(x):
        r = tf.strings.split(x)
        return r.to_tensor(default_value="-"), r.row_lengths(), r[1]

    f(tf.constant(["a b", "c"]))
    dense, lengths, row = f(tf.constant(["a", "b c d"]))
    assert dense.numpy().tolist() == [[b"a", b"-", b"-"], [b"b", b"c", b"d"]]
    assert lengths.numpy().tolist() == [1, 3] and row.numpy().tolist() == [b"b", b"c", b"d"]


def test_dataset_of_lines():
    ds = tf.data.Dataset.from_tensor_slices(["b a", "c"]).map(lambda s: tf.strings.split(s))
    assert ds.element_spec.dtype == tf.string
    first = next(iter(ds))
    assert isinstance(first, tf.Tensor) and first.numpy().tolist() == [b"b", b"a"]
    batched = tf.data.Dataset.from_tensor_slices(["a b", "c"]).batch(2).map(tf.strings.split)
    assert next(iter(batched)).to_list() == [[b"a", b"b"], [b"c"]]  # (a RaggedTensor element, as TF)
    spec = batched.element_spec  # (map's spec: the first element's, docs/data.md)
    assert isinstance(spec, tf.RaggedTensorSpec) and spec.ragged_rank == 1 and spec.dtype == tf.string
    labels = tf.data.Dataset.from_tensor_slices((["x", "y"], [0, 1])).batch(2)
    text, y = next(iter(labels))
    assert text.dtype == tf.string and text.shape == (2,) and y.numpy().tolist() == [0, 1]


def test_tf_strings_namespace_errors_name_the_missing_function():
    with pytest.raises(AttributeError, match="tapegrad.strings"):  # (every TF name exists: a typo)
        tf.strings.unicode_transcod  # noqa: B018


def test_text_line_dataset(tmp_path):
    import gzip
    (tmp_path / "a.txt").write_bytes(b"a b\r\nsecond\n\nlast")
    (tmp_path / "b.txt").write_bytes(b"x\n")
    (tmp_path / "c.gz").write_bytes(gzip.compress(b"g1\ng2\n"))
    a, b, c = (str(tmp_path / n) for n in ("a.txt", "b.txt", "c.gz"))
    ds = tf.data.TextLineDataset([a, b])
    # (TensorFlow 2.21 gives these lines, this repr and an unknown cardinality)
    assert list(ds.as_numpy_iterator()) == [b"a b", b"second", b"", b"last", b"x"]
    assert repr(ds) == "<TextLineDatasetV2 element_spec=TensorSpec(shape=(), dtype=tf.string, name=None)>"
    assert int(ds.cardinality()) == -2
    assert list(tf.data.TextLineDataset(c, compression_type="GZIP").as_numpy_iterator()) == [b"g1", b"g2"]
    names = tf.data.Dataset.from_tensor_slices([b, b])
    assert [t.numpy() for t in tf.data.TextLineDataset(names)] == [b"x", b"x"]
    words = tf.data.TextLineDataset(a).map(tf.strings.split).padded_batch(4)
    assert next(iter(words)).shape == (4, 2)
    with pytest.raises(tf.errors.NotFoundError, match="nope.txt"):
        list(tf.data.TextLineDataset(str(tmp_path / "nope.txt")))
    with pytest.raises(TypeError, match="must contain `tf.string` elements"):
        tf.data.TextLineDataset(3)

