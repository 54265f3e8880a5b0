"""``tapegrad.io`` (``tf.io``): local files (``gfile``, ``read_file``), TFRecord files,
``tf.train.Example`` parsing, CSV decoding, ``TensorProto`` bytes and image codecs (JPEG, PNG and GIF
through the optional Pillow extra), interchangeable with TensorFlow's.
What is covered: docs/io.md.

>>> import os, tempfile, tapegrad as tf
>>> path = os.path.join(tempfile.mkdtemp(), "data.tfrecord")
>>> with tf.io.TFRecordWriter(path) as writer:
...     for v in [1.5, 2.5]:
...         ex = tf.train.Example(features=tf.train.Features(feature={
...             "v": tf.train.Feature(float_list=tf.train.FloatList(value=[v]))}))
...         writer.write(ex.SerializeToString())
>>> ds = tf.data.TFRecordDataset(path).map(
...     lambda r: tf.io.parse_single_example(r, {"v": tf.io.FixedLenFeature([], tf.float32)}))
>>> [float(e["v"]) for e in ds]
[1.5, 2.5]
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import gfile
from ._csv import decode_csv
from ._image import (decode_and_crop_jpeg, decode_bmp, decode_gif, decode_image, decode_jpeg, decode_png,
                     encode_jpeg, encode_png, extract_jpeg_shape, is_jpeg)
from ._files import (decode_base64, decode_raw, deserialize_many_sparse, encode_base64, matching_files,
                     parse_tensor, read_file, serialize_many_sparse, serialize_sparse, serialize_tensor,
                     write_file)
from ._parse import (FixedLenFeature, FixedLenSequenceFeature, RaggedFeature, SparseFeature, VarLenFeature,
                     parse_example, parse_single_example, parse_single_sequence_example)
from ._tfrecord import TFRecordOptions, TFRecordWriter

__all__ = ["FixedLenFeature", "FixedLenSequenceFeature", "RaggedFeature", "SparseFeature", "TFRecordOptions",
           "TFRecordWriter", "VarLenFeature", "decode_and_crop_jpeg", "decode_base64", "decode_bmp", "decode_csv",
           "decode_gif",
           "decode_image", "decode_jpeg", "decode_png", "decode_raw", "encode_base64", "encode_jpeg", "encode_png",
           "extract_jpeg_shape", "gfile", "is_jpeg",
           "matching_files", "parse_example", "parse_single_example", "parse_single_sequence_example", "parse_tensor", "read_file",
           "serialize_tensor", "serialize_sparse", "serialize_many_sparse", "deserialize_many_sparse",
           "write_file"]

if not TYPE_CHECKING:
    def __getattr__(name: str) -> object:
        if name.startswith("_"):
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        import difflib
        close = difflib.get_close_matches(name, __all__, n=3, cutoff=0.8)
        raise AttributeError(f"module 'tapegrad.io' has no attribute {name!r}: tapegrad covers tf.io."
                             f"{', tf.io.'.join(__all__)} (docs/io.md)."
                             + (f" Did you mean: {', '.join(close)}?" if close else ""))
