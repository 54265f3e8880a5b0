"""``tapegrad.keras.layers``: Keras 3's layers. Each family's module loads on first use.

>>> from tapegrad import keras
>>> keras.layers.Dense(3, activation="relu").units
3
"""
from __future__ import annotations

import importlib
import typing as _typing

# layer name -> the module (in this package) that defines it; a family adds its rows here.
_LAZY = {
    "TFSMLayer": "..export",
    **dict.fromkeys(["Dense", "Flatten", "Reshape", "Activation", "Dropout", "Lambda", "ReLU",
                     "LeakyReLU", "Softmax", "Add", "Multiply", "Concatenate", "add", "multiply",
                     "concatenate"], ".core"),
    **dict.fromkeys(["Conv1D", "Conv2D", "Conv2DTranspose", "SeparableConv2D", "DepthwiseConv2D",
                     "Convolution1D", "Convolution2D", "Convolution2DTranspose", "SeparableConvolution2D",
                     "DepthwiseConv1D", "SeparableConv1D", "SeparableConvolution1D"], ".conv"),
    **dict.fromkeys(["MaxPooling1D", "MaxPooling2D", "AveragePooling1D", "AveragePooling2D", "MaxPool1D",
                     "MaxPool2D", "AvgPool1D", "AvgPool2D", "GlobalAveragePooling1D", "GlobalAveragePooling2D",
                     "GlobalMaxPooling1D", "GlobalMaxPooling2D", "GlobalAvgPool1D", "GlobalAvgPool2D",
                     "GlobalMaxPool1D", "GlobalMaxPool2D", "AdaptiveAveragePooling1D", "AdaptiveAveragePooling2D",
                     "AdaptiveAveragePooling3D", "AdaptiveMaxPooling1D", "AdaptiveMaxPooling2D",
                     "AdaptiveMaxPooling3D"], ".pooling"),
    **dict.fromkeys(["BatchNormalization", "LayerNormalization"], ".normalization"),
    **dict.fromkeys(["Embedding", "ReversibleEmbedding"], ".embedding"),
    **dict.fromkeys(["SimpleRNN", "LSTM", "GRU", "Bidirectional"], ".rnn"),
    **dict.fromkeys(["SimpleRNNCell", "LSTMCell", "GRUCell", "StackedRNNCells", "RNN"], ".rnn_cells"),
    **dict.fromkeys(["ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D"], ".conv_lstm"),
    **dict.fromkeys(["Attention", "AdditiveAttention", "MultiHeadAttention"], ".attention"),
    **dict.fromkeys(["GroupQueryAttention"], ".grouped_query_attention"),
    **dict.fromkeys(["MelSpectrogram", "STFTSpectrogram"], ".audio"),
    **dict.fromkeys(["TimeDistributed", "Wrapper", "SpectralNormalization"], ".wrappers"),
    **dict.fromkeys(["UpSampling2D", "ZeroPadding2D", "Cropping2D"], ".reshaping"),
    **dict.fromkeys(["Normalization", "Pipeline"], ".preprocessing"),
    **dict.fromkeys(["Subtract", "Minimum", "Maximum", "Average", "Dot", "subtract", "minimum", "maximum",
                     "average", "dot"], ".merging"),
    **dict.fromkeys(["ELU", "PReLU", "ThresholdedReLU"], ".activation"),
    **dict.fromkeys(["Masking", "Identity", "ActivityRegularization", "Rescaling", "Permute", "RepeatVector"],
                    ".masking"),
    **dict.fromkeys(["GaussianNoise", "GaussianDropout", "AlphaDropout", "SpatialDropout1D", "SpatialDropout2D",
                     "SpatialDropout3D"], ".noise"),
    **dict.fromkeys(["ZeroPadding1D", "ZeroPadding3D", "UpSampling1D", "UpSampling3D", "Cropping1D", "Cropping3D"],
                    ".reshaping_nd"),
    **dict.fromkeys(["Conv3D", "Conv1DTranspose", "Conv3DTranspose", "MaxPooling3D", "AveragePooling3D",
                     "GlobalAveragePooling3D", "GlobalMaxPooling3D", "Convolution3D", "Convolution1DTranspose",
                     "Convolution3DTranspose", "MaxPool3D", "AvgPool3D", "GlobalAvgPool3D", "GlobalMaxPool3D"],
                    ".conv3d"),
    **dict.fromkeys(["EinsumDense"], ".einsum_dense"),
    **dict.fromkeys(["UnitNormalization", "GroupNormalization", "RMSNormalization"], ".normalization_more"),
    **dict.fromkeys(["Resizing", "CenterCrop"], ".image_layers"),
    **dict.fromkeys(["RandomFlip", "RandomRotation", "RandomZoom", "RandomTranslation", "RandomContrast",
                     "RandomBrightness", "RandomCrop", "RandomHeight", "RandomWidth"], ".augmentation"),
    **dict.fromkeys(["MixUp", "CutMix", "RandomHue", "RandomSaturation", "RandomGrayscale", "RandomColorJitter",
                     "RandomColorDegeneration", "RandomInvert", "Solarization", "RandomPosterization",
                     "RandomSharpness", "AutoContrast", "Equalization", "RandomErasing", "RandomGaussianBlur",
                     "RandomShear", "RandomPerspective", "MaxNumBoundingBoxes", "RandAugment", "AugMix",
                     "RandomElasticTransform", "ContrastLimitedAdaptiveHistogramEqualization"], ".augmentation_more"),
    **dict.fromkeys(["TextVectorization", "StringLookup", "IntegerLookup", "Hashing", "CategoryEncoding",
                     "Discretization"], ".text"),
    **dict.fromkeys(["HashedCrossing"], ".hashed_crossing"),
    **dict.fromkeys(["Layer"], ".layer"),
    **dict.fromkeys(["InputSpec"], ".input_spec"),
    **dict.fromkeys(["Input", "InputLayer"], ".input_layer"),
    **dict.fromkeys(["serialize", "deserialize"], "._serialize"),
}

