"""Shared helpers for the task-set generators in this folder.

Every generator builds a list of task dicts and calls write_tasks(), which
assigns ids (<domain>-001, ...) in order and writes one JSON object per line to
resources/tasksets/<domain>.jsonl. Output is byte-for-byte reproducible: no
wall-clock input, fixed random seeds, fixed key order, '\n' line endings.
"""
import json
import os
import random
from decimal import Decimal
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
# TASKSETS_OUT_DIR lets check_tasksets.py --reproduce regenerate into a
# scratch folder and compare with the committed files.
OUT_DIR = os.environ.get("TASKSETS_OUT_DIR") or os.path.join(REPO, "resources", "tasksets")

DOMAINS = ("math", "code", "facts", "writing", "reasoning")


def num(value):
    """Normalise a number to plain decimal text: no exponent, no thousands
    separators, no trailing zeros, no '-0'. Accepts int, Fraction, Decimal or
    a decimal string; a Fraction must have a terminating decimal expansion."""
    if isinstance(value, bool):
        raise TypeError("bool is not a number here")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        raise TypeError("use Fraction or Decimal, not float: %r" % value)
    if isinstance(value, Fraction):
        den = value.denominator
        for p in (2, 5):
            while den % p == 0:
                den //= p
        if den != 1:
            raise ValueError("non-terminating decimal: %s" % value)
        d = Decimal(value.numerator) / Decimal(value.denominator)
    else:
        d = Decimal(value)
    if d == d.to_integral_value():
        return str(int(d))
    text = format(d.normalize(), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def shuffled_choices(rng, answer, distractors):
    """Return answer + distractors in a seeded shuffled order."""
    choices = [answer] + list(distractors)
    if len(set(choices)) != len(choices):
        raise ValueError("duplicate choices: %r" % choices)
    rng.shuffle(choices)
    return choices


def task(prompt, answer, choices=None):
    t = {"prompt": prompt, "answer": answer}
    if choices is not None:
        t["choices"] = list(choices)
        if answer not in t["choices"]:
            raise ValueError("answer %r not in choices %r" % (answer, choices))
    return t


def write_tasks(domain, tasks):
    if domain not in DOMAINS:
        raise ValueError(domain)
    prompts = set()
    lines = []
    for i, t in enumerate(tasks, 1):
        if t["prompt"] in prompts:
            raise ValueError("duplicate prompt: %r" % t["prompt"])
        prompts.add(t["prompt"])
        obj = {"id": "%s-%03d" % (domain, i), "domain": domain,
               "prompt": t["prompt"], "answer": t["answer"]}
        if "choices" in t:
            obj["choices"] = t["choices"]
        lines.append(json.dumps(obj, ensure_ascii=False))
    os.makedirs(OUT_DIR, exist_ok=True)
    path = os.path.join(OUT_DIR, domain + ".jsonl")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote %d tasks to %s" % (len(lines), path))
    return path


def rng_for(name):
    # Seeded from a fixed string so each generator has its own stream.
    return random.Random("conclave-tasksets-" + name)
