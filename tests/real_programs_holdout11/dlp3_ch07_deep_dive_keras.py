"""Title: Deep Learning with Python, 3rd ed., chapter 7: A deep dive on Keras (TensorFlow backend)
Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/dea84a4e12cc3bb3cb61ce952a0168bca113d315/chapter07_deep-dive-keras.ipynb
Licence: MIT (fchollet/deep-learning-with-python-notebooks)
Changed: the notebook's cells in order with KERAS_BACKEND="tensorflow" (the notebook sets "jax"
and marks its backend-specific cells with a %%backend magic): the "%%backend tensorflow" cells are
kept, the "%%backend torch" / "%%backend jax" cells (they need torch / jax) left out, the pip
cell and the magic's registration removed. keras.datasets.mnist.load_data() (a download; uint8
28x28 images, uint8 labels) -> synthetic uint8 arrays from a seeded NumPy generator: 700 training
images (100 of them split off for validation instead of 10000) and 100 test images (the reshapes'
60000 / 10000 follow); the ticket classifier's num_samples 1280 -> 256 and vocabulary_size
10000 -> 1000; epochs 3 -> 2 and 10 -> 3; verbose=0 on
fit/evaluate/predict; keras.utils.plot_model (needs pydot/graphviz) removed; the TensorBoard
cell (fit with keras.callbacks.TensorBoard) and the %tensorboard magics removed (the tensorboard
package, which that callback needs, is not installed); the checkpoint file -> a path in a
tempfile directory;
LossHistory's matplotlib plot/savefig replaced by keeping the per-batch losses (recorded);
model.summary / model.weights displays -> parameter counts and weight shapes;
keras.utils.set_random_seed(0) at the top (np.random, the initializers and Dropout are unseeded).
Added: the models the notebook only builds (new_model with the difficulty head, the two
functional/subclassed mixes, the model after the custom train_step) are called once on a few
samples or ones. Histories, evaluations, predictions, metric results and the custom train step's loss -> RESULTS.
"""
import os
import tempfile

os.environ["KERAS_BACKEND"] = "tensorflow"
import numpy as np
import keras
from keras import layers

keras.utils.set_random_seed(0)
RESULTS = {}
_tmp = tempfile.mkdtemp()

model = keras.Sequential(
    [
        layers.Dense(64, activation="relu"),
        layers.Dense(10, activation="softmax"),
    ]
)
model = keras.Sequential()
model.add(layers.Dense(64, activation="relu"))
model.add(layers.Dense(10, activation="softmax"))
RESULTS["weights_before_build"] = len(model.weights)
model.build(input_shape=(None, 3))
RESULTS["weight_shapes_after_build"] = np.concatenate([np.array(w.shape) for w in model.weights])
model.summary(line_length=80)
model = keras.Sequential(name="my_example_model")
model.add(layers.Dense(64, activation="relu", name="my_first_layer"))
model.add(layers.Dense(10, activation="softmax", name="my_last_layer"))
model.build((None, 3))
model.summary(line_length=80)
RESULTS["named_model_layer_names"] = np.array([l.name for l in model.layers])
model = keras.Sequential()
model.add(keras.Input(shape=(3,)))
model.add(layers.Dense(64, activation="relu"))
model.summary(line_length=80)
model.add(layers.Dense(10, activation="softmax"))
model.summary(line_length=80)
RESULTS["sequential_input_params"] = model.count_params()

inputs = keras.Input(shape=(3,), name="my_input")
features = layers.Dense(64, activation="relu")(inputs)
outputs = layers.Dense(10, activation="softmax")(features)
model = keras.Model(inputs=inputs, outputs=outputs, name="my_functional_model")
inputs = keras.Input(shape=(3,), name="my_input")
RESULTS["input_shape"] = np.array([-1 if d is None else d for d in inputs.shape])
RESULTS["input_dtype"] = np.array(str(inputs.dtype))
features = layers.Dense(64, activation="relu")(inputs)
RESULTS["features_shape"] = np.array([-1 if d is None else d for d in features.shape])
outputs = layers.Dense(10, activation="softmax")(features)
model = keras.Model(inputs=inputs, outputs=outputs, name="my_functional_model")
model.summary(line_length=80)
RESULTS["functional_params"] = model.count_params()

