"""Title: The TFRecord format: writing and reading records, compression, tf.train.Example and SequenceExample protobufs (Hands-On ML 3rd ed., chapter 13)
Source: https://github.com/ageron/handson-ml3/blob/e3f3f9e66d58cfa1d068a498433063a1d3fba9ef/13_loading_and_preprocessing_data.ipynb
Licence: Apache-2.0 (ageron/handson-ml3)
Changed: the notebook's code cells of "The TFRecord Format" section (cells 53-117) in order,
after the setup imports, without the "Brief Introduction to Protocol Buffers" and "Custom
protobuf" cells (65-81: they compile a .proto file with the protoc command-line compiler);
the .tfrecord files are written to a tempfile directory; the scikit-learn sample image
(load_sample_images, 427 x 640 x 3 uint8) -> a 48 x 64 x 3 uint8 image from a seeded NumPy
generator, and its matplotlib displays -> RESULTS (the decoded JPEG's shape, mean and mean
absolute difference from the original); the printed records and parsed examples -> RESULTS
(sparse tensors as their parts, protobuf messages as the lengths of their serialized bytes or of
their lists, string tensors as NumPy bytes arrays), the parsed content's ragged tensor as its row lengths and flat values.
"""
import tempfile

import numpy as np

RESULTS = {}
_tmp = tempfile.mkdtemp()

import sys

assert sys.version_info >= (3, 7)
from packaging import version
import tensorflow as tf

assert version.parse(tf.__version__) >= version.parse("2.8.0")
# [cell 53]
with tf.io.TFRecordWriter(_tmp + "/my_data.tfrecord") as f:
    f.write(b"This is the first record")
    f.write(b"And this is the second record")
# [cell 55]
filepaths = [_tmp + "/my_data.tfrecord"]
dataset = tf.data.TFRecordDataset(filepaths)
for item in dataset:
    print(item)
RESULTS["records"] = [item.numpy() for item in dataset]
# [cell 57]
# extra code – shows how to read multiple files in parallel and interleave them

filepaths = [_tmp + "/my_test_{}.tfrecord".format(i) for i in range(5)]
for i, filepath in enumerate(filepaths):
    with tf.io.TFRecordWriter(filepath) as f:
        for j in range(3):
            f.write("File {} record {}".format(i, j).encode("utf-8"))

dataset = tf.data.TFRecordDataset(filepaths, num_parallel_reads=3)
for item in dataset:
    print(item)
RESULTS["interleaved_records"] = [item.numpy() for item in dataset]
# [cell 59]
options = tf.io.TFRecordOptions(compression_type="GZIP")
with tf.io.TFRecordWriter(_tmp + "/my_compressed.tfrecord", options) as f:
    f.write(b"Compress, compress, compress!")
# [cell 60]
dataset = tf.data.TFRecordDataset([_tmp + "/my_compressed.tfrecord"],
                                  compression_type="GZIP")
# [cell 61]
# extra code – shows that the data is decompressed correctly
for item in dataset:
    print(item)
RESULTS["decompressed_records"] = [item.numpy() for item in dataset]
# [cell 86]
from tensorflow.train import BytesList, FloatList, Int64List
from tensorflow.train import Feature, Features, Example

person_example = Example(
    features=Features(
        feature={
            "name": Feature(bytes_list=BytesList(value=[b"Alice"])),
            "id": Feature(int64_list=Int64List(value=[123])),
            "emails": Feature(bytes_list=BytesList(value=[b"a@b.com",
                                                          b"c@d.com"]))
        }))
# [cell 87]
with tf.io.TFRecordWriter(_tmp + "/my_contacts.tfrecord") as f:
    for _ in range(5):
        f.write(person_example.SerializeToString())
RESULTS["person_example_serialized_length"] = len(person_example.SerializeToString())
# [cell 89]
feature_description = {
    "name": tf.io.FixedLenFeature([], tf.string, default_value=""),
    "id": tf.io.FixedLenFeature([], tf.int64, default_value=0),
    "emails": tf.io.VarLenFeature(tf.string),
}

def parse(serialized_example):
    return tf.io.parse_single_example(serialized_example, feature_description)

dataset = tf.data.TFRecordDataset([_tmp + "/my_contacts.tfrecord"]).map(parse)
for parsed_example in dataset:
    print(parsed_example)
    RESULTS.setdefault("parsed_names", []).append(parsed_example["name"])
    RESULTS.setdefault("parsed_ids", []).append(parsed_example["id"])
# [cell 90]
RESULTS["emails_to_dense"] = tf.sparse.to_dense(parsed_example["emails"], default_value=b"")
# [cell 91]
RESULTS["parsed_example_emails_values"] = parsed_example["emails"].values
# [cell 92]
def parse(serialized_examples):
    return tf.io.parse_example(serialized_examples, feature_description)

dataset = tf.data.TFRecordDataset([_tmp + "/my_contacts.tfrecord"]).batch(2).map(parse)
for parsed_examples in dataset:
    print(parsed_examples)  # two examples at a time
