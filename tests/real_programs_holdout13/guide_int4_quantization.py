"""Title: INT4 Quantization in Keras (keras.io guide)
Source: https://github.com/keras-team/keras-io/blob/04f48bf190a0b854a10b8e819d4fe6b3630bc4e8/guides/int4_quantization_in_keras.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: keras.utils.set_random_seed(0) at the top (the Dense initializers are unseeded) and
np.random.default_rng() -> default_rng(0) (the evaluation batch); "int4.keras" -> a path in a
tempfile directory; the KerasHub section (Gemma3CausalLM.from_preset, a 1B-parameter download,
and its preset saving / file sizes) removed; the printed MSEs, the outputs before and after
quantization and after reloading, and the quantized layer's variables -> RESULTS.
"""
import tempfile

RESULTS = {}
_tmp = tempfile.mkdtemp()

import numpy as np
import keras
from keras import layers
keras.utils.set_random_seed(0)

# Create a random number generator.
rng = np.random.default_rng(0)

# Create a simple functional model.
inputs = keras.Input(shape=(10,))
x = layers.Dense(32, activation="relu")(inputs)
outputs = layers.Dense(1, name="target")(x)
model = keras.Model(inputs, outputs)

# Baseline output with full-precision weights.
x_eval = rng.random((32, 10)).astype("float32")
y_fp32 = model(x_eval)
RESULTS["y_fp32"] = y_fp32


# Quantize the model in-place to INT4 (W4A8).
model.quantize("int4")

# Compare outputs (MSE).
y_int4 = model(x_eval)
mse = keras.ops.mean(keras.ops.square(y_fp32 - y_int4))
print("Full-Precision vs INT4 MSE:", float(mse))
RESULTS["y_int4"] = y_int4
RESULTS["mse"] = float(mse)
for _i, _layer in enumerate(model.layers[1:]):
    RESULTS[f"layer{_i}_dtype_policy"] = _layer.dtype_policy.name
    for _v in _layer.weights:
        RESULTS[f"layer{_i}_{_v.name}"] = _v
        RESULTS[f"layer{_i}_{_v.name}_dtype"] = str(_v.dtype)

# Save the quantized model and reload to verify round-trip.
model.save(_tmp + "/int4.keras")
int4_reloaded = keras.saving.load_model(_tmp + "/int4.keras")
y_int4_reloaded = int4_reloaded(x_eval)

# Compare outputs (MSE).
roundtrip_mse = keras.ops.mean(keras.ops.square(y_fp32 - y_int4_reloaded))
print("MSE (INT4 vs reloaded INT4):", float(roundtrip_mse))
RESULTS["y_int4_reloaded"] = y_int4_reloaded
RESULTS["roundtrip_mse"] = float(roundtrip_mse)
RESULTS["reloaded_predict"] = int4_reloaded.predict(x_eval[:4], verbose=0)
