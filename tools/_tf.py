"""TensorFlow for the recording scripts in tools/ (development only: tapegrad and CI never use it)."""
import os


def quiet_tensorflow():
    """``import tensorflow`` with its C++, absl and Python logging at ERROR."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf

    try:
        import absl.logging

        absl.logging.set_verbosity(absl.logging.ERROR)
    except ImportError:
        pass
    tf.get_logger().setLevel("ERROR")
    return tf
