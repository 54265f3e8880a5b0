"""Title: FixRes: Fixing train-test resolution discrepancy (Keras example, Keras 3 port)
Source: https://github.com/keras-team/keras/blob/2588a15440a10de8d0cc10b50c21ede333a2bd01/examples/keras_io/vision/fixres.py
Licence: Apache-2.0 (keras-team/keras)
Changed: tfds.load("tf_flowers", ...) (a download; uint8 RGB images of varying sizes with int64
labels) -> tf.data.Dataset.from_tensor_slices of synthetic uint8 120x150x3 images (10 train, 4
validation) and int64 labels in [0, 5) from a seeded NumPy generator; smaller_size 128 -> 64 and
bigger_size 224 -> 96 (one thread); the three trainings' epochs 30/10/30 -> 1; fit and evaluate
verbose=0;
matplotlib (visualize_dataset's 5x5 grid) removed, its print kept; keras.utils.set_random_seed(0)
(the crops, flips, shuffles and initializers are unseeded); sample batches, accuracies and
predictions -> RESULTS.
"""

import keras
from keras import layers
import tensorflow as tf  # just for image processing and pipeline

import numpy as np

keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)


def _tf_flowers(n):
    return tf.data.Dataset.from_tensor_slices(
        (_rng.integers(0, 256, (n, 120, 150, 3)).astype(np.uint8), _rng.integers(0, 5, n).astype(np.int64))
    )


train_dataset, val_dataset = _tf_flowers(10), _tf_flowers(4)

num_train = train_dataset.cardinality()
num_val = val_dataset.cardinality()
print(f"Number of training examples: {num_train}")
print(f"Number of validation examples: {num_val}")


# Reference: https://github.com/facebookresearch/FixRes/blob/main/transforms_v2.py.

batch_size = 32
auto = tf.data.AUTOTUNE
smaller_size = 64
bigger_size = 96

size_for_resizing = int((bigger_size / smaller_size) * bigger_size)
central_crop_layer = layers.CenterCrop(bigger_size, bigger_size)


def preprocess_initial(train, image_size):
    """Initial preprocessing function for training on smaller resolution.

    For training, do random_horizontal_flip -> random_crop.
    For validation, just resize.
    No color-jittering has been used.
    """

    def _pp(image, label, train):
        if train:
            channels = image.shape[-1]
            begin, size, _ = tf.image.sample_distorted_bounding_box(
                tf.shape(image),
                tf.zeros([0, 0, 4], tf.float32),
                area_range=(0.05, 1.0),
                min_object_covered=0,
                use_image_if_no_bounding_boxes=True,
            )
            image = tf.slice(image, begin, size)

            image.set_shape([None, None, channels])
            image = tf.image.resize(image, [image_size, image_size])
            image = tf.image.random_flip_left_right(image)
        else:
            image = tf.image.resize(image, [image_size, image_size])

        return image, label

    return _pp


def preprocess_finetune(image, label, train):
    """Preprocessing function for fine-tuning on a higher resolution.

    For training, resize to a bigger resolution to maintain the ratio ->
        random_horizontal_flip -> center_crop.
    For validation, do the same without any horizontal flipping.
    No color-jittering has been used.
    """
    image = tf.image.resize(image, [size_for_resizing, size_for_resizing])
    if train:
        image = tf.image.random_flip_left_right(image)
    image = central_crop_layer(image[None, ...])[0]

    return image, label


def make_dataset(
    dataset: tf.data.Dataset,
    train: bool,
    image_size: int = smaller_size,
    fixres: bool = True,
    num_parallel_calls=auto,
):
    if image_size not in [smaller_size, bigger_size]:
        raise ValueError(f"{image_size} resolution is not supported.")

    # Determine which preprocessing function we are using.
    if image_size == smaller_size:
        preprocess_func = preprocess_initial(train, image_size)
    elif not fixres and image_size == bigger_size:
        preprocess_func = preprocess_initial(train, image_size)
    else:
        preprocess_func = preprocess_finetune

    if train:
        dataset = dataset.shuffle(batch_size * 10)

    return (
        dataset.map(
            lambda x, y: preprocess_func(x, y, train),
            num_parallel_calls=num_parallel_calls,
        )
        .batch(batch_size)
        .prefetch(num_parallel_calls)
    )


