"""Title: Point cloud classification with PointNet (keras.io example)
Source: https://github.com/keras-team/keras-io/blob/4ddadb70592b4c1884b2c9720656cae41b2e70c1/examples/vision/pointnet.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: the example's code in order; the ModelNet10 download, trimesh mesh loading/sampling and
the matplotlib 3-D plots removed (trimesh and the data are not available): parse_dataset()'s
body (glob over the class folders, trimesh.load(f).sample(num_points)) -> synthetic float64
point clouds from a seeded NumPy generator (each of the 10 "classes" a differently scaled and
shifted noisy ellipsoid surface; 8 train and 4 test clouds per class, ModelNet10 has 3,991 and
908), keeping its return values (points, labels, class_map with the ModelNet10 class names);
NUM_POINTS 2048 -> 256; epochs 20 -> 1; keras.utils.set_random_seed(1234) at the top next to
the example's tf.random.set_seed(1234) (Keras 3's initializers and Dropout do not follow
tf.random.set_seed alone); the printed summary, the history, the predictions and labels of
the visualized batch (by class name) -> RESULTS.
"""
RESULTS = {}

import os
import glob
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

tf.random.set_seed(1234)
keras.utils.set_random_seed(1234)

"""
## Load dataset
"""

_CLASSES = ["bathtub", "bed", "chair", "desk", "dresser", "monitor", "night_stand", "sofa",
            "table", "toilet"]
_rng = np.random.default_rng(1234)
def _synthetic_cloud(class_id, num_points):
    u = _rng.normal(size=(num_points, 3))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    scale = np.array([1.0 + 0.1 * class_id, 1.0 - 0.05 * class_id, 0.5 + 0.08 * class_id])
    return u * scale + 0.1 * class_id + _rng.normal(0, 0.02, (num_points, 3))


def parse_dataset(num_points=2048):

    train_points = []
    train_labels = []
    test_points = []
    test_labels = []
    class_map = {}
    folders = _CLASSES

    for i, folder in enumerate(folders):
        print("processing class: {}".format(os.path.basename(folder)))
        # store folder name with ID so we can retrieve later
        class_map[i] = folder.split("/")[-1]
        # gather all files
        for f in range(8):
            train_points.append(_synthetic_cloud(i, num_points))
            train_labels.append(i)

        for f in range(4):
            test_points.append(_synthetic_cloud(i, num_points))
            test_labels.append(i)

    return (
        np.array(train_points),
        np.array(test_points),
        np.array(train_labels),
        np.array(test_labels),
        class_map,
    )


NUM_POINTS = 256
NUM_CLASSES = 10
BATCH_SIZE = 32

train_points, test_points, train_labels, test_labels, CLASS_MAP = parse_dataset(
    NUM_POINTS
)
RESULTS["train_points_shape"] = train_points.shape
RESULTS["train_points_dtype"] = str(train_points.dtype)


def augment(points, label):
    # jitter points
    points += tf.random.uniform(points.shape, -0.005, 0.005, dtype=tf.float64)
    # shuffle points
    points = tf.random.shuffle(points)
    return points, label


train_dataset = tf.data.Dataset.from_tensor_slices((train_points, train_labels))
test_dataset = tf.data.Dataset.from_tensor_slices((test_points, test_labels))

train_dataset = train_dataset.shuffle(len(train_points)).map(augment).batch(BATCH_SIZE)
test_dataset = test_dataset.shuffle(len(test_points)).batch(BATCH_SIZE)

"""
### Build a model
"""


def conv_bn(x, filters):
    x = layers.Conv1D(filters, kernel_size=1, padding="valid")(x)
    x = layers.BatchNormalization(momentum=0.0)(x)
    return layers.Activation("relu")(x)


def dense_bn(x, filters):
    x = layers.Dense(filters)(x)
    x = layers.BatchNormalization(momentum=0.0)(x)
    return layers.Activation("relu")(x)


class OrthogonalRegularizer(keras.regularizers.Regularizer):
    def __init__(self, num_features, l2reg=0.001):
        self.num_features = num_features
        self.l2reg = l2reg
        self.eye = tf.eye(num_features)

    def __call__(self, x):
        x = tf.reshape(x, (-1, self.num_features, self.num_features))
        xxt = tf.tensordot(x, x, axes=(2, 2))
        xxt = tf.reshape(xxt, (-1, self.num_features, self.num_features))
        return tf.reduce_sum(self.l2reg * tf.square(xxt - self.eye))


RESULTS["orthogonal_reg_identity"] = OrthogonalRegularizer(3)(tf.reshape(tf.eye(3), (1, 9)))
RESULTS["orthogonal_reg_value"] = OrthogonalRegularizer(2)(
    tf.constant([[1.0, 2.0, 0.5, -1.0], [0.0, 1.0, 1.0, 0.0]]))


def tnet(inputs, num_features):

    # Initalise bias as the indentity matrix
    bias = keras.initializers.Constant(np.eye(num_features).flatten())
    reg = OrthogonalRegularizer(num_features)

    x = conv_bn(inputs, 32)
    x = conv_bn(x, 64)
    x = conv_bn(x, 512)
    x = layers.GlobalMaxPooling1D()(x)
    x = dense_bn(x, 256)
    x = dense_bn(x, 128)
    x = layers.Dense(
        num_features * num_features,
        kernel_initializer="zeros",
        bias_initializer=bias,
        activity_regularizer=reg,
    )(x)
    feat_T = layers.Reshape((num_features, num_features))(x)
    # Apply affine transformation to input features
    return layers.Dot(axes=(2, 1))([inputs, feat_T])


inputs = keras.Input(shape=(NUM_POINTS, 3))

x = tnet(inputs, 3)
x = conv_bn(x, 32)
x = conv_bn(x, 32)
x = tnet(x, 32)
x = conv_bn(x, 32)
x = conv_bn(x, 64)
x = conv_bn(x, 512)
x = layers.GlobalMaxPooling1D()(x)
x = dense_bn(x, 256)
x = layers.Dropout(0.3)(x)
x = dense_bn(x, 128)
x = layers.Dropout(0.3)(x)

outputs = layers.Dense(NUM_CLASSES, activation="softmax")(x)

model = keras.Model(inputs=inputs, outputs=outputs, name="pointnet")
model.summary()
RESULTS["n_params"] = model.count_params()
RESULTS["n_layers"] = len(model.layers)

"""
### Train model
"""

model.compile(
    loss="sparse_categorical_crossentropy",
    optimizer=keras.optimizers.Adam(learning_rate=0.001),
    metrics=["sparse_categorical_accuracy"],
)

history = model.fit(train_dataset, epochs=1, validation_data=test_dataset)
RESULTS["history_loss"] = history.history["loss"]
RESULTS["history_accuracy"] = history.history["sparse_categorical_accuracy"]
RESULTS["history_val_loss"] = history.history["val_loss"]

"""
## Visualize predictions
"""

data = test_dataset.take(1)

points, labels = list(data)[0]
points = points[:8, ...]
labels = labels[:8, ...]

# run test data through model
preds = model.predict(points)
RESULTS["pred_probas"] = preds
preds = tf.math.argmax(preds, -1)

points = points.numpy()

# plot points with predicted class and label
_titles = []
for i in range(8):
    _titles.append(
        "pred: {:}, label: {:}".format(
            CLASS_MAP[preds[i].numpy()], CLASS_MAP[labels.numpy()[i]]
        )
    )
print(_titles)
RESULTS["titles"] = _titles
RESULTS["labels"] = labels
