"""The cases of tools/record_tf_io.py, shared with tests/test_io.py: each is a function of ``(tf, d)``,
``tf`` being TensorFlow there and tapegrad here and ``d`` a fresh folder holding the files of ``FILES``
(written by TensorFlow when recorded). Results are encoded as in tests/strings_cases.py; an
exception's result is its type's name (and the message's first words for the ones TF words well)."""
import collections
import os

import numpy as np

from strings_cases import encode as _encode

CSV_TEXT = 'a,b,c\n1,2.5,x\r\n3,,"y\nz"\n4,5,w\n'
LABELLED = "a,b,label\n1,2.5,0\n3,4,1\n5,6.5,0\n7,8,1\n9,10,0\n"
BAD_ROWS = "a,b\n1,2\nx,3\n4,5.5\n6\n7,8,9\n10,1e2\n"
INFER = "i,big,f,d,s,e\n1,3000000000,1.5,1e39,x,\n-2,4,2,0.5,7,\n"


def _ex(tf, **kw):
    f = {}
    for k, v in kw.items():
        if isinstance(v[0], float):
            f[k] = tf.train.Feature(float_list=tf.train.FloatList(value=v))
        elif isinstance(v[0], int):
            f[k] = tf.train.Feature(int64_list=tf.train.Int64List(value=v))
        else:
            f[k] = tf.train.Feature(bytes_list=tf.train.BytesList(value=v))
    return tf.train.Example(features=tf.train.Features(feature=f))


def _a(tf):
    return _ex(tf, x=[1.0, 2.0], y=[3], s=[b"hi"], seq=[1.0, 2.0, 3.0, 4.0]).SerializeToString()


def _b(tf):
    return _ex(tf, x=[5.0, 6.0], s=[b"yo"], seq=[7.0, 8.0]).SerializeToString()


def _spec(tf):
    return {"x": tf.io.FixedLenFeature([2], tf.float32), "y": tf.io.FixedLenFeature([], tf.int64, default_value=-1),
            "s": tf.io.FixedLenFeature((), tf.string), "z": tf.io.FixedLenFeature([1], tf.float32, default_value=[9.0]),
            "seq": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True)}


def _write(path, text):
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def _rows(ds):
    return [list(e) if isinstance(e, tuple) else e for e in ds]


def _csv_batches(tf, d, **kw):
    _write(os.path.join(d, "l.csv"), LABELLED)
    tf.random.set_seed(1)
    return list(tf.data.experimental.make_csv_dataset(os.path.join(d, "l.csv"), **kw))


def _gfile_errors(tf, d):
    out = []
    for f in (lambda: tf.io.gfile.GFile(os.path.join(d, "nope")).read(),
              lambda: tf.io.gfile.rename(os.path.join(d, "plain.tfrecord"), os.path.join(d, "gzip.tfrecord")),
              lambda: tf.io.gfile.copy(os.path.join(d, "plain.tfrecord"), os.path.join(d, "gzip.tfrecord")),
              lambda: tf.io.gfile.remove(os.path.join(d, "nope")),
              lambda: tf.io.gfile.listdir(os.path.join(d, "nope")),
              lambda: tf.io.read_file(os.path.join(d, "nope"))):
        try:
            f()
            out.append("ok")
        except Exception as e:  # noqa: BLE001  (the error type is the result)
            out.append(type(e).__name__)
    return out


