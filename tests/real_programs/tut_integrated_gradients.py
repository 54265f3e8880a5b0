"""Title: Integrated gradients (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/interpretability/integrated_gradients.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the TF-Hub Inception V1 and the fireboat/panda images -> a small Keras CNN with fixed
kernels (fix_weights) on two synthetic 32x32 images; m_steps 240 -> 16; plots removed; results in RESULTS.
"""
import numpy as np
import tensorflow as tf
from _corpus import images, fix_weights
RESULTS = {}

model = tf.keras.Sequential([
    tf.keras.layers.Conv2D(4, 3, activation='relu', input_shape=(32, 32, 3)),
    tf.keras.layers.GlobalAveragePooling2D(),
    tf.keras.layers.Dense(5),
])
fix_weights(model)
img_name_tensors = {'fireboat': tf.constant(images(1, 32, 32, 3, seed=1)[0]),
                    'giant panda': tf.constant(images(1, 32, 32, 3, seed=2)[0])}

def top_k_predictions(img, k=3):
  image_batch = tf.expand_dims(img, 0)
  predictions = model(image_batch)
  probs = tf.nn.softmax(predictions, axis=-1)
  top_probs, top_idxs = tf.math.top_k(input=probs, k=k)
  return top_idxs[0], top_probs[0]

RESULTS["top_k"] = top_k_predictions(img_name_tensors['fireboat'])[1]

baseline = tf.zeros(shape=(32,32,3))
m_steps=16
alphas = tf.linspace(start=0.0, stop=1.0, num=m_steps+1)

def interpolate_images(baseline,
                       image,
                       alphas):
  alphas_x = alphas[:, tf.newaxis, tf.newaxis, tf.newaxis]
  baseline_x = tf.expand_dims(baseline, axis=0)
  input_x = tf.expand_dims(image, axis=0)
  delta = input_x - baseline_x
  images = baseline_x +  alphas_x * delta
  return images

interpolated_images = interpolate_images(
    baseline=baseline,
    image=img_name_tensors['fireboat'],
    alphas=alphas)

def compute_gradients(images, target_class_idx):
  with tf.GradientTape() as tape:
    tape.watch(images)
    logits = model(images)
    probs = tf.nn.softmax(logits, axis=-1)[:, target_class_idx]
  return tape.gradient(probs, images)

path_gradients = compute_gradients(
    images=interpolated_images,
    target_class_idx=2)
RESULTS["path_gradients_sum"] = tf.reduce_sum(path_gradients, axis=[1, 2, 3])

def integral_approximation(gradients):
  grads = (gradients[:-1] + gradients[1:]) / tf.constant(2.0)
  integrated_gradients = tf.math.reduce_mean(grads, axis=0)
  return integrated_gradients

ig = integral_approximation(
    gradients=path_gradients)
RESULTS["ig_shape"] = ig.shape.as_list()

def integrated_gradients(baseline,
                         image,
                         target_class_idx,
                         m_steps=50,
                         batch_size=32):
  alphas = tf.linspace(start=0.0, stop=1.0, num=m_steps+1)
  gradient_batches = []
  for alpha in tf.range(0, len(alphas), batch_size):
    from_ = alpha
    to = tf.minimum(from_ + batch_size, len(alphas))
    alpha_batch = alphas[from_:to]
    gradient_batch = one_batch(baseline, image, alpha_batch, target_class_idx)
    gradient_batches.append(gradient_batch)
  total_gradients = tf.concat(gradient_batches, axis=0)
  avg_gradients = integral_approximation(gradients=total_gradients)
  integrated_gradients = (image - baseline) * avg_gradients
  return integrated_gradients

@tf.function
def one_batch(baseline, image, alpha_batch, target_class_idx):
    interpolated_path_input_batch = interpolate_images(baseline=baseline,
                                                       image=image,
                                                       alphas=alpha_batch)
    gradient_batch = compute_gradients(images=interpolated_path_input_batch,
                                       target_class_idx=target_class_idx)
    return gradient_batch

ig_attributions = integrated_gradients(baseline=baseline,
                                       image=img_name_tensors['giant panda'],
                                       target_class_idx=1,
                                       m_steps=20,
                                       batch_size=8)
RESULTS["attributions"] = ig_attributions
RESULTS["attribution_mask"] = tf.reduce_sum(tf.math.abs(ig_attributions), axis=-1)
