"""Faster parsing with latex2sympy's ANTLR parser, to the parse its own full-LL strategy makes.

Most of the symbolic worker's time on answers the certain path leaves to math-verify was ANTLR's
*prediction* in latex2sympy's parser (pure Python): at a decision whose alternatives start alike,
ANTLR simulates the grammar over the tokens ahead until they differ, often to the end of the
input, and builds DFA states as it goes. The parse now runs in two stages, as ANTLR's own
"Two-Stage Parsing" recipe (``antlr4/atn/ParserATNSimulator.py``) does, and neither changes it:

1. **First stage.** A decision is settled from the tokens where they allow it
   (:class:`_Shortcuts`): the smallest alternative that the grammar does not rule out is taken
   without simulation. An alternative is ruled out only by a proof from the grammar: its first
   tokens (ANTLR's LOOK, with the rule's FOLLOW where it can end) lack the next token; it needs
   a token (``\\pm``, ``=``) that is not where it would have to be; it can derive no token of a
   type the input has; the bracket group it would span is followed by a token that cannot follow
   it; or its precedence predicate fails (``a/b/c``: another ``/`` belongs to the outer product).
   Such rules cover the top-level decisions that otherwise look ahead to the end of the input
   (``math``: a relation list, a list or a set relation; ``element``: ``a \\pm b``, a set or a
   relation; ``set_atom``: an interval, a tuple or a set), the scripts of a letter, the loops of
   the left-recursive rules, and every decision one token settles. Everything else is predicted
   with SLL, except the scripts of a letter where the tokens do not settle them: there SLL's
   context-free conflict resolution always picks "a subscript follows" (``x^2+1``,
   ``\\log(x^2)``), so those are predicted with full LL. Full LL picks the smallest alternative
   from which the rest of the input can be parsed; SLL picks that one or one from which it
   cannot; every alternative smaller than a settled one is ruled out. So a first stage without a
   syntax error made full LL's choice at every decision.
2. **Second stage**, only after a syntax error: full LL (the library's default), with only the
   decisions where the tokens leave one alternative settled from them, which is full LL's own
   choice on any input it can parse (and an input it cannot parse fails either way).

So every parse, and every math-verify verdict built on it, is latex2sympy's own; the tests compare
the two on a corpus (``tests/test_rewards_worker_parsing.py``). Everything the shortcuts need is
read from the installed parser's ATN (first tokens, tokens a rule can derive, what may follow a
rule, precedence predicates) and the token names; when the grammar does not have the expected
rules and alternatives, the shortcuts are not installed and the stages are SLL, then full LL.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from rewards.library_hooks import replace_attribute, unhooked

EPSILON = -2
"""ANTLR's ``Token.EPSILON``: in a lookahead set, "the end of the rule can be reached"."""

OPENERS = (
    "L_PAREN L_PAREN_VISUAL L_GROUP L_BRACE L_BRACE_VISUAL L_BRACE_CMD L_BRACKET L_BRACK "
    "L_ANGLE L_FLOOR L_CEIL LL_CORNER UL_CORNER L_VERT"
).split()
CLOSERS = (
    "R_PAREN R_PAREN_VISUAL R_GROUP R_BRACE R_BRACE_VISUAL R_BRACE_CMD R_BRACKET R_BRACK "
    "R_ANGLE R_FLOOR R_CEIL LR_CORNER UR_CORNER R_VERT"
).split()
"""Bracket tokens, counted as one nesting depth whatever their kind: every rule that has one of
them has its partner (``group``, ``interval``'s mixed ``(a, b]``, ``\\sqrt[n]{}``, functions'
argument lists), so any phrase the grammar derives is balanced under this count."""

