"""``tapegrad.optimizers``: gradient-descent optimizers and learning-rate schedules with Keras 3's
update formulas and defaults (TensorFlow's ``tf.optimizers`` / ``tf.keras.optimizers``).

>>> import tapegrad as tf
>>> w = tf.Variable([1.0, -2.0])
>>> opt = tf.optimizers.SGD(learning_rate=0.1)
>>> with tf.GradientTape() as tape:
...     loss = tf.reduce_sum(w ** 2)
>>> _ = opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
>>> w.numpy().round(4)
array([ 0.8, -1.6], dtype=float32)
"""
from . import schedules
from .algorithms import SGD, Adagrad, Adam, AdamW, RMSprop
from .loss_scale import LossScaleOptimizer
from .more_algorithms import (Adadelta, Adafactor, Adamax, Ftrl, Lamb, Lion, Nadam,
                              ScheduleFreeAdamW)
from .optimizer import Optimizer, deserialize, get, serialize

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta",
           "Adafactor", "Adamax", "Ftrl", "Lamb", "Lion", "Nadam",
           "LossScaleOptimizer", "ScheduleFreeAdamW", "schedules", "serialize", "deserialize", "get"]
