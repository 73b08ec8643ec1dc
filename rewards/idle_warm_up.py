"""Answers a symbolic worker parses while it has nothing else to do (:mod:`rewards._symbolic_worker`).

latex2sympy's ANTLR parser decides between grammar alternatives by simulating the grammar on the
tokens ahead, and remembers each decision per token-type sequence (its DFA); the first text of a
new shape (``7 kg, 3``, ``G_{m} = G_{m-1} + G_{m-2}``, a three-row matrix) costs 2-25 ms of such
simulation, later ones of that shape almost nothing. A long RL run learns the shapes of its
answers within minutes; a fresh worker has not. A worker that has answered its first request
parses these invented answers of common shapes, one at a time and only once no request has come
for ``IDLE_AFTER_S`` (50 ms; after the warm-up pairs of :mod:`rewards._symbolic_worker`):
that moves the cost out of later comparisons without delaying start-up, and a worker nobody uses
spends nothing on it. A request that arrives meanwhile waits for at most the one text being parsed
(1-25 ms; 0.2 s for all of them, once per worker). The shapes were chosen knowing which shapes
were slow on the first two rebuilt evaluation rounds (docs/rewards.md gives the gain there and on
rounds not looked at).
"""

from __future__ import annotations

WARM_UP_TEXTS: tuple[str, ...] = (
    # numbers, fractions, roots, constants
    "$\\frac{3}{4}$",
    "$-\\frac{7}{2}$",
    "$\\dfrac{5\\sqrt{3}}{2}$",
    "$2\\sqrt{2}$",
    "$\\sqrt[3]{16}$",
    "$3\\pi$",
    "$\\frac{\\pi}{6}$",
    "$0.25$",
    "$45\\%$",
    "$6 \\times 10^{23}$",
    "$1.5 \\times 10^{-3}$",
    "$2 \\cdot 3^{4}$",
    "$\\binom{10}{3}$",
    "$5!$",
    "$-\\infty$",
    "$\\pm 3$",
    "$\\frac{1}{\\sqrt{2}} \\approx 0.707$",
    # numbers with units and words
    "$12\\text{ cm}$",
    "$48 cm^2$",
    "$7 kg, 3$",
    "$\\$ 15.50$",
    "$\\mathrm{cm}^2$",
    "$30^{\\circ}$",
    "$\\tan 45^\\circ$",
    "$\\text{(A)}$",
    "$\\text{No}$",
    # expressions, implicit products, subscripts
    "$x^2-4x+3$",
    "$(x-1)(x+2)$",
    "$(p+3)(q-4)$",
    "$12b-d$",
    "$a b c$",
    "$\\frac{a+b}{c}$",
    "$\\sqrt{x^2+y^2}$",
    "$|x - 3|$",
    "$\\lfloor x \\rfloor$",
    "$a_{n} = 2^{n-1}$",
    "$G_{m} = G_{m-1} + G_{m-2}$",
    "$\\frac{1}{4x^{3/4}}$",
    "$2^{\\frac{1+\\sqrt{5}}{2}}$",
    "$\\sin\\left(\\frac{\\pi}{3}\\right)$",
    "$\\cos^2 x - \\sin^2 x$",
    "$\\ln 2$",
    "$\\log_{2} 8$",
    "$e^{-x}$",
    "$\\arcsin\\frac{1}{2}$",
    "$\\sum_{k=1}^{n} k^2$",
    "$\\lim_{x \\to 0} \\frac{\\sin x}{x}$",
    "$z = 1 + 2i$",
    # equations, relations, intervals, sets
    "$x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}$",
    "$y = 2x + 1$",
    "$f(x) = x^3 - 3x$",
    "$x_1 = 2, x_2 = -3$",
    "$u=4, v=-1$",
    "$\\frac{x^2}{4} + \\frac{y^2}{9} = 1$",
    "$5 = 2p + q$",
    "$x \\geq 2$",
    "$-1 < x \\leq 4$",
    "$t \\neq 0$",
    "$(1, 2)$",
    "$\\left(\\frac{1}{2}, -\\frac{3}{2}\\right)$",
    "$(2,5,1,11),(5,2,1,11)$",
    "$[0, \\infty)$",
    "$(-\\infty, -1] \\cup [2, \\infty)$",
    "$\\{1, 2, 3\\}$",
    "$\\{(1,4), (4,1)\\}$",
    "$n = 2k+1, k \\in \\mathbb{Z}$",
    # matrices and vectors
    "$\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}$",
    "$\\begin{pmatrix} 2 & 0 & 1 \\\\ 0 & 1 & 0 \\\\ -1 & 0 & 3 \\end{pmatrix}$",
    "$\\begin{bmatrix} 0 \\\\ 1 \\end{bmatrix}$",
    "$\\begin{pmatrix} 1 & 0 \\\\ 0 & 1 \\end{pmatrix} \\begin{pmatrix} 2 \\\\ 3 \\end{pmatrix}$",
    # answers in sentences and boxes
    "The answer is $\\boxed{\\frac{9}{4}}$.",
    "Therefore $x = 5$ and $y = -2$.",
    "So the smallest value is 12.",
    "$\\boxed{4} \\text{ and } \\boxed{9}$",
)
"""Invented answers, one or two of each common shape; none comes from an evaluation set."""
