"""Title: Working with RNNs (Keras guide)
Source: https://github.com/keras-team/keras-io/blob/4849412cb6cd6089949fb97edf1758083c964416/guides/working_with_rnns.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: the MNIST download -> 640 training and 128 test synthetic 28x28 uint8 images and uint8
labels 0-9 from a seeded NumPy generator (the guide then divides by 255 as written); the nested
RNN's random data num_batches 10 -> 2 and timestep 50 -> 10 (its input_2 alone would be 800 MB
of float64); keras.utils.set_random_seed(0) (the np.random paragraphs, initializers and fit's
shuffle are unseeded; it seeds NumPy's global generator, so the np.random calls are kept);
verbose=0 on fit and predict; model.summary() kept; the nested-input RNN section raises
IndexError under Keras 3.15 (the cell's build is given one flat input shape), so it runs in a
try/except that records the error's type name (what follows the failing call is kept inside); matplotlib import and imshow removed;
calls added only to record: the GRU/SimpleRNN, seq2seq and Bidirectional models are each
called once on small np.random inputs (the guide only summarizes them); prints -> RESULTS
(output values, states, histories, the prediction), printing kept.
"""
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(0)
RESULTS = {}

model = keras.Sequential()
# Add an Embedding layer expecting input vocab of size 1000, and
# output embedding dimension of size 64.
model.add(layers.Embedding(input_dim=1000, output_dim=64))

# Add a LSTM layer with 128 internal units.
model.add(layers.LSTM(128))

# Add a Dense layer with 10 units.
model.add(layers.Dense(10))

model.summary()

model = keras.Sequential()
model.add(layers.Embedding(input_dim=1000, output_dim=64))

# The output of GRU will be a 3D tensor of shape (batch_size, timesteps, 256)
model.add(layers.GRU(256, return_sequences=True))

# The output of SimpleRNN will be a 2D tensor of shape (batch_size, 128)
model.add(layers.SimpleRNN(128))

model.add(layers.Dense(10))

model.summary()
RESULTS["gru_simplernn_output"] = model(np.random.randint(0, 1000, size=(4, 7)))

encoder_vocab = 1000
decoder_vocab = 2000

encoder_input = layers.Input(shape=(None,))
encoder_embedded = layers.Embedding(input_dim=encoder_vocab, output_dim=64)(
    encoder_input
)

# Return states in addition to output
output, state_h, state_c = layers.LSTM(64, return_state=True, name="encoder")(
    encoder_embedded
)
encoder_state = [state_h, state_c]

decoder_input = layers.Input(shape=(None,))
decoder_embedded = layers.Embedding(input_dim=decoder_vocab, output_dim=64)(
    decoder_input
)

# Pass the 2 states to a new LSTM layer, as initial state
decoder_output = layers.LSTM(64, name="decoder")(
    decoder_embedded, initial_state=encoder_state
)
output = layers.Dense(10)(decoder_output)

model = keras.Model([encoder_input, decoder_input], output)
model.summary()
RESULTS["seq2seq_params"] = model.count_params()
RESULTS["seq2seq_output"] = model(
    [np.random.randint(0, 1000, size=(3, 5)), np.random.randint(0, 2000, size=(3, 6))]
)

paragraph1 = np.random.random((20, 10, 50)).astype(np.float32)
paragraph2 = np.random.random((20, 10, 50)).astype(np.float32)
paragraph3 = np.random.random((20, 10, 50)).astype(np.float32)

lstm_layer = layers.LSTM(64, stateful=True)
output = lstm_layer(paragraph1)
output = lstm_layer(paragraph2)
output = lstm_layer(paragraph3)
RESULTS["stateful_output"] = output
RESULTS["stateful_state_h"] = lstm_layer.states[0]

# reset_states() will reset the cached state to the original initial_state.
# If no initial_state was provided, zero-states will be used by default.
lstm_layer.reset_states()
RESULTS["reset_state_h"] = lstm_layer.states[0]

paragraph1 = np.random.random((20, 10, 50)).astype(np.float32)
paragraph2 = np.random.random((20, 10, 50)).astype(np.float32)
paragraph3 = np.random.random((20, 10, 50)).astype(np.float32)

lstm_layer = layers.LSTM(64, stateful=True)
output = lstm_layer(paragraph1)
output = lstm_layer(paragraph2)

existing_state = lstm_layer.states

new_lstm_layer = layers.LSTM(64)
new_output = new_lstm_layer(paragraph3, initial_state=existing_state)
RESULTS["state_reuse_output"] = new_output

model = keras.Sequential()

model.add(
    layers.Bidirectional(layers.LSTM(64, return_sequences=True), input_shape=(5, 10))
)
model.add(layers.Bidirectional(layers.LSTM(32)))
model.add(layers.Dense(10))

model.summary()
RESULTS["bidirectional_params"] = model.count_params()
RESULTS["bidirectional_output"] = model(np.random.random((2, 5, 10)).astype("float32"))

batch_size = 64
# Each MNIST image batch is a tensor of shape (batch_size, 28, 28).
# Each input sequence will be of size (28, 28) (height is treated like time).
input_dim = 28

units = 64
output_size = 10  # labels are from 0 to 9


