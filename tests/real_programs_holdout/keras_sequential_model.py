"""Title: The Sequential model (Keras guide)
Source: https://github.com/keras-team/keras-io/blob/0a57de48c864d63b80083820e8988368ee5c3149/guides/sequential_model.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: each model or layer whose outputs are recorded has its kernels fixed (fix_weights) once
built; summary() -> the models' output shapes and parameter counts; displayed and printed values
(layer names, weight counts and shapes, outputs, feature shapes and sums) recorded in RESULTS; the
transfer-learning blueprints are prose in the guide (not run) and are not transcribed.
"""
import tensorflow as tf
import keras
from keras import layers
from _corpus import fix_weights

RESULTS = {}

# Define Sequential model with 3 layers
model = keras.Sequential(
    [
        layers.Dense(2, activation="relu", name="layer1"),
        layers.Dense(3, activation="relu", name="layer2"),
        layers.Dense(4, name="layer3"),
    ]
)
# Call model on a test input
x = tf.ones((3, 3))
y = model(x)
fix_weights(model, vectors=True)
RESULTS["seq_y"] = model(x)

# Create 3 layers
layer1 = layers.Dense(2, activation="relu", name="layer1")
layer2 = layers.Dense(3, activation="relu", name="layer2")
layer3 = layers.Dense(4, name="layer3")

# Call layers on a test input
x = tf.ones((3, 3))
y = layer3(layer2(layer1(x)))
for _i, _l in enumerate((layer1, layer2, layer3)):
    fix_weights(_l, seed=_i, vectors=True)
RESULTS["fn_y"] = layer3(layer2(layer1(x)))

model = keras.Sequential(
    [
        layers.Dense(2, activation="relu"),
        layers.Dense(3, activation="relu"),
        layers.Dense(4),
    ]
)
RESULTS["layers"] = [type(l).__name__ for l in model.layers]

model = keras.Sequential()
model.add(layers.Dense(2, activation="relu"))
model.add(layers.Dense(3, activation="relu"))
model.add(layers.Dense(4))

model.pop()
RESULTS["len_after_pop"] = len(model.layers)  # 2

model = keras.Sequential(name="my_sequential")
model.add(layers.Dense(2, activation="relu", name="layer1"))
model.add(layers.Dense(3, activation="relu", name="layer2"))
model.add(layers.Dense(4, name="layer3"))
RESULTS["named"] = [model.name] + [l.name for l in model.layers]

layer = layers.Dense(3)
RESULTS["weights_before"] = len(layer.weights)  # Empty

# Call layer on a test input
x = tf.ones((1, 4))
y = layer(x)
RESULTS["weight_shapes"] = [d for w in layer.weights for d in w.shape]

model = keras.Sequential(
    [
        layers.Dense(2, activation="relu"),
        layers.Dense(3, activation="relu"),
        layers.Dense(4),
    ]
)  # No weights at this stage!

# Call the model on a test input
x = tf.ones((1, 4))
y = model(x)
RESULTS["n_weights"] = len(model.weights)  # 6
RESULTS["params_6"] = model.count_params()

model = keras.Sequential()
model.add(keras.Input(shape=(4,)))
model.add(layers.Dense(2, activation="relu"))
RESULTS["input_model"] = [len(model.layers), model.count_params()] + list(model.output_shape[1:])

model = keras.Sequential()
model.add(layers.Dense(2, activation="relu", input_shape=(4,)))
RESULTS["input_shape_model"] = [len(model.layers), model.count_params()] + list(model.output_shape[1:])

model = keras.Sequential()
model.add(keras.Input(shape=(250, 250, 3)))  # 250x250 RGB images
model.add(layers.Conv2D(32, 5, strides=2, activation="relu"))
model.add(layers.Conv2D(32, 3, activation="relu"))
model.add(layers.MaxPooling2D(3))
RESULTS["shape_1"] = list(model.output_shape[1:])
RESULTS["params_1"] = model.count_params()

model.add(layers.Conv2D(32, 3, activation="relu"))
model.add(layers.Conv2D(32, 3, activation="relu"))
model.add(layers.MaxPooling2D(3))
model.add(layers.Conv2D(32, 3, activation="relu"))
model.add(layers.Conv2D(32, 3, activation="relu"))
model.add(layers.MaxPooling2D(2))
RESULTS["shape_2"] = list(model.output_shape[1:])

model.add(layers.GlobalMaxPooling2D())
model.add(layers.Dense(10))
RESULTS["shape_3"] = list(model.output_shape[1:])
RESULTS["params_3"] = model.count_params()

initial_model = keras.Sequential(
    [
        keras.Input(shape=(250, 250, 3)),
        layers.Conv2D(32, 5, strides=2, activation="relu"),
        layers.Conv2D(32, 3, activation="relu"),
        layers.Conv2D(32, 3, activation="relu"),
    ]
)
fix_weights(initial_model, seed=5, vectors=True)
feature_extractor = keras.Model(
    inputs=initial_model.inputs,
    outputs=[layer.output for layer in initial_model.layers],
)

# Call feature extractor on test input.
x = tf.ones((1, 250, 250, 3))
features = feature_extractor(x)
RESULTS["features_shapes"] = [d for f in features for d in f.shape]
RESULTS["features_sums"] = [tf.reduce_sum(f) for f in features]

initial_model = keras.Sequential(
    [
        keras.Input(shape=(250, 250, 3)),
        layers.Conv2D(32, 5, strides=2, activation="relu"),
        layers.Conv2D(32, 3, activation="relu", name="my_intermediate_layer"),
        layers.Conv2D(32, 3, activation="relu"),
    ]
)
fix_weights(initial_model, seed=6, vectors=True)
feature_extractor = keras.Model(
    inputs=initial_model.inputs,
    outputs=initial_model.get_layer(name="my_intermediate_layer").output,
)
# Call feature extractor on test input.
x = tf.ones((1, 250, 250, 3))
features = feature_extractor(x)
RESULTS["one_feature_shape"] = list(features.shape)
RESULTS["one_feature"] = features[0, :3, :3, :4]