initial_train_dataset = make_dataset(
    train_dataset, train=True, image_size=smaller_size
)
initial_val_dataset = make_dataset(
    val_dataset, train=False, image_size=smaller_size
)

finetune_train_dataset = make_dataset(
    train_dataset, train=True, image_size=bigger_size
)
finetune_val_dataset = make_dataset(
    val_dataset, train=False, image_size=bigger_size
)

vanilla_train_dataset = make_dataset(
    train_dataset, train=True, image_size=bigger_size, fixres=False
)
vanilla_val_dataset = make_dataset(
    val_dataset, train=False, image_size=bigger_size, fixres=False
)


def visualize_dataset(batch_images):
    print(f"Batch shape: {batch_images.shape}.")


# Smaller resolution.
initial_sample_images, _ = next(iter(initial_train_dataset))
visualize_dataset(initial_sample_images)
RESULTS["initial_sample"] = initial_sample_images[:2, ::8, ::8]

# Bigger resolution, only for fine-tuning.
finetune_sample_images, _ = next(iter(finetune_train_dataset))
visualize_dataset(finetune_sample_images)
RESULTS["finetune_sample"] = finetune_sample_images[:2, ::8, ::8]

# Bigger resolution, with the same augmentation transforms as
# the smaller resolution dataset.
vanilla_sample_images, _ = next(iter(vanilla_train_dataset))
visualize_dataset(vanilla_sample_images)
RESULTS["vanilla_sample"] = vanilla_sample_images[:2, ::8, ::8]


def get_training_model(num_classes=5):
    inputs = layers.Input((None, None, 3))
    resnet_base = keras.applications.ResNet50V2(
        include_top=False, weights=None, pooling="avg"
    )
    resnet_base.trainable = True

    x = layers.Rescaling(scale=1.0 / 127.5, offset=-1)(inputs)
    x = resnet_base(x)
    outputs = layers.Dense(num_classes, activation="softmax")(x)
    return keras.Model(inputs, outputs)


_accuracies = []


def train_and_evaluate(
    model,
    train_ds,
    val_ds,
    epochs,
    learning_rate=1e-3,
    use_early_stopping=False,
):
    optimizer = keras.optimizers.Adam(learning_rate=learning_rate)
    model.compile(
        optimizer=optimizer,
        loss="sparse_categorical_crossentropy",
        metrics=["accuracy"],
    )

    if use_early_stopping:
        es_callback = keras.callbacks.EarlyStopping(patience=5)
        callbacks = [es_callback]
    else:
        callbacks = None

    model.fit(
        train_ds,
        validation_data=val_ds,
        epochs=epochs,
        callbacks=callbacks,
        verbose=0,
    )

    _, accuracy = model.evaluate(val_ds, verbose=0)
    print(f"Top-1 accuracy on the validation set: {accuracy*100:.2f}%.")
    _accuracies.append(accuracy)
    return model


epochs = 1

smaller_res_model = get_training_model()
smaller_res_model = train_and_evaluate(
    smaller_res_model, initial_train_dataset, initial_val_dataset, epochs
)


for layer in smaller_res_model.layers[2].layers:
    layer.trainable = False

smaller_res_model.layers[2].get_layer("post_bn").trainable = True

epochs = 1

# Use a lower learning rate during fine-tuning.
bigger_res_model = train_and_evaluate(
    smaller_res_model,
    finetune_train_dataset,
    finetune_val_dataset,
    epochs,
    learning_rate=1e-4,
)


epochs = 1

vanilla_bigger_res_model = get_training_model()
vanilla_bigger_res_model = train_and_evaluate(
    vanilla_bigger_res_model, vanilla_train_dataset, vanilla_val_dataset, epochs
)
RESULTS["accuracies"] = _accuracies
RESULTS["bigger_res_predictions"] = bigger_res_model.predict(finetune_val_dataset, verbose=0)
RESULTS["vanilla_predictions"] = vanilla_bigger_res_model.predict(vanilla_val_dataset, verbose=0)
RESULTS["trainable_after_freeze"] = len(bigger_res_model.trainable_weights)