vocabulary_size = 1000
num_tags = 100
num_departments = 4

title = keras.Input(shape=(vocabulary_size,), name="title")
text_body = keras.Input(shape=(vocabulary_size,), name="text_body")
tags = keras.Input(shape=(num_tags,), name="tags")

features = layers.Concatenate()([title, text_body, tags])
features = layers.Dense(64, activation="relu", name="dense_features")(features)

priority = layers.Dense(1, activation="sigmoid", name="priority")(features)
department = layers.Dense(
    num_departments, activation="softmax", name="department"
)(features)

model = keras.Model(
    inputs=[title, text_body, tags],
    outputs=[priority, department],
)
import numpy as np

num_samples = 256

title_data = np.random.randint(0, 2, size=(num_samples, vocabulary_size))
text_body_data = np.random.randint(0, 2, size=(num_samples, vocabulary_size))
tags_data = np.random.randint(0, 2, size=(num_samples, num_tags))

priority_data = np.random.random(size=(num_samples, 1))
department_data = np.random.randint(0, num_departments, size=(num_samples, 1))

model.compile(
    optimizer="adam",
    loss=["mean_squared_error", "sparse_categorical_crossentropy"],
    metrics=[["mean_absolute_error"], ["accuracy"]],
)
h = model.fit(
    [title_data, text_body_data, tags_data],
    [priority_data, department_data],
    epochs=1,
    verbose=0,
)
RESULTS["ticket_list_fit_history"] = np.array([v for k, v in sorted(h.history.items())])
RESULTS["ticket_list_fit_history_keys"] = np.array(sorted(h.history))
RESULTS["ticket_list_evaluate"] = model.evaluate(
    [title_data, text_body_data, tags_data], [priority_data, department_data], verbose=0
)
priority_preds, department_preds = model.predict(
    [title_data, text_body_data, tags_data], verbose=0
)
RESULTS["ticket_list_priority_preds"] = priority_preds[:8]
RESULTS["ticket_list_department_preds"] = department_preds[:8]
model.compile(
    optimizer="adam",
    loss={
        "priority": "mean_squared_error",
        "department": "sparse_categorical_crossentropy",
    },
    metrics={
        "priority": ["mean_absolute_error"],
        "department": ["accuracy"],
    },
)
h = model.fit(
    {"title": title_data, "text_body": text_body_data, "tags": tags_data},
    {"priority": priority_data, "department": department_data},
    epochs=1,
    verbose=0,
)
RESULTS["ticket_dict_fit_history"] = np.array([v for k, v in sorted(h.history.items())])
RESULTS["ticket_dict_fit_history_keys"] = np.array(sorted(h.history))
RESULTS["ticket_dict_evaluate"] = model.evaluate(
    {"title": title_data, "text_body": text_body_data, "tags": tags_data},
    {"priority": priority_data, "department": department_data},
    verbose=0,
)
priority_preds, department_preds = model.predict(
    {"title": title_data, "text_body": text_body_data, "tags": tags_data}, verbose=0
)
RESULTS["ticket_dict_priority_preds"] = priority_preds[:8]
RESULTS["ticket_dict_department_preds"] = department_preds[:8]
RESULTS["ticket_layer_classes"] = np.array([type(l).__name__ for l in model.layers])  # (names: auto-numbered)
RESULTS["layer3_input_shapes"] = np.array([[-1 if d is None else d for d in t.shape] for t in model.layers[3].input])
RESULTS["layer3_output_shape"] = np.array([-1 if d is None else d for d in model.layers[3].output.shape])
features = model.layers[4].output
difficulty = layers.Dense(3, activation="softmax", name="difficulty")(features)

new_model = keras.Model(
    inputs=[title, text_body, tags], outputs=[priority, department, difficulty]
)
_new = new_model.predict([title_data[:4], text_body_data[:4], tags_data[:4]], verbose=0)
RESULTS["new_model_outputs"] = np.concatenate([o for o in _new], axis=1)


