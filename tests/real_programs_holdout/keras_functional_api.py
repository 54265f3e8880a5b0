"""Title: The Functional API (Keras guide)
Source: https://github.com/keras-team/keras-io/blob/14a2af7ef8d0558837cb98378504421e55f0d980/guides/functional_api.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: the guide's sections up to and including the toy ResNet (the later sections, from
"Shared layers" on, not transcribed); MNIST/CIFAR-10 -> synthetic uint8 images and labels of the
same shapes from a seeded NumPy generator, 60000/10000 -> 320/64 (MNIST) and 1000 -> 80 (CIFAR);
the dummy np.random data of the multi-input model -> a seeded generator, 1280 rows -> 64, body
length 100 -> 20; epochs kept (2, 1); verbose=0; keras.utils.set_random_seed(0) (fit's shuffling,
Dropout); each model's kernels fixed (fix_weights); `model.save("path_to_my_model")` ->
"path_to_my_model.keras" in a temporary directory (Keras 3 requires the suffix: the original raises
ValueError under TF 2.21); plot_model and summary() -> the models' parameter counts and output
shapes; printed values recorded in RESULTS.
"""
import os
import tempfile

import numpy as np
import tensorflow as tf  # noqa: F401 (as published)
from tensorflow import keras
from tensorflow.keras import layers
from _corpus import fix_weights

keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)
_tmp = tempfile.mkdtemp()

inputs = keras.Input(shape=(784,))
img_inputs = keras.Input(shape=(32, 32, 3))
RESULTS["inputs_shape"] = [-1 if d is None else d for d in inputs.shape]
RESULTS["inputs_dtype"] = str(inputs.dtype)

dense = layers.Dense(64, activation="relu")
x = dense(inputs)
x = layers.Dense(64, activation="relu")(x)
outputs = layers.Dense(10)(x)

model = keras.Model(inputs=inputs, outputs=outputs, name="mnist_model")
fix_weights(model)
RESULTS["mnist_params"] = model.count_params()

x_train = _rng.integers(0, 256, (320, 28, 28)).astype(np.uint8)
y_train = _rng.integers(0, 10, 320).astype(np.uint8)
x_test = _rng.integers(0, 256, (64, 28, 28)).astype(np.uint8)
y_test = _rng.integers(0, 10, 64).astype(np.uint8)

x_train = x_train.reshape(320, 784).astype("float32") / 255
x_test = x_test.reshape(64, 784).astype("float32") / 255

model.compile(
    loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    optimizer=keras.optimizers.RMSprop(),
    metrics=["accuracy"]
)

history = model.fit(x_train, y_train, batch_size=64, epochs=2, validation_split=0.2, verbose=0)
RESULTS["mnist_history"] = [history.history[k] for k in ("loss", "accuracy", "val_loss", "val_accuracy")]

test_scores = model.evaluate(x_test, y_test, verbose=2)
RESULTS["test_scores"] = test_scores

model.save(os.path.join(_tmp, "path_to_my_model.keras"))
del model
# Recreate the exact same model purely from the file:
model = keras.models.load_model(os.path.join(_tmp, "path_to_my_model.keras"))
RESULTS["reloaded_scores"] = model.evaluate(x_test, y_test, verbose=0)

encoder_input = keras.Input(shape=(28, 28, 1), name="img")
x = layers.Conv2D(16, 3, activation="relu")(encoder_input)
x = layers.Conv2D(32, 3, activation="relu")(x)
x = layers.MaxPooling2D(3)(x)
x = layers.Conv2D(32, 3, activation="relu")(x)
x = layers.Conv2D(16, 3, activation="relu")(x)
encoder_output = layers.GlobalMaxPooling2D()(x)

encoder = keras.Model(encoder_input, encoder_output, name="encoder")
RESULTS["encoder_params"] = encoder.count_params()

x = layers.Reshape((4, 4, 1))(encoder_output)
x = layers.Conv2DTranspose(16, 3, activation="relu")(x)
x = layers.Conv2DTranspose(32, 3, activation="relu")(x)
x = layers.UpSampling2D(3)(x)
x = layers.Conv2DTranspose(16, 3, activation="relu")(x)
decoder_output = layers.Conv2DTranspose(1, 3, activation="relu")(x)

autoencoder = keras.Model(encoder_input, decoder_output, name="autoencoder")
RESULTS["autoencoder_params"] = autoencoder.count_params()
RESULTS["autoencoder_output_shape"] = list(autoencoder.output_shape[1:])

encoder_input = keras.Input(shape=(28, 28, 1), name="original_img")
x = layers.Conv2D(16, 3, activation="relu")(encoder_input)
x = layers.Conv2D(32, 3, activation="relu")(x)
x = layers.MaxPooling2D(3)(x)
x = layers.Conv2D(32, 3, activation="relu")(x)
x = layers.Conv2D(16, 3, activation="relu")(x)
encoder_output = layers.GlobalMaxPooling2D()(x)

encoder = keras.Model(encoder_input, encoder_output, name="encoder")

decoder_input = keras.Input(shape=(16,), name="encoded_img")
x = layers.Reshape((4, 4, 1))(decoder_input)
x = layers.Conv2DTranspose(16, 3, activation="relu")(x)
x = layers.Conv2DTranspose(32, 3, activation="relu")(x)
x = layers.UpSampling2D(3)(x)
x = layers.Conv2DTranspose(16, 3, activation="relu")(x)
decoder_output = layers.Conv2DTranspose(1, 3, activation="relu")(x)

decoder = keras.Model(decoder_input, decoder_output, name="decoder")

