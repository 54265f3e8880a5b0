"""Title: Creating TFRecords (Keras example)
Source: https://github.com/keras-team/keras-io/blob/b8bb4c0d5068d64290003740c2ef9e703eefa751/examples/keras_recipes/creating_tfrecords.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: the COCO2017 val images and annotations (downloaded with tf.keras.utils.get_file; 5,000
JPEG files, 36,781 annotations) -> 20 synthetic annotations (seeded NumPy ids, categories, boxes)
in datasets/annotations/instances_val2017.json and 12 synthetic 40x48 JPEG images (written with
Pillow) in datasets/val2017/, in a temporary directory that the program works in (os.chdir);
num_samples 4096 -> 8; the image size 224 -> 32 (prepare_sample and the Input);
batch_size 32 -> 4, steps_per_epoch 50 -> 2; verbose=1 -> 0; keras.utils.set_random_seed(0)
(shuffle and the model's initializers are unseeded); the model's kernels fixed (fix_weights);
matplotlib removed; prints -> RESULTS (the annotation, the parsed features, the history).
"""

import os
import json
import pprint
import tempfile
import numpy as np
import tensorflow as tf
from PIL import Image
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}
os.chdir(tempfile.mkdtemp())

root_dir = "datasets"
tfrecords_dir = "tfrecords"
images_dir = os.path.join(root_dir, "val2017")
annotations_dir = os.path.join(root_dir, "annotations")
annotation_file = os.path.join(annotations_dir, "instances_val2017.json")

_rng = np.random.default_rng(0)
os.makedirs(images_dir)
os.makedirs(annotations_dir)
_image_ids = [int(i) for i in _rng.choice(100000, 12, replace=False)]
for _image_id in _image_ids:
    _pixels = np.kron(_rng.integers(0, 256, (5, 6, 3)), np.ones((8, 8, 1))).astype(np.uint8)
    Image.fromarray(_pixels).save(f"{images_dir}/{_image_id:012d}.jpg", quality=90)
_annotations = []
for _k in range(20):
    _box = [round(float(v), 2) for v in _rng.uniform(0, 40, 4)]
    _annotations.append({"segmentation": [[float(v) for v in _rng.uniform(0, 40, 6).round(2)]],
                         "area": round(_box[2] * _box[3], 4), "iscrowd": 0,
                         "image_id": _image_ids[int(_rng.integers(0, 12))], "bbox": _box,
                         "category_id": int(_rng.integers(1, 91)), "id": int(_rng.integers(1, 10**6))})
with open(annotation_file, "w") as _fh:
    json.dump({"annotations": _annotations}, _fh)

print("The COCO dataset has been downloaded and extracted successfully.")

with open(annotation_file, "r") as f:
    annotations = json.load(f)["annotations"]

print(f"Number of images: {len(annotations)}")

pprint.pprint(annotations[6])

num_samples = 8
num_tfrecords = len(annotations) // num_samples
if len(annotations) % num_samples:
    num_tfrecords += 1  # add one record if there are any remaining samples

if not os.path.exists(tfrecords_dir):
    os.makedirs(tfrecords_dir)  # creating TFRecords output folder


def image_feature(value):
    """Returns a bytes_list from a string / byte."""
    return tf.train.Feature(
        bytes_list=tf.train.BytesList(value=[tf.io.encode_jpeg(value).numpy()])
    )


def bytes_feature(value):
    """Returns a bytes_list from a string / byte."""
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=[value.encode()]))


def float_feature(value):
    """Returns a float_list from a float / double."""
    return tf.train.Feature(float_list=tf.train.FloatList(value=[value]))


def int64_feature(value):
    """Returns an int64_list from a bool / enum / int / uint."""
    return tf.train.Feature(int64_list=tf.train.Int64List(value=[value]))


def float_feature_list(value):
    """Returns a list of float_list from a float / double."""
    return tf.train.Feature(float_list=tf.train.FloatList(value=value))