class CustomerTicketModel(keras.Model):
    def __init__(self, num_departments):
        super().__init__()
        self.concat_layer = layers.Concatenate()
        self.mixing_layer = layers.Dense(64, activation="relu")
        self.priority_scorer = layers.Dense(1, activation="sigmoid")
        self.department_classifier = layers.Dense(
            num_departments, activation="softmax"
        )

    def call(self, inputs):
        title = inputs["title"]
        text_body = inputs["text_body"]
        tags = inputs["tags"]

        features = self.concat_layer([title, text_body, tags])
        features = self.mixing_layer(features)
        priority = self.priority_scorer(features)
        department = self.department_classifier(features)
        return priority, department


model = CustomerTicketModel(num_departments=4)

priority, department = model(
    {"title": title_data, "text_body": text_body_data, "tags": tags_data}
)
RESULTS["subclassed_call_priority"] = priority[:8]
RESULTS["subclassed_call_department"] = department[:8]
model.compile(
    optimizer="adam",
    loss=["mean_squared_error", "sparse_categorical_crossentropy"],
    metrics=[["mean_absolute_error"], ["accuracy"]],
)
h = model.fit(
    {"title": title_data, "text_body": text_body_data, "tags": tags_data},
    [priority_data, department_data],
    epochs=1,
    verbose=0,
)
RESULTS["subclassed_fit_history"] = np.array([v for k, v in sorted(h.history.items())])
RESULTS["subclassed_fit_history_keys"] = np.array(sorted(h.history))
RESULTS["subclassed_evaluate"] = model.evaluate(
    {"title": title_data, "text_body": text_body_data, "tags": tags_data},
    [priority_data, department_data],
    verbose=0,
)
priority_preds, department_preds = model.predict(
    {"title": title_data, "text_body": text_body_data, "tags": tags_data}, verbose=0
)
RESULTS["subclassed_priority_preds"] = priority_preds[:8]
RESULTS["subclassed_department_preds"] = department_preds[:8]


class Classifier(keras.Model):
    def __init__(self, num_classes=2):
        super().__init__()
        if num_classes == 2:
            num_units = 1
            activation = "sigmoid"
        else:
            num_units = num_classes
            activation = "softmax"
        self.dense = layers.Dense(num_units, activation=activation)

    def call(self, inputs):
        return self.dense(inputs)


inputs = keras.Input(shape=(3,))
features = layers.Dense(64, activation="relu")(inputs)
outputs = Classifier(num_classes=10)(features)
model = keras.Model(inputs=inputs, outputs=outputs)
RESULTS["mixed_functional_subclassed_out"] = model(np.ones((2, 3), dtype="float32"))
inputs = keras.Input(shape=(64,))
outputs = layers.Dense(1, activation="sigmoid")(inputs)
binary_classifier = keras.Model(inputs=inputs, outputs=outputs)


class MyModel(keras.Model):
    def __init__(self, num_classes=2):
        super().__init__()
        self.dense = layers.Dense(64, activation="relu")
        self.classifier = binary_classifier

    def call(self, inputs):
        features = self.dense(inputs)
        return self.classifier(features)


model = MyModel()
RESULTS["mixed_subclassed_functional_out"] = model(np.ones((2, 5), dtype="float32"))

_rng = np.random.default_rng(0)


class mnist:  # (synthetic stand-in for keras.datasets.mnist: same dtypes and image shape)
    @staticmethod
    def load_data():
        return ((_rng.integers(0, 256, (700, 28, 28)).astype("uint8"),
                 _rng.integers(0, 10, (700,)).astype("uint8")),
                (_rng.integers(0, 256, (100, 28, 28)).astype("uint8"),
                 _rng.integers(0, 10, (100,)).astype("uint8")))


def get_mnist_model():
    inputs = keras.Input(shape=(28 * 28,))
    features = layers.Dense(512, activation="relu")(inputs)
    features = layers.Dropout(0.5)(features)
    outputs = layers.Dense(10, activation="softmax")(features)
    model = keras.Model(inputs, outputs)
    return model


(images, labels), (test_images, test_labels) = mnist.load_data()
images = images.reshape((700, 28 * 28)).astype("float32") / 255
test_images = test_images.reshape((100, 28 * 28)).astype("float32") / 255
train_images, val_images = images[100:], images[:100]
train_labels, val_labels = labels[100:], labels[:100]

