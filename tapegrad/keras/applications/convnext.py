"""``keras.applications.convnext``: ConvNeXtTiny, Small, Base, Large and XLarge (Liu et al. 2022)
as Keras 3 builds them (same layers, names and weight layout, so Keras's weight files load), the
``ConvNeXt`` builder and its ``LayerScale`` and ``StochasticDepth`` layers, ``preprocess_input``
(which returns its input: the models normalise inside, from pixels in [0, 255]) and
``decode_predictions``.

>>> from tapegrad import keras
>>> model = keras.applications.convnext.ConvNeXt([1, 1, 1, 1], [8, 16, 24, 32], input_shape=(32, 32, 3),
...                                              weights=None, classes=3)
>>> model.output.shape, model.count_params()  # (Keras 3.15's numbers)
((None, 3), 25859)
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .. import initializers, layers, ops, random
from ..backend import image_data_format
from ..layers.layer import Layer
from ..models import Model, Sequential
from . import imagenet_utils
from .imagenet_utils import _preprocess_identity as preprocess_input, decode_predictions

__all__ = ["ConvNeXt", "ConvNeXtTiny", "ConvNeXtSmall", "ConvNeXtBase", "ConvNeXtLarge", "ConvNeXtXLarge",
           "LayerScale", "StochasticDepth", "preprocess_input", "decode_predictions"]

WEIGHTS_HASHES = {
    "convnext_tiny": ("8ae6e78ce2933352b1ef4008e6dd2f17bc40771563877d156bc6426c7cf503ff",
                      "d547c096cabd03329d7be5562c5e14798aa39ed24b474157cef5e85ab9e49ef1"),
    "convnext_small": ("ce1277d8f1ee5a0ef0e171469089c18f5233860ceaf9b168049cb9263fd7483c",
                       "6fc8009faa2f00c1c1dfce59feea9b0745eb260a7dd11bee65c8e20843da6eab"),
    "convnext_base": ("52cbb006d3dadd03f6e095a8ca1aca47aecdd75acb4bc74bce1f5c695d0086e6",
                      "40a20c5548a5e9202f69735ecc06c990e6b7c9d2de39f0361e27baeb24cb7c45"),
    "convnext_large": ("070c5ed9ed289581e477741d3b34beffa920db8cf590899d6d2c67fba2a198a6",
                       "96f02b6f0753d4f543261bc9d09bed650f24dd6bc02ddde3066135b63d23a1cd"),
    "convnext_xlarge": ("c1f5ccab661354fc3a79a10fa99af82f0fbf10ec65cb894a3ae0815f17a889ee",
                        "de3f8a54174130e0cecdc71583354753d557fcf1f4487331558e2a16ba0cfe05"),
}
MODEL_CONFIGS = {
    "tiny": {"depths": [3, 3, 9, 3], "projection_dims": [96, 192, 384, 768], "default_size": 224},
    "small": {"depths": [3, 3, 27, 3], "projection_dims": [96, 192, 384, 768], "default_size": 224},
    "base": {"depths": [3, 3, 27, 3], "projection_dims": [128, 256, 512, 1024], "default_size": 224},
    "large": {"depths": [3, 3, 27, 3], "projection_dims": [192, 384, 768, 1536], "default_size": 224},
    "xlarge": {"depths": [3, 3, 27, 3], "projection_dims": [256, 512, 1024, 2048], "default_size": 224},
}


class StochasticDepth(Layer):
    """Stochastic depth (Huang et al. 2016) as Keras's ConvNeXt does it: with ``training=True``,
    the whole input of each sample is kept with probability ``1 - drop_path_rate`` (scaled by
    its inverse) or zeroed; otherwise the input passes through.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> layer = keras.applications.convnext.StochasticDepth(0.5)
    >>> layer(np.ones((2, 3), np.float32)).numpy()
    array([[1., 1., 1.],
           [1., 1., 1.]], dtype=float32)
    >>> sorted(set(layer(np.ones((64, 3), np.float32), training=True).numpy().ravel().tolist()))
    [0.0, 2.0]
    """

    def __init__(self, drop_path_rate: float, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.drop_path_rate = drop_path_rate

    def call(self, x: Any, training: Any = None) -> Any:
        if training:
            keep_prob = 1 - self.drop_path_rate
            shape = (ops.shape(x)[0],) + (1,) * (len(ops.shape(x)) - 1)
            random_tensor = ops.floor(keep_prob + random.uniform(shape, 0, 1))
            return (x / keep_prob) * random_tensor
        return x

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "drop_path_rate": self.drop_path_rate}


class LayerScale(Layer):
    """Layer scale (Touvron et al. 2021): the input times a trainable per-channel ``gamma`` of
    ``projection_dim`` values, initialised to ``init_values``.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> layer = keras.applications.convnext.LayerScale(0.5, 2)
    >>> layer(np.ones((1, 2), np.float32)).numpy()
    array([[0.5, 0.5]], dtype=float32)
    """

    def __init__(self, init_values: float, projection_dim: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.init_values, self.projection_dim = init_values, projection_dim

    def build(self, _: Any) -> None:
        self.gamma = self.add_weight(shape=(self.projection_dim,),
                                     initializer=initializers.Constant(self.init_values), trainable=True)

    def call(self, x: Any) -> Any:
        return x * self.gamma

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "init_values": self.init_values,
                "projection_dim": self.projection_dim}


def ConvNeXtBlock(projection_dim: int, drop_path_rate: float = 0.0, layer_scale_init_value: Any = 1e-6,
                  name: str = "convnext_block") -> Callable:
    """A ConvNeXt block as a function of its input: a 7x7 depthwise convolution (``Conv2D`` with
    ``groups``), layer normalization, two pointwise ``Dense`` layers with GELU between, layer
    scale (unless ``layer_scale_init_value`` is None), stochastic depth (when
    ``drop_path_rate``), and the residual sum."""
    def apply(inputs: Any) -> Any:
        x = layers.Conv2D(filters=projection_dim, kernel_size=7, padding="same", groups=projection_dim,
                          name=f"{name}_depthwise_conv")(inputs)
        x = layers.LayerNormalization(epsilon=1e-6, name=f"{name}_layernorm")(x)
        x = layers.Dense(4 * projection_dim, name=f"{name}_pointwise_conv_1")(x)
        x = layers.Activation("gelu", name=f"{name}_gelu")(x)
        x = layers.Dense(projection_dim, name=f"{name}_pointwise_conv_2")(x)
        if layer_scale_init_value is not None:
            x = LayerScale(layer_scale_init_value, projection_dim, name=f"{name}_layer_scale")(x)
        if drop_path_rate:
            layer = StochasticDepth(drop_path_rate, name=f"{name}_stochastic_depth")
        else:
            layer = layers.Activation("linear", name=f"{name}_identity")
        return inputs + layer(x)
    return apply


def PreStem(name: str = "convnext") -> Callable:
    """Normalises [0, 255] pixels with ImageNet-1k's channel means and standard deviations."""
    def apply(x: Any) -> Any:
        return layers.Normalization(mean=[0.485 * 255, 0.456 * 255, 0.406 * 255],
                                    variance=[(0.229 * 255) ** 2, (0.224 * 255) ** 2, (0.225 * 255) ** 2],
                                    name=f"{name}_prestem_normalization")(x)
    return apply


