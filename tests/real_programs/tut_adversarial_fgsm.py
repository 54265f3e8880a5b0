"""Title: Adversarial example using FGSM (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/generative/adversarial_fgsm.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the pretrained MobileNetV2 -> a small softmax CNN with fixed kernels (fix_weights) and
the Labrador image -> a synthetic 1x32x32x3 image (pretrained networks are out of scope); class
208 -> 3 of 10; plots removed; results in RESULTS.
"""
import tensorflow as tf
from _corpus import images, fix_weights
RESULTS = {}

pretrained_model = tf.keras.Sequential([
    tf.keras.layers.Conv2D(6, 3, strides=2, activation='relu', input_shape=(32, 32, 3)),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(10, activation='softmax'),
])
fix_weights(pretrained_model)
pretrained_model.trainable = False

def preprocess(image):
  image = tf.cast(image, tf.float32)
  image = tf.image.resize(image, (32, 32))
  image = tf.keras.applications.mobilenet_v2.preprocess_input(image)
  image = image[None, ...]
  return image

image_raw = images(1, 40, 40, 3, seed=3)[0] * 255
image = preprocess(image_raw)
image_probs = pretrained_model.predict(image, verbose=0)
RESULTS["image"] = image
RESULTS["image_probs"] = image_probs

loss_object = tf.keras.losses.CategoricalCrossentropy()

def create_adversarial_pattern(input_image, input_label):
  with tf.GradientTape() as tape:
    tape.watch(input_image)
    prediction = pretrained_model(input_image)
    loss = loss_object(input_label, prediction)
  gradient = tape.gradient(loss, input_image)
  signed_grad = tf.sign(gradient)
  return signed_grad

labrador_retriever_index = 3
label = tf.one_hot(labrador_retriever_index, image_probs.shape[-1])
label = tf.reshape(label, (1, image_probs.shape[-1]))

perturbations = create_adversarial_pattern(image, label)
RESULTS["perturbations"] = perturbations

epsilons = [0, 0.01, 0.1, 0.15]
adv_probs = []
for i, eps in enumerate(epsilons):
  adv_x = image + eps*perturbations
  adv_x = tf.clip_by_value(adv_x, -1, 1)
  adv_probs.append(pretrained_model.predict(adv_x, verbose=0)[0])
RESULTS["adv_probs"] = adv_probs
