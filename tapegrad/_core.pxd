# Declarations for the compiled build (Cython reads this beside _core.py; pure Python ignores it).
# Tensor and Op become C types: the hot paths below read and write their fields directly.
cimport cython

cdef class Tensor:
    cdef public object _value
    cdef public object _id
    cdef object __weakref__

cdef class Op:
    cdef public object name, fwd, bwd, jvp, nout, bcast, diff, batch_ok, ufunc
    cdef dict __dict__

@cython.locals(t=Tensor)
cpdef unary(Op op, x, str kinds=*)

@cython.locals(t=Tensor)
cpdef binary(Op op, x, y, str kinds=*)
