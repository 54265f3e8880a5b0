"""Title: Partial Differential Equations: simulating raindrops on a pond (TensorFlow tutorial, TF1)
Source: https://github.com/tensorflow/docs/blob/ef12fb0221611e2df8d9417950ca30c93fb6dc02/site/en/tutorials/non-ml/pdes.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the tutorial's code cells in order (its last version under site/en/tutorials, before it
moved to the r1/ TF1 docs); it is TF1 code (tf.InteractiveSession, tf.placeholder,
tf.global_variables_initializer, Tensor.eval/Operation.run), so `import tensorflow as tf` ->
`import tensorflow.compat.v1 as tf`, and the program after the imports indented under
`with tf.Graph().as_default():` so that its placeholders, variables and session live in a TF1
graph (rather than tf.disable_v2_behavior(), which would switch off eager execution for the
whole process and every program run after it); the PIL/IPython display imports and
DisplayArray's display calls removed (DisplayArray now only records the array it would show);
np.random.seed(0) at the top (the raindrops are drawn by np.random unseeded); N 500 -> 100 and
the 1000 simulation steps -> 200, to keep the run short; the displayed arrays (initial and
final states, subsampled) and a few summary values -> RESULTS; sess.close() at the end; the
`from __future__ import ...` line removed (it cannot follow other statements).
Note: in this graph the variables are TF2 resource variables (a TF1 program under
tf.disable_v2_behavior() gets reference variables, whose reads inside the tf.group step are
ordered differently, so its final state differs).
"""
RESULTS = {}

#Import libraries for simulation
import tensorflow.compat.v1 as tf
import numpy as np

_graph = tf.Graph()
with _graph.as_default():
  np.random.seed(0)

  _shown = []
  def DisplayArray(a, fmt='jpeg', rng=[0,1]):
    """Display an array as a picture."""
    a = (a - rng[0])/float(rng[1] - rng[0])*255
    a = np.uint8(np.clip(a, 0, 255))
    _shown.append(a)

  sess = tf.InteractiveSession()

  def make_kernel(a):
    """Transform a 2D array into a convolution kernel"""
    a = np.asarray(a)
    a = a.reshape(list(a.shape) + [1,1])
    return tf.constant(a, dtype=1)

  def simple_conv(x, k):
    """A simplified 2D convolution operation"""
    x = tf.expand_dims(tf.expand_dims(x, 0), -1)
    y = tf.nn.depthwise_conv2d(x, k, [1, 1, 1, 1], padding='SAME')
    return y[0, :, :, 0]

  def laplace(x):
    """Compute the 2D laplacian of an array"""
    laplace_k = make_kernel([[0.5, 1.0, 0.5],
                             [1.0, -6., 1.0],
                             [0.5, 1.0, 0.5]])
    return simple_conv(x, laplace_k)

  N = 100

  # Initial Conditions -- some rain drops hit a pond

  # Set everything to zero
  u_init = np.zeros([N, N], dtype=np.float32)
  ut_init = np.zeros([N, N], dtype=np.float32)

  # Some rain drops hit a pond at random points
  for n in range(40):
    a,b = np.random.randint(0, N, 2)
    u_init[a,b] = np.random.uniform()

  DisplayArray(u_init, rng=[-0.1, 0.1])
  RESULTS["u_init_sum"] = u_init.sum()
  RESULTS["initial_image"] = _shown[-1][::10, ::10]

  # Parameters:
  # eps -- time resolution
  # damping -- wave damping
  eps = tf.placeholder(tf.float32, shape=())
  damping = tf.placeholder(tf.float32, shape=())

  # Create variables for simulation state
  U  = tf.Variable(u_init)
  Ut = tf.Variable(ut_init)

  # Discretized PDE update rules
  U_ = U + eps * Ut
  Ut_ = Ut + eps * (laplace(U) - damping * Ut)

  # Operation to update the state
  step = tf.group(
    U.assign(U_),
    Ut.assign(Ut_))

  # Initialize state to initial conditions
  tf.global_variables_initializer().run()

  # Run 200 steps of PDE
  for i in range(200):
    # Step simulation
    step.run({eps: 0.03, damping: 0.04})
    if i == 0:
      RESULTS["U_after_1_step"] = U.eval()[::10, ::10]

  # Show final image
  DisplayArray(U.eval(), rng=[-0.1, 0.1])
  RESULTS["final_image"] = _shown[-1][::10, ::10]
  RESULTS["U_final"] = U.eval()[::7, ::7]
  RESULTS["Ut_final_abs_sum"] = np.abs(Ut.eval()).sum()
  RESULTS["laplace_kernel"] = make_kernel([[0.5, 1.0, 0.5], [1.0, -6., 1.0], [0.5, 1.0, 0.5]]).eval()[:, :, 0, 0]
  sess.close()
