"""Title: Basic classification: Classify images of clothing (TF tutorial, Keras)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/keras/classification.ipynb
Licence: MIT (Francois Chollet; tensorflow/docs)
Changed: Fashion-MNIST (60000/10000 uint8 28x28 images) -> 256/64 synthetic uint8 images and
int labels from a seeded NumPy generator; epochs 10 -> 2; verbose=0; keras.utils.set_random_seed(0)
for fit's shuffling; the model's kernels fixed (fix_weights); matplotlib plots removed; printed and
displayed values recorded in RESULTS.
"""
# TensorFlow and tf.keras
import tensorflow as tf

# Helper libraries
import numpy as np
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)
train_images = _rng.integers(0, 256, (256, 28, 28)).astype(np.uint8)
train_labels = _rng.integers(0, 10, 256).astype(np.uint8)
test_images = _rng.integers(0, 256, (64, 28, 28)).astype(np.uint8)
test_labels = _rng.integers(0, 10, 64).astype(np.uint8)

class_names = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat',
               'Sandal', 'Shirt', 'Sneaker', 'Bag', 'Ankle boot']

train_images = train_images / 255.0

test_images = test_images / 255.0

model = tf.keras.Sequential([
    tf.keras.layers.Flatten(input_shape=(28, 28)),
    tf.keras.layers.Dense(128, activation='relu'),
    tf.keras.layers.Dense(10)
])
fix_weights(model)

model.compile(optimizer='adam',
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])

history = model.fit(train_images, train_labels, epochs=2, verbose=0)
RESULTS["loss"] = history.history["loss"]
RESULTS["accuracy"] = history.history["accuracy"]

test_loss, test_acc = model.evaluate(test_images, test_labels, verbose=2)
RESULTS["test_loss"] = test_loss
RESULTS["test_acc"] = test_acc

probability_model = tf.keras.Sequential([model,
                                         tf.keras.layers.Softmax()])

predictions = probability_model.predict(test_images, verbose=0)
RESULTS["predictions0"] = predictions[0]
RESULTS["argmax0"] = np.argmax(predictions[0])
RESULTS["predictions_sum"] = predictions.sum(axis=1)

# Grab an image from the test dataset.
img = test_images[1]
# Add the image to a batch where it's the only member.
img = (np.expand_dims(img, 0))
RESULTS["img_shape"] = img.shape

predictions_single = probability_model.predict(img, verbose=0)
RESULTS["predictions_single"] = predictions_single
RESULTS["argmax_single"] = np.argmax(predictions_single[0])
