"""Matrices written by a shorthand are written out before either reader compares
(rewards.matrix_forms): ``\\operatorname{diag}(a, b)`` and a transposed tuple ``(a, b)^T``, which a
competition checker labels equal to the matrices they name; math-verify reads neither."""

from __future__ import annotations

import pytest

from rewards.equivalence import compare
from rewards.matrix_forms import MAX_ENTRIES, matrix_forms_written_out

COLUMN = "\\begin{pmatrix}1.1\\\\0.5\\end{pmatrix}"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("\\operatorname{diag}(2,3)", "\\begin{pmatrix}2 & 0 \\\\ 0 & 3\\end{pmatrix}"),
        ("\\mathrm{diag}(\\tfrac12, 3)", "\\begin{pmatrix}\\tfrac12 & 0 \\\\ 0 & 3\\end{pmatrix}"),
        ("A = diag(1, x)", "A = \\begin{pmatrix}1 & 0 \\\\ 0 & x\\end{pmatrix}"),
        ("(11/10,1/2)^{\\mathsf T}", "\\begin{pmatrix}11/10 \\\\ 1/2\\end{pmatrix}"),
        ("[1,2]^T", "\\begin{pmatrix}1 \\\\ 2\\end{pmatrix}"),
        ("(a, b)^\\top", "\\begin{pmatrix}a \\\\ b\\end{pmatrix}"),
        ("(f(1), 2)^{T}", "\\begin{pmatrix}f(1) \\\\ 2\\end{pmatrix}"),
        ("[[1,2],[3,4]]", "\\begin{pmatrix}1 & 2 \\\\ 3 & 4\\end{pmatrix}"),
        ("Matrix([[1, 2], [3, 4]])", "\\begin{pmatrix}1 & 2 \\\\ 3 & 4\\end{pmatrix}"),
        ("[[1],[2]]", "\\begin{pmatrix}1 \\\\ 2\\end{pmatrix}"),
        # left as written
        ("(1,2)^2", None),
        ("x^T", None),
        ("(5)^T", None),  # one entry: not a vector
        ("(" + ",".join(["1"] * (MAX_ENTRIES + 1)) + ")^T", None),
        ("\\operatorname{diag}(2)", None),
        ("\\operatorname{diag}(2,3", None),  # not closed
        ("\\text{Tdiag}(1,2)", None),
        ("[[1,2],[3]]", None),  # rows of different lengths
        ("[[1,2]]", None),  # one row: a list in a list
    ],
)
def test_matrix_forms_written_out(text: str, want: str | None) -> None:
    assert matrix_forms_written_out(text) == (text if want is None else want)


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("(11/10,1/2)^{\\mathsf T}", COLUMN, True),
        (COLUMN, "(11/10,1/2)^{\\mathsf T}", True),
        ("(11/10,1/2)^{\\mathsf T}", "\\begin{pmatrix}0.5\\\\1.1\\end{pmatrix}", False),
        ("(11/10,1/2)^{\\mathsf T}", "\\begin{pmatrix}1.1&0.5\\end{pmatrix}", False),  # a row
        ("\\mathrm{diag}(\\tfrac12,3)", "\\begin{bmatrix}0.5&0\\\\0&3\\end{bmatrix}", True),
        ("[[1,2],[3,4]]", "\\begin{bmatrix}1 & 2 \\\\ 3 & 4\\end{bmatrix}", True),
        ("[[1,2],[3,5]]", "\\begin{bmatrix}1 & 2 \\\\ 3 & 4\\end{bmatrix}", False),
        ("\\operatorname{diag}(2,2,12)", "\\begin{pmatrix}2&1&0\\\\0&2&0\\\\0&0&12\\end{pmatrix}", False),
        ("\\operatorname{diag}(2,2,12)", "\\begin{pmatrix}2&0&0\\\\0&12&0\\\\0&0&2\\end{pmatrix}", False),
        # a tuple is a column vector, not a one-row matrix (math-verify refuses it too)
        ("(\\frac12,0.25,3)", "\\begin{pmatrix}0.5\\\\\\frac14\\\\3\\end{pmatrix}", True),
        ("(\\frac12,0.25,3)", "\\begin{pmatrix}0.5&\\frac14&3\\end{pmatrix}", False),
    ],
)
def test_shorthand_matrices(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want
