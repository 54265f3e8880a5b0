"""Title: Using the SavedModel format (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/saved_model.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: grace_hopper.jpg and ImageNetLabels.txt (downloaded with keras.utils.get_file) -> a
synthetic 224x224 RGB JPEG (written with PIL from a seeded NumPy generator) and a synthetic
1001-line label file, written in the temporary directory and read as the guide reads them;
MobileNet() (downloads ImageNet weights) -> MobileNet(weights=None) with its kernels fixed
(fix_weights); the GPU memory-growth cell, matplotlib and the shell cells (!ls,
!saved_model_cli) removed; prints and the notebook's displayed values -> RESULTS (labels,
predictions, signature keys, the training loop's losses and v, output names);
infer(...)[pretrained_model.output_names[0]] -> infer(...)[list(infer.structured_outputs)[0]]
(under Keras 3 itself the signature's output is not named after the model's output: KeyError);
the "array_input" signature is also called once on [1., 2.] to record its output;
the two cells that count the reloaded MobileNet's trainable and other variables dropped (a Keras 3
model saved with tf.saved_model.save reloads without trainable_variables, under TF itself).
"""
import os
import tempfile

import numpy as np
import tensorflow as tf
from PIL import Image
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}
tmpdir = tempfile.mkdtemp()

_rng = np.random.default_rng(0)
file = os.path.join(tmpdir, "grace_hopper.jpg")
Image.fromarray(_rng.integers(0, 256, (300, 240, 3)).astype(np.uint8)).save(file)
labels_path = os.path.join(tmpdir, "ImageNetLabels.txt")
with open(labels_path, "w") as _fh:
  _fh.write("\n".join(["background"] + [f"class_{i}" for i in range(1000)]) + "\n")

img = tf.keras.utils.load_img(file, target_size=[224, 224])
x = tf.keras.utils.img_to_array(img)
x = tf.keras.applications.mobilenet.preprocess_input(
    x[tf.newaxis,...])
RESULTS["x"] = x

imagenet_labels = np.array(open(labels_path).read().splitlines())

pretrained_model = tf.keras.applications.MobileNet(weights=None)
fix_weights(pretrained_model)
result_before_save = pretrained_model(x)

decoded = imagenet_labels[np.argsort(result_before_save)[0,::-1][:5]+1]

RESULTS["before_save"] = result_before_save
RESULTS["decoded_before"] = [int(d.split("_")[1]) for d in decoded]

mobilenet_save_path = os.path.join(tmpdir, "mobilenet/1/")
tf.saved_model.save(pretrained_model, mobilenet_save_path)

loaded = tf.saved_model.load(mobilenet_save_path)
RESULTS["signature_keys"] = [len(k) for k in loaded.signatures.keys()]

infer = loaded.signatures["serving_default"]
RESULTS["structured_outputs"] = [len(k) for k in infer.structured_outputs]

labeling = infer(tf.constant(x))[list(infer.structured_outputs)[0]]

decoded = imagenet_labels[np.argsort(labeling)[0,::-1][:5]+1]

RESULTS["after_load"] = labeling
RESULTS["decoded_after"] = [int(d.split("_")[1]) for d in decoded]

class CustomModule(tf.Module):

  def __init__(self):
    super(CustomModule, self).__init__()
    self.v = tf.Variable(1.)

  @tf.function
  def __call__(self, x):
    print('Tracing with', x)
    return x * self.v

  @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
  def mutate(self, new_v):
    self.v.assign(new_v)

module = CustomModule()

module_no_signatures_path = os.path.join(tmpdir, 'module_no_signatures')
module(tf.constant(0.))
tf.saved_model.save(module, module_no_signatures_path)

imported = tf.saved_model.load(module_no_signatures_path)
assert imported(tf.constant(3.)).numpy() == 3
imported.mutate(tf.constant(2.))
assert imported(tf.constant(3.)).numpy() == 6

optimizer = tf.keras.optimizers.SGD(0.05)

def train_step():
  with tf.GradientTape() as tape:
    loss = (10. - imported(tf.constant(2.))) ** 2
  variables = tape.watched_variables()
  grads = tape.gradient(loss, variables)
  optimizer.apply_gradients(zip(grads, variables))
  return loss

RESULTS["train_loss"], RESULTS["train_v"] = [], []
for _ in range(10):
  # "v" approaches 5, "loss" approaches 0
  RESULTS["train_loss"].append(train_step())
  RESULTS["train_v"].append(imported.v.numpy())

assert len(imported.signatures) == 0

module_with_signature_path = os.path.join(tmpdir, 'module_with_signature')
call = module.__call__.get_concrete_function(tf.TensorSpec(None, tf.float32))
tf.saved_model.save(module, module_with_signature_path, signatures=call)

imported_with_signatures = tf.saved_model.load(module_with_signature_path)
RESULTS["one_signature"] = [len(k) for k in imported_with_signatures.signatures.keys()]

module_multiple_signatures_path = os.path.join(tmpdir, 'module_with_multiple_signatures')
signatures = {"serving_default": call,
              "array_input": module.__call__.get_concrete_function(tf.TensorSpec([None], tf.float32))}

tf.saved_model.save(module, module_multiple_signatures_path, signatures=signatures)

imported_with_multiple_signatures = tf.saved_model.load(
    module_multiple_signatures_path
)
RESULTS["two_signatures"] = sorted(len(k) for k in imported_with_multiple_signatures.signatures.keys())
RESULTS["array_input_out"] = imported_with_multiple_signatures.signatures["array_input"](
    tf.constant([1., 2.]))["output_0"]

class CustomModuleWithOutputName(tf.Module):
  def __init__(self):
    super(CustomModuleWithOutputName, self).__init__()
    self.v = tf.Variable(1.)

  @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
  def __call__(self, x):
    return {'custom_output_name': x * self.v}

module_output = CustomModuleWithOutputName()
call_output = module_output.__call__.get_concrete_function(tf.TensorSpec(None, tf.float32))
module_output_path = os.path.join(tmpdir, 'module_with_output_name')
tf.saved_model.save(module_output, module_output_path,
                    signatures={'serving_default': call_output})

imported_with_output_name = tf.saved_model.load(module_output_path)
_outputs = imported_with_output_name.signatures['serving_default'].structured_outputs
RESULTS["output_name_ok"] = list(_outputs) == ['custom_output_name']
RESULTS["output_spec_rank_unknown"] = _outputs['custom_output_name'].shape.rank is None
