"""Title: Mandelbrot set (TensorFlow tutorial, TF1)
Source: https://github.com/tensorflow/docs/blob/ef12fb0221611e2df8d9417950ca30c93fb6dc02/site/en/tutorials/non-ml/mandelbrot.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the tutorial's code cells in order (its last version under site/en/tutorials, before it
moved to the r1/ TF1 docs); it is TF1 code (tf.InteractiveSession,
tf.global_variables_initializer, Tensor.eval/Operation.run), so `import tensorflow as tf` ->
`import tensorflow.compat.v1 as tf`, and the program after the imports indented under
`with tf.Graph().as_default():` so that its variables and session live in a TF1 graph (rather
than tf.disable_v2_behavior(), which would switch off eager execution for the whole process and
every program run after it); the `from __future__ import ...` line removed (it cannot follow
other statements); the PIL/IPython display imports and DisplayFractal's JPEG encoding/display
removed (DisplayFractal now records the colour image it would show); the grid step 0.005 ->
0.02 (a 130x150 grid instead of 520x600), to keep the run short (the 200 iterations kept);
sess.close() at the end; the iteration counts, the image and the final z values (subsampled)
-> RESULTS. (This replaces the tutorial's sibling "Partial Differential Equations", whose
tf.group of two assigns reads a variable that the other assign writes, so its results differed
between two runs.)
"""
RESULTS = {}

# Import libraries for simulation
import tensorflow.compat.v1 as tf
import numpy as np

_graph = tf.Graph()
with _graph.as_default():
  _shown = []
  def DisplayFractal(a, fmt='jpeg'):
    """Display an array of iteration counts as a
       colorful picture of a fractal."""
    a_cyclic = (6.28*a/20.0).reshape(list(a.shape)+[1])
    img = np.concatenate([10+20*np.cos(a_cyclic),
                          30+50*np.sin(a_cyclic),
                          155-80*np.cos(a_cyclic)], 2)
    img[a==a.max()] = 0
    a = img
    a = np.uint8(np.clip(a, 0, 255))
    _shown.append(a)

  sess = tf.InteractiveSession()

  # Use NumPy to create a 2D array of complex numbers

  Y, X = np.mgrid[-1.3:1.3:0.02, -2:1:0.02]
  Z = X+1j*Y
  RESULTS["grid_shape"] = Z.shape

  xs = tf.constant(Z.astype(np.complex64))
  zs = tf.Variable(xs)
  ns = tf.Variable(tf.zeros_like(xs, tf.float32))

  tf.global_variables_initializer().run()

  # Compute the new values of z: z^2 + x
  zs_ = zs*zs + xs

  # Have we diverged with this new value?
  not_diverged = tf.abs(zs_) < 4

  # Operation to update the zs and the iteration count.
  #
  # Note: We keep computing zs after they diverge! This
  #       is very wasteful! There are better, if a little
  #       less simple, ways to do this.
  #
  step = tf.group(
    zs.assign(zs_),
    ns.assign_add(tf.cast(not_diverged, tf.float32))
    )

  for i in range(200): step.run()

  DisplayFractal(ns.eval())
  RESULTS["ns"] = ns.eval()[::5, ::5]
  RESULTS["ns_histogram"] = np.bincount(ns.eval().astype(int).ravel(), minlength=201)
  RESULTS["image"] = _shown[-1][::10, ::10]
  _z = zs.eval()
  RESULTS["zs_finite_count"] = np.isfinite(_z).sum()
  RESULTS["zs_inside"] = _z[60:70:3, 70:90:5]
  sess.close()
