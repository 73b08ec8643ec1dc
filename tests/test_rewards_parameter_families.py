"""Families with declared parameters compare up to the parameters' names
(rewards.parameter_families): a competition checker labels ``f(x)=x^2+cx+d \\quad (c,d \\in
\\mathbb R)`` equal to ``f(x)=x^2+ax+b \\text{ for some } a,b \\in \\mathbb R``; math-verify compares
``c`` with ``a`` and refuses."""

from __future__ import annotations

import pytest

from rewards.equivalence import compare
from rewards.parameter_families import MAX_PARAMETERS, declared_family, renamed_bodies

QUADRATICS = "f(x)=x^2+cx+d\\quad(c,d\\in\\mathbb R)"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        (QUADRATICS, ("f(x)=x^2+cx+d", ("c", "d"), "R")),
        ("f(x)=x^2+ax+b\\text{ for some }a,b\\in\\mathbb R", ("f(x)=x^2+ax+b", ("a", "b"), "R")),
        ("f(x)=cx, c \\in \\mathbb{R}", ("f(x)=cx", ("c",), "R")),  # "x, c" is not the list
        ("x = 2k\\pi,\\ k\\in\\mathbb Z.", ("x = 2k\\pi", ("k",), "Z")),
        ("x=5", None),
        ("f(x)=x^2 \\quad (c \\in \\mathbb R)", None),  # the parameter is not in the body
        ("f(x)=ax+b \\quad (a, b \\in \\mathbb R", None),  # the bracket does not close
        ("a+b+c+d+x=0\\ (a,b,c,d\\in\\mathbb R)", None),  # more than MAX_PARAMETERS
    ],
)
def test_declared_family(text: str, want: object) -> None:
    assert MAX_PARAMETERS == 3
    assert declared_family(text) == want


def test_renamings_only_for_the_same_set_and_count() -> None:
    assert renamed_bodies(QUADRATICS, "f(x)=x^2+ax+b\\text{ for }a,b\\in\\mathbb R") == [
        ("f(x)=x^2+cx+d", "f(x)=x^2+cx+d"),
        ("f(x)=x^2+cx+d", "f(x)=x^2+dx+c"),
    ]
    assert renamed_bodies(QUADRATICS, "f(x)=x^2+ax+b\\text{ for }a,b\\in\\mathbb Z") == []
    assert renamed_bodies(QUADRATICS, "f(x)=x^2+ax\\text{ for }a\\in\\mathbb R") == []
    # "c" is a parameter of the reference and a constant of the prediction: no renaming
    assert renamed_bodies(QUADRATICS, "f(x)=x^2+ax+c\\text{ for }a,b\\in\\mathbb R") == []


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        (QUADRATICS, "f(x)=x^2+ax+b\\text{ for some }a,b\\in\\mathbb R", True),
        ("f(x)=x^2+ax+b\\text{ for }a,b\\in\\mathbb R", QUADRATICS, True),
        (QUADRATICS, "f(x)=x^2+bx+a\\text{ for }a,b\\in\\mathbb R", True),  # in the other order
        ("x = 2k\\pi, k\\in\\mathbb Z", "x=2n\\pi, n \\in \\mathbb{Z}", True),
        ("x = 2k\\pi, k\\in\\mathbb Z", "x=n\\pi, n \\in \\mathbb{Z}", False),
        ("f(x)=cx, c\\in\\mathbb R", "f(x)=ax, a\\in\\mathbb Z", False),
        (QUADRATICS, "f(x)=x^3+ax+b\\text{ for }a,b\\in\\mathbb R", False),
    ],
)
def test_families_up_to_parameter_names(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want