def create_example(image, path, example):
    feature = {
        "image": image_feature(image),
        "path": bytes_feature(path),
        "area": float_feature(example["area"]),
        "bbox": float_feature_list(example["bbox"]),
        "category_id": int64_feature(example["category_id"]),
        "id": int64_feature(example["id"]),
        "image_id": int64_feature(example["image_id"]),
    }
    return tf.train.Example(features=tf.train.Features(feature=feature))


def parse_tfrecord_fn(example):
    feature_description = {
        "image": tf.io.FixedLenFeature([], tf.string),
        "path": tf.io.FixedLenFeature([], tf.string),
        "area": tf.io.FixedLenFeature([], tf.float32),
        "bbox": tf.io.VarLenFeature(tf.float32),
        "category_id": tf.io.FixedLenFeature([], tf.int64),
        "id": tf.io.FixedLenFeature([], tf.int64),
        "image_id": tf.io.FixedLenFeature([], tf.int64),
    }
    example = tf.io.parse_single_example(example, feature_description)
    example["image"] = tf.io.decode_jpeg(example["image"], channels=3)
    example["bbox"] = tf.sparse.to_dense(example["bbox"])
    return example


for tfrec_num in range(num_tfrecords):
    samples = annotations[(tfrec_num * num_samples) : ((tfrec_num + 1) * num_samples)]

    with tf.io.TFRecordWriter(
        tfrecords_dir + "/file_%.2i-%i.tfrec" % (tfrec_num, len(samples))
    ) as writer:
        for sample in samples:
            image_path = f"{images_dir}/{sample['image_id']:012d}.jpg"
            image = tf.io.decode_jpeg(tf.io.read_file(image_path))
            example = create_example(image, image_path, sample)
            writer.write(example.SerializeToString())
RESULTS["tfrecord_files"] = sorted(os.listdir(tfrecords_dir))

raw_dataset = tf.data.TFRecordDataset(f"{tfrecords_dir}/file_00-{num_samples}.tfrec")
parsed_dataset = raw_dataset.map(parse_tfrecord_fn)

for features in parsed_dataset.take(1):
    for key in features.keys():
        if key != "image":
            print(f"{key}: {features[key]}")
            RESULTS["parsed_" + key] = (features[key].numpy().decode() if key == "path"
                                        else features[key])

    print(f"Image shape: {features['image'].shape}")
    RESULTS["image_shape"] = features["image"].shape.as_list()
    RESULTS["image_mean"] = tf.reduce_mean(tf.cast(features["image"], tf.float32))


def prepare_sample(features):
    image = tf.image.resize(features["image"], size=(32, 32))
    return image, features["category_id"]


def get_dataset(filenames, batch_size):
    dataset = (
        tf.data.TFRecordDataset(filenames, num_parallel_reads=AUTOTUNE)
        .map(parse_tfrecord_fn, num_parallel_calls=AUTOTUNE)
        .map(prepare_sample, num_parallel_calls=AUTOTUNE)
        .shuffle(batch_size * 10)
        .batch(batch_size)
        .prefetch(AUTOTUNE)
    )
    return dataset


train_filenames = tf.io.gfile.glob(f"{tfrecords_dir}/*.tfrec")
batch_size = 4
epochs = 1
steps_per_epoch = 2
AUTOTUNE = tf.data.AUTOTUNE
RESULTS["train_filenames"] = sorted(train_filenames)

input_tensor = tf.keras.layers.Input(shape=(32, 32, 3), name="image")
model = tf.keras.applications.EfficientNetB0(
    input_tensor=input_tensor, weights=None, classes=91
)
fix_weights(model)


model.compile(
    optimizer=tf.keras.optimizers.Adam(),
    loss=tf.keras.losses.SparseCategoricalCrossentropy(),
    metrics=[tf.keras.metrics.SparseCategoricalAccuracy()],
)


history = model.fit(
    x=get_dataset(train_filenames, batch_size),
    epochs=epochs,
    steps_per_epoch=steps_per_epoch,
    verbose=0,
)
RESULTS["loss"] = history.history["loss"]
RESULTS["accuracy"] = history.history["sparse_categorical_accuracy"]
