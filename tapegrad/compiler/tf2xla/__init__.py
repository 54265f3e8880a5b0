"""``tensorflow.compiler.tf2xla`` (see :mod:`tapegrad.compiler.tf2xla.python.xla`)."""
