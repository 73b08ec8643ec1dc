"""Generated arithmetic word problems in GSM8K format (``question``, ``answer`` ending ``#### N``).

Deterministic for a seed; every answer is computed, never guessed. Used by ``make demo`` (no
download) and by the data benchmark. Problems come from a few templates with random names,
items and numbers, so a few hundred rows are mostly distinct.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

NAMES = [
    ("Ada", "she"), ("Bruno", "he"), ("Chen", "he"), ("Dana", "she"), ("Emeka", "he"), ("Freya", "she"),
    ("Gus", "he"), ("Hana", "she"), ("Ivo", "he"), ("Jia", "she"), ("Kofi", "he"), ("Lena", "she"),
    ("Mateo", "he"), ("Nia", "she"), ("Omar", "he"), ("Priya", "she"), ("Quinn", "they"), ("Rosa", "she"),
]  # fmt: skip
ITEMS = ["apples", "marbles", "stickers", "pencils", "cookies", "stamps", "seashells", "books", "cards"]
PLACES = ["bakery", "bookshop", "farm stand", "toy store", "café", "flower shop"]


def _calc(a: int, op: str, b: int, result: int) -> str:
    return f"{a}{op}{b}=<<{a}{op}{b}={result}>>{result}"


def _buy_packs(rng: random.Random) -> tuple[str, str]:
    (name, pron), item = rng.choice(NAMES), rng.choice(ITEMS)
    a, packs, each = rng.randint(2, 60), rng.randint(2, 12), rng.randint(2, 15)
    bought = packs * each
    total = a + bought
    verb = "buy" if pron == "they" else "buys"
    q = (
        f"{name} has {a} {item}. {pron.capitalize()} {verb} {packs} packs with {each} {item} in each pack. "
        f"How many {item} does {name} have now?"
    )
    ans = f"{name} buys {_calc(packs, '*', each, bought)} {item}.\n{name} now has {_calc(a, '+', bought, total)} {item}.\n#### {total}"
    return q, ans


def _shop_sales(rng: random.Random) -> tuple[str, str]:
    place, item = rng.choice(PLACES), rng.choice(ITEMS)
    per_day, days = rng.randint(5, 90), rng.randint(2, 14)
    made = per_day * days
    sold = rng.randint(1, made - 1)
    left = made - sold
    q = (
        f"A {place} makes {per_day} bags of {item} every day for {days} days. "
        f"It sells {sold} bags. How many bags are left?"
    )
    ans = f"It makes {_calc(per_day, '*', days, made)} bags.\nIt has {_calc(made, '-', sold, left)} bags left.\n#### {left}"
    return q, ans


def _wages(rng: random.Random) -> tuple[str, str]:
    (name, pron) = rng.choice(NAMES)
    rate, hours, weeks = rng.randint(8, 40), rng.randint(3, 30), rng.randint(2, 8)
    weekly = rate * hours
    earned = weekly * weeks
    spent = rng.randint(1, earned - 1)
    left = earned - spent
    verb = "work" if pron == "they" else "works"
    q = (
        f"{name} earns ${rate} an hour and {verb} {hours} hours a week. After {weeks} weeks, "
        f"{name} spends ${spent} on a bike. How many dollars does {name} have left?"
    )
    ans = (
        f"Each week {name} earns {_calc(rate, '*', hours, weekly)} dollars.\n"
        f"In {weeks} weeks that is {_calc(weekly, '*', weeks, earned)} dollars.\n"
        f"{name} has {_calc(earned, '-', spent, left)} dollars left.\n#### {left}"
    )
    return q, ans


def _share(rng: random.Random) -> tuple[str, str]:
    (name, _pron), item = rng.choice(NAMES), rng.choice(ITEMS)
    friends, each = rng.randint(2, 9), rng.randint(3, 25)
    total = friends * each
    back = rng.randint(1, each - 1)
    kept = each - back
    q = (
        f"{name} shares {total} {item} equally among {friends} friends. "
        f"Each friend gives {back} of them back to {name}. How many {item} does each friend keep?"
    )
    ans = f"Each friend gets {_calc(total, '/', friends, each)} {item}.\nEach keeps {_calc(each, '-', back, kept)}.\n#### {kept}"
    return q, ans


GENERATORS: list[Callable[[random.Random], tuple[str, str]]] = [_buy_packs, _shop_sales, _wages, _share]


def iter_problems(n: int, seed: int = 0) -> Iterator[dict[str, str]]:
    """``n`` GSM8K-format rows ``{"question", "answer"}``, deterministic for ``seed``."""
    rng = random.Random(seed)
    for _ in range(n):
        q, a = rng.choice(GENERATORS)(rng)
        yield {"question": q, "answer": a}
