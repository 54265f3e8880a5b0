"""Title: Custom losses, metrics, layers and models, saved and loaded (Hands-On ML 3rd ed., chapter 12)
Source: https://github.com/ageron/handson-ml3/blob/e3f3f9e66d58cfa1d068a498433063a1d3fba9ef/12_custom_models_and_training_with_tensorflow.ipynb
Licence: Apache-2.0 (ageron/handson-ml3)
Changed: the notebook's code cells from "Custom loss function" to "Losses Based on Model
Internals" (cells 98-192) in order, after the setup imports; the Huber-loss plot cell removed;
the California housing dataset (20640 x 8, fetched and split with scikit-learn, scaled with
StandardScaler) -> 500 synthetic float64 rows of 8 features and a float64 target from a seeded
NumPy generator, split by slicing into 300 train / 100 valid / 100 test rows and standardized
with NumPy (the same formula as StandardScaler; scikit-learn is not installed); the .keras files
are saved to and loaded from a tempfile directory; each fit's displayed History -> its
history's lists in RESULTS (as `fitN`, in the order of the sorted metric names, without the
names: a custom metric's default name takes a number from a process-wide counter), other displayed values (metric results,
variables as NumPy values, evaluate scores, predictions, the symbolic outputs' shapes) ->
RESULTS; the last model's history and predictions -> RESULTS.
"""
import os
import tempfile

import numpy as np

RESULTS = {}
_tmp = tempfile.mkdtemp()

import sys

assert sys.version_info >= (3, 7)
from packaging import version
import tensorflow as tf

assert version.parse(tf.__version__) >= version.parse("2.8.0")
# [cell 98]
def huber_fn(y_true, y_pred):
    error = y_true - y_pred
    is_small_error = tf.abs(error) < 1
    squared_loss = tf.square(error) / 2
    linear_loss  = tf.abs(error) - 0.5
    return tf.where(is_small_error, squared_loss, linear_loss)
# [cell 101]
# extra code – loads, splits and scales the California housing dataset, then
#              creates a simple Keras model

_rng = np.random.default_rng(42)
_X = _rng.normal(size=(500, 8)) * [1.9, 12.6, 2.5, 0.5, 1132., 10.4, 2.1, 2.0] + [3.9, 28.6, 5.4, 1.1, 1425., 3.1, 35.6, -119.6]
_y = np.clip(_X[:, :1] * 0.4 + 0.5 + _rng.normal(scale=0.5, size=(500, 1)), 0.15, 5.0)
X_train, X_valid, X_test = _X[:300], _X[300:400], _X[400:]
y_train, y_valid, y_test = _y[:300], _y[300:400], _y[400:]

_mean, _std = X_train.mean(axis=0), X_train.std(axis=0)
X_train_scaled = (X_train - _mean) / _std
X_valid_scaled = (X_valid - _mean) / _std
X_test_scaled = (X_test - _mean) / _std

input_shape = X_train.shape[1:]

tf.keras.utils.set_random_seed(42)
model = tf.keras.Sequential([
    tf.keras.layers.Dense(30, activation="relu", kernel_initializer="he_normal",
                          input_shape=input_shape),
    tf.keras.layers.Dense(1),
])
# [cell 102]
model.compile(loss=huber_fn, optimizer="nadam", metrics=["mae"])
# [cell 103]
RESULTS["fit1"] = model.fit(X_train_scaled, y_train, epochs=2,
          validation_data=(X_valid_scaled, y_valid))
# [cell 105]
model.save(_tmp + "/my_model_with_a_custom_loss.keras")  # extra code – saving works fine
# [cell 106]
model = tf.keras.models.load_model(_tmp + "/my_model_with_a_custom_loss.keras",
                                   custom_objects={"huber_fn": huber_fn})
# [cell 107]
RESULTS["fit2"] = model.fit(X_train_scaled, y_train, epochs=2,
          validation_data=(X_valid_scaled, y_valid))
# [cell 108]
def create_huber(threshold=1.0):
    def huber_fn(y_true, y_pred):
        error = y_true - y_pred
        is_small_error = tf.abs(error) < threshold
        squared_loss = tf.square(error) / 2
        linear_loss  = threshold * tf.abs(error) - threshold ** 2 / 2
        return tf.where(is_small_error, squared_loss, linear_loss)
    return huber_fn
