"""tf.io, tf.train.Example and the file datasets, replayed against TensorFlow 2.21's results
(tools/record_tf_io.py, tests/io_cases.py); the TFRecord files read here were written by TensorFlow."""
import json
import os
import shutil

import numpy as np
import pytest

import io_cases
import tapegrad as tf

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "tf_io.json"), encoding="utf-8") as f:
    RECORDED = json.load(f)["cases"]

# where tapegrad words an error better than TensorFlow, or TensorFlow's own message is broken
DIFFERENT_MESSAGE = {"make_csv_bad_label"}
# where TensorFlow gives an inconsistent tensor and tapegrad raises (docs/io.md): a SparseFeature index
# outside [0, size) (TF's SparseTensor then has it), a ragged partition that does not cover the
# values (TF checks only with validate=True and drops or misplaces values)
RAISES_WHERE_TF_DOES_NOT = {"parse_sparse_feature_range": "InvalidArgumentError",
                            "parse_sparse_feature_negative": "InvalidArgumentError",
                            "parse_ragged_bad_splits": "InvalidArgumentError",
                            "parse_ragged_bad_lengths": "InvalidArgumentError"}


@pytest.fixture
def folder(tmp_path):
    for name in io_cases.FILES:
        shutil.copy(os.path.join(HERE, "fixtures", "tf_io", name), tmp_path)
    return str(tmp_path)


@pytest.mark.parametrize("name", sorted(io_cases.CASES))
def test_matches_tensorflow(name, folder):
    want, got = RECORDED[name], io_cases.run(name, tf, folder)
    if name in RAISES_WHERE_TF_DOES_NOT:
        assert "error" not in want and got == {"error": RAISES_WHERE_TF_DOES_NOT[name]}, got
        return
    if isinstance(want, dict) and "error" in want:
        assert isinstance(got, dict) and got.get("error") == want["error"], got
        if "message" in want and name not in DIFFERENT_MESSAGE:
            assert got["message"].startswith(want["message"][:40]), (got["message"], want["message"])
    else:
        assert got == want


def test_every_case_is_recorded():
    assert sorted(RECORDED) == sorted(io_cases.CASES)


def test_maps_serialize_in_key_order_and_parse_whatever_the_order(folder):
    """TensorFlow's protobuf serializes a map in hash order; tapegrad in sorted key order (protobuf's
    deterministic serialization). Both parse to the same message."""
    ex = io_cases._ex(tf, b=[1], a=[0.5], c=[b"z"])
    blob = ex.SerializeToString()
    assert blob.index(b"\n\x01a") < blob.index(b"\n\x01b") < blob.index(b"\n\x01c")
    assert tf.train.Example.FromString(blob) == ex


def test_crc32c_check_value_and_long_data():
    from tapegrad.io._tfrecord import _scalar, crc32c
    assert crc32c(b"123456789") == 0xE3069283  # the standard check value of CRC-32C
    data = np.random.default_rng(0).integers(0, 256, 200_003, dtype=np.uint8).tobytes()
    assert crc32c(data) == _scalar(0xFFFFFFFF, data) ^ 0xFFFFFFFF  # the chunked path equals the byte loop
    assert crc32c(data[100:], crc32c(data[:100])) == crc32c(data)


def test_truncated_and_garbage_inputs_say_what_is_wrong(folder):
    path = os.path.join(folder, "plain.tfrecord")
    with open(path, "rb") as f:
        data = f.read()
    cut = os.path.join(folder, "cut.tfrecord")
    with open(cut, "wb") as f:
        f.write(data[:-3])
    with pytest.raises(tf.errors.DataLossError, match="truncated"):
        list(tf.data.TFRecordDataset(cut))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Could not parse example input"):
        tf.io.parse_single_example(b"\xff\xff", {"x": tf.io.FixedLenFeature([], tf.float32)})
    with pytest.raises(ValueError, match="scalar"):
        tf.io.parse_single_example([b"", b""], {"x": tf.io.FixedLenFeature([], tf.float32, default_value=0.0)})
    with pytest.raises(ValueError, match="non-empty dict"):
        tf.io.parse_example([b""], [])
    with pytest.raises(tf.errors.InvalidArgumentError, match="compression_type"):
        tf.data.TFRecordDataset(path, compression_type="BZIP2")
    with pytest.raises(tf.errors.UnimplementedError, match="local files only"):
        tf.io.gfile.GFile("gs://bucket/x").read()
    with pytest.raises(TypeError, match="bytes"):
        with tf.io.TFRecordWriter(os.path.join(folder, "w.tfrecord")) as w:
            w.write(3)
    with pytest.raises(AttributeError, match="decode_webp"):
        tf.io.decode_webp  # noqa: B018


