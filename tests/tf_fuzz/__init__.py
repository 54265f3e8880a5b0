"""Differential fuzzing of tapegrad against TensorFlow: random programs as pure data.

``generator.generate(seed)`` makes a program of 3-8 ops (a JSON-able dict) from an integer seed;
``interpreter.run_program(program, tf)`` runs it with the module ``tf`` (``tensorflow`` when
``tools/record_fuzz_fixtures.py`` records ``tests/fixtures/tf_fuzz.json.gz``, ``tapegrad`` in
``tests/test_tf_fuzz.py``) and returns the encoded forward value, gradients, seeded gradients,
second derivatives and Jacobian (``tests/tf_programs/_encoding.py``).
"""
