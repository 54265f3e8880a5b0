"""Title: TFRecord and tf.train.Example (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/load_data/tfrecord.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: `_int64_feature` passes `int(value)` to Int64List (the protobuf that TF 2.21 installs
rejects a bool, Python's or NumPy's, in an Int64List: TypeError/AttributeError); np.random.seed(0) added (the synthetic observations are unseeded); n_observations
1e4 -> 200; the file written in a temporary directory; `!du -sh` -> os.path.getsize; the image
section (two JPEGs downloaded with keras.utils.get_file, shown with IPython.display) not
transcribed (no network); prints and displayed values recorded in RESULTS (the serialized float
Feature as a latin-1 string; a serialized Example by its length and the text format of its parse,
since the serialized bytes of the same Example (the order of its map entries) differed between two
TensorFlow processes; parsed features).
"""
import os
import tempfile

import tensorflow as tf

import numpy as np

np.random.seed(0)
RESULTS = {}
_tmp = tempfile.mkdtemp()


def _bytes_feature(value):
    """Returns a bytes_list from a string / byte."""
    if isinstance(value, type(tf.constant(0))):
        value = value.numpy()  # BytesList won't unpack a string from an EagerTensor.
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=[value]))


def _float_feature(value):
    """Returns a float_list from a float / double."""
    return tf.train.Feature(float_list=tf.train.FloatList(value=[value]))


def _int64_feature(value):
    """Returns an int64_list from a bool / enum / int / uint."""
    return tf.train.Feature(int64_list=tf.train.Int64List(value=[int(value)]))


RESULTS["printed_features"] = [str(_bytes_feature(b'test_string')),
                               str(_bytes_feature(u'test_bytes'.encode('utf-8'))),
                               str(_float_feature(np.exp(1))),
                               str(_int64_feature(True)),
                               str(_int64_feature(1))]

feature = _float_feature(np.exp(1))

RESULTS["feature_serialized"] = feature.SerializeToString().decode("latin-1")

# The number of observations in the dataset.
n_observations = int(200)

# Boolean feature, encoded as False or True.
feature0 = np.random.choice([False, True], n_observations)

# Integer feature, random from 0 to 4.
feature1 = np.random.randint(0, 5, n_observations)

# String feature.
strings = np.array([b'cat', b'dog', b'chicken', b'horse', b'goat'])
feature2 = strings[feature1]

# Float feature, from a standard normal distribution.
feature3 = np.random.randn(n_observations)


@tf.py_function(Tout=tf.string)
def serialize_example(feature0, feature1, feature2, feature3):
    """
    Creates a tf.train.Example message ready to be written to a file.
    """
    feature = {
        'feature0': _int64_feature(feature0),
        'feature1': _int64_feature(feature1),
        'feature2': _bytes_feature(feature2),
        'feature3': _float_feature(feature3),
    }

    example_proto = tf.train.Example(features=tf.train.Features(feature=feature))
    return example_proto.SerializeToString()


example_observation = [False, 4, b'goat', 0.9876]
serialized_example = serialize_example(*example_observation)
RESULTS["serialized_example_length"] = len(serialized_example.numpy())

example_proto = tf.train.Example.FromString(serialized_example.numpy())
RESULTS["example_proto"] = str(example_proto)

filename = os.path.join(_tmp, 'test.tfrecord')

# Write the `tf.train.Example` observations to the file.
with tf.io.TFRecordWriter(filename) as writer:
    for i in range(n_observations):
        example = serialize_example(feature0[i], feature1[i], feature2[i], feature3[i])
        writer.write(example.numpy())

RESULTS["file_size"] = os.path.getsize(filename)

filenames = [filename]
raw_dataset = tf.data.TFRecordDataset(filenames)

for raw_record in raw_dataset.take(1):
    example = tf.train.Example()
    example.ParseFromString(raw_record.numpy())
RESULTS["first_example"] = str(example)

result = {}
# example.features.feature is the dictionary
for key, feature in example.features.feature.items():
    kind = feature.WhichOneof('kind')
    result[key] = np.array(getattr(feature, kind).value)
RESULTS["result_keys"] = sorted(result)
RESULTS["result_feature3"] = result["feature3"]
RESULTS["result_feature2"] = result["feature2"][0].decode()

filenames = [filename]
raw_dataset = tf.data.TFRecordDataset(filenames)
RESULTS["raw_records"] = [str(tf.train.Example.FromString(r.numpy())) for r in raw_dataset.take(10)]

# Create a description of the features.
feature_description = {
    'feature0': tf.io.FixedLenFeature([], tf.int64, default_value=0),
    'feature1': tf.io.FixedLenFeature([], tf.int64, default_value=0),
    'feature2': tf.io.FixedLenFeature([], tf.string, default_value=''),
    'feature3': tf.io.FixedLenFeature([], tf.float32, default_value=0.0),
}


def _parse_function(example_proto):
    # Parse the input `tf.train.Example` proto using the dictionary above.
    return tf.io.parse_single_example(example_proto, feature_description)


parsed_dataset = raw_dataset.map(_parse_function)
RESULTS["parsed_spec"] = sorted(f"{k}:{v.dtype.name}:{v.shape}" for k, v in parsed_dataset.element_spec.items())

records = list(parsed_dataset.take(10))
RESULTS["parsed_feature0"] = [r['feature0'] for r in records]
RESULTS["parsed_feature1"] = [r['feature1'] for r in records]
RESULTS["parsed_feature2"] = [r['feature2'].numpy().decode() for r in records]
RESULTS["parsed_feature3"] = [r['feature3'] for r in records]
