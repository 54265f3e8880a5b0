"""Title: Introduction to modules, layers, and models (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/intro_to_modules.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the unseeded tf.random.normal weights fixed (fix_weights); checkpoint/SavedModel cells
left out; simple_layer([[2.0, 2.0, 2.0]]) -> simple_layer(tf.constant(...)) (Keras 3
refuses a nested list as a layer's input); printed values recorded in RESULTS.
"""
import tensorflow as tf
from _corpus import fix_weights
RESULTS = {}

class SimpleModule(tf.Module):
  def __init__(self, name=None):
    super().__init__(name=name)
    self.a_variable = tf.Variable(5.0, name="train_me")
    self.non_trainable_variable = tf.Variable(5.0, trainable=False, name="do_not_train_me")
  def __call__(self, x):
    return self.a_variable * x + self.non_trainable_variable

simple_module = SimpleModule(name="simple")
RESULTS["simple"] = simple_module(tf.constant(5.0))
RESULTS["n_trainable"] = len(simple_module.trainable_variables)
RESULTS["n_all"] = len(simple_module.variables)

class Dense(tf.Module):
  def __init__(self, in_features, out_features, name=None):
    super().__init__(name=name)
    self.w = tf.Variable(
      tf.random.normal([in_features, out_features]), name='w')
    self.b = tf.Variable(tf.zeros([out_features]), name='b')
  def __call__(self, x):
    y = tf.matmul(x, self.w) + self.b
    return tf.nn.relu(y)

class SequentialModule(tf.Module):
  def __init__(self, name=None):
    super().__init__(name=name)
    self.dense_1 = Dense(in_features=3, out_features=3)
    self.dense_2 = Dense(in_features=3, out_features=2)

  def __call__(self, x):
    x = self.dense_1(x)
    return self.dense_2(x)

my_model = SequentialModule(name="the_model")
fix_weights([my_model.dense_1.w, my_model.dense_2.w])
RESULTS["model_results"] = my_model(tf.constant([[2.0, 2.0, 2.0]]))
RESULTS["submodules"] = len(my_model.submodules)
RESULTS["n_variables"] = len(my_model.variables)

class FlexibleDenseModule(tf.Module):
  def __init__(self, out_features, name=None):
    super().__init__(name=name)
    self.is_built = False
    self.out_features = out_features

  def __call__(self, x):
    if not self.is_built:
      self.w = tf.Variable(
        tf.random.normal([x.shape[-1], self.out_features]), name='w')
      self.b = tf.Variable(tf.zeros([self.out_features]), name='b')
      self.is_built = True
      fix_weights([self.w], seed=x.shape[-1])
    y = tf.matmul(x, self.w) + self.b
    return tf.nn.relu(y)

class MySequentialModule(tf.Module):
  def __init__(self, name=None):
    super().__init__(name=name)
    self.dense_1 = FlexibleDenseModule(out_features=3)
    self.dense_2 = FlexibleDenseModule(out_features=2)

  def __call__(self, x):
    x = self.dense_1(x)
    return self.dense_2(x)

my_model = MySequentialModule(name="the_model")
RESULTS["flexible"] = my_model(tf.constant([[2.0, 2.0, 2.0]]))

class MyDense(tf.keras.layers.Layer):
  def __init__(self, in_features, out_features, **kwargs):
    super().__init__(**kwargs)
    self.w = tf.Variable(
      tf.random.normal([in_features, out_features]), name='w')
    self.b = tf.Variable(tf.zeros([out_features]), name='b')
  def call(self, x):
    y = tf.matmul(x, self.w) + self.b
    return tf.nn.relu(y)

simple_layer = MyDense(name="simple", in_features=3, out_features=3)
fix_weights([simple_layer.w], seed=7)
RESULTS["keras_layer"] = simple_layer(tf.constant([[2.0, 2.0, 2.0]]))

class FlexibleDense(tf.keras.layers.Layer):
  def __init__(self, out_features, **kwargs):
    super().__init__(**kwargs)
    self.out_features = out_features

  def build(self, input_shape):
    self.w = tf.Variable(
      tf.random.normal([input_shape[-1], self.out_features]), name='w')
    self.b = tf.Variable(tf.zeros([self.out_features]), name='b')

  def call(self, inputs):
    return tf.matmul(inputs, self.w) + self.b

flexible_dense = FlexibleDense(out_features=3)
flexible_dense(tf.constant([[2.0, 2.0, 2.0], [3.0, 3.0, 3.0]]))
fix_weights([flexible_dense.w], seed=8)
RESULTS["build"] = flexible_dense(tf.constant([[2.0, 2.0, 2.0], [3.0, 3.0, 3.0]]))
try:
  flexible_dense(tf.constant([[2.0, 2.0, 2.0, 2.0]]))
  RESULTS["wrong_shape_fails"] = False
except Exception:
  RESULTS["wrong_shape_fails"] = True

class MySequentialModel(tf.keras.Model):
  def __init__(self, name=None, **kwargs):
    super().__init__(**kwargs)
    self.dense_1 = FlexibleDense(out_features=3)
    self.dense_2 = FlexibleDense(out_features=2)
  def call(self, x):
    x = self.dense_1(x)
    return self.dense_2(x)

my_sequential_model = MySequentialModel(name="the_model")
my_sequential_model(tf.constant([[2.0, 2.0, 2.0]]))
fix_weights([my_sequential_model.dense_1.w, my_sequential_model.dense_2.w], seed=9)
RESULTS["keras_model"] = my_sequential_model(tf.constant([[2.0, 2.0, 2.0]]))

inputs = tf.keras.Input(shape=[3,])
x = FlexibleDense(3)(inputs)
x = FlexibleDense(2)(x)
my_functional_model = tf.keras.Model(inputs=inputs, outputs=x)
fix_weights([l.w for l in my_functional_model.layers[1:]], seed=10)
RESULTS["functional"] = my_functional_model(tf.constant([[2.0, 2.0, 2.0]]))
