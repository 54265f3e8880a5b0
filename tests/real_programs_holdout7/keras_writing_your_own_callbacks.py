"""Title: Writing your own callbacks (Keras guide)
Source: https://github.com/keras-team/keras-io/blob/855e37d4f5562751e6694cdadf93b2b7a72c935f/guides/keras_core/writing_your_own_callbacks.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: the MNIST download -> 2000 + 1000 synthetic flattened 28x28 images (float32 in [0, 1)
after the guide's /255) and uint8 labels 0-9 from a seeded NumPy generator (the guide then keeps
the first 1000 of each, as written); keras.utils.set_random_seed(0) (initializers and the
validation-free shuffles are unseeded); np.Inf -> np.inf (NumPy 2 removed the alias); the
predict call gets verbose=0; prints -> RESULTS (each callback's log keys and the numbers it
prints, the evaluate results and the predictions), printing kept.
"""
import numpy as np
import keras

keras.utils.set_random_seed(0)
RESULTS = {}
LOG = []


# Define the Keras model to add callbacks to
def get_model():
    model = keras.Sequential()
    model.add(keras.layers.Dense(1))
    model.compile(
        optimizer=keras.optimizers.RMSprop(learning_rate=0.1),
        loss="mean_squared_error",
        metrics=["mean_absolute_error"],
    )
    return model


# Load example MNIST data and pre-process it
_rng = np.random.default_rng(0)
x_train = _rng.integers(0, 256, (2000, 28, 28)).astype("uint8")
y_train = _rng.integers(0, 10, 2000).astype("uint8")
x_test = _rng.integers(0, 256, (1000, 28, 28)).astype("uint8")
y_test = _rng.integers(0, 10, 1000).astype("uint8")
x_train = x_train.reshape(-1, 784).astype("float32") / 255.0
x_test = x_test.reshape(-1, 784).astype("float32") / 255.0

# Limit the data to 1000 samples
x_train = x_train[:1000]
y_train = y_train[:1000]
x_test = x_test[:1000]
y_test = y_test[:1000]


class CustomCallback(keras.callbacks.Callback):
    def on_train_begin(self, logs=None):
        keys = list(logs.keys())
        print("Starting training; got log keys: {}".format(keys))
        LOG.append("train_begin:" + ",".join(keys))

    def on_train_end(self, logs=None):
        keys = list(logs.keys())
        print("Stop training; got log keys: {}".format(keys))
        LOG.append("train_end:" + ",".join(sorted(keys)))

    def on_epoch_begin(self, epoch, logs=None):
        keys = list(logs.keys())
        print("Start epoch {} of training; got log keys: {}".format(epoch, keys))
        LOG.append("epoch_begin{}:".format(epoch) + ",".join(keys))

    def on_epoch_end(self, epoch, logs=None):
        keys = list(logs.keys())
        print("End epoch {} of training; got log keys: {}".format(epoch, keys))
        LOG.append("epoch_end{}:".format(epoch) + ",".join(sorted(keys)))

    def on_test_begin(self, logs=None):
        keys = list(logs.keys())
        print("Start testing; got log keys: {}".format(keys))
        LOG.append("test_begin:" + ",".join(keys))

    def on_test_end(self, logs=None):
        keys = list(logs.keys())
        print("Stop testing; got log keys: {}".format(keys))
        LOG.append("test_end:" + ",".join(sorted(keys)))

    def on_predict_begin(self, logs=None):
        keys = list(logs.keys())
        print("Start predicting; got log keys: {}".format(keys))
        LOG.append("predict_begin:" + ",".join(keys))

    def on_predict_end(self, logs=None):
        keys = list(logs.keys())
        print("Stop predicting; got log keys: {}".format(keys))
        LOG.append("predict_end:" + ",".join(keys))

    def on_train_batch_begin(self, batch, logs=None):
        keys = list(logs.keys())
        print("...Training: start of batch {}; got log keys: {}".format(batch, keys))
        LOG.append("train_batch_begin{}:".format(batch) + ",".join(keys))

    def on_train_batch_end(self, batch, logs=None):
        keys = list(logs.keys())
        print("...Training: end of batch {}; got log keys: {}".format(batch, keys))
        LOG.append("train_batch_end{}:".format(batch) + ",".join(sorted(keys)))

    def on_test_batch_begin(self, batch, logs=None):
        keys = list(logs.keys())
        print("...Evaluating: start of batch {}; got log keys: {}".format(batch, keys))
        LOG.append("test_batch_begin{}:".format(batch) + ",".join(keys))

    def on_test_batch_end(self, batch, logs=None):
        keys = list(logs.keys())
        print("...Evaluating: end of batch {}; got log keys: {}".format(batch, keys))
        LOG.append("test_batch_end{}:".format(batch) + ",".join(sorted(keys)))

    def on_predict_batch_begin(self, batch, logs=None):
        keys = list(logs.keys())
        print("...Predicting: start of batch {}; got log keys: {}".format(batch, keys))
        LOG.append("predict_batch_begin{}:".format(batch) + ",".join(keys))

    def on_predict_batch_end(self, batch, logs=None):
        keys = list(logs.keys())
        print("...Predicting: end of batch {}; got log keys: {}".format(batch, keys))
        LOG.append("predict_batch_end{}:".format(batch) + ",".join(sorted(keys)))


model = get_model()
model.fit(
    x_train,
    y_train,
    batch_size=128,
    epochs=1,
    verbose=0,
    validation_split=0.5,
    callbacks=[CustomCallback()],
)

