"""Title: Migrate the SavedModel workflow (TensorFlow migration guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/migrate/saved_model.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the guide's code cells in order, except: the Estimator cells ("3. Export the Estimator
inference graph") dropped, with the two load calls of 'estimator-model' (tf.estimator is not in
TF 2.21); the `!saved_model_cli` / `!rm` shell cells dropped; every relative path
('saved-model-builder', 'simple-save', 'tf2-save', 'keras-model', 'multiply.pb',
'multiply_values.ckpt') -> the same name in a tempfile directory. The Keras cell
(tf.keras.Input(3) ... model.save('keras-model', save_format='tf', signatures=...)) fails under
Keras 3, so it runs in a try that records the error's type, and so do the later calls that use
'keras-model' (load_tf1, load_tf2, tf.keras.models.load_model). The printed outputs -> RESULTS.
"""
import os
import tempfile

import numpy as np

RESULTS = {}
_tmp = tempfile.mkdtemp()


def _p(name):
  return os.path.join(_tmp, name)


def _err(key, fn):
  try:
    fn()
    RESULTS[key] = np.array("none")
  except Exception as e:
    RESULTS[key] = np.array(type(e).__name__)


import tensorflow as tf
import tensorflow.compat.v1 as tf1
import shutil


def remove_dir(path):
  try:
    shutil.rmtree(path)
  except:
    pass


def add_two(input):
  return input + 2


remove_dir(_p("saved-model-builder"))

with tf.Graph().as_default() as g:
  with tf1.Session() as sess:
    input = tf1.placeholder(tf.float32, shape=[])
    output = add_two(input)
    print("add two output: ", sess.run(output, {input: 3.}))
    RESULTS["builder_session_output"] = sess.run(output, {input: 3.})

    # Save with SavedModelBuilder
    builder = tf1.saved_model.Builder(_p('saved-model-builder'))
    sig_def = tf1.saved_model.predict_signature_def(
        inputs={'input': input},
        outputs={'output': output})
    builder.add_meta_graph_and_variables(
        sess, tags=["serve"], signature_def_map={
            tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY: sig_def
    })
    builder.save()
remove_dir(_p("simple-save"))

with tf.Graph().as_default() as g:
  with tf1.Session() as sess:
    input = tf1.placeholder(tf.float32, shape=[])
    output = add_two(input)
    print("add_two output: ", sess.run(output, {input: 3.}))
    RESULTS["simple_save_session_output"] = sess.run(output, {input: 3.})

    tf1.saved_model.simple_save(
        sess, _p('simple-save'),
        inputs={'input': input},
        outputs={'output': output})


class MyModel(tf.Module):
  @tf.function
  def __call__(self, input):
    return add_two(input)

model = MyModel()


@tf.function
def serving_default(input):
  return {'output': model(input)}

signature_function = serving_default.get_concrete_function(
    tf.TensorSpec(shape=[], dtype=tf.float32))
tf.saved_model.save(
    model, _p('tf2-save'), signatures={
        tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY: signature_function})


def _keras_cell():
  global model
  inp = tf.keras.Input(3)
  out = add_two(inp)
  model = tf.keras.Model(inputs=inp, outputs=out)

  @tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
  def serving_default(input):
    return {'output': model(input)}

  model.save(_p('keras-model'), save_format='tf', signatures={
          tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY: serving_default})

_err("keras_save_error", _keras_cell)


def load_tf1(path, input):
  print('Loading from', path)
  with tf.Graph().as_default() as g:
    with tf1.Session() as sess:
      meta_graph = tf1.saved_model.load(sess, ["serve"], path)
      sig_def = meta_graph.signature_def[tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY]
      input_name = sig_def.inputs['input'].name
      output_name = sig_def.outputs['output'].name
      print('  Output with input', input, ': ',
            sess.run(output_name, feed_dict={input_name: input}))
      RESULTS["tf1_load_" + os.path.basename(path)] = sess.run(
          output_name, feed_dict={input_name: input})

load_tf1(_p('saved-model-builder'), 5.)
load_tf1(_p('simple-save'), 5.)
load_tf1(_p('tf2-save'), 5.)
_err("tf1_load_keras_model_error", lambda: load_tf1(_p('keras-model'), 5.))


def load_tf2(path, input):
  print('Loading from', path)
  loaded = tf.saved_model.load(path)
  out = loaded.signatures[tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY](
      tf.constant(input))['output']
  print('  Output with input', input, ': ', out)
  RESULTS["tf2_load_" + os.path.basename(path)] = out

load_tf2(_p('saved-model-builder'), 5.)
load_tf2(_p('simple-save'), 5.)
load_tf2(_p('tf2-save'), 5.)
_err("tf2_load_keras_model_error", lambda: load_tf2(_p('keras-model'), 5.))
loaded = tf.saved_model.load(_p('tf2-save'))
print('restored __call__:', loaded.__call__)
print('output with input 5.', loaded(5))
RESULTS["restored_call_5"] = loaded(5)
_err("keras_load_model_error",
     lambda: tf.keras.models.load_model(_p('keras-model')).predict_on_batch(tf.constant([1, 3, 4])))
with tf.Graph().as_default() as g:
  x = tf1.placeholder(tf.float32, shape=[], name='x')
  v = tf.Variable(3.0, name='v')
  y = tf.multiply(x, v, name='y')
  with tf1.Session() as sess:
    sess.run(v.initializer)
    print(sess.run(y, feed_dict={x: 5}))
    RESULTS["multiply_session"] = sess.run(y, feed_dict={x: 5})
    s = tf1.train.Saver()
    s.export_meta_graph(_p('multiply.pb'), as_text=True)
    s.save(sess, _p('multiply_values.ckpt'))
with tf.Graph().as_default() as g:
  meta = tf1.train.import_meta_graph(_p('multiply.pb'))
  x = g.get_tensor_by_name('x:0')
  y = g.get_tensor_by_name('y:0')
  with tf1.Session() as sess:
    meta.restore(sess, _p('multiply_values.ckpt'))
    print(sess.run(y, feed_dict={x: 5}))
    RESULTS["multiply_imported"] = sess.run(y, feed_dict={x: 5})


def import_multiply():
  # Any graph-building code is allowed here.
  tf1.train.import_meta_graph(_p('multiply.pb'))

wrapped_import = tf1.wrap_function(import_multiply, [])
import_graph = wrapped_import.graph
x = import_graph.get_tensor_by_name('x:0')
y = import_graph.get_tensor_by_name('y:0')

tf1.train.Saver(wrapped_import.variables).restore(
    sess=None, save_path=_p('multiply_values.ckpt'))

multiply_fn = wrapped_import.prune(feeds=x, fetches=y)

multiply_fn(tf.constant(5.))  # inputs to concrete functions must be Tensors.
RESULTS["multiply_pruned"] = multiply_fn(tf.constant(5.))
