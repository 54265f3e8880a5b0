"""Title: Improving Computer Vision Accuracy using Convolutions (DeepLearning.AI TensorFlow Developer, C1 W3 Lab 1)
Source: https://github.com/https-deeplearning-ai/tensorflow-1-public/blob/025abb3e6bd63c63b65d6133286e2d033c9c7da4/C1/W3/ungraded_labs/C1_W3_Lab_1_improving_accuracy_using_convolutions.ipynb
Licence: Apache-2.0 (https-deeplearning-ai/tensorflow-1-public)
Changed: the lab's code cells in order; keras.utils.set_random_seed(0) at the top (the Keras
initializers and fit's shuffling are unseeded); Fashion MNIST (60000 + 10000 uint8 28x28 images)
-> 512 training and 128 test synthetic uint8 28x28 images with uint8 labels 0-9 from a seeded
NumPy generator (the load_data call removed); epochs 5 -> 2 for both models; matplotlib
removed: the activation-visualisation cell computes the same activation_model.predict calls
and records the channel CONVOLUTION_NUMBER maps it would have shown instead of drawing them;
the per-channel sums of the first image's maps are recorded too; the printed test losses/accuracies, label lists, histories and activations -> RESULTS.
"""
import numpy as np

RESULTS = {}

# First import all the libraries you will need
import tensorflow as tf
import keras
keras.utils.set_random_seed(0)

# Load the Fashion MNIST dataset
_rng = np.random.default_rng(0)
training_images = _rng.integers(0, 256, (512, 28, 28)).astype(np.uint8)
training_labels = _rng.integers(0, 10, (512,)).astype(np.uint8)
test_images = _rng.integers(0, 256, (128, 28, 28)).astype(np.uint8)
test_labels = _rng.integers(0, 10, (128,)).astype(np.uint8)

# Normalize the pixel values
training_images = training_images / 255.0
test_images = test_images / 255.0

# Define the model
model = tf.keras.models.Sequential([
    tf.keras.Input(shape=(28,28,1)),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(128, activation=tf.nn.relu),
    tf.keras.layers.Dense(10, activation=tf.nn.softmax)
])

# Setup training parameters
model.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])

# Train the model
print("\nMODEL TRAINING:")
_h = model.fit(training_images, training_labels, epochs=2)
RESULTS["dense_history_loss"] = _h.history["loss"]
RESULTS["dense_history_accuracy"] = _h.history["accuracy"]

# Evaluate on the test set
print("\nMODEL EVALUATION:")
test_loss, test_accuracy = model.evaluate(test_images, test_labels, verbose=0)
print(f'test set accuracy: {test_accuracy}')
print(f'test set loss: {test_loss}')
RESULTS["dense_test_accuracy"] = test_accuracy
RESULTS["dense_test_loss"] = test_loss

# Define the model
model = tf.keras.models.Sequential([

    # Add convolutions and max pooling
    tf.keras.Input(shape=(28,28,1)),
    tf.keras.layers.Conv2D(64, (3,3), activation='relu'),
    tf.keras.layers.MaxPooling2D(2, 2),
    tf.keras.layers.Conv2D(64, (3,3), activation='relu'),
    tf.keras.layers.MaxPooling2D(2,2),

    # Add the same layers as before
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(128, activation='relu'),
    tf.keras.layers.Dense(10, activation='softmax')
])

# Print the model summary
model.summary()
RESULTS["conv_count_params"] = model.count_params()
RESULTS["conv_output_shapes"] = [list(l.output.shape[1:]) for l in model.layers[:4]]

# Use same settings
model.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])

# Train the model
print("\nMODEL TRAINING:")
_h = model.fit(training_images, training_labels, epochs=2)
RESULTS["conv_history_loss"] = _h.history["loss"]
RESULTS["conv_history_accuracy"] = _h.history["accuracy"]

# Evaluate on the test set
print("\nMODEL EVALUATION:")
test_loss, test_accuracy = model.evaluate(test_images, test_labels, verbose=0)
print(f'test set accuracy: {test_accuracy}')
print(f'test set loss: {test_loss}')
RESULTS["conv_test_accuracy"] = test_accuracy
RESULTS["conv_test_loss"] = test_loss

print(f"First 100 labels:\n\n{test_labels[:100]}")

print(f"\nShoes: {[i for i in range(100) if test_labels[:100][i]==9]}")
RESULTS["first_100_labels"] = test_labels[:100]
RESULTS["shoes"] = [i for i in range(100) if test_labels[:100][i]==9]

FIRST_IMAGE=0
SECOND_IMAGE=23
THIRD_IMAGE=28
CONVOLUTION_NUMBER = 1
layers_to_visualize = [tf.keras.layers.Conv2D, tf.keras.layers.MaxPooling2D]

layer_outputs = [layer.output for layer in model.layers if type(layer) in layers_to_visualize]
activation_model = tf.keras.models.Model(inputs = model.inputs, outputs=layer_outputs)
RESULTS["n_layer_outputs"] = len(layer_outputs)

for x in range(len(layer_outputs)):
    f1 = activation_model.predict(test_images[FIRST_IMAGE].reshape(1, 28, 28, 1), verbose=False)[x]
    RESULTS[f"activation_first_{x}"] = f1[0, :, :, CONVOLUTION_NUMBER]
    RESULTS[f"activation_first_{x}_channel_sums"] = f1[0].sum(axis=(0, 1))

    f2 = activation_model.predict(test_images[SECOND_IMAGE].reshape(1, 28, 28, 1), verbose=False)[x]
    RESULTS[f"activation_second_{x}"] = f2[0, :, :, CONVOLUTION_NUMBER]

    f3 = activation_model.predict(test_images[THIRD_IMAGE].reshape(1, 28, 28, 1), verbose=False)[x]
    RESULTS[f"activation_third_{x}"] = f3[0, :, :, CONVOLUTION_NUMBER]
