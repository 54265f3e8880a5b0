# Declarations for the compiled build (Cython reads this beside _core.py; pure Python ignores it).
# _TensorCore becomes a C type: the hot paths below read and write a tensor's fields directly.
cimport cython

cdef class _TensorCore:
    cdef public object _value
    cdef public object _id
    cdef object __weakref__

@cython.locals(t=_TensorCore)
cpdef unary(op, x, str kinds=*)

@cython.locals(t=_TensorCore)
cpdef binary(op, x, y, str kinds=*)