# [cell 93]
RESULTS["parsed_examples_name"] = parsed_examples["name"]
RESULTS["parsed_examples_id"] = parsed_examples["id"]
RESULTS["parsed_examples_emails_indices"] = parsed_examples["emails"].indices
RESULTS["parsed_examples_emails_values"] = parsed_examples["emails"].values
RESULTS["parsed_examples_emails_dense_shape"] = parsed_examples["emails"].dense_shape
# [cell 96]
img = np.random.default_rng(42).integers(0, 256, (48, 64, 3)).astype(np.uint8)
# [cell 98]
data = tf.io.encode_jpeg(img)
example_with_image = Example(features=Features(feature={
    "image": Feature(bytes_list=BytesList(value=[data.numpy()]))}))
serialized_example = example_with_image.SerializeToString()
with tf.io.TFRecordWriter(_tmp + "/my_image.tfrecord") as f:
    f.write(serialized_example)
# [cell 100]
feature_description = { "image": tf.io.VarLenFeature(tf.string) }

def parse(serialized_example):
    example_with_image = tf.io.parse_single_example(serialized_example,
                                                    feature_description)
    return tf.io.decode_jpeg(example_with_image["image"].values[0])
    # or you can use tf.io.decode_image() instead

dataset = tf.data.TFRecordDataset(_tmp + "/my_image.tfrecord").map(parse)
for image in dataset:
    RESULTS["decoded_image_shape"] = image.shape
    RESULTS["decoded_image_mean"] = tf.reduce_mean(tf.cast(image, tf.float32))
    RESULTS["decoded_image_abs_error_vs_original"] = tf.reduce_mean(tf.abs(tf.cast(image, tf.float32) - img.astype(np.float32)))
# [cell 103]
tensor = tf.constant([[0., 1.], [2., 3.], [4., 5.]])
serialized = tf.io.serialize_tensor(tensor)
RESULTS["serialized_tensor"] = serialized
# [cell 104]
RESULTS["parsed_tensor"] = tf.io.parse_tensor(serialized, out_type=tf.float32)
# [cell 105]
sparse_tensor = parsed_example["emails"]
serialized_sparse = tf.io.serialize_sparse(sparse_tensor)
RESULTS["serialized_sparse"] = serialized_sparse
# [cell 106]
RESULTS["byteslist_value_len"] = len(BytesList(value=serialized_sparse.numpy()).value)
# [cell 109]
from tensorflow.train import FeatureList, FeatureLists, SequenceExample

context = Features(feature={
    "author_id": Feature(int64_list=Int64List(value=[123])),
    "title": Feature(bytes_list=BytesList(value=[b"A", b"desert", b"place", b"."])),
    "pub_date": Feature(int64_list=Int64List(value=[1623, 12, 25]))
})

content = [["When", "shall", "we", "three", "meet", "again", "?"],
           ["In", "thunder", ",", "lightning", ",", "or", "in", "rain", "?"]]
comments = [["When", "the", "hurlyburly", "'s", "done", "."],
            ["When", "the", "battle", "'s", "lost", "and", "won", "."]]

def words_to_feature(words):
    return Feature(bytes_list=BytesList(value=[word.encode("utf-8")
                                               for word in words]))

content_features = [words_to_feature(sentence) for sentence in content]
comments_features = [words_to_feature(comment) for comment in comments]
            
sequence_example = SequenceExample(
    context=context,
    feature_lists=FeatureLists(feature_list={
        "content": FeatureList(feature=content_features),
        "comments": FeatureList(feature=comments_features)
    }))
# [cell 110]
RESULTS["sequence_example_content_lengths"] = [len(f.bytes_list.value) for f in sequence_example.feature_lists.feature_list["content"].feature]
# [cell 111]
serialized_sequence_example = sequence_example.SerializeToString()
# [cell 112]
context_feature_descriptions = {
    "author_id": tf.io.FixedLenFeature([], tf.int64, default_value=0),
    "title": tf.io.VarLenFeature(tf.string),
    "pub_date": tf.io.FixedLenFeature([3], tf.int64, default_value=[0, 0, 0]),
}
sequence_feature_descriptions = {
    "content": tf.io.VarLenFeature(tf.string),
    "comments": tf.io.VarLenFeature(tf.string),
}
# [cell 113]
parsed_context, parsed_feature_lists = tf.io.parse_single_sequence_example(
    serialized_sequence_example, context_feature_descriptions,
    sequence_feature_descriptions)
parsed_content = tf.RaggedTensor.from_sparse(parsed_feature_lists["content"])
# [cell 114]
RESULTS["parsed_context_author_id"] = parsed_context["author_id"]
RESULTS["parsed_context_pub_date"] = parsed_context["pub_date"]
# [cell 115]
RESULTS["parsed_context_title_values"] = parsed_context["title"].values
# [cell 116]
RESULTS["parsed_comments_to_dense"] = tf.sparse.to_dense(parsed_feature_lists["comments"])
RESULTS["parsed_content_dense_shape"] = parsed_feature_lists["content"].dense_shape
# [cell 117]
print(tf.RaggedTensor.from_sparse(parsed_feature_lists["content"]))
RESULTS["parsed_content_row_lengths"] = parsed_content.row_lengths()
RESULTS["parsed_content_flat_values"] = parsed_content.flat_values

for _k, _v in RESULTS.items():
    if isinstance(_v, tf.Tensor) and _v.dtype == tf.string:
        RESULTS[_k] = np.asarray(_v.numpy()).astype("S")
