"""``tensorflow.compiler.tf2xla.python`` (see :mod:`tapegrad.compiler.tf2xla.python.xla`)."""
