"""An answer whose text takes its value back or hedges it (``42\\text{ is false}``,
``42\\text{ maybe 7}``) is not credited (rewards.certain_path.disowned); a unit is not such a text.
Nor are two statements joined by a connective (``x=0 \\land y=42``) one value."""

from __future__ import annotations

import pytest

from rewards.certain_path import disowned
from rewards.equivalence import compare


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        ("42\\text{ wrong}", True),
        ("42\\text{ is false}", True),
        ("42\\text{ maybe 7}", True),
        ("42 \\text{(or 7)}", True),
        ("42\\textrm{wrong 7}", True),
        ("42\\mathbf{wrong}", True),
        ("42\\text{not\\ correct}", True),
        ("42\\text{n\\!o\\!t 7}", True),
        ("42\\text{错误}", True),
        ("42\\text{✗ 7}", True),
        ("42\\text{ apples}", False),  # a unit
        ("x < -1 \\text{ or } x > 1", False),  # a connector between two parts
        ("1 \\text{ if } x > 0, 0 \\text{ otherwise}", False),  # a piecewise answer
        ("42\\text{ or more}", False),
        ("42\\text{ cm}", False),
        ("42\\text{ notebooks}", False),  # "not" inside a word
        ("\\text{not defined}", False),  # no value before the text
        ("42", False),
    ],
)
def test_disowned(answer: str, want: bool) -> None:
    assert disowned(answer) is want


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("42", "\\boxed{42\\text{ wrong}}", False),
        ("42", "\\boxed{42\\text{ maybe 7}}", False),
        ("42", "The answer is $\\boxed{42 \\text{ (or 7)}}$.", False),
        ("42", "\\boxed{42\\text{ apples}}", True),
        ("42\\text{ or more}", "\\boxed{42\\text{ or more}}", True),  # the reference says so too
    ],
)
def test_a_disowned_value_is_not_credited(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want, pred


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("42", "\\boxed{x=0 \\land y=42}", False),  # two statements, not a chain ending in 42
        ("42", "\\boxed{x=0 \\wedge y=42}", False),
        ("42", "\\boxed{x=0 \\& y=42}", False),
        ("42", "\\boxed{x=0, y=42}", False),  # two named values are not one value
        ("x=0, y=42", "42", False),
        ("x=0, y=42", "\\boxed{x=0 \\land y=42}", True),
        ("(0,42)", "x=0, y=42", True),  # a tuple in the named order
        ("(1,3)", "x>1 \\land x<3", True),
        ("(-\\infty,-1)\\cup(1,\\infty)", "x<-1 \\lor x>1", True),
        ("42", "\\boxed{x = 5+5+32 = 42}", True),  # a chain
        ("42", "\\boxed{x = f(1,2) = 42}", True),  # a comma inside brackets joins nothing
        ("42", "\\boxed{x=0, y=1 = 42}", False),
    ],
)
def test_logical_connectives_join_statements(gold: str, pred: str, want: bool) -> None:
    assert compare(gold, pred).equal is want, (gold, pred)
