"""``tensorflow.compiler``: the one part of it that programs import, ``tf2xla.python.xla``'s
dynamic slices (:mod:`tapegrad.compiler.tf2xla.python.xla`)."""