if _typing.TYPE_CHECKING:
    from .input_layer import Input, InputLayer  # noqa: F401
    from .input_spec import InputSpec  # noqa: F401
    from .layer import Layer  # noqa: F401
    from .activation import ELU, PReLU, ThresholdedReLU  # noqa: F401
    from .merging import (Average, Dot, Maximum, Minimum, Subtract, average, dot, maximum,  # noqa: F401
                          minimum, subtract)
    from .masking import ActivityRegularization, Identity, Masking, Permute, RepeatVector, Rescaling  # noqa: F401
    from .noise import (AlphaDropout, GaussianDropout, GaussianNoise, SpatialDropout1D,  # noqa: F401
                        SpatialDropout2D, SpatialDropout3D)
    from .reshaping_nd import (Cropping1D, Cropping3D, UpSampling1D, UpSampling3D,  # noqa: F401
                               ZeroPadding1D, ZeroPadding3D)
    from .conv3d import (AveragePooling3D, AvgPool3D, Conv1DTranspose, Conv3D, Conv3DTranspose,  # noqa: F401
                         Convolution1DTranspose, Convolution3D, Convolution3DTranspose, GlobalAveragePooling3D,
                         GlobalAvgPool3D, GlobalMaxPool3D, GlobalMaxPooling3D, MaxPool3D, MaxPooling3D)
    from .einsum_dense import EinsumDense  # noqa: F401
    from .normalization_more import GroupNormalization, RMSNormalization, UnitNormalization  # noqa: F401
    from .image_layers import CenterCrop, Resizing  # noqa: F401
    from .augmentation import (RandomBrightness, RandomContrast, RandomCrop, RandomFlip,  # noqa: F401
                               RandomHeight, RandomRotation, RandomTranslation, RandomWidth, RandomZoom)
    from .augmentation_more import ContrastLimitedAdaptiveHistogramEqualization  # noqa: F401
    from .augmentation_more import (AugMix, AutoContrast, CutMix, Equalization, MaxNumBoundingBoxes,  # noqa: F401
                                    MixUp, RandAugment, RandomColorDegeneration, RandomColorJitter, RandomErasing,
                                    RandomGaussianBlur, RandomGrayscale, RandomHue, RandomInvert, RandomPerspective,
                                    RandomElasticTransform, RandomPosterization, RandomSaturation, RandomSharpness,
                                    RandomShear, Solarization)
    from .conv import (Conv1D, Conv2D, Conv2DTranspose, Convolution1D, Convolution2D,  # noqa: F401
                       Convolution2DTranspose, DepthwiseConv1D, DepthwiseConv2D, SeparableConv1D, SeparableConv2D,
                       SeparableConvolution1D, SeparableConvolution2D)
    from .embedding import Embedding, ReversibleEmbedding  # noqa: F401
    from .normalization import BatchNormalization, LayerNormalization  # noqa: F401
    from .pooling import (AdaptiveAveragePooling1D, AdaptiveAveragePooling2D, AdaptiveAveragePooling3D,  # noqa: F401
                          AdaptiveMaxPooling1D, AdaptiveMaxPooling2D, AdaptiveMaxPooling3D)
    from .pooling import (AveragePooling1D, AveragePooling2D, AvgPool1D, AvgPool2D,  # noqa: F401
                          GlobalAveragePooling1D, GlobalAveragePooling2D, GlobalAvgPool1D, GlobalAvgPool2D,
                          GlobalMaxPool1D, GlobalMaxPool2D, GlobalMaxPooling1D, GlobalMaxPooling2D, MaxPool1D,
                          MaxPool2D, MaxPooling1D, MaxPooling2D)
    from .preprocessing import Normalization, Pipeline  # noqa: F401
    from .text import (CategoryEncoding, Discretization, Hashing, IntegerLookup, StringLookup,  # noqa: F401
                       TextVectorization)
    from .hashed_crossing import HashedCrossing  # noqa: F401
    from .reshaping import Cropping2D, UpSampling2D, ZeroPadding2D  # noqa: F401
    from .rnn_cells import RNN, GRUCell, LSTMCell, SimpleRNNCell, StackedRNNCells  # noqa: F401
    from .attention import AdditiveAttention, Attention, MultiHeadAttention  # noqa: F401
    from .grouped_query_attention import GroupQueryAttention  # noqa: F401
    from .audio import MelSpectrogram, STFTSpectrogram  # noqa: F401
    from .wrappers import SpectralNormalization, TimeDistributed, Wrapper  # noqa: F401
    from ..export import TFSMLayer  # noqa: F401
    from .rnn import GRU, LSTM, Bidirectional, SimpleRNN  # noqa: F401
    from .conv_lstm import ConvLSTM1D, ConvLSTM2D, ConvLSTM3D  # noqa: F401
    from .core import (Activation, Add, Concatenate, Dense, Dropout, Flatten, Lambda,  # noqa: F401
                       LeakyReLU, Multiply, ReLU, Reshape, Softmax, add, concatenate, multiply)
else:
    def __getattr__(name: str) -> object:
        where = _LAZY.get(name)
        if where is None:
            import difflib
            close = difflib.get_close_matches(name, _LAZY, n=3, cutoff=0.7)
            raise AttributeError(f"module 'tapegrad.keras.layers' has no attribute {name!r}"
                                 + (f". Did you mean: {', '.join(map(repr, close))}?" if close else ""))
        value = getattr(importlib.import_module(where, __name__), name)
        globals()[name] = value
        return value


def __dir__() -> list:
    return sorted(set(globals()) | set(_LAZY))
