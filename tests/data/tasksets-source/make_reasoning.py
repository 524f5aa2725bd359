#!/usr/bin/env python3
"""Generate resources/tasksets/reasoning.jsonl.

Every answer is derived by the script, not typed in:
- syllogisms: decided by checking every model (each of the 8 Venn regions of
  three terms empty or not); "yes" means the conclusion holds in every model
  where the premises hold. Conclusions that would need existential import
  ("some ..." from only "all/no" premises) are rejected, so the answer does not
  depend on the logic tradition.
- propositional arguments: decided by truth table.
- sequences: the next term comes from the rule that generated the terms.
- day-of-week and date arithmetic: Python datetime / calendar.
- ordering puzzles and knights-and-knaves: brute force over all arrangements;
  the puzzle is kept only when the asked answer is the same in every
  arrangement consistent with the clues (clues are added until it is).
Answers are lower-case. Re-running reproduces the file byte for byte.
"""
import calendar
import datetime as dt
import itertools

from tasklib import num, rng_for, task, write_tasks

rng = rng_for("reasoning")
tasks = []
YES_NO = ["yes", "no"]

# --- Categorical syllogisms --------------------------------------------------
REGIONS = list(itertools.product([0, 1], repeat=3))  # membership in (A, B, C)
IDX = {"A": 0, "B": 1, "C": 2}


def holds(stmt, model):
    kind, x, y = stmt
    xi, yi = IDX[x], IDX[y]
    if kind == "all":
        return not any(r[xi] and not r[yi] for r in model)
    if kind == "no":
        return not any(r[xi] and r[yi] for r in model)
    if kind == "some":
        return any(r[xi] and r[yi] for r in model)
    if kind == "some_not":
        return any(r[xi] and not r[yi] for r in model)
    raise ValueError(kind)


def follows(premises, conclusion):
    if conclusion[0] in ("some", "some_not") and all(p[0] in ("all", "no") for p in premises):
        raise ValueError("needs existential import: %r" % (conclusion,))
    for bits in itertools.product([0, 1], repeat=len(REGIONS)):
        model = [r for r, b in zip(REGIONS, bits) if b]
        if all(holds(p, model) for p in premises) and not holds(conclusion, model):
            return False
    return True


def say(stmt, names):
    kind, x, y = stmt
    X, Y = names[x], names[y]
    return {"all": "All %s are %s." % (X, Y), "no": "No %s are %s." % (X, Y),
            "some": "Some %s are %s." % (X, Y), "some_not": "Some %s are not %s." % (X, Y)}[kind]


SYLLOGISMS = [
    (("bloops", "razzies", "lazzies"), [("all", "A", "B"), ("all", "B", "C")], ("all", "A", "C")),
    (("wizards", "painters", "sailors"), [("all", "A", "B"), ("all", "C", "B")], ("all", "A", "C")),
    (("zorks", "mibs", "quals"), [("no", "A", "B"), ("all", "C", "B")], ("no", "C", "A")),
    (("dax", "florps", "grims"), [("some", "A", "B"), ("some", "B", "C")], ("some", "A", "C")),
    (("cats in the shelter", "black animals", "friendly animals"), [("all", "A", "B"), ("some", "A", "C")], ("some", "B", "C")),
    (("trobs", "nels", "wints"), [("all", "A", "B"), ("no", "B", "C")], ("no", "A", "C")),
    (("glims", "pards", "sorbs"), [("some", "A", "B"), ("all", "B", "C")], ("some", "A", "C")),
    (("vents", "hoks", "murls"), [("all", "A", "B"), ("some", "C", "B")], ("some", "C", "A")),
    (("drivers", "engineers", "musicians"), [("no", "A", "B"), ("no", "B", "C")], ("no", "A", "C")),
    (("plinks", "tamps", "yorbs"), [("all", "B", "C"), ("some_not", "A", "C")], ("some_not", "A", "B")),
    (("kellies", "ruffs", "spans"), [("some_not", "A", "B"), ("all", "C", "B")], ("some_not", "A", "C")),
    (("brolls", "dimmers", "fexes"), [("all", "A", "B"), ("some_not", "C", "B")], ("some_not", "C", "A")),
]
for i, (terms, premises, conclusion) in enumerate(SYLLOGISMS):
    names = dict(zip("ABC", terms))
    ans = "yes" if follows(premises, conclusion) else "no"
    concl = say(conclusion, names)[:-1]
    concl = concl[0].lower() + concl[1:]
    prompt = "%s Does it necessarily follow that %s? Answer yes or no." % (
        " ".join(say(p, names) for p in premises), concl)
    tasks.append(task(prompt, ans, YES_NO))

