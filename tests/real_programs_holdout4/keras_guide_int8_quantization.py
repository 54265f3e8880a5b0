"""Title: 8-bit Integer Quantization in Keras (Keras guide)
Source: https://github.com/keras-team/keras-io/blob/372dc4732893574e5091345ce56ea267b4fad914/guides/int8_quantization_in_keras.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: the KerasHub section dropped (it downloads the gemma3_1b preset, ~1 GB, with
keras_hub); keras.utils.set_random_seed(0) before the guide's np.random.seed(7) (the initializers
are unseeded); both models' kernels fixed (fix_weights); the program works in a temporary
directory (os.chdir; for int8.keras); prints -> RESULTS (outputs, MSEs, the quantized weights).
"""

import os
import tempfile
import numpy as np
import keras
from keras import layers
from _corpus import fix_weights

keras.utils.set_random_seed(0)
RESULTS = {}
os.chdir(tempfile.mkdtemp())

np.random.seed(7)

# Create a simple functional model.
inputs = keras.Input(shape=(10,))
x = layers.Dense(32, activation="relu")(inputs)
outputs = layers.Dense(1, name="target")(x)
model = keras.Model(inputs, outputs)
fix_weights(model)

# Compile and train briefly to materialize meaningful weights.
model.compile(optimizer="adam", loss="mse")
x_train = np.random.rand(256, 10).astype("float32")
y_train = np.random.rand(256, 1).astype("float32")
model.fit(x_train, y_train, epochs=1, batch_size=32, verbose=0)

# Sample inputs for evaluation.
x_eval = np.random.rand(32, 10).astype("float32")

# Baseline (FP) outputs.
y_fp32 = model(x_eval)
RESULTS["y_fp32"] = y_fp32

# Quantize the model in-place to INT8.
model.quantize("int8")

# INT8 outputs after quantization.
y_int8 = model(x_eval)
RESULTS["y_int8"] = y_int8

# Compute a simple MSE between FP and INT8 outputs.
mse = keras.ops.mean(keras.ops.square(y_fp32 - y_int8))
print("Full-Precision vs INT8 MSE:", float(mse))
RESULTS["mse"] = float(mse)
RESULTS["quantized_weights"] = sorted(w.name for w in model.weights)
RESULTS["dtype_policy"] = model.layers[1].dtype_policy.name
RESULTS["int8_kernel"] = model.layers[1]._kernel
RESULTS["kernel_scale"] = model.layers[1].kernel_scale

from keras import saving

# Build a functional model.
inputs = keras.Input(shape=(10,))
x = layers.Dense(32, activation="relu")(inputs)
outputs = layers.Dense(1, name="target")(x)
model = keras.Model(inputs, outputs)
model.build((None, 10))
fix_weights(model, seed=1)

# Quantize the model in-place to INT8.
model.quantize("int8")

# INT8 outputs after quantization.
y_int8 = model(x_eval)
RESULTS["y_int8_2"] = y_int8

# Save the quantized model and reload to verify round-trip.
model.save("int8.keras")
int8_reloaded = saving.load_model("int8.keras")
y_int8_reloaded = int8_reloaded(x_eval)
roundtrip_mse = keras.ops.mean(keras.ops.square(y_int8 - y_int8_reloaded))
print("MSE (INT8 vs reloaded-INT8):", float(roundtrip_mse))
RESULTS["roundtrip_mse"] = float(roundtrip_mse)
RESULTS["y_int8_reloaded"] = y_int8_reloaded