def Head(num_classes: int = 1000, classifier_activation: Any = None, name: str = "convnext") -> Callable:
    """The classification head: global average pooling, layer normalization, ``Dense``."""
    def apply(x: Any) -> Any:
        x = layers.GlobalAveragePooling2D(name=f"{name}_head_gap")(x)
        x = layers.LayerNormalization(epsilon=1e-6, name=f"{name}_head_layernorm")(x)
        return layers.Dense(num_classes, activation=classifier_activation, name=f"{name}_head_dense")(x)
    return apply


def ConvNeXt(depths: Any, projection_dims: Any, drop_path_rate: float = 0.0,
             layer_scale_init_value: Any = 1e-6, default_size: int = 224, name: str = "convnext",
             include_preprocessing: bool = True, include_top: bool = True, weights: Any = None,
             input_tensor: Any = None, input_shape: Any = None, pooling: str | None = None,
             classes: int = 1000, classifier_activation: Any = "softmax",
             weights_name: str | None = None) -> Model:
    """A ConvNeXt: a 4x4 stride-4 stem, four stages of ``depths[i]`` ConvNeXt blocks of width
    ``projection_dims[i]`` (a 2x2 stride-2 downsampling between stages), then the head. The
    stochastic depth rate grows linearly from 0 to ``drop_path_rate`` over the blocks. Without
    the top, the output (pooled as ``pooling`` says) ends with a layer normalization. Channels
    last only. Other arguments as in :func:`ConvNeXtTiny`; ``weights_name`` names the variant
    whose pretrained file ``weights="imagenet"`` loads.

    >>> from tapegrad import keras
    >>> model = keras.applications.convnext.ConvNeXt([1, 1, 1, 1], [8, 16, 24, 32], weights=None,
    ...                                              include_top=False, pooling="avg")
    >>> model.output.shape, type(model.layers[-1]).__name__
    ((None, 32), 'LayerNormalization')
    """
    if image_data_format() == "channels_first":
        raise ValueError("ConvNeXt does not support the `channels_first` image data format. Switch to "
                         "`channels_last` with keras.backend.set_image_data_format('channels_last') or in "
                         "your config file at ~/.keras/keras.json")
    imagenet_utils.check_weights(weights, include_top, classes)
    if weights == "imagenet":  # (Keras checks after building: the same errors, sooner)
        variant = str(weights_name).split("convnext_")[-1]
        if variant not in MODEL_CONFIGS:
            raise ValueError(f"weights='imagenet' needs `weights_name`, one of {', '.join(WEIGHTS_HASHES)}; "
                             f"Received weights_name={weights_name!r}")
        expected = MODEL_CONFIGS[variant]
        if list(depths) != expected["depths"] or list(projection_dims) != expected["projection_dims"]:
            raise ValueError(f"Architecture configuration does not match {weights_name} variant. When using "
                             "pre-trained weights, the model architecture must match the pre-trained "
                             f"configuration exactly. Expected depths: {expected['depths']}, got: {depths}. "
                             f"Expected projection_dims: {expected['projection_dims']}, got: "
                             f"{projection_dims}.")
        if weights_name not in name:
            raise ValueError(f'Model name "{name}" does not match weights variant "{weights_name}". When '
                             "using imagenet weights, model name must contain the weights variant (e.g., "
                             f'"convnext_{variant}").')
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=default_size, min_size=32,
                                                    data_format=image_data_format(),
                                                    require_flatten=include_top, weights=weights)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    if input_tensor is not None:
        inputs = imagenet_utils.source_inputs(input_tensor)
        inputs = inputs[0] if isinstance(inputs, list) else inputs
    else:
        inputs = img_input
    x = img_input
    if include_preprocessing and input_shape[-1] == 3:
        x = PreStem(name=name)(x)
    stem = Sequential([layers.Conv2D(projection_dims[0], kernel_size=4, strides=4, name=f"{name}_stem_conv"),
                       layers.LayerNormalization(epsilon=1e-6, name=f"{name}_stem_layernorm")],
                      name=f"{name}_stem")
    downsample_layers = [stem]
    for i in range(3):
        downsample_layers.append(Sequential(
            [layers.LayerNormalization(epsilon=1e-6, name=f"{name}_downsampling_layernorm_{i}"),
             layers.Conv2D(projection_dims[i + 1], kernel_size=2, strides=2,
                           name=f"{name}_downsampling_conv_{i}")],
            name=f"{name}_downsampling_block_{i}"))
    depth_drop_rates = [float(r) for r in np.linspace(0.0, drop_path_rate, sum(depths))]
    cur = 0
    for i in range(4):
        x = downsample_layers[i](x)
        for j in range(depths[i]):
            x = ConvNeXtBlock(projection_dim=projection_dims[i], drop_path_rate=depth_drop_rates[cur + j],
                              layer_scale_init_value=layer_scale_init_value,
                              name=f"{name}_stage_{i}_block_{j}")(x)
        cur += depths[i]
    if include_top:
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = Head(num_classes=classes, classifier_activation=classifier_activation, name=name)(x)
    else:
        if pooling == "avg":
            x = layers.GlobalAveragePooling2D()(x)
        elif pooling == "max":
            x = layers.GlobalMaxPooling2D()(x)
        x = layers.LayerNormalization(epsilon=1e-6)(x)
    model = Model(inputs=inputs, outputs=x, name=name)
    if weights == "imagenet":
        imagenet_utils.load_weights(model, weights, name + (".h5" if include_top else "_notop.h5"),
                                    WEIGHTS_HASHES[weights_name][0 if include_top else 1])
    elif weights is not None:
        model.load_weights(weights)
    return model