# --- Propositional arguments (truth table) -----------------------------------
PROPOSITIONAL = [
    # text, premises (functions of p, q), conclusion
    ("If it rains, the street gets wet. It is raining. Does it necessarily follow that the street is wet?",
     [lambda p, q: (not p) or q, lambda p, q: p], lambda p, q: q),
    ("If it rains, the street gets wet. The street is wet. Does it necessarily follow that it rained?",
     [lambda p, q: (not p) or q, lambda p, q: q], lambda p, q: p),
    ("If the alarm is set, the light is on. The light is not on. Does it necessarily follow that the alarm is not set?",
     [lambda p, q: (not p) or q, lambda p, q: not q], lambda p, q: not p),
    ("If the shop is open, the door is unlocked. The shop is not open. Does it necessarily follow that the door is locked?",
     [lambda p, q: (not p) or q, lambda p, q: not p], lambda p, q: not q),
    ("Either the key is in the drawer or it is in the car. The key is not in the drawer. Does it necessarily follow that the key is in the car?",
     [lambda p, q: p or q, lambda p, q: not p], lambda p, q: q),
    ("Tom is at home or at work, possibly both. Tom is at work. Does it necessarily follow that Tom is not at home?",
     [lambda p, q: p or q, lambda p, q: q], lambda p, q: not p),
]
for text, premises, conclusion in PROPOSITIONAL:
    valid = all(conclusion(p, q) for p, q in itertools.product([False, True], repeat=2)
                if all(f(p, q) for f in premises))
    tasks.append(task(text + " Answer yes or no.", "yes" if valid else "no", YES_NO))

# --- Number sequences ----------------------------------------------------------
def seq_task(terms, nxt):
    tasks.append(task("What is the next number in the sequence %s, ...?" % ", ".join(map(str, terms)), num(nxt)))


R = rng.randint
for _ in range(3):  # arithmetic
    a, d = R(-20, 40), rng.choice([-9, -7, -4, 3, 4, 6, 7, 11, 13])
    s = [a + d * k for k in range(6)]
    seq_task(s[:5], s[5])
for _ in range(3):  # geometric
    a, r = R(1, 7), rng.choice([2, 3, 4, -2])
    s = [a * r ** k for k in range(6)]
    seq_task(s[:5], s[5])
off = R(-3, 5)  # squares with offset
s = [n * n + off for n in range(1, 7)]
seq_task(s[:5], s[5])
s = [n ** 3 for n in range(1, 7)]  # cubes
seq_task(s[:5], s[5])
for _ in range(2):  # Fibonacci-like
    a, b = R(1, 6), R(2, 9)
    s = [a, b]
    while len(s) < 8:
        s.append(s[-1] + s[-2])
    seq_task(s[:7], s[7])
for _ in range(2):  # differences grow by a constant
    a, d0, dd = R(1, 20), R(1, 5), R(1, 3)
    s = [a]
    for k in range(6):
        s.append(s[-1] + d0 + dd * k)
    seq_task(s[:6], s[6])
for _ in range(2):  # alternate +x, -y
    a, x, y = R(1, 20), R(4, 9), R(1, 3)
    s = [a]
    for k in range(7):
        s.append(s[-1] + (x if k % 2 == 0 else -y))
    seq_task(s[:7], s[7])
primes = [n for n in range(2, 60) if all(n % p for p in range(2, n))]
seq_task(primes[3:9], primes[9])
s = [1]  # x -> 2x + 1
for _ in range(6):
    s.append(2 * s[-1] + 1)