def _gfile_roundtrip(tf, d):
    p = os.path.join(d, "t.txt")
    with tf.io.gfile.GFile(p, "w") as f:
        f.write("hello\nworld\n")
    with tf.io.gfile.GFile(p) as f:
        whole, pos = f.read(), f.tell()
    with tf.io.gfile.GFile(p, "rb") as f:
        first, rest, size = f.readline(), f.readlines(), f.size()
    with tf.io.gfile.GFile(p) as f:
        lines = list(f)
    with tf.io.gfile.GFile(p) as f:
        f.seek(3)
        part = f.read(4)
    tf.io.gfile.makedirs(os.path.join(d, "x", "y"))
    tf.io.gfile.mkdir(os.path.join(d, "x"))
    walked = sorted((os.path.relpath(a, d), sorted(b), sorted(c)) for a, b, c in tf.io.gfile.walk(d))
    return [whole, pos, first, rest, size, lines, part, tf.io.gfile.exists(p), tf.io.gfile.isdir(d),
            sorted(tf.io.gfile.listdir(d)), [os.path.basename(g) for g in sorted(tf.io.gfile.glob(d + "/*.t*"))],
            tf.io.gfile.stat(p).length, walked, tf.io.gfile.exists(d + "/*")]


CASES = {
    # tf.train.Example and friends
    "example_bytes_one_feature": lambda tf, d: _ex(tf, x=[0.1, 2.0]).SerializeToString(),
    "example_bytes_int64": lambda tf, d: _ex(tf, y=[1, -2, 300, 2 ** 62]).SerializeToString(),
    "example_bytes_bytes": lambda tf, d: _ex(tf, s=[b"xy", b"", b"\xff"]).SerializeToString(),
    "example_text": lambda tf, d: str(_ex(tf, x=[0.1, 2.0])),
    "example_text_values": lambda tf, d: str(tf.train.FloatList(value=[1e-8, 3.4e38, float("inf"), -0.0, 1e10,
                                                                       123456789.0, 0.3])),
    "example_text_bytes": lambda tf, d: str(tf.train.BytesList(value=[b"a\x00\xff\"'\n\\"])),
    "example_roundtrip_three_features": lambda tf, d: tf.train.Example.FromString(_a(tf)) == tf.train.Example.FromString(
        tf.train.Example.FromString(_a(tf)).SerializeToString()),
    "example_values": lambda tf, d: [list(tf.train.Example.FromString(_a(tf)).features.feature["x"].float_list.value),
                                     list(tf.train.Example.FromString(_a(tf)).features.feature["y"].int64_list.value),
                                     tf.train.Example.FromString(_a(tf)).features.feature["s"].WhichOneof("kind")],
    "example_float32_rounding": lambda tf, d: list(tf.train.FloatList(value=[0.1]).value),
    "example_set_by_path": lambda tf, d: _set_by_path(tf),
    "example_empty": lambda tf, d: [tf.train.Example().SerializeToString(), str(tf.train.Feature())],
    "example_bad_float": lambda tf, d: tf.train.FloatList(value=["a"]),
    "example_bad_int": lambda tf, d: tf.train.Int64List(value=[1.5]),
    "example_bad_bool": lambda tf, d: tf.train.Int64List(value=[True]),
    "example_bad_bytes": lambda tf, d: tf.train.BytesList(value=["s"]),
    "example_bad_field": lambda tf, d: tf.train.Feature(foo=1),
    "example_int_range": lambda tf, d: tf.train.Int64List(value=[2 ** 64]),
    "example_value_kinds": lambda tf, d: _value_kinds(tf),
    "example_text_map_order": lambda tf, d: [str(_ex(tf, **{k: [1] for k in ("b", "a", "k10", "k9", "c", "\u00e9", "B")})),
                                             str(tf.train.Example.FromString(_ex(tf, z=[1], y=[2.0]).SerializeToString()))],
    "example_tensor_features": lambda tf, d: _tensor_features(tf),
    "sequence_example_bytes": lambda tf, d: tf.train.SequenceExample(
        context=tf.train.Features(feature={"l": tf.train.Feature(int64_list=tf.train.Int64List(value=[3]))}),
        feature_lists=tf.train.FeatureLists(feature_list={"t": tf.train.FeatureList(feature=[
            tf.train.Feature(float_list=tf.train.FloatList(value=[1.0, 2.0])),
            tf.train.Feature(float_list=tf.train.FloatList(value=[3.0]))])})).SerializeToString(),
    # TFRecord files (those of FILES, written by TensorFlow when recorded)
    "tfrecord_read": lambda tf, d: list(tf.data.TFRecordDataset(os.path.join(d, "plain.tfrecord"))),
    "tfrecord_read_gzip": lambda tf, d: [len(r.numpy()) for r in tf.data.TFRecordDataset(
        os.path.join(d, "gzip.tfrecord"), compression_type="GZIP")],
    "tfrecord_write_bytes": lambda tf, d: _written(tf, d, None),
    "tfrecord_write_gzip_reads_back": lambda tf, d: list(tf.data.TFRecordDataset(
        _written_path(tf, d, "GZIP"), compression_type="GZIP")),
    "tfrecord_write_zlib_reads_back": lambda tf, d: list(tf.data.TFRecordDataset(
        _written_path(tf, d, tf.io.TFRecordOptions(compression_type="ZLIB")), compression_type="ZLIB")),
    "tfrecord_corrupt": lambda tf, d: list(tf.data.TFRecordDataset(_corrupted(d))),
    "tfrecord_missing": lambda tf, d: list(tf.data.TFRecordDataset(os.path.join(d, "nope.tfrecord"))),
    "tfrecord_parse_in_map": lambda tf, d: list(tf.data.TFRecordDataset(os.path.join(d, "plain.tfrecord")).map(
        lambda r: tf.io.parse_single_example(r, {"x": tf.io.FixedLenFeature([2], tf.float32),
                                                 "y": tf.io.FixedLenFeature([], tf.int64),
                                                 "name": tf.io.FixedLenFeature([], tf.string)})).batch(2)),
    # parsing
    "parse_single": lambda tf, d: tf.io.parse_single_example(_a(tf), _spec(tf)),
    "parse_batch": lambda tf, d: tf.io.parse_example([_a(tf), _b(tf)], _spec(tf)),
    "parse_batch_tensor": lambda tf, d: tf.io.parse_example(tf.constant([_a(tf), _b(tf)]),
                                                            {"x": tf.io.FixedLenFeature([1, 2], tf.float32)}),
    "parse_empty_record_default": lambda tf, d: tf.io.parse_single_example(
        b"", {"y": tf.io.FixedLenFeature([], tf.int64, default_value=4)}),
    "parse_missing": lambda tf, d: tf.io.parse_example([_b(tf)], {"y": tf.io.FixedLenFeature([], tf.int64)}),
    "parse_count": lambda tf, d: tf.io.parse_example([_a(tf)], {"x": tf.io.FixedLenFeature([3], tf.float32)}),
    "parse_type": lambda tf, d: tf.io.parse_example([_a(tf)], {"x": tf.io.FixedLenFeature([2], tf.int64)}),
    "parse_seq_not_missing": lambda tf, d: tf.io.parse_example([_a(tf)], {
        "seq": tf.io.FixedLenSequenceFeature([2], tf.float32)}),
    "parse_seq_stride": lambda tf, d: tf.io.parse_example([_a(tf)], {
        "x": tf.io.FixedLenSequenceFeature([3], tf.float32, allow_missing=True)}),
    "parse_int32": lambda tf, d: tf.io.parse_example([_a(tf)], {"y": tf.io.FixedLenFeature([], tf.int32)}),
    "parse_ragged": lambda tf, d: tf.io.parse_example([_a(tf), _b(tf)], {"x": tf.io.RaggedFeature(tf.float32),
                                                                       "seq": tf.io.RaggedFeature(tf.float32)}),
    "parse_ragged_single": lambda tf, d: tf.io.parse_single_example(_a(tf), {"seq": tf.io.RaggedFeature(tf.float32)}),
    # SparseFeature: indices and values from two features; RaggedFeature with partitions
    "parse_sparse_feature": lambda tf, d: tf.io.parse_example([_sp(tf, [3, 1], [1.5, 2.5]), _sp(tf, [], []),
                                                               _sp(tf, [0], [9.0])], {"sp": _sparse_spec(tf)}),
    "parse_sparse_feature_single": lambda tf, d: tf.io.parse_single_example(_sp(tf, [4, 0, 2], [1.0, 2.0, 3.0]),
                                                                            {"sp": _sparse_spec(tf)}),
    "parse_sparse_feature_sorted": lambda tf, d: tf.io.parse_single_example(
        _sp(tf, [4, 0, 2], [1.0, 2.0, 3.0]), {"sp": tf.io.SparseFeature("ix", "val", tf.float32, 5, already_sorted=True)}),
    "parse_sparse_feature_2d": lambda tf, d: tf.io.parse_example(
        [_ex(tf, r=[0, 1], c=[2, 0], v=[b"a", b"b"]).SerializeToString(),
         _ex(tf, r=[1], c=[1], v=[b"c"]).SerializeToString()],
        {"sp": tf.io.SparseFeature(["r", "c"], "v", tf.string, [2, 3])}),
    "parse_sparse_feature_count": lambda tf, d: tf.io.parse_example([_sp(tf, [3, 1], [1.5])], {"sp": _sparse_spec(tf)}),
    "parse_sparse_feature_range": lambda tf, d: tf.io.parse_example([_sp(tf, [7], [1.5])], {"sp": _sparse_spec(tf)}),
    "parse_sparse_feature_negative": lambda tf, d: tf.io.parse_example([_sp(tf, [-1], [1.5])], {"sp": _sparse_spec(tf)}),
    "parse_sparse_feature_missing": lambda tf, d: tf.io.parse_example([_ex(tf, ix=[1]).SerializeToString()],
                                                                      {"sp": _sparse_spec(tf)}),
    "parse_sparse_feature_float_index": lambda tf, d: tf.io.parse_example(
        [_ex(tf, ix=[1.0], val=[1.0]).SerializeToString()], {"sp": _sparse_spec(tf)}),
    "parse_ragged_partitions": lambda tf, d: tf.io.parse_example(_rag_records(tf), _rag_spec(tf)),
    "parse_ragged_partitions_single": lambda tf, d: tf.io.parse_single_example(_rag_records(tf)[0], _rag_spec(tf)),
    "parse_ragged_uniform": lambda tf, d: tf.io.parse_example(
        [_ex(tf, v=[1.0, 2.0, 3.0, 4.0]).SerializeToString(), _ex(tf, v=[5.0, 6.0]).SerializeToString()],
        {"r": tf.io.RaggedFeature(tf.float32, "v", partitions=[tf.io.RaggedFeature.UniformRowLength(2)])}),
    "parse_ragged_bad_splits": lambda tf, d: tf.io.parse_single_example(
        _ex(tf, v=[1.0, 2.0], s=[0, 3]).SerializeToString(),
        {"r": tf.io.RaggedFeature(tf.float32, "v", partitions=[tf.io.RaggedFeature.RowSplits("s")])}),
    "parse_ragged_bad_lengths": lambda tf, d: tf.io.parse_single_example(
        _ex(tf, v=[1.0, 2.0], n=[1, 2]).SerializeToString(),
        {"r": tf.io.RaggedFeature(tf.float32, "v", partitions=[tf.io.RaggedFeature.RowLengths("n")])}),
    "parse_ragged_int64_splits": lambda tf, d: tf.io.parse_example(_rag_records(tf), {
        "r": tf.io.RaggedFeature(tf.int64, "ids", partitions=[tf.io.RaggedFeature.RowLengths("n")],
                                 row_splits_dtype=tf.int64)}),
    "parse_spec_repr": lambda tf, d: [repr(tf.io.FixedLenFeature([2], tf.float32)),
                                      repr(tf.io.VarLenFeature(tf.int64))],
    # CSV
    "decode_csv": lambda tf, d: tf.io.decode_csv(tf.constant(["1,2.5,a", '3,,"b,c"']), [[0], [0.0], ["x"]]),
    "decode_csv_delim_required": lambda tf, d: tf.io.decode_csv("1;2", [[0], tf.constant([], tf.int64)],
                                                                field_delim=";"),
    "decode_csv_too_many": lambda tf, d: tf.io.decode_csv("1,2", [[0]]),
    "decode_csv_too_few": lambda tf, d: tf.io.decode_csv("1", [[0], [0]]),
    "decode_csv_not_int": lambda tf, d: tf.io.decode_csv("a,2", [[0], [0]]),
    "decode_csv_missing_required": lambda tf, d: tf.io.decode_csv("1,", [[0], tf.constant([], tf.int32)]),
    "decode_csv_float_for_int": lambda tf, d: tf.io.decode_csv("1.5,2", [[0], [0]]),
    "decode_csv_open_quote": lambda tf, d: tf.io.decode_csv('"1,2', [["a"]]),
    "decode_csv_na": lambda tf, d: tf.io.decode_csv("1,NA,3", [[0], [0], [0]], na_value="NA"),
    "decode_csv_select": lambda tf, d: tf.io.decode_csv("1,2,3", [[0], [0.0]], select_cols=[0, 2]),
    "decode_csv_quotes": lambda tf, d: tf.io.decode_csv('"a""b",x', [[""], [""]]),
    "decode_csv_no_quote_delim": lambda tf, d: tf.io.decode_csv('"a""b",x', [[""], [""]], use_quote_delim=False),
    "decode_csv_spaces": lambda tf, d: tf.io.decode_csv(" 1 , 2.5", [[0], [0.0]]),
    "decode_csv_exponent": lambda tf, d: tf.io.decode_csv("1e3,2", [[0.0], [0.0]]),
    "decode_csv_64": lambda tf, d: tf.io.decode_csv("1,2", [tf.constant([0], tf.int64), tf.constant([0], tf.float64)]),
    "decode_csv_2d": lambda tf, d: tf.io.decode_csv(tf.constant([["1,2"]]), [[0], [0]]),
    "csv_dataset": lambda tf, d: (_write(os.path.join(d, "a.csv"), CSV_TEXT), _rows(
        tf.data.experimental.CsvDataset(os.path.join(d, "a.csv"), [[0], [0.0], ["d"]], header=True)))[1],
    "csv_dataset_select": lambda tf, d: (_write(os.path.join(d, "a.csv"), CSV_TEXT), _rows(
        tf.data.experimental.CsvDataset(os.path.join(d, "a.csv"), [[0], ["d"]], header=True, select_cols=[0, 2])))[1],
    "csv_dataset_exclude": lambda tf, d: (_write(os.path.join(d, "a.csv"), CSV_TEXT), _rows(
        tf.data.experimental.CsvDataset(os.path.join(d, "a.csv"), [[0], [0.0]], header=True, exclude_cols=[2])))[1],
    "csv_dataset_empty_line": lambda tf, d: (_write(os.path.join(d, "e.csv"), "1,2\n\n3,4\n"), _rows(
        tf.data.experimental.CsvDataset(os.path.join(d, "e.csv"), [[0], [0]])))[1],
    "csv_dataset_ignore_errors": lambda tf, d: (_write(os.path.join(d, "b.csv"), BAD_ROWS), _rows(
        tf.data.experimental.CsvDataset(os.path.join(d, "b.csv"), [[0], [0.0]], header=True).ignore_errors()))[1],
    "make_csv_ignore_errors": lambda tf, d: (_write(os.path.join(d, "b.csv"), BAD_ROWS), list(
        tf.data.experimental.make_csv_dataset(os.path.join(d, "b.csv"), batch_size=2, shuffle=False, num_epochs=1,
                                              column_defaults=[tf.int32, tf.float32], ignore_errors=True)))[1],
    "make_csv_seeded": lambda tf, d: _csv_batches(tf, d, batch_size=2, label_name="label", num_epochs=2,
                                                  shuffle_seed=3),
    "make_csv_in_order": lambda tf, d: _csv_batches(tf, d, batch_size=2, num_epochs=1, shuffle=False),
    "make_csv_select": lambda tf, d: _csv_batches(tf, d, batch_size=3, select_columns=["b", "a"], shuffle=False,
                                                  num_epochs=1),
    "make_csv_infer": lambda tf, d: (_write(os.path.join(d, "i.csv"), INFER), {
        k: v.dtype.name for k, v in next(iter(tf.data.experimental.make_csv_dataset(
            os.path.join(d, "i.csv"), batch_size=2, shuffle=False, num_epochs=1))).items()})[1],
    "make_csv_spec": lambda tf, d: (_write(os.path.join(d, "l.csv"), LABELLED), repr(
        tf.data.experimental.make_csv_dataset(os.path.join(d, "l.csv"), batch_size=2, label_name="label",
                                              num_epochs=1).element_spec))[1],
    "make_csv_bad_label": lambda tf, d: _csv_batches(tf, d, batch_size=2, label_name="nope", num_epochs=1),
    # bytes and files
    "serialize_tensor_float": lambda tf, d: tf.io.serialize_tensor(tf.constant([[1.5, 2.0]])),
    "serialize_tensor_strings": lambda tf, d: tf.io.serialize_tensor(tf.constant([b"ab", b"c"])),
    "serialize_tensor_scalar_int": lambda tf, d: tf.io.serialize_tensor(tf.constant(3)),
    "serialize_tensor_bool": lambda tf, d: tf.io.serialize_tensor(tf.constant([True, False])),
    "serialize_tensor_f64": lambda tf, d: tf.io.serialize_tensor(tf.constant(1.0, tf.float64)),
    "serialize_tensor_empty": lambda tf, d: tf.io.serialize_tensor(tf.zeros([0, 3])),
    "parse_tensor": lambda tf, d: tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([[1.5, 2.0]])), tf.float32),
    "parse_tensor_strings": lambda tf, d: tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([b"ab", b"c"])),
                                                             tf.string),
    "parse_tensor_wrong_type": lambda tf, d: tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([1.5])), tf.int32),
    "decode_raw": lambda tf, d: tf.io.decode_raw(tf.constant([b"\x01\x00\x02\x00"]), tf.int16),
    "decode_raw_big_endian": lambda tf, d: tf.io.decode_raw(tf.constant(b"\x01\x00\x02\x00"), tf.int16,
                                                            little_endian=False),
    "decode_raw_sizes": lambda tf, d: tf.io.decode_raw(tf.constant([b"\x01\x00\x02", b"\x01\x00"]), tf.int16),
    "decode_raw_fixed": lambda tf, d: tf.io.decode_raw(tf.constant([b"\x01\x00\x02\x00", b"\x01\x00"]), tf.int16,
                                                       fixed_length=4),
    "decode_raw_float": lambda tf, d: tf.io.decode_raw(tf.constant(np.float32([1.5, -2]).tobytes()), tf.float32),
    "base64": lambda tf, d: [tf.io.encode_base64(tf.constant([b"hello?", b"\xff\xfe"])),
                             tf.io.encode_base64(tf.constant(b"ab"), pad=True),
                             tf.io.decode_base64(tf.constant([b"aGVsbG8_", b"__4"]))],
    "read_write_file": lambda tf, d: (tf.io.write_file(os.path.join(d, "w", "f.bin"), tf.constant(b"abc\x00")),
                                      tf.io.read_file(os.path.join(d, "w", "f.bin")))[1],
    "matching_files": lambda tf, d: [os.path.basename(p) for p in
                                     tf.io.matching_files(os.path.join(d, "*.tfrecord")).numpy()],
    "gfile_roundtrip": _gfile_roundtrip,
    "gfile_errors": _gfile_errors,
}