RELATION_HEAD_BREAKERS = (
    "ADD SUB MUL DIV CMD_TIMES CMD_CDOT CMD_DIV COLON CMD_MOD BANG COMMA SEMICOLON PLUS_MINUS "
    "EQUAL APPROX LT LTE GT GTE UNEQUAL NOTIN"
).split()
"""Tokens that cannot stand outside brackets in ``atom_expr_list`` (``x``, ``x_1^2``, ``(x, y)``),
the head of ``set_elements_relation`` (``x = 1, 2``): its atoms are letters, numbers and symbols
with their sub- and superscripts."""


LIST_BREAKERS = "IN NOTIN ASSIGNMENT EQUAL APPROX LT LTE GT GTE UNEQUAL UNION INTERSECTION SET_MINUS SUBSET SUPSET".split()
"""Tokens that cannot stand outside brackets in ``semicolon_elements_no_relation``, the values
after ``x =`` in ``set_elements_relation``: its items are expressions, sets and ``a \\pm b``."""


def _token_types(parser: Any, names: Iterable[str]) -> frozenset[int]:
    """Token types by name; KeyError when the grammar has no such token."""
    types = {name: i for i, name in enumerate(parser.symbolicNames)}
    return frozenset(types[n] for n in names)


def _as_set(interval_set: Any) -> frozenset[int]:
    return frozenset(t for r in (interval_set.intervals or ()) for t in r)