seq_task(s[:6], s[6])
s = [n * (n + 1) // 2 for n in range(1, 8)]  # triangular numbers
seq_task(s[:6], s[6])

# --- Days of the week and dates ----------------------------------------------
# Spelled out rather than taken from calendar.day_name, which follows the locale.
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]  # date.weekday() order
MONTHS = ["", "January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]
BASE_MONDAY = dt.date(2024, 1, 1)
assert BASE_MONDAY.weekday() == 0


def fmt(d):
    return "%d %s %d" % (d.day, MONTHS[d.month], d.year)


for start, n in zip(rng.sample(range(7), 5), rng.sample([10, 15, 23, 30, 45, 52, 100, 365, 1000], 5)):
    d0 = BASE_MONDAY + dt.timedelta(days=start)
    d1 = d0 + dt.timedelta(days=n)
    tasks.append(task("If today is %s, what day of the week will it be %d days from today?" % (DAYS[d0.weekday()], n),
                      DAYS[d1.weekday()].lower()))
start, n = R(0, 6), rng.choice([9, 20, 40])
d0 = BASE_MONDAY + dt.timedelta(days=start)
tasks.append(task("If today is %s, what day of the week was it %d days ago?" % (DAYS[d0.weekday()], n),
                  DAYS[(d0 - dt.timedelta(days=n)).weekday()].lower()))
for d in [dt.date(1969, 7, 20), dt.date(2000, 1, 1), dt.date(1989, 11, 9), dt.date(2012, 2, 29),
          dt.date(2030, 12, 25), dt.date(1999, 12, 31)]:
    q = ("What day of the week was %s?" if d < dt.date(2025, 1, 1) else "What day of the week will %s be?")
    tasks.append(task(q % fmt(d), DAYS[d.weekday()].lower()))
for a, b in [(dt.date(2024, 3, 3), dt.date(2024, 6, 17)), (dt.date(2023, 1, 15), dt.date(2023, 3, 15)),
             (dt.date(2020, 2, 1), dt.date(2020, 3, 1)), (dt.date(2021, 12, 25), dt.date(2022, 1, 10))]:
    tasks.append(task("How many days after %s is %s?" % (fmt(a), fmt(b)), num((b - a).days)))
for d, n in [(dt.date(2023, 1, 20), 45), (dt.date(2024, 2, 20), 10), (dt.date(2022, 12, 15), 30)]:
    tasks.append(task("What date is %d days after %s? Give the answer in the form YYYY-MM-DD." % (n, fmt(d)),
                      (d + dt.timedelta(days=n)).isoformat()))
for y in [1900, 2000, 2024, 2100]:
    tasks.append(task("Is %d a leap year in the Gregorian calendar? Answer yes or no." % y,
                      "yes" if calendar.isleap(y) else "no", YES_NO))

# --- Ordering puzzles ----------------------------------------------------------
NAMES = ["alice", "ben", "chloe", "david", "emma", "felix", "grace", "hugo", "iris", "jack"]
THEMES = [
    # (relation sentence for a before b, question, index of the answer in the order)
    ("{a} is taller than {b}.", "Who is the tallest?", 0),
    ("{a} is taller than {b}.", "Who is the shortest?", -1),
    ("{a} is older than {b}.", "Who is the youngest?", -1),
    ("{a} finished the race ahead of {b}.", "Who finished second?", 1),
    ("{a} arrived earlier than {b}.", "Who arrived first?", 0),
    ("{a} scored more points than {b}.", "Who scored the fewest points?", -1),
]


def consistent(people, clues):
    out = []
    for perm in itertools.permutations(people):
        rank = {p: i for i, p in enumerate(perm)}
        if all(rank[a] < rank[b] for a, b in clues):
            out.append(perm)
    return out


def solve_order(people, clues, pos):
    return {perm[pos] for perm in consistent(people, clues)}


for i in range(12):
    relation, question, pos = THEMES[i % len(THEMES)]
    k = 4 if i < 6 else 5
    people = rng.sample(NAMES, k)
    truth = people[:]
    rng.shuffle(truth)
    rank = {p: j for j, p in enumerate(truth)}
    pairs = [(a, b) for a, b in itertools.combinations(people, 2)]
    rng.shuffle(pairs)
    clues = []
    for a, b in pairs:
        if len(solve_order(people, clues, pos)) == 1:
            break
        clue = (a, b) if rank[a] < rank[b] else (b, a)
        # Only add clues that rule out at least one arrangement.
        if len(consistent(people, clues + [clue])) < len(consistent(people, clues)):
            clues.append(clue)
    ans = solve_order(people, clues, pos)
    assert ans == {truth[pos]}, (ans, truth)
    cap = lambda s: s[0].upper() + s[1:]
    text = " ".join(cap(relation.format(a=cap(a), b=cap(b))) for a, b in clues)
    tasks.append(task("%s %s Answer with a name." % (text, question), truth[pos]))

# --- Knights and knaves (knights always tell the truth, knaves always lie) ----
KK = [
    ('A says: "We are both knaves."', [lambda a, b: (not a) and (not b)], None, "b"),
    ('A says: "B is a knave." B says: "A and I are the same kind."',
     [lambda a, b: not b], [lambda a, b: a == b], "a"),
    ('A says: "At least one of us is a knave."', [lambda a, b: (not a) or (not b)], None, "b"),
    ('A says: "I am a knave or B is a knight."', [lambda a, b: (not a) or b], None, "b"),
]
for text, a_says, b_says, who in KK:
    sols = []
    for a, b in itertools.product([True, False], repeat=2):  # True = knight
        ok = all(f(a, b) == a for f in a_says) and all(f(a, b) == b for f in (b_says or []))
        if ok:
            sols.append({"a": a, "b": b})
    values = {s[who] for s in sols}
    assert len(sols) >= 1 and len(values) == 1, (text, sols)
    ans = "knight" if values.pop() else "knave"
    tasks.append(task("On an island, knights always tell the truth and knaves always lie. Every inhabitant is one "
                      "or the other. %s Is %s a knight or a knave?" % (text, who.upper()), ans, ["knight", "knave"]))

write_tasks("reasoning", tasks)
