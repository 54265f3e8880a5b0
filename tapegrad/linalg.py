"""``tapegrad.linalg``: matrix products and decompositions (TensorFlow's ``tf.linalg``)."""
import typing as _typing

from .ops.array import eye  # noqa: F401
from .ops.decompositions import (  # noqa: F401
    cholesky, cholesky_solve, det, eigh, eigvalsh, expm, inv, logdet, lstsq, lu, lu_matrix_inverse,
    eig, eigvals, logm, lu_reconstruct, lu_solve, matrix_rank, pinv, qr, slogdet, solve, sqrtm, svd,
    triangular_solve,
    tridiagonal_matmul, tridiagonal_solve,
)
from .ops.linalg import (  # noqa: F401
    adjoint, band_part, cross, diag_part, einsum, fill_triangular, fill_triangular_inverse,
    global_norm, matmul, matrix_transpose, matvec, norm, normalize, set_diag, tensor_diag,
    tensor_diag_part, tensordot, trace,
)
from .ops.linalg import matrix_diag as diag  # noqa: F401
from .ops.nn import l2_normalize  # noqa: F401


if not _typing.TYPE_CHECKING:  # hidden from type checkers: they report a missing name
    def __getattr__(name: str) -> object:  # "not covered yet" for a TF name, "did you mean" for a typo
        if name.startswith("_"):  # (private and special names: no lookup, no import)
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        from ._missing import attribute_error
        raise attribute_error("linalg", name)