class _Grammar:
    """What the shortcuts read from a parser's ATN: rule names, first tokens, derivable tokens,
    following tokens, and which rule each alternative of a decision enters."""

    def __init__(self, parser: Any) -> None:
        self.atn = parser.atn
        self.rule_names: list[str] = list(parser.ruleNames)
        self._derivable: dict[int, frozenset[int] | None] = {}
        self._follow: dict[int, frozenset[int]] = {}

    def rule(self, name: str) -> int:
        return self.rule_names.index(name)

    def first(self, name: str) -> frozenset[int]:
        """Tokens that can start the rule (ANTLR's LOOK, which sees through predicates)."""
        return _as_set(self.atn.nextTokens(self.atn.ruleToStartState[self.rule(name)]))

    def derivable(self, name: str) -> frozenset[int] | None:
        """Every token type the rule can derive, or None when it can derive any (a wildcard or a
        negated set)."""
        from antlr4.atn.Transition import NotSetTransition, RuleTransition, WildcardTransition

        start = self.rule(name)
        if start in self._derivable:
            return self._derivable[start]
        rules, todo = {start}, [start]
        while todo:
            r = todo.pop()
            for state in self.atn.states:
                if state is None or state.ruleIndex != r:
                    continue
                for t in state.transitions:
                    if isinstance(t, RuleTransition) and t.target.ruleIndex not in rules:
                        rules.add(t.target.ruleIndex)
                        todo.append(t.target.ruleIndex)
        tokens: set[int] | None = set()
        for state in self.atn.states:
            if state is None or state.ruleIndex not in rules:
                continue
            for t in state.transitions:
                if isinstance(t, NotSetTransition | WildcardTransition):
                    tokens = None
                    break
                if t.label is not None and tokens is not None:
                    tokens |= _as_set(t.label)
            if tokens is None:
                break
        self._derivable[start] = None if tokens is None else frozenset(tokens)
        return self._derivable[start]

    def follow(self, name: str) -> frozenset[int]:
        """Tokens that can follow the rule anywhere (FOLLOW; EOF where it can end the input)."""
        if not self._follow:
            self._follow = self._follow_sets()
        return self._follow.get(self.rule(name), frozenset())

    def _follow_sets(self) -> dict[int, frozenset[int]]:
        """FOLLOW of every rule, by the textbook fixpoint over the rule references in the ATN."""
        from antlr4.atn.Transition import RuleTransition

        refs = [  # (calling rule, called rule, tokens after the call within the calling rule)
            (state.ruleIndex, t.target.ruleIndex, _as_set(self.atn.nextTokens(t.followState)))
            for state in self.atn.states
            if state is not None
            for t in state.transitions
            if isinstance(t, RuleTransition)
        ]
        follow: dict[int, set[int]] = {}
        changed = True
        while changed:
            changed = False
            for caller, called, after in refs:
                add = set(after - {EPSILON})
                if EPSILON in after:
                    add |= follow.get(caller, set())
                have = follow.setdefault(called, set())
                if not add <= have:
                    have |= add
                    changed = True
        return {r: frozenset(v) for r, v in follow.items()}

    def one_token_table(self, decision: int) -> dict[int, int]:
        """For ``decision``: the next tokens that leave exactly one alternative possible, with that
        alternative. An alternative's possible first tokens are ANTLR's LOOK through predicates,
        with the rule's FOLLOW where the alternative can end the rule: a superset, so a token
        outside it rules the alternative out."""
        from antlr4.LL1Analyzer import LL1Analyzer

        state = self.atn.decisionToState[decision]
        analyzer = LL1Analyzer(self.atn)
        looks: list[frozenset[int]] = []
        for t in state.transitions:
            look = _as_set(analyzer.LOOK(t.target))
            if EPSILON in look:
                look = (look - {EPSILON}) | self.follow(self.rule_names[state.ruleIndex])
            looks.append(look)
        table: dict[int, int] = {}
        for token in frozenset().union(*looks):
            alts = [k for k, look in enumerate(looks, 1) if token in look]
            if len(alts) == 1:
                table[token] = alts[0]
        return table

    def precedence_loops(self) -> dict[int, tuple[frozenset[int], frozenset[int]]]:
        """The loop decisions of left-recursive rules (``mp: mp (MUL | DIV ...) mp | unary``):
        decision -> (first tokens of another round, the precedences whose predicate guards it)."""
        from antlr4.atn.ATNState import StarLoopEntryState
        from antlr4.atn.Transition import PrecedencePredicateTransition
        from antlr4.LL1Analyzer import LL1Analyzer

        analyzer = LL1Analyzer(self.atn)
        out: dict[int, tuple[frozenset[int], frozenset[int]]] = {}
        for d, state in enumerate(self.atn.decisionToState):
            if not (isinstance(state, StarLoopEntryState) and state.isPrecedenceDecision):
                continue
            precedences: set[int] = set()
            todo, seen = [state.transitions[0].target], set()
            while todo:
                st = todo.pop()
                if st.stateNumber in seen:
                    continue
                seen.add(st.stateNumber)
                for t in st.transitions:
                    if isinstance(t, PrecedencePredicateTransition):
                        precedences.add(t.precedence)
                    elif t.isEpsilon:
                        todo.append(t.target)
            if precedences:
                first = _as_set(analyzer.LOOK(state.transitions[0].target)) - {EPSILON}
                out[d] = (first, frozenset(precedences))
        return out

    def decisions(self, rule_name: str) -> list[int]:
        rule = self.rule(rule_name)
        return [d for d, s in enumerate(self.atn.decisionToState) if s.ruleIndex == rule]

    def alternative_rules(self, decision: int) -> list[str | None]:
        """The rule each alternative of ``decision`` enters first (None where it matches a token
        or branches first)."""
        from antlr4.atn.Transition import RuleTransition

        out: list[str | None] = []
        for t in self.atn.decisionToState[decision].transitions:
            state, name = t.target, None
            for _ in range(8):  # a few epsilon steps to the alternative's first element
                if len(state.transitions) != 1:
                    break
                step = state.transitions[0]
                if isinstance(step, RuleTransition):
                    name = self.rule_names[step.target.ruleIndex]
                    break
                if not step.isEpsilon:
                    break
                state = step.target
            out.append(name)
        return out


