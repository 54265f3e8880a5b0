"""``tapegrad.linalg``: matrix products and decompositions (TensorFlow's ``tf.linalg``)."""
import typing as _typing

from .ops.array import eye  # noqa: F401
from .ops.linalg import matmul, matvec  # noqa: F401
from .ops.decompositions import (  # noqa: F401
    adjoint, band_part, cholesky, cholesky_solve, cross, det, diag_part, eigh, eigvalsh, expm,
    fill_triangular, fill_triangular_inverse, inv, logdet, lstsq, matrix_transpose, pinv, qr,
    set_diag, slogdet, solve, svd, trace, triangular_solve,
)
from .ops.decompositions import matrix_diag as diag  # noqa: F401
from .ops.indexing import einsum, global_norm, norm, tensordot  # noqa: F401


if not _typing.TYPE_CHECKING:  # hidden from type checkers: they report a missing name
    def __getattr__(name: str) -> object:  # "not covered yet" for a TF name, "did you mean" for a typo
        from ._missing import attribute_error
        raise attribute_error("linalg", name)