def _sp(tf, ix, val):
    return _ex(tf, **({"ix": ix} if ix else {}), **({"val": val} if val else {})).SerializeToString() if ix or val \
        else tf.train.Example(features=tf.train.Features(feature={
            "ix": tf.train.Feature(int64_list=tf.train.Int64List(value=[])),
            "val": tf.train.Feature(float_list=tf.train.FloatList(value=[]))})).SerializeToString()


def _sparse_spec(tf):
    return tf.io.SparseFeature(index_key="ix", value_key="val", dtype=tf.float32, size=5)


def _rag_records(tf):
    return [_ex(tf, ids=[1, 2, 3, 4, 5, 6], n=[2, 0, 1, 3], s=[0, 1, 3, 6], rows=[0, 0, 2, 3, 3, 3], starts=[0, 3],
                lim=[2, 3, 3, 6]).SerializeToString(),
            _ex(tf, ids=[7, 8, 9], n=[3], s=[0, 2, 3], rows=[0, 1, 1], starts=[0, 1], lim=[3]).SerializeToString(),
            _ex(tf, n=[0, 0], s=[0, 0, 0], starts=[0], lim=[0, 0]).SerializeToString()]


def _rag_spec(tf):
    R = tf.io.RaggedFeature
    return {"lengths": R(tf.int64, "ids", partitions=[R.RowLengths("n")]),
            "two": R(tf.int64, "ids", partitions=[R.RowStarts("starts"), R.RowLengths("n")]),
            "ids_rowids": R(tf.int64, "ids", partitions=[R.ValueRowIds("rows")]),
            "splits": R(tf.int64, "ids", partitions=[R.RowSplits("s")]),
            "limits": R(tf.int64, "ids", partitions=[R.RowLimits("lim")]),
            "uniform_inner": R(tf.int64, "ids", partitions=[R.RowLengths("n"), R.UniformRowLength(1)])}