class _Tokens:
    """The whole token stream of one parse, read once: types, the partner of every bracket, and
    the last position of each token type."""

    def __init__(self, stream: Any, openers: frozenset[int], closers: frozenset[int]) -> None:
        stream.fill()
        self.types: list[int] = [t.type for t in stream.tokens]  # skipped tokens are not in it
        self.closers = closers
        self.last: dict[int, int] = {}
        self.partner: dict[int, int] = {}
        stack: list[int] = []
        self.balanced = True
        for i, ty in enumerate(self.types):
            self.last[ty] = i
            if ty in openers:
                stack.append(i)
            elif ty in closers:
                if not stack:
                    self.balanced = False
                    continue
                self.partner[stack.pop()] = i
        if stack:
            self.balanced = False

    def outside_brackets(self, i: int, stop: frozenset[int] = frozenset()) -> Iterable[int]:
        """The types of the tokens from ``i`` on that stand outside brackets, to the end of the
        bracket group ``i`` is in (or of the input), or to the first token of ``stop``."""
        types, partner = self.types, self.partner
        while i < len(types):
            ty = types[i]
            if ty in stop or ty in self.closers:  # a closer here ends the enclosing group
                return
            yield ty
            i = partner.get(i, i) + 1

    def later(self, i: int, types: frozenset[int]) -> bool:
        """Whether a token of one of ``types`` is at position ``i`` or after it."""
        return any(self.last.get(t, -1) >= i for t in types)

    def present(self) -> frozenset[int]:
        return frozenset(self.last)


Alts = tuple[int, ...]
"""Alternatives of a decision that the tokens do not rule out, smallest first."""


