"""Title: Endpoint layer pattern (Keras example, Keras 3 port)
Source: https://github.com/keras-team/keras/blob/cf6b569cb39bb07045c1221d9b81eba0f2857d21/examples/keras_io/tensorflow/keras_recipes/endpoint_layer_pattern.py
Licence: Apache-2.0 (keras-team/keras)
Changed: 1000 -> 200 random rows per dataset; verbose=0; keras.utils.set_random_seed(0) (the
NumPy data and the initializers are unseeded); the models' kernels fixed (fix_weights; the
subclassed LogReg first called on two rows to build it); the histories, predictions and the
endpoint metric -> RESULTS.
"""

import os
os.environ["KERAS_BACKEND"] = "tensorflow"

import tensorflow as tf
import keras
import numpy as np
from _corpus import fix_weights

keras.utils.set_random_seed(0)
RESULTS = {}


class LogisticEndpoint(keras.layers.Layer):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.loss_fn = keras.losses.BinaryCrossentropy(from_logits=True)
        self.accuracy_metric = keras.metrics.BinaryAccuracy(name="accuracy")

    def call(self, logits, targets=None, sample_weight=None):
        if targets is not None:
            # Compute the training-time loss value and add it
            # to the layer using `self.add_loss()`.
            loss = self.loss_fn(targets, logits, sample_weight)
            self.add_loss(loss)

            # Log the accuracy as a metric (we could log arbitrary metrics,
            # including different metrics for training and inference.)
            self.accuracy_metric.update_state(targets, logits, sample_weight)

        # Return the inference-time prediction tensor (for `.predict()`).
        return tf.nn.softmax(logits)


inputs = keras.Input((764,), name="inputs")
logits = keras.layers.Dense(1)(inputs)
targets = keras.Input((1,), name="targets")
sample_weight = keras.Input((1,), name="sample_weight")
preds = LogisticEndpoint()(logits, targets, sample_weight)
model = keras.Model([inputs, targets, sample_weight], preds)
fix_weights(model)

data = {
    "inputs": np.random.random((200, 764)),
    "targets": np.random.random((200, 1)),
    "sample_weight": np.random.random((200, 1)),
}

model.compile(keras.optimizers.Adam(1e-3))
history = model.fit(data, epochs=2, verbose=0)
RESULTS["functional_history"] = [history.history[k] for k in sorted(history.history)]
RESULTS["functional_history_keys"] = sorted(history.history)
RESULTS["functional_kernel"] = model.layers[1].kernel

inputs = keras.Input((764,), name="inputs")
logits = keras.layers.Dense(1)(inputs)
preds = LogisticEndpoint()(logits, targets=None, sample_weight=None)
inference_model = keras.Model(inputs, preds)

inference_model.set_weights(model.get_weights())

preds = inference_model.predict(np.random.random((200, 764)), verbose=0)
RESULTS["inference_preds"] = preds


class LogReg(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(1)
        self.logistic_endpoint = LogisticEndpoint()

    def call(self, inputs):
        # Note that all inputs should be in the first argument
        # since we want to be able to call `model.fit(inputs)`.
        logits = self.dense(inputs["inputs"])
        preds = self.logistic_endpoint(
            logits=logits,
            targets=inputs["targets"],
            sample_weight=inputs["sample_weight"],
        )
        return preds


model = LogReg()
data = {
    "inputs": np.random.random((200, 764)),
    "targets": np.random.random((200, 1)),
    "sample_weight": np.random.random((200, 1)),
}
model({k: v[:2] for k, v in data.items()})
fix_weights(model, seed=1)

model.compile(keras.optimizers.Adam(1e-3))
history = model.fit(data, epochs=2, verbose=0)
RESULTS["subclass_history"] = [history.history[k] for k in sorted(history.history)]
RESULTS["subclass_history_keys"] = sorted(history.history)
RESULTS["subclass_kernel"] = model.dense.kernel
RESULTS["subclass_accuracy_metric"] = model.logistic_endpoint.accuracy_metric.result()
