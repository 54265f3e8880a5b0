"""Title: Grad-CAM class activation visualization (Keras example)
Source: https://github.com/keras-team/keras-io/blob/068c2e91c90a3f22958c5679b2617bc246238f80/examples/vision/grad_cam.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: the pretrained Xception and the downloaded images -> a small functional CNN with an
Xception-like last layer name and fixed kernels (fix_weights) on two synthetic 64x64 images
(pretrained networks are out of scope); the `with` block of make_gradcam_heatmap indented back
into the function (that commit's copy lost the indentation); decode_predictions and the
colormap display removed; results in RESULTS.
"""
import os

os.environ["KERAS_BACKEND"] = "tensorflow"

import numpy as np
import tensorflow as tf
import keras
from _corpus import images, fix_weights
RESULTS = {}

img_size = (64, 64)
preprocess_input = keras.applications.xception.preprocess_input
last_conv_layer_name = "block14_sepconv2_act"


def model_builder(weights=None):
    inputs = keras.Input(img_size + (3,))
    x = keras.layers.Conv2D(8, 3, strides=2, activation="relu")(inputs)
    x = keras.layers.SeparableConv2D(16, 3, padding="same")(x)
    x = keras.layers.Activation("relu", name=last_conv_layer_name)(x)
    x = keras.layers.GlobalAveragePooling2D()(x)
    outputs = keras.layers.Dense(10, activation="softmax")(x)
    model = keras.Model(inputs, outputs)
    fix_weights(model)
    return model


def get_img_array(seed, size):
    array = images(1, *size, 3, seed=seed) * 255
    return array


def make_gradcam_heatmap(img_array, model, last_conv_layer_name, pred_index=None):
    grad_model = keras.models.Model(
        model.inputs, [model.get_layer(last_conv_layer_name).output, model.output]
    )
    with tf.GradientTape() as tape:
        last_conv_layer_output, preds = grad_model(img_array)
        if pred_index is None:
            pred_index = tf.argmax(preds[0])
        class_channel = preds[:, pred_index]
    grads = tape.gradient(class_channel, last_conv_layer_output)
    pooled_grads = tf.reduce_mean(grads, axis=(0, 1, 2))
    last_conv_layer_output = last_conv_layer_output[0]
    heatmap = last_conv_layer_output @ pooled_grads[..., tf.newaxis]
    heatmap = tf.squeeze(heatmap)
    heatmap = tf.maximum(heatmap, 0) / tf.math.reduce_max(heatmap)
    return heatmap.numpy()


img_array = preprocess_input(get_img_array(1, size=img_size))
model = model_builder(weights="imagenet")
model.layers[-1].activation = None
preds = model.predict(img_array, verbose=0)
RESULTS["preds"] = preds
heatmap = make_gradcam_heatmap(img_array, model, last_conv_layer_name)
RESULTS["heatmap"] = heatmap

img_array = preprocess_input(get_img_array(2, size=img_size))
RESULTS["heatmap_260"] = make_gradcam_heatmap(img_array, model, last_conv_layer_name, pred_index=7)
RESULTS["heatmap_285"] = make_gradcam_heatmap(img_array, model, last_conv_layer_name, pred_index=2)