def _variant(key: str) -> Callable:
    config = MODEL_CONFIGS[key]

    def build(include_top: bool = True, include_preprocessing: bool = True, weights: Any = "imagenet",
              input_tensor: Any = None, input_shape: Any = None, pooling: str | None = None,
              classes: int = 1000, classifier_activation: Any = "softmax",
              name: str = f"convnext_{key}") -> Model:
        return ConvNeXt(weights_name=f"convnext_{key}", depths=config["depths"],
                        projection_dims=config["projection_dims"], drop_path_rate=0.0,
                        layer_scale_init_value=1e-6, default_size=config["default_size"], name=name,
                        include_top=include_top, include_preprocessing=include_preprocessing,
                        weights=weights, input_tensor=input_tensor, input_shape=input_shape,
                        pooling=pooling, classes=classes, classifier_activation=classifier_activation)
    title = f"ConvNeXt{'XLarge' if key == 'xlarge' else key.capitalize()}"
    build.__name__ = build.__qualname__ = title
    build.__doc__ = (
        f"{title}: ConvNeXt with stage depths {config['depths']} and widths {config['projection_dims']}, "
        f"{config['default_size']}x{config['default_size']} inputs by default.\n\n"
        "    Args:\n"
        "      include_top: end with the head (global average pooling, layer normalization and a\n"
        "        ``classes``-way ``Dense``); otherwise ``pooling`` then a layer normalization.\n"
        "      include_preprocessing: start with a ``Normalization`` by ImageNet's channel means and\n"
        "        standard deviations (on 3-channel inputs), so the model takes [0, 255] pixels.\n"
        "      weights: None (random initialization), ``\"imagenet\"`` (Keras's pretrained file, read\n"
        "        from Keras's download cache: tapegrad downloads nothing) or a weights file's path.\n"
        "      input_tensor: a Keras tensor to build the network on.\n"
        "      input_shape: ``(rows, cols, channels)``, each side at least 32.\n"
        "      pooling: without the top, ``None`` (4-D output), ``\"avg\"`` or ``\"max\"``.\n"
        "      classes: the top's classes.\n"
        "      classifier_activation: the top's activation (None: logits).\n"
        "      name: the model's name (and the prefix of its layers' names).\n\n"
        "    Example (it builds the whole network, so it is not run as a doctest)::\n\n"
        f"        model = keras.applications.{title}(weights=None, include_top=False, pooling='avg')\n")
    return build


ConvNeXtTiny = _variant("tiny")
ConvNeXtSmall = _variant("small")
ConvNeXtBase = _variant("base")
ConvNeXtLarge = _variant("large")
ConvNeXtXLarge = _variant("xlarge")