@dataclass(frozen=True)
class _Shortcuts:
    """Per-grammar facts and the decisions the tokens settle (see the module docstring)."""

    one_token: dict[int, dict[int, int]]  # decision -> next token -> the one possible alternative
    precedence_loops: dict[int, tuple[frozenset[int], frozenset[int]]]  # _Grammar.precedence_loops
    ll_decisions: frozenset[int]  # predicted with full LL in the first stage (SLL always errs there)
    atom_expr: int
    math: int
    elements: dict[int, tuple[frozenset[int], frozenset[int]]]  # decision -> FOLLOW, FIRST of alt 3
    set_atom: int
    openers: frozenset[int]
    closers: frozenset[int]
    caret: int
    underscore: int
    eof: int
    boxed: int
    comma: int
    semicolon: int
    brace: int
    brace_close: int
    assignment: frozenset[int]  # IN, ASSIGNMENT: what follows atom_expr_list in a relation list
    set_relation_needs: frozenset[int]  # IN, NOTIN, ASSIGNMENT: one of them, or a set first
    plus_minus: frozenset[int]
    breakers: frozenset[int]
    list_breakers: frozenset[int]  # relations and set operations: none in a list of values
    separators: frozenset[int]  # COMMA, SEMICOLON: where an element ends
    atom_list_first: frozenset[int]
    set_group_first: frozenset[int]
    set_elements_tokens: frozenset[int] | None
    set_relation_tokens: frozenset[int] | None
    set_atom_first: frozenset[int]
    interval_first: frozenset[int]
    literal_set_first: frozenset[int]
    tuple_first: frozenset[int]
    finite_set_first: frozenset[int]

    def possible(
        self, tokens: _Tokens, i: int, decision: int, precpred: Callable[[int], bool]
    ) -> Alts | None:
        """The alternatives of ``decision`` still possible with the next token at ``i`` (never
        empty), or None where the tokens say too little and ANTLR should predict. ``precpred``
        evaluates a precedence predicate in the parser's current context."""
        if i >= len(tokens.types):
            return None
        one = self.one_token.get(decision)
        if one is not None:
            alt = one.get(tokens.types[i])
            if alt is not None:
                return (alt,)
        loop = self.precedence_loops.get(decision)
        if loop is not None:  # 1: another round (its predicate must hold), 2: leave the loop
            first, precedences = loop
            if tokens.types[i] in first and any(precpred(p) for p in precedences):
                return (1, 2)
            return (2,)
        if not tokens.balanced:
            return None
        if decision == self.atom_expr:
            return self._atom_expr(tokens, i)
        if decision == self.math:
            return self._math(tokens, i)
        if decision in self.elements:
            return self._element(tokens, i, *self.elements[decision])
        if decision == self.set_atom:
            return self._set_atom(tokens, i)
        return None

    def _atom_expr(self, tokens: _Tokens, i: int) -> Alts | None:
        # The scripts of a letter: 1 ^a _b, 2 _b ^a, 3 _b, 4 ^a, 5 none (exp's own ^ may follow).
        types = tokens.types
        script, after = types[i], i + 1
        if script == self.caret:
            other, both, alone = self.underscore, 1, 4
        elif script == self.underscore:
            other, both, alone = self.caret, 2, 3
        else:
            return None
        if types[after] == self.brace:  # ^{...} / _{...}: the other script must come right after
            if types[tokens.partner[after] + 1] == other:
                return (both, alone, 5)
            return (alone, 5)
        return None if tokens.later(after, frozenset([other])) else (alone, 5)

    def _math(self, tokens: _Tokens, i: int) -> Alts:
        types, present = tokens.types, tokens.present() - {self.eof}
        alts: list[int] = []
        # 1: set_elements_relation = atom_expr_list (IN | ASSIGNMENT) ...
        if self._relation_head(tokens, i):
            alts.append(1)
        # 2: set_elements, unless the input has a token set_elements cannot derive.
        if self.set_elements_tokens is None or present <= self.set_elements_tokens:
            alts.append(2)
        # 3: set_relation starts with a set (minus_expr) or needs IN / NOTIN / ASSIGNMENT.
        if (types[i] in self.set_group_first or present & self.set_relation_needs) and (
            self.set_relation_tokens is None or present <= self.set_relation_tokens
        ):
            alts.append(3)
        return tuple(alts) or (1, 2, 3)

    def _relation_head(self, tokens: _Tokens, i: int) -> bool:
        """Whether the input may be ``atom_expr_list (IN | ASSIGNMENT) semicolon_elements_no_relation``
        (``x = 1, 2``). Outside brackets, atom_expr_list is a letter with ``^`` and ``_`` and what
        each takes (a letter, a number, a braced group), or a parenthesised list, so every piece
        after the first comes right after a ``^`` or a ``_``; and no relation or set operation
        stands outside brackets after the ``=``."""
        types = tokens.types
        if types[i] not in self.atom_list_first:
            return False
        j = tokens.partner.get(i, i) + 1
        after_script = False
        while j < len(types):
            ty = types[j]
            if ty in self.assignment:
                break
            if ty in self.breakers or ty == self.eof or i in tokens.partner:
                return False  # (x, y) takes no scripts: IN / ASSIGNMENT comes right after it
            if ty in (self.caret, self.underscore):
                after_script = True
            elif after_script:
                after_script = False
            else:
                return False
            j = tokens.partner.get(j, j) + 1  # a bracket group is one piece
        else:
            return False
        return not any(ty in self.list_breakers for ty in tokens.outside_brackets(j + 1))

    def _element(self, tokens: _Tokens, i: int, follow: frozenset[int], third: frozenset[int]) -> Alts:
        alts: list[int] = []
        if any(ty in self.plus_minus for ty in tokens.outside_brackets(i, self.separators)):
            alts.append(1)  # 1: plus_minus_expr: a \pm outside brackets before the element ends
        if self._set_atom_may_end_element(tokens, i, follow):  # 2: set_atom
            alts.append(2)
        if tokens.types[i] in third:  # 3: relation / expr
            alts.append(3)
        return tuple(alts) or (1, 2, 3)

    def _set_atom_may_end_element(self, tokens: _Tokens, i: int, follow: frozenset[int]) -> bool:
        """A set_atom spans one bracket group (after ``\\boxed`` for a boxed set) or one token
        (``\\mathbb{R}``), and the element ends right after it."""
        types = tokens.types
        if types[i] not in self.set_atom_first:
            return False
        start = i + 1 if types[i] == self.boxed else i
        if start >= len(types) or types[start] not in self.openers:
            return True
        end = tokens.partner.get(start)
        return end is None or end + 1 >= len(types) or types[end + 1] in follow

    def _set_atom(self, tokens: _Tokens, i: int) -> Alts:
        types, la = tokens.types, tokens.types[i]
        alts: list[int] = []
        # 1: interval = opener expr COMMA expr closer: one comma and no semicolon directly
        # inside (an expr has commas and semicolons only inside brackets).
        if la in self.interval_first:
            commas = semicolons = 0
            j, end = i + 1, tokens.partner.get(i, i)
            while j < end:
                commas += types[j] == self.comma
                semicolons += types[j] == self.semicolon
                j = tokens.partner.get(j, j) + 1
            if commas == 1 and semicolons == 0:
                alts.append(1)
        # 2: literal_set: \mathbb{N} and kin, \emptyset, or {}.
        if la in self.literal_set_first and (la != self.brace or types[i + 1] == self.brace_close):
            alts.append(2)
        if la in self.tuple_first:  # 3: ordered_tuple
            alts.append(3)
        if la in self.finite_set_first:  # 4: finite_set
            alts.append(4)
        return tuple(alts) or (1, 2, 3, 4)


