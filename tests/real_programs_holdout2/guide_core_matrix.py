"""Title: Matrix approximation with Core APIs (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/core/matrix_core.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: keras.utils.set_random_seed(0) (tf.random.uniform is unseeded); the downloaded JPEG
(requests + matplotlib imread) -> a synthetic 64x48x3 uint8 image from a seeded NumPy generator;
matplotlib (bar chart, pcolormesh, imshow, plots) removed, so viz_approx and show_img are gone and
viz_energy keeps its computation; print(...) -> RESULTS (sizes, proportions, the reconstructions,
which do not depend on the SVD's sign choices; U and V themselves are not recorded).
"""
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
RESULTS = {}

A = tf.random.uniform(shape=[40,30])
# Compute the SVD factorization
s, U, V = tf.linalg.svd(A)
# Define Sigma and V Transpose
S = tf.linalg.diag(s)
V_T = tf.transpose(V)
# Reconstruct the original matrix
A_svd = U@S@V_T
RESULTS["A"] = A
RESULTS["s"] = s
RESULTS["A_svd_matmul"] = A_svd

A_svd = tf.einsum('s,us,vs -> uv',s,U,V)
RESULTS["A_svd_einsum"] = A_svd


def rank_r_approx(s, U, V, r, verbose=False):
  # Compute the matrices necessary for a rank-r approximation
  s_r, U_r, V_r = s[..., :r], U[..., :, :r], V[..., :, :r] # ... implies any number of extra batch axes
  # Compute the low-rank approximation and its size
  A_r = tf.einsum('...s,...us,...vs->...uv',s_r,U_r,V_r)
  A_r_size = tf.size(U_r) + tf.size(s_r) + tf.size(V_r)
  if verbose:
    print(f"Approximation Size: {A_r_size}")
  return A_r, A_r_size


RESULTS["size_A"] = f"Original Size of A: {tf.size(A)}"
s, U, V = tf.linalg.svd(A)

# Rank-15 approximation
A_15, A_15_size = rank_r_approx(s, U, V, 15, verbose = True)
RESULTS["A_15"], RESULTS["A_15_size"] = A_15, A_15_size

# Rank-3 approximation
A_3, A_3_size = rank_r_approx(s, U, V, 3, verbose = True)
RESULTS["A_3"], RESULTS["A_3_size"] = A_3, A_3_size

I = np.random.default_rng(0).integers(0, 256, (64, 48, 3)).astype(np.uint8)
RESULTS["I_shape"] = I.shape


def compress_image(I, r, verbose=False):
  # Compress an image with the SVD given a rank
  I_size = tf.size(I)
  print(f"Original size of image: {I_size}")
  # Compute SVD of image
  I = tf.convert_to_tensor(I)/255
  I_batched = tf.transpose(I, [2, 0, 1]) # einops.rearrange(I, 'h w c -> c h w')
  s, U, V = tf.linalg.svd(I_batched)
  # Compute low-rank approximation of image across each RGB channel
  I_r, I_r_size = rank_r_approx(s, U, V, r)
  I_r = tf.transpose(I_r, [1, 2, 0]) # einops.rearrange(I_r, 'c h w -> h w c')
  I_r_prop = (I_r_size / I_size)
  if verbose:
    # Display compressed image and attributes
    print(f"Number of singular values used in compression: {r}")
    print(f"Compressed image size: {I_r_size}")
    print(f"Proportion of original size: {I_r_prop:.3f}")
  return I_r, I_r_prop


I_100, I_100_prop = compress_image(I, 100, verbose=True)
I_50, I_50_prop = compress_image(I, 50, verbose=True)
I_10, I_10_prop = compress_image(I, 10, verbose=True)
RESULTS["I_10"] = I_10
RESULTS["props"] = [I_100_prop, I_50_prop, I_10_prop]
RESULTS["I_100_dtype"] = I_100.dtype.name


def compress_image_with_factor(I, compression_factor, verbose=False):
  # Returns a compressed image based on a desired compression factor
  m,n,o = I.shape
  r = int((compression_factor * m * n)/(m + n + 1))
  I_r, I_r_prop = compress_image(I, r, verbose=verbose)
  return I_r


compression_factor = 0.15
I_r_img = compress_image_with_factor(I, compression_factor, verbose=True)
RESULTS["I_r_factor"] = I_r_img


def viz_energy(I):
  # Visualize the energy captured based on rank
  # Computing SVD
  I = tf.convert_to_tensor(I)/255
  I_batched = tf.transpose(I, [2, 0, 1])
  s, U, V = tf.linalg.svd(I_batched)
  # Plotting average proportion across RGB channels
  props_rgb = tf.map_fn(lambda x: tf.cumsum(x)/tf.reduce_sum(x), s)
  props_rgb_mean = tf.reduce_mean(props_rgb, axis=0)
  return props_rgb_mean


RESULTS["energy"] = viz_energy(I)


def compress_image_with_energy(I, energy_factor, verbose=False):
  # Returns a compressed image based on a desired energy factor
  # Computing SVD
  I_rescaled = tf.convert_to_tensor(I)/255
  I_batched = tf.transpose(I_rescaled, [2, 0, 1])
  s, U, V = tf.linalg.svd(I_batched)
  # Extracting singular values
  props_rgb = tf.map_fn(lambda x: tf.cumsum(x)/tf.reduce_sum(x), s)
  props_rgb_mean = tf.reduce_mean(props_rgb, axis=0)
  # Find closest r that corresponds to the energy factor
  r = tf.argmin(tf.abs(props_rgb_mean - energy_factor)) + 1
  actual_ef = props_rgb_mean[r]
  I_r, I_r_prop = compress_image(I, r, verbose=verbose)
  RESULTS["energy_line"] = f"Proportion of energy captured by the first {r} singular values: {actual_ef:.3f}"
  return I_r


energy_factor = 0.75
I_r_img = compress_image_with_energy(I, energy_factor, verbose=True)
RESULTS["I_r_energy"] = I_r_img

s, U, V = tf.linalg.svd(A)
A_10, A_10_size = rank_r_approx(s, U, V, 10)
squared_norm = tf.norm(A - A_10)**2
s_squared_sum = tf.reduce_sum(s[10:]**2)
RESULTS["squared_norm"] = squared_norm
RESULTS["s_squared_sum"] = s_squared_sum
RESULTS["norm_lines"] = [f"Squared Frobenius norm: {squared_norm:.3f}",
                         f"Sum of squared singular values left out: {s_squared_sum:.3f}"]
