"""Tiny helpers shared by the program modules (no TensorFlow import here)."""


def tf_raises(type_name):
    """Mark a program that raises ``type_name`` when run with TensorFlow."""

    def mark(fn):
        fn.tf_raises = type_name
        return fn

    return mark


def catch(fn, *args, **kwargs):
    """Run ``fn`` and return its result, or the exception it raised.

    Lets a program show several behaviours in one result, e.g. a first call
    that works followed by a second one that raises.
    """
    try:
        return fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - the exception is the result
        return exc