res = model.evaluate(
    x_test, y_test, batch_size=128, verbose=0, callbacks=[CustomCallback()]
)
RESULTS["custom_evaluate"] = res

res = model.predict(x_test, batch_size=128, verbose=0, callbacks=[CustomCallback()])
RESULTS["custom_predict"] = res
RESULTS["custom_callback_log"] = list(LOG)

PRINTED = []


class LossAndErrorPrintingCallback(keras.callbacks.Callback):
    def on_train_batch_end(self, batch, logs=None):
        print(
            "Up to batch {}, the average loss is {:7.2f}.".format(batch, logs["loss"])
        )
        PRINTED.append(float(logs["loss"]))

    def on_test_batch_end(self, batch, logs=None):
        print(
            "Up to batch {}, the average loss is {:7.2f}.".format(batch, logs["loss"])
        )
        PRINTED.append(float(logs["loss"]))

    def on_epoch_end(self, epoch, logs=None):
        print(
            "The average loss for epoch {} is {:7.2f} "
            "and mean absolute error is {:7.2f}.".format(
                epoch, logs["loss"], logs["mean_absolute_error"]
            )
        )
        PRINTED.append(float(logs["mean_absolute_error"]))


model = get_model()
model.fit(
    x_train,
    y_train,
    batch_size=128,
    epochs=2,
    verbose=0,
    callbacks=[LossAndErrorPrintingCallback()],
)

res = model.evaluate(
    x_test,
    y_test,
    batch_size=128,
    verbose=0,
    callbacks=[LossAndErrorPrintingCallback()],
)
RESULTS["printing_evaluate"] = res
RESULTS["printing_values"] = list(PRINTED)


class EarlyStoppingAtMinLoss(keras.callbacks.Callback):
    """Stop training when the loss is at its min, i.e. the loss stops decreasing.

    Arguments:
        patience: Number of epochs to wait after min has been hit. After this
        number of no improvement, training stops.
    """

    def __init__(self, patience=0):
        super().__init__()
        self.patience = patience
        # best_weights to store the weights at which the minimum loss occurs.
        self.best_weights = None

    def on_train_begin(self, logs=None):
        # The number of epoch it has waited when loss is no longer minimum.
        self.wait = 0
        # The epoch the training stops at.
        self.stopped_epoch = 0
        # Initialize the best as infinity.
        self.best = np.inf

    def on_epoch_end(self, epoch, logs=None):
        current = logs.get("loss")
        if np.less(current, self.best):
            self.best = current
            self.wait = 0
            # Record the best weights if current results is better (less).
            self.best_weights = self.model.get_weights()
        else:
            self.wait += 1
            if self.wait >= self.patience:
                self.stopped_epoch = epoch
                self.model.stop_training = True
                print("Restoring model weights from the end of the best epoch.")
                self.model.set_weights(self.best_weights)

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")


PRINTED = []
model = get_model()
early = EarlyStoppingAtMinLoss()
history = model.fit(
    x_train,
    y_train,
    batch_size=64,
    epochs=30,
    verbose=0,
    callbacks=[LossAndErrorPrintingCallback(), early],
)
RESULTS["early_stopped_epoch"] = early.stopped_epoch
RESULTS["early_best"] = float(early.best)
RESULTS["early_history_loss"] = history.history["loss"]
RESULTS["early_final_weights"] = model.get_weights()[0]
RESULTS["early_printed"] = list(PRINTED)


class CustomLearningRateScheduler(keras.callbacks.Callback):
    """Learning rate scheduler which sets the learning rate according to schedule.

    Arguments:
        schedule: a function that takes an epoch index
            (integer, indexed from 0) and current learning rate
            as inputs and returns a new learning rate as output (float).
    """

    def __init__(self, schedule):
        super().__init__()
        self.schedule = schedule

    def on_epoch_begin(self, epoch, logs=None):
        if not hasattr(self.model.optimizer, "learning_rate"):
            raise ValueError('Optimizer must have a "learning_rate" attribute.')
        # Get the current learning rate from model's optimizer.
        lr = self.model.optimizer.learning_rate
        # Call schedule function to get the scheduled learning rate.
        scheduled_lr = self.schedule(epoch, lr)
        # Set the value back to the optimizer before this epoch starts
        self.model.optimizer.learning_rate = scheduled_lr
        print(f"\nEpoch {epoch}: Learning rate is {float(np.array(scheduled_lr))}.")
        LRS.append(float(np.array(scheduled_lr)))


LR_SCHEDULE = [
    # (epoch to start, learning rate) tuples
    (3, 0.05),
    (6, 0.01),
    (9, 0.005),
    (12, 0.001),
]


def lr_schedule(epoch, lr):
    """Helper function to retrieve the scheduled learning rate based on epoch."""
    if epoch < LR_SCHEDULE[0][0] or epoch > LR_SCHEDULE[-1][0]:
        return lr
    for i in range(len(LR_SCHEDULE)):
        if epoch == LR_SCHEDULE[i][0]:
            return LR_SCHEDULE[i][1]
    return lr


LRS = []
model = get_model()
history = model.fit(
    x_train,
    y_train,
    batch_size=64,
    epochs=15,
    verbose=0,
    callbacks=[
        LossAndErrorPrintingCallback(),
        CustomLearningRateScheduler(lr_schedule),
    ],
)
RESULTS["scheduled_lrs"] = LRS
RESULTS["scheduled_history_loss"] = history.history["loss"]
RESULTS["scheduled_history_mae"] = history.history["mean_absolute_error"]
