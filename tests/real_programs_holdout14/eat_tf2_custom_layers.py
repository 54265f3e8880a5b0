"""Title: Layers: a Lambda layer, a custom Linear layer with build/call/get_config (call under tf.function), built by hand and by a Sequential model, saved and loaded (Eat TensorFlow2 in 30 days, 5-4)
Source: https://github.com/lyhue1991/eat_tensorflow2_in_30_days/blob/9c9096b9e5a33c4bc739b93659099dd45515c276/english/Chapter5-4.md
Licence: Apache-2.0 (lyhue1991/eat_tensorflow2_in_30_days)
Changed: the chapter's Python code blocks in order; tf.keras.utils.set_random_seed(0) at the top
(the layer's random_normal initializers and the tf.random.uniform input are otherwise unseeded);
for Keras 3: `self.add_weight("w", shape=...)` -> `self.add_weight(name="w", shape=...)` (and the
same for "b": Keras 3's first positional argument is the shape); the h5 save
`model.save("../data/linear_model.h5", save_format="h5")` -> `model.save(<tmp>/linear_model.h5)`
(Keras 3 has no save_format argument; the .h5 suffix still selects the legacy HDF5 format), its
load_model with compile=False added (Keras 3.15 cannot deserialize the compiled "mse" loss from
the HDF5 training config: "Could not deserialize 'keras.metrics.mse'"), and the
TF-format save `model.save("../data/linear_model", save_format="tf")` + load_model ->
`model.export(<tmp>/linear_model)` + `tf.keras.layers.TFSMLayer` (Keras 3's replacement for
saving and reloading a SavedModel; load_model no longer reads one), the files in a temporary
directory instead of ../data; `print(linear.compute_output_shape(input_shape=(None,16)))`
commented out (Keras 3 no longer infers an output shape for a layer that does not define
compute_output_shape: it raises NotImplementedError); the printed values (built flags, shapes, config, predictions) ->
RESULTS.
"""
RESULTS = {}

import os
import tempfile
import tensorflow as tf
tf.keras.utils.set_random_seed(0)
_tmp = tempfile.mkdtemp()

import tensorflow as tf
from tensorflow.keras import layers,models,regularizers

mypower = layers.Lambda(lambda x:tf.math.pow(x,2))
RESULTS["mypower_range5"] = mypower(tf.range(5))

class Linear(layers.Layer):
    def __init__(self, units=32, **kwargs):
        super(Linear, self).__init__(**kwargs)
        self.units = units
    
    # The trainable parameters are defined in build method
    def build(self, input_shape): 
        self.w = self.add_weight(name="w",shape=(input_shape[-1], self.units),
                                 initializer='random_normal',
                                 trainable=True) # Parameter named "w" is compulsory or an error will be thrown out
        self.b = self.add_weight(name="b",shape=(self.units,),
                                 initializer='random_normal',
                                 trainable=True)
        super(Linear,self).build(input_shape) # Identical to self.built = True

    # The logic of forward propagation is defined in call method, and is called by __call__ method
    @tf.function
    def call(self, inputs): 
        return tf.matmul(inputs, self.w) + self.b
    
    # Use customized get-config method to save the model as h5 format, specifically for the model composed through Functional API with customized Layer
    def get_config(self):  
        config = super(Linear, self).get_config()
        config.update({'units': self.units})
        return config

linear = Linear(units = 8)
print(linear.built)
RESULTS["built_before_build"] = int(linear.built)
# Specify input_shape, call build method; the 0th dimension is for the number of samples, should be filled with None.
linear.build(input_shape = (None,16)) 
print(linear.built)
RESULTS["built_after_build"] = int(linear.built)
RESULTS["linear8_w"] = linear.w
RESULTS["linear8_b"] = linear.b

linear = Linear(units = 8)
print(linear.built)
linear.build(input_shape = (None,16)) 
# print(linear.compute_output_shape(input_shape = (None,16)))  (Keras 3: NotImplementedError)

linear = Linear(units = 16)
print(linear.built)
# If built = False, the __call__ method will call "build" method first, then call "call" method
_x = tf.random.uniform((100,64))
_y = linear(_x) 
print(linear.built)
RESULTS["linear16_built_after_call"] = int(linear.built)
RESULTS["linear16_output_first5"] = _y[:5]
RESULTS["linear16_output_sum"] = tf.reduce_sum(_y)
config = linear.get_config()
print(config)
RESULTS["config_units"] = config["units"]
RESULTS["config_keys"] = " ".join(sorted(config))

tf.keras.backend.clear_session()

model = models.Sequential()
# Note: the input_shape here will be modified by the model, so we don't have to fill None in the dimension representing the number of samples.
model.add(Linear(units = 1,input_shape = (2,)))  
print("model.input_shape: ",model.input_shape)
print("model.output_shape: ",model.output_shape)
model.summary()
RESULTS["model_input_shape"] = str(model.input_shape)
RESULTS["model_output_shape"] = str(model.output_shape)
RESULTS["model_count_params"] = model.count_params()

model.compile(optimizer = "sgd",loss = "mse",metrics=["mae"])
print(model.predict(tf.constant([[3.0,2.0],[4.0,5.0]])))
RESULTS["model_predict"] = model.predict(tf.constant([[3.0,2.0],[4.0,5.0]]))


# Save as h5 formatted model
model.save(os.path.join(_tmp, "linear_model.h5"))
model_loaded_keras = tf.keras.models.load_model(
    os.path.join(_tmp, "linear_model.h5"),custom_objects={"Linear":Linear}, compile=False)
print(model_loaded_keras.predict(tf.constant([[3.0,2.0],[4.0,5.0]])))
RESULTS["h5_loaded_predict"] = model_loaded_keras.predict(tf.constant([[3.0,2.0],[4.0,5.0]]))


# Save as tf formatted model
model.export(os.path.join(_tmp, "linear_model"))
model_loaded_tf = tf.keras.layers.TFSMLayer(os.path.join(_tmp, "linear_model"))
print(model_loaded_tf(tf.constant([[3.0,2.0],[4.0,5.0]])))
RESULTS["savedmodel_loaded_predict"] = model_loaded_tf(tf.constant([[3.0,2.0],[4.0,5.0]]))