def _build_shortcuts(parser: Any) -> _Shortcuts | None:
    """The shortcuts for this parser's grammar, or None when its rules or tokens are not the ones
    the proofs above are about (another latex2sympy version): then ANTLR predicts everything."""
    from antlr4.Token import Token

    def tok(names: Iterable[str]) -> frozenset[int]:
        return _token_types(parser, names)

    def one(name: str) -> int:
        return next(iter(tok([name])))

    try:
        g = _Grammar(parser)
        [math] = g.decisions("math")
        [set_atom] = g.decisions("set_atom")
        [atom_expr] = g.decisions("atom_expr")
        elements = [*g.decisions("element"), *g.decisions("element_no_relation")]
        expected = {
            math: ["set_elements_relation", "set_elements", "set_relation"],
            set_atom: ["interval", "literal_set", "ordered_tuple", "finite_set"],
            atom_expr: ["supexpr", "subexpr", "subexpr", "supexpr", None],
        }
        for d in elements:
            expected[d] = ["plus_minus_expr", "set_atom", "relation" if d == elements[0] else "expr"]
        if any(g.alternative_rules(d) != alts for d, alts in expected.items()):
            return None
        if g.first("supexpr") != tok(["CARET"]) or g.first("subexpr") != tok(["UNDERSCORE"]):
            return None
        return _Shortcuts(
            one_token={d: g.one_token_table(d) for d in range(len(g.atn.decisionToState))},
            precedence_loops=g.precedence_loops(),
            ll_decisions=frozenset([atom_expr]),
            atom_expr=atom_expr,
            math=math,
            elements={
                d: (
                    g.follow(g.rule_names[g.atn.decisionToState[d].ruleIndex]),
                    g.first(str(expected[d][2])),
                )
                for d in elements
            },
            set_atom=set_atom,
            openers=tok(OPENERS),
            closers=tok(CLOSERS),
            caret=one("CARET"),
            underscore=one("UNDERSCORE"),
            eof=Token.EOF,
            boxed=one("BOXED_CMD"),
            comma=one("COMMA"),
            semicolon=one("SEMICOLON"),
            brace=one("L_BRACE"),
            brace_close=one("R_BRACE"),
            assignment=tok(["IN", "ASSIGNMENT"]),
            set_relation_needs=tok(["IN", "NOTIN", "ASSIGNMENT"]),
            plus_minus=tok(["PLUS_MINUS"]),
            breakers=tok(RELATION_HEAD_BREAKERS),
            list_breakers=tok(LIST_BREAKERS),
            separators=tok(["COMMA", "SEMICOLON"]),
            atom_list_first=g.first("atom_expr_list"),
            set_group_first=g.first("set_group"),
            set_elements_tokens=g.derivable("set_elements"),
            set_relation_tokens=g.derivable("set_relation"),
            set_atom_first=g.first("set_atom"),
            interval_first=g.first("interval"),
            literal_set_first=g.first("literal_set"),
            tuple_first=g.first("ordered_tuple"),
            finite_set_first=g.first("finite_set"),
        )
    except (KeyError, ValueError, AttributeError, IndexError):
        return None