# [cell 109]
model.compile(loss=create_huber(2.0), optimizer="nadam", metrics=["mae"])
# [cell 110]
RESULTS["fit3"] = model.fit(X_train_scaled, y_train, epochs=2,
          validation_data=(X_valid_scaled, y_valid))
# [cell 111]
model.save(_tmp + "/my_model_with_a_custom_loss_threshold_2.keras")
# [cell 112]
model = tf.keras.models.load_model(_tmp + "/my_model_with_a_custom_loss_threshold_2.keras",
                                   custom_objects={"huber_fn": create_huber(2.0)})
# [cell 113]
RESULTS["fit4"] = model.fit(X_train_scaled, y_train, epochs=2,
          validation_data=(X_valid_scaled, y_valid))
# [cell 114]
class HuberLoss(tf.keras.losses.Loss):
    def __init__(self, threshold=1.0, **kwargs):
        self.threshold = threshold
        super().__init__(**kwargs)

    def call(self, y_true, y_pred):
        error = y_true - y_pred
        is_small_error = tf.abs(error) < self.threshold
        squared_loss = tf.square(error) / 2
        linear_loss  = self.threshold * tf.abs(error) - self.threshold**2 / 2
        return tf.where(is_small_error, squared_loss, linear_loss)

    def get_config(self):
        base_config = super().get_config()
        return {**base_config, "threshold": self.threshold}
# [cell 115]
# extra code – creates another basic Keras model
tf.keras.utils.set_random_seed(42)
model = tf.keras.Sequential([
    tf.keras.layers.Dense(30, activation="relu", kernel_initializer="he_normal",
                          input_shape=input_shape),
    tf.keras.layers.Dense(1),
])
# [cell 116]
model.compile(loss=HuberLoss(2.), optimizer="nadam", metrics=["mae"])
# [cell 117]
RESULTS["fit5"] = model.fit(X_train_scaled, y_train, epochs=2,
          validation_data=(X_valid_scaled, y_valid))
# [cell 118]
model.save(_tmp + "/my_model_with_a_custom_loss_class.keras")  # extra code – saving works
# [cell 119]
model = tf.keras.models.load_model(_tmp + "/my_model_with_a_custom_loss_class.keras",
                                   custom_objects={"HuberLoss": HuberLoss})
# [cell 120]
# extra code – shows that loading worked fine, the model can be used normally
RESULTS["fit6"] = model.fit(X_train_scaled, y_train, epochs=2,
          validation_data=(X_valid_scaled, y_valid))
# [cell 121]
RESULTS["model_loss_threshold"] = model.loss.threshold  # extra code – the treshold was loaded correctly
# [cell 123]
def my_softplus(z):
    return tf.math.log(1.0 + tf.exp(z))

def my_glorot_initializer(shape, dtype=tf.float32):
    stddev = tf.sqrt(2. / (shape[0] + shape[1]))
    return tf.random.normal(shape, stddev=stddev, dtype=dtype)

def my_l1_regularizer(weights):
    return tf.reduce_sum(tf.abs(0.01 * weights))

def my_positive_weights(weights):  # return value is just tf.nn.relu(weights)
    return tf.where(weights < 0., tf.zeros_like(weights), weights)
# [cell 124]
layer = tf.keras.layers.Dense(1, activation=my_softplus,
                              kernel_initializer=my_glorot_initializer,
                              kernel_regularizer=my_l1_regularizer,
                              kernel_constraint=my_positive_weights)
# [cell 125]
class MyL1Regularizer(tf.keras.regularizers.Regularizer):
    def __init__(self, factor):
        self.factor = factor

    def __call__(self, weights):
        return tf.reduce_sum(tf.abs(self.factor * weights))

    def get_config(self):
        return {"factor": self.factor}
