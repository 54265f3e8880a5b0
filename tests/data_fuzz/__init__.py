"""Differential fuzzing of ``tf.data`` pipelines and ``tf.function``/random semantics.

``generator.generate(seed)`` makes a program (a JSON-able dict) from an integer seed, using only
``random.Random(seed)``; ``interpreter.run(program, tf)`` runs it with the module ``tf``
(``tensorflow`` when ``tools/record_data_fuzz.py`` records ``tests/fixtures/data_fuzz.json.gz``,
``tapegrad`` in ``tests/test_data_fuzz.py``) and returns the encoded results: the elements each
iteration yields, ``element_spec``, ``cardinality``, the values random ops and ``tf.function``
calls return, and errors by type name.
"""