def test_records_written_by_tapegrad_read_back_with_examples(folder):
    path = os.path.join(folder, "out.tfrecord")
    with tf.io.TFRecordWriter(path, tf.io.TFRecordOptions(compression_type="GZIP")) as w:
        for i in range(50):
            w.write(io_cases._ex(tf, v=[float(i)], k=[i]).SerializeToString())
    spec = {"v": tf.io.FixedLenFeature([], tf.float32), "k": tf.io.FixedLenFeature([], tf.int64)}
    ds = tf.data.TFRecordDataset(path, "GZIP").batch(16).map(lambda r: tf.io.parse_example(r, spec))
    got = np.concatenate([b["k"].numpy() for b in ds])
    np.testing.assert_array_equal(got, np.arange(50))


def test_a_parsed_feature_trains_with_gradients(folder):
    ds = tf.data.TFRecordDataset(os.path.join(folder, "plain.tfrecord")).map(
        lambda r: tf.io.parse_single_example(r, {"x": tf.io.FixedLenFeature([2], tf.float32)})["x"])
    w = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        loss = tf.add_n([tf.reduce_sum(w * x) for x in ds])
    np.testing.assert_allclose(tape.gradient(loss, w).numpy(), [1.5, -3.75])


def test_sparse_serialization_gives_tensorflow_s_bytes():
    # SHA-1 of the bytes TF 2.21 gives for these calls (tf.io.serialize_sparse / serialize_many_sparse)
    import hashlib
    sp = tf.SparseTensor([[0, 1], [2, 3]], [1.5, 2.5], [3, 4])
    sp3 = tf.SparseTensor([[0, 0, 1], [1, 2, 0], [1, 2, 2]], [7, 8, 9], [2, 3, 4])
    digest = [hashlib.sha1(b"".join(x.numpy().ravel())).hexdigest() for x in
              (tf.io.serialize_sparse(sp), tf.io.serialize_many_sparse(sp), tf.io.serialize_many_sparse(sp3))]
    assert digest == ["bf2cfa476e9e875785da175e2218f39ef78ffec5", "3d667fb3ca787f705658895b7489e93a0fa52cf3",
                      "42c3b0b627e03319a3c93ce9a2c17d2992b67157"]
    # strings go in tensor_content (lengths, then bytes), where serialize_tensor writes string_val
    sps = tf.SparseTensor([[0], [1]], tf.constant([b"a@b.com", b"c@d.com"]), [2])
    sps2 = tf.SparseTensor([[0, 0], [1, 1], [1, 2]], tf.constant([b"x", b"", b"zz"]), [2, 3])
    digest = [hashlib.sha1(b"".join(x.numpy().ravel())).hexdigest() for x in
              (tf.io.serialize_sparse(sps), tf.io.serialize_many_sparse(sps2))]
    assert digest == ["e7cb966eea4681327d29281e3304105f0ff863e1", "46a9cdb57a1721f1f2c2f01f0f7c0da838f3adc6"]
    assert tf.io.parse_tensor(tf.io.serialize_sparse(sps)[1], tf.string).numpy().tolist() == [b"a@b.com", b"c@d.com"]
    assert tf.io.deserialize_many_sparse(tf.io.serialize_many_sparse(sps2), tf.string).values.numpy().tolist() == \
        [b"x", b"", b"zz"]
    d = tf.io.deserialize_many_sparse(tf.io.serialize_many_sparse(sp3), tf.int32)
    assert d.dense_shape.numpy().tolist() == [2, 3, 4]
    assert d.indices.numpy().tolist() == [[0, 0, 1], [1, 2, 0], [1, 2, 2]] and d.values.numpy().tolist() == [7, 8, 9]
    with pytest.raises(NotImplementedError, match="variant"):
        tf.io.serialize_sparse(sp, out_type=tf.variant if hasattr(tf, "variant") else tf.int64)


