#!/usr/bin/env python3
"""Reward benchmark (``make bench-reward``): our rewards vs straightforward baselines, same process,
same inputs; prints ratios (not a test, no pass/fail).

(a) Phi-4 reward on synthetic 20,000-word ``<think>`` responses vs a straightforward
    implementation (sympy ``parse_latex(..., backend="lark")`` on both sides per call compared with
    ``==``, whitespace-split 5-grams counted with ``collections.Counter``).
(b) ``is_equivalent`` over a mixed set of labelled answer pairs (real GSM8K / Omni-MATH answers in
    several surface forms, plus hand-made equivalent / different forms) vs
    ``math_verify.parse`` + ``math_verify.verify``: time and agreement with the labels.
(c) p99 latency per pair and the share of pairs that reach the bounded symbolic worker.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

HAND_PAIRS: list[tuple[str, str, bool]] = [
    ("18", "18.0", True),
    ("\\frac12", "0.5", True),
    ("\\dfrac{3}{4}", "0.75", True),
    ("3\\frac{1}{2}", "3.5", True),
    ("50\\%", "0.5", True),
    ("1.5\\times10^{3}", "1500", True),
    ("x=3", "3", True),
    ("\\{1,2,3\\}", "\\{3,2,1\\}", True),
    ("(1,2]", "(1, 2]", True),
    ("(-\\infty, 3]", "(-\\infty,3]", True),
    ("B", "(b)", True),
    ("\\text{Yes}", "yes", True),
    ("10^\\circ", "10", True),
    ("2\\sqrt{3}", "\\sqrt{12}", True),
    ("\\sqrt{2}/2", "\\frac{1}{\\sqrt{2}}", True),
    ("x^2-1", "(x-1)(x+1)", True),
    ("\\frac{x+1}{2}", "0.5x+0.5", True),
    ("x \\le 3", "x\\leq 3", True),
    ("2^{10}", "1024", True),
    ("18", "19", False),
    ("(1,2)", "(2,1)", False),
    ("\\frac{1}{3}", "0.33", False),
    ("2\\sqrt{3}", "\\sqrt{13}", False),
    ("x^2-1", "(x-1)^2", False),
    ("B", "C", False),
    ("1000000", "1000001", False),
]


def fixtures_dir() -> Path:
    env = os.environ.get("SHARED_FIXTURES")
    for cand in (
        Path(env) if env else None,
        REPO.parent / "shared" / "fixtures",
        REPO / "shared" / "fixtures",
    ):
        if cand is not None and (cand / "omni_math_sample.jsonl").is_file():
            return cand
    raise SystemExit(
        "bench-reward: shared fixtures not found (expected ../shared/fixtures; or set SHARED_FIXTURES)"
    )


def read_jsonl(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def mixed_pairs(fx: Path, rng: random.Random) -> list[tuple[str, str, bool]]:
    """Labelled (gold, pred, equivalent) pairs in the forms models really write."""
    pairs: list[tuple[str, str, bool]] = list(HAND_PAIRS)
    gsm = [r["answer"].split("####")[-1].strip() for r in read_jsonl(fx / "gsm8k_test_sample.jsonl")[:100]]
    for n in gsm:
        v = int(n.replace(",", ""))
        forms = [f"{v}.0", f"\\boxed{{{v}}}", f"${v:,}$", f"{v} dollars", f"\\${v}"]
        pairs.append((n, rng.choice(forms), True))
        pairs.append((n, str(v + rng.choice([-10, -1, 1, 2, 100])), False))
    omni = [r["answer"] for r in read_jsonl(fx / "omni_math_sample.jsonl")]
    for i, a in enumerate(omni):
        pairs.append((a, rng.choice([f"${a}$", f"\\boxed{{{a}}}", f"\\({a}\\)", a]), True))
        other = omni[(i + 1 + rng.randrange(len(omni) - 1)) % len(omni)]
        if other.replace(" ", "") != a.replace(" ", ""):
            pairs.append((a, other, False))
    return pairs


def time_calls(
    fn: Callable[[str, str], bool], pairs: list[tuple[str, str, bool]]
) -> tuple[list[float], list[bool]]:
    times, results = [], []
    for k, (g, p, _) in enumerate(pairs):
        t0 = time.perf_counter()
        results.append(bool(fn(g, p)))
        times.append(time.perf_counter() - t0)
        if (k + 1) % 100 == 0:
            print(f"  ... {k + 1}/{len(pairs)}", file=sys.stderr, flush=True)
    return times, results


def p99(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=100)[98] if len(xs) >= 2 else xs[0]


# ---------------------------------------------------------------------------------------------
# (a) Phi-4 reward


def synthetic_response(rng: random.Random, n_words: int, answer: str) -> str:
    vocab = (
        "we need to find the value of so let me check again compute sum product root equation "
        "therefore thus since because x y n k term factor prime integer case consider hence"
    ).split() + ["$x^2$", "\\frac{1}{2}", "=", "+", "2", "3", "17", "(a+b)"]
    words = [rng.choice(vocab) for _ in range(n_words)]
    return "<think>" + " ".join(words) + "</think> The final answer is $\\boxed{" + answer + "}$."


def baseline_phi4(text: str, gold: str, length: int) -> float:
    """The straightforward version the issue compares against."""
    from sympy.parsing.latex import parse_latex

    if text.count("<think>") != 1 or text.count("</think>") != 1:
        acc = -1.0
    else:
        tail = text.split("</think>")[-1]
        m = re.findall(r"\\boxed\{(.*)\}", tail)
        correct = False
        if m:
            try:
                correct = bool(parse_latex(gold, backend="lark") == parse_latex(m[-1], backend="lark"))
            except Exception:
                correct = False
        if correct:
            rho = min(1.0, max(0.0, (length - 25600) / (31744 - 25600)))
            acc = 0.5 + 0.5 * 0.5 * (1 + math.cos(math.pi * rho))
        else:
            rho = min(1.0, length / 3702)
            acc = -0.5 + (-0.5) * 0.5 * (1 + math.cos(math.pi * rho))
    words = text.split()
    rep = 0.0
    if len(words) >= 5:
        grams = Counter(zip(words, words[1:], words[2:], words[3:], words[4:], strict=False))
        top = max(grams.values())
        frequent = sum(1 for c in grams.values() if c > 5) / (len(words) - 4)
        rep = -min(1.0, max(frequent, top / (len(words) / 5) if top >= 5 else 0.0))
    return 8 / 13 * acc + 1 / 13 * rep


def bench_phi4(n: int, n_words: int, rng: random.Random, repeat: int) -> dict[str, float]:
    from rewards import equivalence
    from rewards.phi4 import compute_score

    golds = ["42", "\\frac{1}{2}", "\\sqrt{2}", "3\\pi", "17"]
    preds = {"42": "42", "\\frac{1}{2}": "0.5", "\\sqrt{2}": "\\sqrt{2}", "3\\pi": "3\\pi", "17": "18"}
    cases = []
    for _ in range(n):
        g = rng.choice(golds)
        cases.append((synthetic_response(rng, n_words, preds[g]), g, rng.randrange(1000, 31744)))
    print(f"(a) Phi-4 reward: {n} responses of {n_words} words, best of {repeat} passes", flush=True)
    t_ours = t_base = math.inf
    ours: list[float] = []
    base: list[float] = []
    for _ in range(repeat):
        equivalence._cache.clear()
        t0 = time.perf_counter()
        ours = [
            compute_score("bench", t, g, {"response_length": L, "truncated": False})["score"]
            for t, g, L in cases
        ]
        t_ours = min(t_ours, (time.perf_counter() - t0) / n)
        t0 = time.perf_counter()
        base = [baseline_phi4(t, g, L) for t, g, L in cases]
        t_base = min(t_base, (time.perf_counter() - t0) / n)
    print(f"    ours     {t_ours * 1e3:8.2f} ms/sample")
    print(
        f"    baseline {t_base * 1e3:8.2f} ms/sample   ratio {t_base / t_ours:6.1f}x   (target >= 40x, <= 2 ms)"
    )
    differ = sum(abs(a - b) > 1e-9 for a, b in zip(ours, base, strict=True))
    print(
        f"    scores that differ from the baseline: {differ}/{n} (by design: \\w+ words vs whitespace words "
        "in the repetition term, and == misses equal forms such as 0.5 vs \\frac{1}{2})"
    )
    return {"ours_ms": t_ours * 1e3, "baseline_ms": t_base * 1e3}


# ---------------------------------------------------------------------------------------------
# (b), (c) is_equivalent


def bench_equivalence(pairs: list[tuple[str, str, bool]]) -> dict[str, object]:
    """Two passes over the same pairs: "cold" (first use of sympy's parsers and caches in every
    process) and "warm" (the steady state of a long training run). Our result cache is cleared
    before each pass, so every pair is really recomputed."""
    from math_verify import parse, verify

    from rewards import equivalence
    from rewards.bounded import get_pool

    def wrap(s: str) -> str:
        return s if ("$" in s or "\\boxed" in s or "\\(" in s) else f"${s}$"

    def baseline(g: str, p: str) -> bool:
        return verify(parse(wrap(g)), parse(wrap(p)))

    print(f"(b) is_equivalent on {len(pairs)} labelled pairs vs math_verify.parse+verify", flush=True)
    t0 = time.perf_counter()
    get_pool().warm_up()
    print(f"    worker pool start-up (once per process, excluded): {time.perf_counter() - t0:.2f} s")
    labels = [lab for _, _, lab in pairs]
    symbolic = [equivalence.decide_fast(g, p) is None for g, p, _ in pairs]
    res: dict[str, object] = {}
    for pass_name in ("cold", "warm"):
        equivalence._cache.clear()
        before = equivalence.slow_path_stats()
        ours_t, ours_r = time_calls(equivalence.is_equivalent, pairs)
        after = equivalence.slow_path_stats()
        base_t, base_r = time_calls(baseline, pairs)
        agree_ours = sum(a == b for a, b in zip(ours_r, labels, strict=True)) / len(pairs)
        agree_base = sum(a == b for a, b in zip(base_r, labels, strict=True)) / len(pairs)
        slow = after["slow"] - before["slow"]
        total_ours, total_base = sum(ours_t), sum(base_t)
        print(f"  [{pass_name} pass]")
        print(
            f"    ours     {total_ours / len(pairs) * 1e3:8.3f} ms/pair  agreement with labels {agree_ours:.3f}"
        )
        print(
            f"    baseline {total_base / len(pairs) * 1e3:8.3f} ms/pair  agreement with labels {agree_base:.3f}"
        )
        print(f"    ratio {total_base / total_ours:6.1f}x   (target >= 10x at equal or better agreement)")
        for name, want in (("fast-path", False), ("symbolic", True)):
            idx = [k for k, sym in enumerate(symbolic) if sym == want]
            if idx:
                o = sum(ours_t[k] for k in idx)
                b = sum(base_t[k] for k in idx)
                print(
                    f"    {name:9s} pairs {len(idx):4d}: ours {o / len(idx) * 1e3:8.3f} ms/pair, ratio {b / o:6.1f}x"
                )
        print(f"  (c) p99 latency: ours {p99(ours_t) * 1e3:8.3f} ms, baseline {p99(base_t) * 1e3:8.3f} ms")
        print(f"      pairs reaching the symbolic worker: {slow}/{len(pairs)} = {slow / len(pairs):.1%}")
        res = {"ours_t": ours_t, "base_t": base_t, "agree_ours": agree_ours, "agree_base": agree_base}
        if pass_name == "warm":
            wrong = [(g, p, lab) for (g, p, lab), r in zip(pairs, ours_r, strict=True) if r != lab]
            for g, p, lab in wrong[:10]:
                print(f"    ours disagrees with label {lab}: gold={g[:60]!r} pred={p[:60]!r}")
            base_wrong = [(g, p, lab) for (g, p, lab), r in zip(pairs, base_r, strict=True) if r != lab]
            for g, p, lab in base_wrong[:5]:
                print(f"    baseline disagrees with label {lab}: gold={g[:60]!r} pred={p[:60]!r}")
    return res


def draw(path: Path, res: dict[str, object]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    ours = [t * 1e3 for t in res["ours_t"]]  # type: ignore[union-attr]
    base = [t * 1e3 for t in res["base_t"]]  # type: ignore[union-attr]
    ax.hist(
        [ours, base], bins=[10 ** (k / 10) for k in range(-30, 31)], label=["is_equivalent", "math-verify"]
    )
    ax.set_xscale("log")
    ax.set_xlabel("latency per pair (ms, log scale)")
    ax.set_ylabel("pairs")
    ax.set_title("Answer equivalence latency, warm pass (same pairs, same process)")
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.png")
    fig.savefig(tmp, dpi=120)
    tmp.replace(path)
    print(f"    plot: {path}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--samples", type=int, default=40, help="Phi-4 responses to score (default 40)")
    ap.add_argument("--words", type=int, default=20000, help="words per synthetic response (default 20000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3, help="passes for (a); the fastest counts (default 3)")
    ap.add_argument(
        "--png", type=Path, default=REPO / "outputs" / "bench_reward.png", help="latency histogram"
    )
    args = ap.parse_args(argv)
    try:
        import lark  # noqa: F401
    except ImportError:
        raise SystemExit(
            "bench-reward: the baseline needs sympy's lark LaTeX parser: .venv/bin/pip install lark"
        ) from None
    rng = random.Random(args.seed)
    from rewards.phi4 import compute_score

    compute_score("warm-up", "<think>a b c d e f</think> \\boxed{1}", "1", {"response_length": 9})
    bench_phi4(args.samples, args.words, rng, args.repeat)
    res = bench_equivalence(mixed_pairs(fixtures_dir(), rng))
    draw(args.png, res)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
