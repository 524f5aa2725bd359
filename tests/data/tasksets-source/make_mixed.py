#!/usr/bin/env python3
"""Generate resources/tasksets/mixed-small.jsonl: a 25-task sample, five from
each domain file, copied verbatim (same ids, same fields), interleaved by
domain. Run after the domain generators; reproduces the file byte for byte.
"""
import json
import os

from tasklib import DOMAINS, rng_for
import tasklib

PER_DOMAIN = 5

rng = rng_for("mixed-small")
picked = []
for domain in DOMAINS:
    with open(os.path.join(tasklib.OUT_DIR, domain + ".jsonl"), encoding="utf-8") as f:
        lines = [line.rstrip("\n") for line in f if line.strip()]
    idx = sorted(rng.sample(range(len(lines)), PER_DOMAIN))
    picked.append([lines[i] for i in idx])
out = [picked[d][k] for k in range(PER_DOMAIN) for d in range(len(DOMAINS))]
for line in out:
    json.loads(line)
path = os.path.join(tasklib.OUT_DIR, "mixed-small.jsonl")
with open(path, "w", encoding="utf-8", newline="\n") as f:
    f.write("\n".join(out) + "\n")
print("wrote %d tasks to %s" % (len(out), path))