def _value_kinds(tf):
    """What each repeated field takes: per list class and value, the stored values or the error's type
    (TF's EagerTensor.__index__ hands a float tensor to NumPy's scalar, which has no __index__, and
    TF raises AttributeError there; tapegrad's Tensor says TypeError, counted alike here)."""
    import decimal
    import fractions
    values = [3, 2.5, True, np.float64(2.5), np.float32(0.1), np.int64(3), np.uint8(3), np.bool_(True),
              np.float16(1.5), tf.constant(2.5), tf.constant(2.5, tf.float64), tf.constant(3, tf.int64),
              tf.constant(3), tf.constant(True), tf.constant(b"ab"), tf.constant([1.0, 2.0]), tf.constant([1, 2]),
              tf.constant(3, tf.uint8), np.array(2.5), np.array(3), np.array([1.0]), "ab", b"ab", np.bytes_(b"ab"),
              np.str_("ab"), None, 1j, 2 ** 64, bytearray(b"ab"), tf.Variable(2.5), tf.Variable(3, dtype=tf.int64),
              decimal.Decimal("2.5"), fractions.Fraction(1, 2)]
    out = []
    for cls in (tf.train.FloatList, tf.train.Int64List, tf.train.BytesList):
        for v in values:
            try:
                out.append(list(cls(value=[v]).value))
            except (TypeError, ValueError, AttributeError) as e:
                out.append("TypeError" if type(e) is AttributeError else type(e).__name__)
    for whole in (np.array([1.0, 2.5]), tf.constant([1.0, 2.5]), (x for x in [1.0]), 1.0, tf.constant(1.0)):
        try:
            out.append(list(tf.train.FloatList(value=whole).value))
        except TypeError as e:
            out.append(type(e).__name__)
    f, i = tf.train.FloatList(), tf.train.Int64List()
    f.value.append(tf.constant(2.5))
    f.value.extend([tf.constant(3, tf.int64), np.float64(0.5)])
    i.value.extend([tf.constant(3, tf.int64), np.int32(4)])
    out.append([list(f.value), list(i.value)])
    return out


