# Declarations for the compiled build (see _core.pxd).
cimport cython
from tapegrad._core cimport Op, Tensor

cdef class _TapeCore:
    cdef public set _ids
    cdef public list _entries
    cdef public object _explain

    @cython.locals(op=Op, ids=set, x=Tensor, y=Tensor, t=Tensor)
    cpdef _record(self, op, xs, p, ans, k)

@cython.locals(op=Op, x=Tensor)
cpdef dict _backward(list entries, dict ct, set owned, set src_ids, bint free, batch, observe=*)