_SHORTCUTS: dict[type, _Shortcuts | None] = {}


def _shortcuts_for(parser: Any) -> _Shortcuts | None:
    cls = type(parser)
    if cls not in _SHORTCUTS:
        _SHORTCUTS[cls] = _build_shortcuts(parser)
    return _SHORTCUTS[cls]


def _predict_with_shortcuts(parser: Any, shortcuts: _Shortcuts, first_stage: bool, sll: Any, ll: Any) -> None:
    """Make ``parser`` consult the token shortcuts before ANTLR predicts. In the first stage it
    takes the smallest possible alternative and predicts with SLL (full LL at
    ``shortcuts.ll_decisions``); in the second stage (full LL) only an alternative that is the one
    possible is taken, which is full LL's own choice on any input it can parse."""
    interp = parser._interp
    if first_stage:
        interp.predictionMode = sll
    ante = interp.adaptivePredict
    tokens: list[_Tokens] = []

    def adaptive_predict(stream: Any, decision: int, outer: Any) -> int:
        if not tokens:
            tokens.append(_Tokens(stream, shortcuts.openers, shortcuts.closers))
        alts = shortcuts.possible(tokens[0], stream.index, decision, lambda p: parser.precpred(outer, p))
        if alts is not None and (first_stage or len(alts) == 1):
            return alts[0]
        if first_stage and decision in shortcuts.ll_decisions:
            interp.predictionMode = ll
            try:
                return ante(stream, decision, outer)
            finally:
                interp.predictionMode = sll
        return ante(stream, decision, outer)

    interp.adaptivePredict = adaptive_predict


def install_two_stage_parsing() -> Callable[[], None] | None:
    """Make latex2sympy's parser try the fast first stage (token shortcuts, SLL, full LL where SLL
    always errs) and re-parse with full LL (the library's default; shortcuts only where one
    alternative is possible) only when that raises (latex2sympy's error listeners raise on any
    syntax error). Returns a function that restores the original, or None when the installed
    latex2sympy/antlr4 do not have the expected hooks (then nothing changes)."""
    try:
        from antlr4.atn.PredictionMode import PredictionMode
        from latex2sympy2_extended.latex2sympy2 import _Latex2Sympy
    except ImportError:
        return None
    original = unhooked(_Latex2Sympy, "create_parser", "two_stage")
    if original is None:
        return None
    sll, ll = PredictionMode.SLL, PredictionMode.LL

    def create_parser(self: Any, latex_str: str) -> Any:
        parser = original(self, latex_str)
        interp = getattr(parser, "_interp", None)
        if not hasattr(interp, "predictionMode"):
            return parser
        shortcuts = _shortcuts_for(parser)
        first_math = parser.math

        def math() -> Any:
            if shortcuts is None:
                interp.predictionMode = sll
            else:
                _predict_with_shortcuts(parser, shortcuts, True, sll, ll)
            try:
                return first_math()
            except Exception:  # a syntax error in the first stage: full LL decides
                second = original(self, latex_str)
                if shortcuts is not None:
                    _predict_with_shortcuts(second, shortcuts, False, sll, ll)
                return second.math()

        parser.math = math
        return parser

    return replace_attribute(_Latex2Sympy, "create_parser", create_parser, "two_stage")