def _tensor_features(tf):
    """The TFRecord tutorial's serialize_example: features made from what a py_function hands over."""
    @tf.py_function(Tout=tf.string)
    def serialize(b, n, s, x):
        feature = {"b": tf.train.Feature(int64_list=tf.train.Int64List(value=[int(b)])),
                   "n": tf.train.Feature(int64_list=tf.train.Int64List(value=[n])),
                   "s": tf.train.Feature(bytes_list=tf.train.BytesList(value=[s.numpy()])),
                   "x": tf.train.Feature(float_list=tf.train.FloatList(value=[x]))}
        return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()
    blob = serialize(np.bool_(True), np.int64(4), b"goat", np.float64(0.9876)).numpy()
    feature = tf.train.Example.FromString(blob).features.feature
    return {k: list(getattr(f, f.WhichOneof("kind")).value) for k, f in feature.items()}


def _set_by_path(tf):
    e = tf.train.Example()
    e.features.feature["q"].int64_list.value.append(5)
    f = tf.train.Example()
    f.features.feature["r"].float_list.value.extend([1.0, 2.0])
    unset = tf.train.Example()
    n = len(unset.features.feature)
    return [e.SerializeToString(), f.SerializeToString(), n, unset.HasField("features"), unset.SerializeToString()]


def _written_path(tf, d, options):
    name = {None: "mine.tfrecord"}.get(options, "mine_c.tfrecord")
    path = os.path.join(d, name)
    with tf.io.TFRecordWriter(path, options) as w:
        for r in (b"first", b"", b"x" * 300):
            w.write(r)
    return path


