"""Title: Image classification with Vision Transformer (keras.io example, vision)
Source: https://github.com/keras-team/keras-io/blob/07721306fc501d34bafa970491ede96f33f25a77/examples/vision/image_classification_with_vision_transformer.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: os.environ["KERAS_BACKEND"] = "jax" -> "tensorflow" (the measurement is of TensorFlow);
matplotlib removed (the patch and history plots; the patches are still computed and recorded);
keras.utils.set_random_seed(0) at the top (initializers, dropout, the random augmentation
layers, fit's validation split and np.random.choice are unseeded); CIFAR-100 (50000 + 10000
32x32x3 uint8 images, (n, 1) uint8 labels) -> 128 + 32 synthetic images and labels of the same
dtypes and shapes from a seeded NumPy generator; smaller hyperparameters so it runs in seconds
on one thread: batch_size 256 -> 32, num_epochs 10 -> 2, image_size 72 -> 24 (patch_size 6
kept: 16 patches), projection_dim 64 -> 16, transformer_layers 8 -> 2, mlp_head_units
[2048, 1024] -> [64, 32]; the checkpoint path /tmp/checkpoint.weights.h5 -> a tempfile
directory; verbose=0 on fit/evaluate; the patches, history, test accuracy and predictions ->
RESULTS.
"""
import tempfile

import numpy as np

RESULTS = {}
_rng = np.random.default_rng(0)
_tmp = tempfile.mkdtemp()

import os

os.environ["KERAS_BACKEND"] = "tensorflow"  # @param ["tensorflow", "jax", "torch"]

import keras
from keras import layers
from keras import ops

import numpy as np
keras.utils.set_random_seed(0)

"""
## Prepare the data
"""

num_classes = 100
input_shape = (32, 32, 3)

(x_train, y_train), (x_test, y_test) = (
    _rng.integers(0, 256, (128, 32, 32, 3)).astype(np.uint8),
    _rng.integers(0, 100, (128, 1)).astype(np.uint8)), (
    _rng.integers(0, 256, (32, 32, 32, 3)).astype(np.uint8),
    _rng.integers(0, 100, (32, 1)).astype(np.uint8))

print(f"x_train shape: {x_train.shape} - y_train shape: {y_train.shape}")
print(f"x_test shape: {x_test.shape} - y_test shape: {y_test.shape}")


"""
## Configure the hyperparameters
"""