model = get_mnist_model()
model.compile(
    optimizer="adam",
    loss="sparse_categorical_crossentropy",
    metrics=["accuracy"],
)
h = model.fit(
    train_images,
    train_labels,
    epochs=2,
    validation_data=(val_images, val_labels),
    verbose=0,
)
RESULTS["mnist_history"] = np.array([h.history[k] for k in ("loss", "accuracy", "val_loss", "val_accuracy")])
test_metrics = model.evaluate(test_images, test_labels, verbose=0)
predictions = model.predict(test_images, verbose=0)
RESULTS["mnist_test_metrics"] = test_metrics
RESULTS["mnist_predictions"] = predictions[:5]
from keras import ops


class RootMeanSquaredError(keras.metrics.Metric):
    def __init__(self, name="rmse", **kwargs):
        super().__init__(name=name, **kwargs)
        self.mse_sum = self.add_weight(name="mse_sum", initializer="zeros")
        self.total_samples = self.add_weight(
            name="total_samples", initializer="zeros"
        )

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = ops.one_hot(y_true, num_classes=ops.shape(y_pred)[1])
        mse = ops.sum(ops.square(y_true - y_pred))
        self.mse_sum.assign_add(mse)
        num_samples = ops.shape(y_pred)[0]
        self.total_samples.assign_add(num_samples)

    def result(self):
        return ops.sqrt(self.mse_sum / self.total_samples)

    def reset_state(self):
        self.mse_sum.assign(0.)
        self.total_samples.assign(0.)


model = get_mnist_model()
model.compile(
    optimizer="adam",
    loss="sparse_categorical_crossentropy",
    metrics=["accuracy", RootMeanSquaredError()],
)
h = model.fit(
    train_images,
    train_labels,
    epochs=2,
    validation_data=(val_images, val_labels),
    verbose=0,
)
RESULTS["rmse_history"] = np.array([h.history[k] for k in ("loss", "accuracy", "rmse", "val_loss", "val_rmse")])
test_metrics = model.evaluate(test_images, test_labels, verbose=0)
RESULTS["rmse_test_metrics"] = test_metrics
callbacks_list = [
    keras.callbacks.EarlyStopping(
        monitor="accuracy",
        patience=1,
    ),
    keras.callbacks.ModelCheckpoint(
        filepath=os.path.join(_tmp, "checkpoint_path.keras"),
        monitor="val_loss",
        save_best_only=True,
    ),
]
model = get_mnist_model()
model.compile(
    optimizer="adam",
    loss="sparse_categorical_crossentropy",
    metrics=["accuracy"],
)
h = model.fit(
    train_images,
    train_labels,
    epochs=3,
    callbacks=callbacks_list,
    validation_data=(val_images, val_labels),
    verbose=0,
)
RESULTS["callbacks_history"] = np.array([h.history[k] for k in ("loss", "accuracy", "val_loss", "val_accuracy")])
model = keras.models.load_model(os.path.join(_tmp, "checkpoint_path.keras"))
RESULTS["checkpoint_reloaded_predictions"] = model.predict(test_images[:5], verbose=0)


class LossHistory(keras.callbacks.Callback):
    def on_train_begin(self, logs):
        self.per_batch_losses = []
        self.all_epochs = []

    def on_batch_end(self, batch, logs):
        self.per_batch_losses.append(logs.get("loss"))

    def on_epoch_end(self, epoch, logs):
        self.all_epochs.append(list(self.per_batch_losses))
        self.per_batch_losses = []


model = get_mnist_model()
model.compile(
    optimizer="adam",
    loss="sparse_categorical_crossentropy",
    metrics=["accuracy"],
)
_loss_history = LossHistory()
model.fit(
    train_images,
    train_labels,
    epochs=3,
    callbacks=[_loss_history],
    validation_data=(val_images, val_labels),
    verbose=0,
)
RESULTS["per_batch_losses"] = np.array(_loss_history.all_epochs)
import tensorflow as tf

model = get_mnist_model()
loss_fn = keras.losses.SparseCategoricalCrossentropy()
optimizer = keras.optimizers.Adam()