def _written(tf, d, options):
    with open(_written_path(tf, d, options), "rb") as f:
        return f.read()


def _corrupted(d):
    with open(os.path.join(d, "plain.tfrecord"), "rb") as f:
        data = bytearray(f.read())
    data[20] ^= 0x01
    path = os.path.join(d, "bad.tfrecord")
    with open(path, "wb") as f:
        f.write(bytes(data))
    return path


def write_files(tf, d):
    """The TFRecord files the cases read (recorded with TensorFlow into tests/fixtures/tf_io/)."""
    with tf.io.TFRecordWriter(os.path.join(d, "plain.tfrecord")) as w:
        for i in range(3):
            w.write(_ex(tf, x=[i * 0.5, -1.25], y=[i], name=[b"row%d" % i]).SerializeToString())
    with tf.io.TFRecordWriter(os.path.join(d, "gzip.tfrecord"), options="GZIP") as w:
        for r in (b"abc", b"", b"x" * 70000):
            w.write(r)


FILES = ("plain.tfrecord", "gzip.tfrecord")

# errors whose TensorFlow message tapegrad repeats (its first words are recorded and compared)
MESSAGES = ("parse_missing", "parse_count", "parse_type", "parse_seq_not_missing", "decode_csv_too_many",
            "decode_csv_too_few", "decode_csv_not_int", "decode_csv_missing_required", "decode_raw_sizes",
            "parse_tensor_wrong_type", "example_bad_float", "example_bad_int", "example_bad_bytes",
            "example_bad_field", "example_int_range", "example_bad_bool", "make_csv_bad_label")


def encode(x):
    if hasattr(x, "row_splits"):  # a RaggedTensor: its rows, static shape and partition
        return {"ragged": _encode(x.to_list(), np), "shape": str(x.shape), "ragged_rank": x.ragged_rank,
                "splits": x.row_splits.dtype.name, "dtype": x.dtype.name}
    if hasattr(x, "dense_shape") and hasattr(x, "indices"):  # a SparseTensor
        return {"indices": encode(x.indices), "values": encode(x.values), "dense_shape": encode(x.dense_shape)}
    if isinstance(x, (dict, collections.OrderedDict)):
        return {str(k): encode(v) for k, v in sorted(x.items())}
    if isinstance(x, (list, tuple)):
        return [encode(v) for v in x]
    return _encode(x, np)


def run(name, tf, d):
    try:
        return encode(CASES[name](tf, d))
    except Exception as e:  # noqa: BLE001  (the error type is the result)
        out = {"error": type(e).__name__}
        if name in MESSAGES:
            msg = str(e).split("}}")[-1].strip()
            out["message"] = msg.split(" [Op:")[0][:120]
        return out