# [cell 127]
# extra code – once again, lets' create a basic Keras model
tf.keras.utils.set_random_seed(42)
model = tf.keras.Sequential([
    tf.keras.layers.Dense(30, activation="relu", kernel_initializer="he_normal",
                          input_shape=input_shape),
    tf.keras.layers.Dense(1),
])
# [cell 128]
model.compile(loss="mse", optimizer="nadam", metrics=[create_huber(2.0)])
# [cell 129]
# extra code – train the model with our custom metric
RESULTS["fit7"] = model.fit(X_train_scaled, y_train, epochs=2)
# [cell 132]
precision = tf.keras.metrics.Precision()
RESULTS["precision_batch1"] = precision([0, 1, 1, 1, 0, 1, 0, 1], [1, 1, 0, 1, 0, 1, 0, 1])
# [cell 133]
RESULTS["precision_batch2"] = precision([0, 1, 0, 0, 1, 0, 1, 1], [1, 0, 1, 1, 0, 0, 0, 0])
# [cell 134]
RESULTS["precision_result"] = precision.result()
# [cell 135]
RESULTS["precision_variables"] = [v.numpy() for v in precision.variables]
# [cell 137]
precision.reset_state()
# [cell 140]
class HuberMetric(tf.keras.metrics.Metric):
    def __init__(self, threshold=1.0, **kwargs):
        super().__init__(**kwargs)  # handles base args (e.g., dtype)
        self.threshold = threshold
        self.huber_fn = create_huber(threshold)
        self.total = self.add_weight(name="total", initializer="zeros")
        self.count = self.add_weight(name="count", initializer="zeros")

    def update_state(self, y_true, y_pred, sample_weight=None):
        sample_metrics = self.huber_fn(y_true, y_pred)
        self.total.assign_add(tf.reduce_sum(sample_metrics))
        self.count.assign_add(tf.cast(tf.size(y_true), tf.float32))

    def result(self):
        return self.total / self.count

    def get_config(self):
        base_config = super().get_config()
        return {**base_config, "threshold": self.threshold}
# [cell 142]
m = HuberMetric(2.)

# total = 2 * |10 - 2| - 2²/2 = 14
# count = 1
# result = 14 / 1 = 14
RESULTS["huber_metric_call1"] = m(tf.constant([[2.]]), tf.constant([[10.]]))
# [cell 143]
# total = total + (|1 - 0|² / 2) + (2 * |9.25 - 5| - 2² / 2) = 14 + 7 = 21
# count = count + 2 = 3
# result = total / count = 21 / 3 = 7
RESULTS["huber_metric_call2"] = m(tf.constant([[0.], [5.]]), tf.constant([[1.], [9.25]]))
# [cell 144]
RESULTS["m_result"] = m.result()
# [cell 145]
RESULTS["m_variables"] = [v.numpy() for v in m.variables]
# [cell 146]
m.reset_state()
RESULTS["m_variables_after_reset"] = [v.numpy() for v in m.variables]
# [cell 148]
tf.keras.utils.set_random_seed(42)
model = tf.keras.Sequential([
    tf.keras.layers.Dense(30, activation="relu", kernel_initializer="he_normal",
                          input_shape=input_shape),
    tf.keras.layers.Dense(1),
])
# [cell 149]
model.compile(loss=create_huber(2.0), optimizer="nadam",
              metrics=[HuberMetric(2.0)])
# [cell 150]
RESULTS["fit8"] = model.fit(X_train_scaled, y_train, epochs=2)
# [cell 151]
model.save(_tmp + "/my_model_with_a_custom_metric.keras")
# [cell 152]
model = tf.keras.models.load_model(
    _tmp + "/my_model_with_a_custom_metric.keras",
    custom_objects={
        "huber_fn": create_huber(2.0),
        "HuberMetric": HuberMetric
    }
)
# [cell 153]
RESULTS["fit9"] = model.fit(X_train_scaled, y_train, epochs=2)
# [cell 155]
class HuberMetric(tf.keras.metrics.Mean):
    def __init__(self, threshold=1.0, name='HuberMetric', dtype=None):
        self.threshold = threshold
        self.huber_fn = create_huber(threshold)
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        metric = self.huber_fn(y_true, y_pred)
        super(HuberMetric, self).update_state(metric, sample_weight)

    def get_config(self):
        base_config = super().get_config()
        return {**base_config, "threshold": self.threshold}        
# [cell 157]
tf.keras.utils.set_random_seed(42)
model = tf.keras.Sequential([
    tf.keras.layers.Dense(30, activation="relu", kernel_initializer="he_normal",
                          input_shape=input_shape),
    tf.keras.layers.Dense(1),
])
# [cell 158]
model.compile(loss=tf.keras.losses.Huber(2.0), optimizer="nadam",
              weighted_metrics=[HuberMetric(2.0)])
# [cell 159]
np.random.seed(42)
sample_weight = np.random.rand(len(y_train))
history = model.fit(X_train_scaled, y_train, epochs=2,
                    sample_weight=sample_weight)
# [cell 160]
RESULTS["weighted_loss_vs_metric"] = (history.history["loss"][0],
 history.history["HuberMetric"][0] * sample_weight.mean())