autoencoder_input = keras.Input(shape=(28, 28, 1), name="img")
encoded_img = encoder(autoencoder_input)
decoded_img = decoder(encoded_img)
autoencoder = keras.Model(autoencoder_input, decoded_img, name="autoencoder")
fix_weights(autoencoder, seed=1)
RESULTS["nested_params"] = autoencoder.count_params()
RESULTS["nested_layers"] = [l.name for l in autoencoder.layers]
RESULTS["nested_out"] = autoencoder(x_test[:2].reshape(2, 28, 28, 1))


def get_model():
    inputs = keras.Input(shape=(128,))
    outputs = layers.Dense(1)(inputs)
    return keras.Model(inputs, outputs)


model1 = get_model()
model2 = get_model()
model3 = get_model()

inputs = keras.Input(shape=(128,))
y1 = model1(inputs)
y2 = model2(inputs)
y3 = model3(inputs)
outputs = layers.average([y1, y2, y3])
ensemble_model = keras.Model(inputs=inputs, outputs=outputs)
fix_weights(ensemble_model, seed=2)
RESULTS["ensemble_out"] = ensemble_model(_rng.random((3, 128)).astype("float32"))

num_tags = 12  # Number of unique issue tags
num_words = 10000  # Size of vocabulary obtained when preprocessing text data
num_departments = 4  # Number of departments for predictions

title_input = keras.Input(
    shape=(None,), name="title"
)  # Variable-length sequence of ints
body_input = keras.Input(shape=(None,), name="body")  # Variable-length sequence of ints
tags_input = keras.Input(
    shape=(num_tags,), name="tags"
)  # Binary vectors of size `num_tags`

# Embed each word in the title into a 64-dimensional vector
title_features = layers.Embedding(num_words, 64)(title_input)
# Embed each word in the text into a 64-dimensional vector
body_features = layers.Embedding(num_words, 64)(body_input)

# Reduce sequence of embedded words in the title into a single 128-dimensional vector
title_features = layers.LSTM(128)(title_features)
# Reduce sequence of embedded words in the body into a single 32-dimensional vector
body_features = layers.LSTM(32)(body_features)

# Merge all available features into a single large vector via concatenation
x = layers.concatenate([title_features, body_features, tags_input])

# Stick a logistic regression for priority prediction on top of the features
priority_pred = layers.Dense(1, name="priority")(x)
# Stick a department classifier on top of the features
department_pred = layers.Dense(num_departments, name="department")(x)

# Instantiate an end-to-end model predicting both priority and department
model = keras.Model(
    inputs=[title_input, body_input, tags_input],
    outputs=[priority_pred, department_pred],
)
fix_weights(model, seed=3)

model.compile(
    optimizer=keras.optimizers.RMSprop(1e-3),
    loss=[
        keras.losses.BinaryCrossentropy(from_logits=True),
        keras.losses.CategoricalCrossentropy(from_logits=True),
    ],
    loss_weights=[1.0, 0.2]
)

model.compile(
    optimizer=keras.optimizers.RMSprop(1e-3),
    loss={
        "priority": keras.losses.BinaryCrossentropy(from_logits=True),
        "department": keras.losses.CategoricalCrossentropy(from_logits=True),
    },
    loss_weights={"priority": 1.0, "department": 0.2}
)

# Dummy input data
title_data = _rng.integers(num_words, size=(64, 10))
body_data = _rng.integers(num_words, size=(64, 20))
tags_data = _rng.integers(2, size=(64, num_tags)).astype("float32")

# Dummy target data
priority_targets = _rng.random(size=(64, 1))
dept_targets = _rng.integers(2, size=(64, num_departments))

history = model.fit(
    {"title": title_data, "body": body_data, "tags": tags_data},
    {"priority": priority_targets, "department": dept_targets},
    epochs=2,
    batch_size=32, verbose=0,
)
RESULTS["multi_history"] = [history.history[k] for k in sorted(history.history)]
RESULTS["multi_history_keys"] = sorted(history.history)

inputs = keras.Input(shape=(32, 32, 3), name="img")
x = layers.Conv2D(32, 3, activation="relu")(inputs)
x = layers.Conv2D(64, 3, activation="relu")(x)
block_1_output = layers.MaxPooling2D(3)(x)

x = layers.Conv2D(64, 3, activation="relu", padding="same")(block_1_output)
x = layers.Conv2D(64, 3, activation="relu", padding="same")(x)
block_2_output = layers.add([x, block_1_output])

x = layers.Conv2D(64, 3, activation="relu", padding="same")(block_2_output)
x = layers.Conv2D(64, 3, activation="relu", padding="same")(x)
block_3_output = layers.add([x, block_2_output])

x = layers.Conv2D(64, 3, activation="relu")(block_3_output)
x = layers.GlobalAveragePooling2D()(x)
x = layers.Dense(256, activation="relu")(x)
x = layers.Dropout(0.5)(x)
outputs = layers.Dense(10)(x)

model = keras.Model(inputs, outputs, name="toy_resnet")
fix_weights(model, seed=4)
RESULTS["resnet_params"] = model.count_params()

x_train = _rng.integers(0, 256, (80, 32, 32, 3)).astype(np.uint8)
y_train = _rng.integers(0, 10, (80, 1)).astype(np.uint8)

x_train = x_train.astype("float32") / 255.0
y_train = keras.utils.to_categorical(y_train, 10)

model.compile(
    optimizer=keras.optimizers.RMSprop(1e-3),
    loss=keras.losses.CategoricalCrossentropy(from_logits=True),
    metrics=["acc"]
)
history = model.fit(x_train[:1000], y_train[:1000], batch_size=64, epochs=1, validation_split=0.2,
                    verbose=0)
RESULTS["resnet_history"] = [history.history[k] for k in ("loss", "acc", "val_loss", "val_acc")]