# Build the RNN model
def build_model(allow_cudnn_kernel=True):
    # CuDNN is only available at the layer level, and not at the cell level.
    # This means `LSTM(units)` will use the CuDNN kernel,
    # while RNN(LSTMCell(units)) will run on non-CuDNN kernel.
    if allow_cudnn_kernel:
        # The LSTM layer with default options uses CuDNN.
        lstm_layer = keras.layers.LSTM(units, input_shape=(None, input_dim))
    else:
        # Wrapping a LSTMCell in a RNN layer will not use CuDNN.
        lstm_layer = keras.layers.RNN(
            keras.layers.LSTMCell(units), input_shape=(None, input_dim)
        )
    model = keras.models.Sequential(
        [
            lstm_layer,
            keras.layers.BatchNormalization(),
            keras.layers.Dense(output_size),
        ]
    )
    return model


_rng = np.random.default_rng(0)
x_train = _rng.integers(0, 256, (640, 28, 28)).astype("uint8")
y_train = _rng.integers(0, 10, 640).astype("uint8")
x_test = _rng.integers(0, 256, (128, 28, 28)).astype("uint8")
y_test = _rng.integers(0, 10, 128).astype("uint8")
x_train, x_test = x_train / 255.0, x_test / 255.0
sample, sample_label = x_train[0], y_train[0]

model = build_model(allow_cudnn_kernel=True)

model.compile(
    loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    optimizer="sgd",
    metrics=["accuracy"],
)


history = model.fit(
    x_train, y_train, validation_data=(x_test, y_test), batch_size=batch_size, epochs=1,
    verbose=0,
)
RESULTS["lstm_history"] = [history.history[k][0] for k in sorted(history.history)]

noncudnn_model = build_model(allow_cudnn_kernel=False)
noncudnn_model.set_weights(model.get_weights())
noncudnn_model.compile(
    loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    optimizer="sgd",
    metrics=["accuracy"],
)
history = noncudnn_model.fit(
    x_train, y_train, validation_data=(x_test, y_test), batch_size=batch_size, epochs=1,
    verbose=0,
)
RESULTS["rnn_cell_history"] = [history.history[k][0] for k in sorted(history.history)]
RESULTS["history_keys"] = sorted(history.history)

with tf.device("CPU:0"):
    cpu_model = build_model(allow_cudnn_kernel=True)
    cpu_model.set_weights(model.get_weights())
    logits = cpu_model.predict_on_batch(tf.expand_dims(sample, 0))
    result = tf.argmax(logits, axis=1)
    print(
        "Predicted result is: %s, target result is: %s" % (result.numpy(), sample_label)
    )
RESULTS["cpu_logits"] = logits
RESULTS["cpu_result"] = result


@keras.saving.register_keras_serializable()
class NestedCell(keras.layers.Layer):
    def __init__(self, unit_1, unit_2, unit_3, **kwargs):
        self.unit_1 = unit_1
        self.unit_2 = unit_2
        self.unit_3 = unit_3
        self.state_size = [tf.TensorShape([unit_1]), tf.TensorShape([unit_2, unit_3])]
        self.output_size = [tf.TensorShape([unit_1]), tf.TensorShape([unit_2, unit_3])]
        super().__init__(**kwargs)

    def build(self, input_shapes):
        # expect input_shape to contain 2 items, [(batch, i1), (batch, i2, i3)]
        i1 = input_shapes[0][1]
        i2 = input_shapes[1][1]
        i3 = input_shapes[1][2]

        self.kernel_1 = self.add_weight(
            shape=(i1, self.unit_1), initializer="uniform", name="kernel_1"
        )
        self.kernel_2_3 = self.add_weight(
            shape=(i2, i3, self.unit_2, self.unit_3),
            initializer="uniform",
            name="kernel_2_3",
        )

    def call(self, inputs, states):
        # inputs should be in [(batch, input_1), (batch, input_2, input_3)]
        # state should be in shape [(batch, unit_1), (batch, unit_2, unit_3)]
        input_1, input_2 = tf.nest.flatten(inputs)
        s1, s2 = states

        output_1 = tf.matmul(input_1, self.kernel_1)
        output_2_3 = tf.einsum("bij,ijkl->bkl", input_2, self.kernel_2_3)
        state_1 = s1 + output_1
        state_2_3 = s2 + output_2_3

        output = (output_1, output_2_3)
        new_states = (state_1, state_2_3)

        return output, new_states

    def get_config(self):
        return {"unit_1": self.unit_1, "unit_2": unit_2, "unit_3": self.unit_3}


unit_1 = 10
unit_2 = 20
unit_3 = 30

i1 = 32
i2 = 64
i3 = 32
batch_size = 64
num_batches = 2
timestep = 10

try:
    cell = NestedCell(unit_1, unit_2, unit_3)
    rnn = keras.layers.RNN(cell)

    input_1 = keras.Input((None, i1))
    input_2 = keras.Input((None, i2, i3))

    outputs = rnn((input_1, input_2))

    model = keras.models.Model([input_1, input_2], outputs)

    model.compile(optimizer="adam", loss="mse", metrics=["accuracy"])

    input_1_data = np.random.random((batch_size * num_batches, timestep, i1))
    input_2_data = np.random.random((batch_size * num_batches, timestep, i2, i3))
    target_1_data = np.random.random((batch_size * num_batches, unit_1))
    target_2_data = np.random.random((batch_size * num_batches, unit_2, unit_3))
    input_data = [input_1_data, input_2_data]
    target_data = [target_1_data, target_2_data]

    history = model.fit(input_data, target_data, batch_size=batch_size, verbose=0)
    RESULTS["nested_history_keys"] = sorted(history.history)
    RESULTS["nested_history"] = [history.history[k][0] for k in sorted(history.history)]
    RESULTS["nested_config"] = sorted(cell.get_config().items())
except Exception as exc:  # (Keras 3.15: the cell's build gets one flat input shape)
    print(type(exc).__name__, exc)
    RESULTS["nested_error"] = type(exc).__name__