# [cell 161]
model.save(_tmp + "/my_model_with_a_custom_metric_v2.keras")
# [cell 162]
model = tf.keras.models.load_model(_tmp + "/my_model_with_a_custom_metric_v2.keras",
                                   custom_objects={"HuberMetric": HuberMetric})
# [cell 163]
RESULTS["fit10"] = model.fit(X_train_scaled, y_train, epochs=2)
# [cell 165]
exponential_layer = tf.keras.layers.Lambda(lambda x: tf.exp(x))
# [cell 166]
# extra code – like all layers, it can be used as a function:
RESULTS["exponential_layer"] = exponential_layer(tf.constant([-1., 0., 1.]))
# [cell 168]
tf.keras.utils.set_random_seed(42)
model = tf.keras.Sequential([
    tf.keras.layers.Dense(30, activation="relu", input_shape=input_shape),
    tf.keras.layers.Dense(1),
    exponential_layer
])
model.compile(loss="mse", optimizer="sgd")
model.fit(X_train_scaled, y_train, epochs=5,
          validation_data=(X_valid_scaled, y_valid))
RESULTS["exponential_model_evaluate"] = model.evaluate(X_test_scaled, y_test)
# [cell 170]
class MyDense(tf.keras.layers.Layer):
    def __init__(self, units, activation=None, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.activation = tf.keras.activations.get(activation)

    def build(self, batch_input_shape):
        self.kernel = self.add_weight(
            name="kernel", shape=[batch_input_shape[-1], self.units],
            initializer="he_normal")
        self.bias = self.add_weight(
            name="bias", shape=[self.units], initializer="zeros")

    def call(self, X):
        return self.activation(X @ self.kernel + self.bias)

    def get_config(self):
        base_config = super().get_config()
        return {**base_config, "units": self.units,
                "activation": tf.keras.activations.serialize(self.activation)}
# [cell 171]
# extra code – shows that a custom layer can be used normally
tf.keras.utils.set_random_seed(42)
model = tf.keras.Sequential([
    MyDense(30, activation="relu", input_shape=input_shape),
    MyDense(1)
])
model.compile(loss="mse", optimizer="nadam")
model.fit(X_train_scaled, y_train, epochs=2,
          validation_data=(X_valid_scaled, y_valid))
RESULTS["my_dense_model_evaluate"] = model.evaluate(X_test_scaled, y_test)
model.save(_tmp + "/my_model_with_a_custom_layer.keras")
# [cell 172]
# extra code – shows how to load a model with a custom layer
model = tf.keras.models.load_model(_tmp + "/my_model_with_a_custom_layer.keras",
                                   custom_objects={"MyDense": MyDense})
RESULTS["fit11"] = model.fit(X_train_scaled, y_train, epochs=2,
          validation_data=(X_valid_scaled, y_valid))
# [cell 173]
class MyMultiLayer(tf.keras.layers.Layer):
    def call(self, X):
        X1, X2 = X
        print("X1.shape: ", X1.shape ," X2.shape: ", X2.shape)  # extra code
        return X1 + X2, X1 * X2, X1 / X2
# [cell 175]
# extra code – tests MyMultiLayer with symbolic inputs
inputs1 = tf.keras.layers.Input(shape=[2])
inputs2 = tf.keras.layers.Input(shape=[2])
_sym = MyMultiLayer()((inputs1, inputs2))
RESULTS["mymultilayer_symbolic_shapes"] = [list(o.shape[1:]) for o in _sym]
# [cell 177]
# extra code – tests MyMultiLayer with actual data 
X1, X2 = np.array([[3., 6.], [2., 7.]]), np.array([[6., 12.], [4., 3.]]) 
RESULTS["mymultilayer_numeric"] = MyMultiLayer()((X1, X2))
# [cell 179]
class MyGaussianNoise(tf.keras.layers.Layer):
    def __init__(self, stddev, **kwargs):
        super().__init__(**kwargs)
        self.stddev = stddev

    def call(self, X, training=None):
        if training:
            noise = tf.random.normal(tf.shape(X), stddev=self.stddev)
            return X + noise
        else:
            return X
# [cell 181]
# extra code – tests MyGaussianNoise
tf.keras.utils.set_random_seed(42)
model = tf.keras.Sequential([
    MyGaussianNoise(stddev=1.0, input_shape=input_shape),
    tf.keras.layers.Dense(30, activation="relu",
                          kernel_initializer="he_normal"),
    tf.keras.layers.Dense(1)
])
model.compile(loss="mse", optimizer="nadam")
model.fit(X_train_scaled, y_train, epochs=2,
          validation_data=(X_valid_scaled, y_valid))
RESULTS["gaussian_noise_model_evaluate"] = model.evaluate(X_test_scaled, y_test)
# [cell 183]
class ResidualBlock(tf.keras.layers.Layer):
    def __init__(self, n_layers, n_neurons, **kwargs):
        super().__init__(**kwargs)
        self.hidden = [tf.keras.layers.Dense(n_neurons, activation="relu",
                                             kernel_initializer="he_normal")
                       for _ in range(n_layers)]

    def call(self, inputs):
        Z = inputs
        for layer in self.hidden:
            Z = layer(Z)
        return inputs + Z
# [cell 184]
class ResidualRegressor(tf.keras.Model):
    def __init__(self, output_dim, **kwargs):
        super().__init__(**kwargs)
        self.output_dim = output_dim
        self.hidden1 = tf.keras.layers.Dense(30, activation="relu",
                                             kernel_initializer="he_normal")
        self.block1 = ResidualBlock(2, 30)
        self.block2 = ResidualBlock(2, 30)
        self.out = tf.keras.layers.Dense(output_dim)

    def call(self, inputs):
        Z = self.hidden1(inputs)
        for _ in range(1 + 3):
            Z = self.block1(Z)
        Z = self.block2(Z)
        return self.out(Z)

    # extra code - to be able to save and load the model below
    def get_config(self):
        base_config = super().get_config()
        return {**base_config, "output_dim": self.output_dim}
# [cell 185]
# extra code – shows that the model can be used normally
tf.keras.utils.set_random_seed(42)
model = ResidualRegressor(1)
model.compile(loss="mse", optimizer="nadam")
history = model.fit(X_train_scaled, y_train, epochs=2)
score = model.evaluate(X_test_scaled, y_test)
RESULTS["residual_regressor_score"] = score
model.save(_tmp + "/my_custom_model.keras")
# [cell 186]
# extra code – the model can be loaded and you can continue training or use it
#              to make predictions
model = tf.keras.models.load_model(
    _tmp + "/my_custom_model.keras",
    custom_objects={"ResidualRegressor": ResidualRegressor}
)
history = model.fit(X_train_scaled, y_train, epochs=2)
RESULTS["residual_regressor_predict"] = model.predict(X_test_scaled[:3])
# [cell 188]
tf.keras.utils.set_random_seed(42)
block1 = ResidualBlock(2, 30)
model = tf.keras.Sequential([
    tf.keras.layers.Dense(30, activation="relu",
                          kernel_initializer="he_normal"),
    block1, block1, block1, block1,
    ResidualBlock(2, 30),
    tf.keras.layers.Dense(1)
])
# [cell 191]
class ReconstructingRegressor(tf.keras.Model):
    def __init__(self, output_dim, **kwargs):
        super().__init__(**kwargs)
        self.hidden = [tf.keras.layers.Dense(30, activation="relu",
                                             kernel_initializer="he_normal")
                       for _ in range(5)]
        self.out = tf.keras.layers.Dense(output_dim)

    def build(self, batch_input_shape):
        n_inputs = batch_input_shape[-1]
        self.reconstruct = tf.keras.layers.Dense(n_inputs)

    def call(self, inputs, training=None):
        Z = inputs
        for layer in self.hidden:
            Z = layer(Z)
        reconstruction = self.reconstruct(Z)
        recon_loss = tf.reduce_mean(tf.square(reconstruction - inputs))
        self.add_loss(0.05 * recon_loss)
        return self.out(Z)
# [cell 192]
# extra code
tf.keras.utils.set_random_seed(42)
model = ReconstructingRegressor(1)
model.compile(loss="mse", optimizer="nadam")
history = model.fit(X_train_scaled, y_train, epochs=5)
y_pred = model.predict(X_test_scaled)
RESULTS["reconstructing_history"] = history.history["loss"]
RESULTS["reconstructing_y_pred"] = y_pred

for _k in [k for k in RESULTS if isinstance(RESULTS[k], tf.keras.callbacks.History)]:
    _h = RESULTS.pop(_k)
    RESULTS[_k] = [_h.history[_m] for _m in sorted(_h.history)]