def train_step(inputs, targets):
    with tf.GradientTape() as tape:
        predictions = model(inputs, training=True)
        loss = loss_fn(targets, predictions)
    gradients = tape.gradient(loss, model.trainable_weights)
    optimizer.apply(gradients, model.trainable_weights)
    return loss


batch_size = 32
inputs = train_images[:batch_size]
targets = train_labels[:batch_size]
loss = train_step(inputs, targets)
RESULTS["tf_train_step_loss"] = loss
RESULTS["tf_train_step_after"] = loss_fn(targets, model(inputs))
from keras import ops

metric = keras.metrics.SparseCategoricalAccuracy()
targets = ops.array([0, 1, 2])
predictions = ops.array([[1, 0, 0], [0, 1, 0], [0, 0, 1]])
metric.update_state(targets, predictions)
current_result = metric.result()
print(f"result: {current_result:.2f}")
RESULTS["metric_result"] = current_result
values = ops.array([0, 1, 2, 3, 4])
mean_tracker = keras.metrics.Mean()
for value in values:
    mean_tracker.update_state(value)
print(f"Mean of values: {mean_tracker.result():.2f}")
RESULTS["mean_tracker"] = mean_tracker.result()
metric = keras.metrics.SparseCategoricalAccuracy()
targets = ops.array([0, 1, 2])
predictions = ops.array([[1, 0, 0], [0, 1, 0], [0, 0, 1]])

metric_variables = metric.variables
metric_variables = metric.stateless_update_state(
    metric_variables, targets, predictions
)
current_result = metric.stateless_result(metric_variables)
print(f"result: {current_result:.2f}")
RESULTS["stateless_metric_result"] = current_result

metric_variables = metric.stateless_reset_state()
RESULTS["stateless_reset_variables"] = np.array([float(v) for v in metric_variables])
import keras
from keras import layers

loss_fn = keras.losses.SparseCategoricalCrossentropy()
loss_tracker = keras.metrics.Mean(name="loss")


class CustomModel(keras.Model):
    def train_step(self, data):
        inputs, targets = data
        with tf.GradientTape() as tape:
            predictions = self(inputs, training=True)
            loss = loss_fn(targets, predictions)
        gradients = tape.gradient(loss, self.trainable_weights)
        self.optimizer.apply(gradients, self.trainable_weights)

        loss_tracker.update_state(loss)
        return {"loss": loss_tracker.result()}

    @property
    def metrics(self):
        return [loss_tracker]


def get_custom_model():
    inputs = keras.Input(shape=(28 * 28,))
    features = layers.Dense(512, activation="relu")(inputs)
    features = layers.Dropout(0.5)(features)
    outputs = layers.Dense(10, activation="softmax")(features)
    model = CustomModel(inputs, outputs)
    model.compile(optimizer=keras.optimizers.Adam())
    return model


model = get_custom_model()
h = model.fit(train_images, train_labels, epochs=2, verbose=0)
RESULTS["custom_fit_loss"] = h.history["loss"]
import keras
from keras import layers


class CustomModel(keras.Model):
    def train_step(self, data):
        inputs, targets = data
        with tf.GradientTape() as tape:
            predictions = self(inputs, training=True)
            loss = self.compute_loss(y=targets, y_pred=predictions)

        gradients = tape.gradient(loss, self.trainable_weights)
        self.optimizer.apply(gradients, self.trainable_weights)

        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(targets, predictions)

        return {m.name: m.result() for m in self.metrics}


def get_custom_model():
    inputs = keras.Input(shape=(28 * 28,))
    features = layers.Dense(512, activation="relu")(inputs)
    features = layers.Dropout(0.5)(features)
    outputs = layers.Dense(10, activation="softmax")(features)
    model = CustomModel(inputs, outputs)
    model.compile(
        optimizer=keras.optimizers.Adam(),
        loss=keras.losses.SparseCategoricalCrossentropy(),
        metrics=[keras.metrics.SparseCategoricalAccuracy()],
    )
    return model


model = get_custom_model()
h = model.fit(train_images, train_labels, epochs=2, verbose=0)
RESULTS["custom_metrics_fit_history"] = np.array([v for k, v in sorted(h.history.items())])
RESULTS["custom_metrics_fit_history_keys"] = np.array(sorted(h.history))