def test_parse_single_sequence_example_gives_tensorflow_s_tensors_and_errors():
    # expected values and messages: TF 2.21's tf.io.parse_single_sequence_example on this record
    T = tf.train

    def f_int(v):
        return T.Feature(int64_list=T.Int64List(value=v))

    def f_bytes(v):
        return T.Feature(bytes_list=T.BytesList(value=v))

    def f_float(v):
        return T.Feature(float_list=T.FloatList(value=v))

    se = T.SequenceExample(
        context=T.Features(feature={"id": f_int([7]), "tags": f_bytes([b"a", b"b"])}),
        feature_lists=T.FeatureLists(feature_list={
            "tok": T.FeatureList(feature=[f_bytes([b"x", b"y"]), f_bytes([]), f_bytes([b"z"])]),
            "xy": T.FeatureList(feature=[f_float([1, 2]), f_float([3, 4]), f_float([5, 6])]),
            "n": T.FeatureList(feature=[f_int([1]), f_int([2, 3])])}))
    s = se.SerializeToString()
    ctx, seq = tf.io.parse_single_sequence_example(
        s, {"id": tf.io.FixedLenFeature([], tf.int64), "tags": tf.io.VarLenFeature(tf.string),
            "missing": tf.io.FixedLenFeature([2], tf.float32, default_value=[0.5, 1.5])},
        {"tok": tf.io.VarLenFeature(tf.string), "xy": tf.io.FixedLenSequenceFeature([2], tf.float32),
         "n": tf.io.RaggedFeature(tf.int64), "gone": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True),
         "gone2": tf.io.VarLenFeature(tf.float32)})
    assert ctx["id"].numpy() == 7 and ctx["missing"].numpy().tolist() == [0.5, 1.5]
    assert ctx["tags"].values.numpy().tolist() == [b"a", b"b"]
    assert seq["tok"].indices.numpy().tolist() == [[0, 0], [0, 1], [2, 0]]
    assert seq["tok"].dense_shape.numpy().tolist() == [3, 2]
    assert seq["xy"].dtype == tf.float32 and seq["xy"].numpy().tolist() == [[1, 2], [3, 4], [5, 6]]
    assert seq["n"].row_splits.numpy().tolist() == [0, 1, 3] and seq["n"].values.numpy().tolist() == [1, 2, 3]
    assert seq["gone"].numpy().tolist() == [] and seq["gone2"].dense_shape.numpy().tolist() == [0, 0]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Key: xy, Index: 0.  Number of values != expected"):
        tf.io.parse_single_sequence_example(s, None, {"xy": tf.io.FixedLenSequenceFeature([3], tf.float32)})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Feature list 'gone' is required"):
        tf.io.parse_single_sequence_example(s, None, {"gone": tf.io.FixedLenSequenceFeature([], tf.int64)})



def test_records_read_in_parallel_are_interleaved_as_tensorflow_s(tmp_path):
    # TF's readers with num_parallel_reads=n interleave n files, one record from each in turn
    paths = []
    for i in range(3):
        paths.append(str(tmp_path / f"f{i}.tfrecord"))
        with tf.io.TFRecordWriter(paths[-1]) as w:
            for j in range(i + 2):
                w.write(f"{i}{j}".encode())
    got = [r.numpy().decode() for r in tf.data.TFRecordDataset(paths, num_parallel_reads=2)]
    assert got == ["00", "10", "01", "11", "12", "20", "21", "22", "23"]   # (TF 2.21 gives this)
    assert [r.numpy().decode() for r in tf.data.TFRecordDataset(paths)] == \
        ["00", "01", "10", "11", "12", "20", "21", "22", "23"]
    lines = []
    for i in range(2):
        lines.append(str(tmp_path / f"l{i}.txt"))
        (tmp_path / f"l{i}.txt").write_text("".join(f"{i}{j}\n" for j in range(2)))
    assert [t.numpy().decode() for t in tf.data.TextLineDataset(lines, num_parallel_reads=2)] == \
        ["00", "10", "01", "11"]
