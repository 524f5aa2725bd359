#!/usr/bin/env python3
"""Validate the task sets in resources/tasksets/.

Checks every file line by line: valid UTF-8 JSON object per line, required
keys (id, domain, prompt, answer) as non-empty strings, no unknown keys, id
form <domain>-NNN matching the domain and the file, ids and prompts unique
across the domain files (the local-moe backend looks tasks up by id or by
exact prompt), domain one of the five, choices (if present) a list of at least
two distinct normalised strings containing the answer, answers normalised
(single line, no surrounding space, no upper case; numbers in plain decimal
without thousands separators), at least MIN_PER_DOMAIN tasks per domain and
MIN_TOTAL overall, and that every mixed-small task is a verbatim copy of a task
in its domain file.

With --reproduce it also reruns the generators into a scratch folder and
requires the output to match the committed files byte for byte.

Usage: check_tasksets.py [--dir resources/tasksets] [--reproduce]
Exit status 0 when everything passes, 1 on any issue.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
DEFAULT_DIR = os.path.join(REPO, "resources", "tasksets")

DOMAINS = ("math", "code", "facts", "writing", "reasoning")
MIXED = "mixed-small"
MIXED_SIZE = 25
MIN_PER_DOMAIN = 60
MIN_TOTAL = 320
REQUIRED = ("id", "domain", "prompt", "answer")
OPTIONAL = ("choices",)
GENERATORS = ["make_math.py", "make_code.py", "make_facts.py", "make_writing.py", "make_reasoning.py",
              "make_mixed.py"]

ID_RE = re.compile(r"^(%s)-(\d{3,})$" % "|".join(DOMAINS))
NUMBERISH_RE = re.compile(r"^[-+]?[\d.,\s]*\d[\d.,\s]*$")
PLAIN_NUMBER_RE = re.compile(r"^-?(0|[1-9]\d*)(\.\d*[1-9])?$")
MAX_ANSWER_LEN = 60


def show(path):
    """Path relative to the repository when inside it, else as given."""
    rel = os.path.relpath(path, REPO)
    return path if rel.startswith("..") else rel


def answer_problem(text):
    """Return why text is not a normalised short answer, or None."""
    if not isinstance(text, str) or not text:
        return "must be a non-empty string"
    if text != text.strip():
        return "has leading or trailing whitespace"
    if "\n" in text or "\r" in text or "\t" in text:
        return "must be a single line"
    if "  " in text:
        return "has repeated spaces"
    if text != text.lower():
        return "must be lower-case"
    if len(text) > MAX_ANSWER_LEN:
        return "longer than %d characters" % MAX_ANSWER_LEN
    if NUMBERISH_RE.match(text) and not PLAIN_NUMBER_RE.match(text):
        return "number must be plain decimal (no separators, exponent, '+', '-0' or trailing zeros)"
    if text == "-0":
        return "number must not be -0"
    return None


def load(path, issues):
    """Return [(lineno, obj)] for a JSONL file, recording format issues."""
    rows = []
    rel = show(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        issues.append("%s: cannot read: %s" % (rel, e))
        return rows
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        issues.append("%s: not valid UTF-8: %s" % (rel, e))
        return rows
    if text.startswith("\ufeff"):
        issues.append("%s: has a byte-order mark" % rel)
    if "\r" in text:
        issues.append("%s: has CR line endings" % rel)
    if text and not text.endswith("\n"):
        issues.append("%s: last line lacks a newline" % rel)
    for n, line in enumerate(text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"), 1):
        if not line.strip():
            issues.append("%s:%d: blank line" % (rel, n))
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            issues.append("%s:%d: invalid JSON: %s" % (rel, n, e))
            continue
        if not isinstance(obj, dict):
            issues.append("%s:%d: not a JSON object" % (rel, n))
            continue
        rows.append((n, obj))
    return rows


def check_task(where, obj, issues, file_domain=None):
    ok = True
    for key in REQUIRED:
        if key not in obj:
            issues.append("%s: missing key %r" % (where, key))
            ok = False
        elif not isinstance(obj[key], str) or not obj[key].strip():
            issues.append("%s: %r must be a non-empty string" % (where, key))
            ok = False
    for key in obj:
        if key not in REQUIRED and key not in OPTIONAL:
            issues.append("%s: unknown key %r" % (where, key))
    if not ok:
        return False
    tid, domain = obj["id"], obj["domain"]
    if domain not in DOMAINS:
        issues.append("%s: domain %r is not one of %s" % (where, domain, ", ".join(DOMAINS)))
    m = ID_RE.match(tid)
    if not m:
        issues.append("%s: id %r is not of the form <domain>-NNN" % (where, tid))
    elif m.group(1) != domain:
        issues.append("%s: id %r does not match domain %r" % (where, tid, domain))
    if file_domain is not None and domain != file_domain:
        issues.append("%s: domain %r in the %s file" % (where, domain, file_domain))
    if obj["prompt"] != obj["prompt"].strip():
        issues.append("%s: prompt has leading or trailing whitespace" % where)
    why = answer_problem(obj["answer"])
    if why:
        issues.append("%s: answer %r %s" % (where, obj["answer"], why))
    if "choices" in obj:
        choices = obj["choices"]
        if not isinstance(choices, list) or len(choices) < 2:
            issues.append("%s: choices must be a list of at least two strings" % where)
        else:
            for c in choices:
                why = answer_problem(c)
                if why:
                    issues.append("%s: choice %r %s" % (where, c, why))
            if len(set(map(str, choices))) != len(choices):
                issues.append("%s: duplicate choices" % where)
            if obj["answer"] not in choices:
                issues.append("%s: answer %r is not one of the choices %r" % (where, obj["answer"], choices))
    return True


def check(dir_, issues):
    counts = {}
    by_id = {}
    prompts = {}
    for domain in DOMAINS:
        path = os.path.join(dir_, domain + ".jsonl")
        rel = show(path)
        rows = load(path, issues)
        counts[domain] = 0
        for n, obj in rows:
            where = "%s:%d" % (rel, n)
            if not check_task(where, obj, issues, file_domain=domain):
                continue
            if obj["domain"] == domain:
                counts[domain] += 1
            tid = obj["id"]
            if tid in by_id:
                issues.append("%s: duplicate id %r (first at %s)" % (where, tid, by_id[tid][0]))
            else:
                by_id[tid] = (where, obj)
            if obj["prompt"] in prompts:
                issues.append("%s: duplicate prompt (first at %s)" % (where, prompts[obj["prompt"]]))
            else:
                prompts[obj["prompt"]] = where
    for domain in DOMAINS:
        if counts[domain] < MIN_PER_DOMAIN:
            issues.append("%s: %d tasks, need at least %d" % (domain, counts[domain], MIN_PER_DOMAIN))
    total = sum(counts.values())
    if total < MIN_TOTAL:
        issues.append("total: %d tasks, need at least %d" % (total, MIN_TOTAL))

    extra = sorted(f for f in os.listdir(dir_) if f.endswith(".jsonl")
                   and f[:-len(".jsonl")] not in DOMAINS + (MIXED,)) if os.path.isdir(dir_) else []
    for f in extra:
        issues.append("%s: unexpected task-set file" % show(os.path.join(dir_, f)))

    path = os.path.join(dir_, MIXED + ".jsonl")
    rel = show(path)
    rows = load(path, issues)
    seen = set()
    mixed_domains = {}
    for n, obj in rows:
        where = "%s:%d" % (rel, n)
        if not check_task(where, obj, issues):
            continue
        tid = obj["id"]
        if tid in seen:
            issues.append("%s: duplicate id %r within %s" % (where, tid, MIXED))
        seen.add(tid)
        mixed_domains[obj["domain"]] = mixed_domains.get(obj["domain"], 0) + 1
        if tid not in by_id:
            issues.append("%s: id %r does not exist in the domain files" % (where, tid))
        elif by_id[tid][1] != obj:
            issues.append("%s: task %r differs from %s" % (where, tid, by_id[tid][0]))
    if len(rows) != MIXED_SIZE:
        issues.append("%s: %d tasks, expected %d" % (rel, len(rows), MIXED_SIZE))
    for domain in DOMAINS:
        if not mixed_domains.get(domain):
            issues.append("%s: no task from domain %r" % (rel, domain))
    return counts, mixed_domains


def reproduce(dir_, issues):
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, TASKSETS_OUT_DIR=tmp)
        for gen in GENERATORS:
            r = subprocess.run([sys.executable, os.path.join(HERE, gen)], cwd=HERE, env=env,
                               capture_output=True, text=True)
            if r.returncode != 0:
                issues.append("%s failed (exit %d): %s" % (gen, r.returncode, r.stderr.strip()[-500:]))
                return
        for name in DOMAINS + (MIXED,):
            fresh, kept = os.path.join(tmp, name + ".jsonl"), os.path.join(dir_, name + ".jsonl")
            try:
                with open(fresh, "rb") as a, open(kept, "rb") as b:
                    if a.read() != b.read():
                        issues.append("%s.jsonl: differs from what the generators produce" % name)
            except OSError as e:
                issues.append("%s.jsonl: %s" % (name, e))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", default=DEFAULT_DIR, help="task-set folder (default: resources/tasksets)")
    ap.add_argument("--reproduce", action="store_true",
                    help="also rerun the generators and compare output byte for byte")
    args = ap.parse_args()
    issues = []
    counts, mixed = check(os.path.abspath(args.dir), issues)
    if args.reproduce:
        reproduce(os.path.abspath(args.dir), issues)
    for domain in DOMAINS:
        print("%-10s %4d" % (domain, counts.get(domain, 0)))
    print("%-10s %4d" % ("total", sum(counts.values())))
    print("%-10s %4d  (%s)" % (MIXED, sum(mixed.values()),
                               ", ".join("%s %d" % (d, mixed.get(d, 0)) for d in DOMAINS)))
    if issues:
        print("\n%d issue(s):" % len(issues), file=sys.stderr)
        for i in issues:
            print("  " + i, file=sys.stderr)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