learning_rate = 0.001
weight_decay = 0.0001
batch_size = 32
num_epochs = 2  # For real training, use num_epochs=100. 10 is a test value
image_size = 24  # We'll resize input images to this size
patch_size = 6  # Size of the patches to be extract from the input images
num_patches = (image_size // patch_size) ** 2
projection_dim = 16
num_heads = 4
hidden_dim = projection_dim * num_heads
transformer_units = [
    hidden_dim * 2,
    hidden_dim,
]  # Size of the transformer layers
transformer_layers = 2
mlp_head_units = [
    64,
    32,
]  # Size of the dense layers of the final classifier


"""
## Use data augmentation
"""

data_augmentation = keras.Sequential(
    [
        layers.Normalization(),
        layers.Resizing(image_size, image_size),
        layers.RandomFlip("horizontal"),
        layers.RandomRotation(factor=0.02),
        layers.RandomZoom(height_factor=0.2, width_factor=0.2),
    ],
    name="data_augmentation",
)
# Compute the mean and the variance of the training data for normalization.
data_augmentation.layers[0].adapt(x_train)
RESULTS["norm_mean"] = data_augmentation.layers[0].mean
RESULTS["norm_variance"] = data_augmentation.layers[0].variance


def mlp(x, hidden_units, dropout_rate):
    for units in hidden_units:
        x = layers.Dense(units, activation=keras.activations.gelu)(x)
        x = layers.Dropout(dropout_rate)(x)
    return x


class Patches(layers.Layer):
    def __init__(self, patch_size):
        super().__init__()
        self.patch_size = patch_size

    def call(self, images):
        input_shape = ops.shape(images)
        batch_size = input_shape[0]
        height = input_shape[1]
        width = input_shape[2]
        channels = input_shape[3]
        num_patches_h = height // self.patch_size
        num_patches_w = width // self.patch_size
        patches = keras.ops.image.extract_patches(images, size=self.patch_size)
        patches = ops.reshape(
            patches,
            (
                batch_size,
                num_patches_h * num_patches_w,
                self.patch_size * self.patch_size * channels,
            ),
        )
        return patches

    def get_config(self):
        config = super().get_config()
        config.update({"patch_size": self.patch_size})
        return config


"""
Let's display patches for a sample image
"""

image = x_train[np.random.choice(range(x_train.shape[0]))]
RESULTS["sample_image_sum"] = int(image.astype("int64").sum())

resized_image = ops.image.resize(
    ops.convert_to_tensor([image], dtype="float32"), size=(image_size, image_size)
)
patches = Patches(patch_size)(resized_image)
print(f"Image size: {image_size} X {image_size}")
print(f"Patch size: {patch_size} X {patch_size}")
print(f"Patches per image: {patches.shape[1]}")
print(f"Elements per patch: {patches.shape[-1]}")
RESULTS["resized_image"] = resized_image
RESULTS["patches"] = patches

n = int(np.sqrt(patches.shape[1]))
_patch_imgs = []
for i, patch in enumerate(patches[0]):
    patch_img = ops.reshape(patch, (patch_size, patch_size, 3))
    _patch_imgs.append(ops.convert_to_numpy(patch_img).astype("uint8"))
RESULTS["patch_images"] = np.stack(_patch_imgs)


class PatchEncoder(layers.Layer):
    def __init__(self, num_patches, projection_dim):
        super().__init__()
        self.num_patches = num_patches
        self.projection = layers.Dense(units=projection_dim)
        self.position_embedding = layers.Embedding(
            input_dim=num_patches, output_dim=projection_dim
        )

    def call(self, patch):
        positions = ops.expand_dims(
            ops.arange(start=0, stop=self.num_patches, step=1), axis=0
        )
        projected_patches = self.projection(patch)
        encoded = projected_patches + self.position_embedding(positions)
        return encoded

    def get_config(self):
        config = super().get_config()
        config.update({"num_patches": self.num_patches})
        return config


def create_vit_classifier():
    inputs = keras.Input(shape=input_shape)
    # Augment data.
    augmented = data_augmentation(inputs)
    # Create patches.
    patches = Patches(patch_size)(augmented)
    # Encode patches.
    encoded_patches = PatchEncoder(num_patches, hidden_dim)(patches)

    # Create multiple layers of the Transformer block.
    for _ in range(transformer_layers):
        # Layer normalization 1.
        x1 = layers.LayerNormalization(epsilon=1e-6)(encoded_patches)
        # Create a multi-head attention layer.
        attention_output = layers.MultiHeadAttention(
            num_heads=num_heads, key_dim=projection_dim, dropout=0.1
        )(x1, x1)
        # Skip connection 1.
        x2 = layers.Add()([attention_output, encoded_patches])
        # Layer normalization 2.
        x3 = layers.LayerNormalization(epsilon=1e-6)(x2)
        # MLP.
        x3 = mlp(x3, hidden_units=transformer_units, dropout_rate=0.1)
        # Skip connection 2.
        encoded_patches = layers.Add()([x3, x2])

    # Create a [batch_size, projection_dim] tensor.
    representation = layers.LayerNormalization(epsilon=1e-6)(encoded_patches)
    representation = layers.Flatten()(representation)
    representation = layers.Dropout(0.5)(representation)
    # Add MLP.
    features = mlp(representation, hidden_units=mlp_head_units, dropout_rate=0.5)
    # Classify outputs.
    logits = layers.Dense(num_classes)(features)
    # Create the Keras model.
    model = keras.Model(inputs=inputs, outputs=logits)
    return model


def run_experiment(model):
    optimizer = keras.optimizers.AdamW(
        learning_rate=learning_rate, weight_decay=weight_decay
    )

    model.compile(
        optimizer=optimizer,
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=[
            keras.metrics.SparseCategoricalAccuracy(name="accuracy"),
            keras.metrics.SparseTopKCategoricalAccuracy(5, name="top-5-accuracy"),
        ],
    )

    checkpoint_filepath = os.path.join(_tmp, "checkpoint.weights.h5")
    checkpoint_callback = keras.callbacks.ModelCheckpoint(
        checkpoint_filepath,
        monitor="val_accuracy",
        save_best_only=True,
        save_weights_only=True,
    )

    history = model.fit(
        x=x_train,
        y=y_train,
        batch_size=batch_size,
        epochs=num_epochs,
        validation_split=0.1,
        callbacks=[checkpoint_callback],
        verbose=0,
    )

    model.load_weights(checkpoint_filepath)
    _, accuracy, top_5_accuracy = model.evaluate(x_test, y_test, verbose=0)
    print(f"Test accuracy: {round(accuracy * 100, 2)}%")
    print(f"Test top 5 accuracy: {round(top_5_accuracy * 100, 2)}%")
    RESULTS["test_accuracy"] = accuracy
    RESULTS["test_top5_accuracy"] = top_5_accuracy

    return history


vit_classifier = create_vit_classifier()
history = run_experiment(vit_classifier)
for _k, _v in history.history.items():
    RESULTS["history_" + _k] = _v
RESULTS["count_params"] = vit_classifier.count_params()
RESULTS["predict_logits"] = vit_classifier.predict(x_test[:8], verbose=0)
