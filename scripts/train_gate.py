#!/usr/bin/env python3
"""Trains the local-moe gate and writes resources/models/gate.json.

The gate is a multinomial logistic regression over the same features that
core/conclave/local/Gate.cpp computes: lower-cased ASCII words, a few symbol
tokens, and bigrams of consecutive tokens, each counted and scaled by
1/sqrt(number of features). Gate.cpp hashes the features into buckets at load;
here the weights are kept per feature, so the file stays readable.

Training data: every task prompt of resources/tasksets/*.jsonl except
mixed-small.jsonl (a sample of the others), plus the short hand-written
phrases below, so that brief free prompts route sensibly too.

Standard library only, and deterministic: a fixed seed, fixed epochs, sorted
keys. Run from anywhere:  python3 scripts/train_gate.py [--check]
"""

import argparse
import glob
import json
import math
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TASKSETS = os.path.join(ROOT, "resources", "tasksets")
OUTPUT = os.path.join(ROOT, "resources", "models", "gate.json")

DOMAINS = ["math", "code", "facts", "writing", "reasoning"]
BUCKETS = 65536      # Gate.cpp's hashing table; large enough that few kept features collide
SEED = 20240601
EPOCHS = 60
LEARNING_RATE = 0.5
L2 = 3e-3
MIN_WEIGHT = 0.01    # smaller weights are not written
DIGITS = 4

# Must match Gate.cpp: each of these bytes is a token of its own.
SYMBOLS = set(b"+-*/=%^<>()[]{};_`")
# Multiplication and division signs in UTF-8, read as * and /.
UTF8_SYMBOLS = {b"\xc3\x97": "*", b"\xc3\xb7": "/"}

# Short free prompts per domain, in the words people type.
EXTRA = {
    "math": [
        "integral of x^2",
        "derivative of sin(x) * x^3",
        "solve 2x + 3 = 11",
        "solve the quadratic x^2 - 5x + 6 = 0",
        "what is 15% of 80",
        "what is 3/4 + 5/6",
        "how much is 12 times 13",
        "multiply 48 by 25",
        "divide 144 by 12",
        "square root of 169",
        "simplify (x + 1)^2 - x^2",
        "area of a circle with radius 3",
        "perimeter of a triangle with sides 3, 4 and 5",
        "volume of a cube with side 4 cm",
        "probability of rolling two sixes with two dice",
        "expected value of a fair die",
        "convert 3.5 hours to minutes",
        "what is the average of 4, 8 and 15",
        "factor 84 into primes",
        "greatest common divisor of 48 and 180",
        "is 97 a prime number",
        "compute the limit of 1/n as n goes to infinity",
        "sum of the first 100 positive integers",
        "calculate the compound interest on 1000 dollars at 5% for 3 years",
        "evaluate 7 * (8 - 3) / 5",
        "what is 2 to the power of 10",
        "round 3.14159 to two decimal places",
        "find the slope of the line through (1, 2) and (3, 8)",
        "a train travels 120 km in 1.5 hours; what is its average speed",
        "what is the median of 3, 9, 4, 7, 1",
        "how many degrees are in the interior angles of a hexagon",
        "matrix determinant of [[2, 1], [4, 3]]",
        "log base 2 of 64",
    ],
    "code": [
        "fix this python function",
        "write a function that reverses a string",
        "why does my javascript code print undefined",
        "what does this sql query return: select count(*) from users;",
        "refactor this c++ class to use smart pointers",
        "implement binary search in java",
        "debug this segfault in my c program",
        "how do i sort a list of dictionaries by key in python",
        "explain this regex",
        "what is the time complexity of quicksort",
        "write a bash script that renames all files in a folder",
        "convert this loop to a list comprehension",
        "my rust code does not compile: borrowed value does not live long enough",
        "how to read a file line by line in go",
        "what is the difference between let and const in javascript",
        "write unit tests for this function",
        "parse json in c#",
        "why is my react component rendering twice",
        "for (int i = 0; i < n; i++) { sum += a[i]; }",
        "def add(a, b): return a + b",
        "console.log(typeof null);",
        "git merge conflict how to resolve",
        "python list index out of range error",
        "how do i install a package with pip",
        "write a class for a stack with push and pop",
        "what does this code output",
        "optimize this function for speed",
        "return the maximum element of an array",
        "compile error: expected ';' before '}' token",
        "null pointer exception in my java method",
        "write a typescript interface for a user",
        "print hello world in python",
        "what is a memory leak",
        "what causes a stack overflow in recursion",
    ],
    "facts": [
        "what is the capital of peru",
        "capital of australia",
        "who was the first president of the united states",
        "when did world war ii end",
        "how tall is mount everest",
        "what is the largest country in the world by area",
        "who painted the mona lisa",
        "which planet is known as the red planet",
        "what is the chemical symbol for gold",
        "who invented the telephone",
        "what language is spoken in brazil",
        "what is the longest river in africa",
        "in which year did the berlin wall fall",
        "what is the boiling point of water at sea level",
        "who discovered gravity",
        "what is the currency of japan",
        "how many bones are in the adult human body",
        "which ocean lies between africa and australia",
        "who wrote hamlet",
        "what is the population of canada",
        "where is the eiffel tower",
        "which country has the most people",
        "what is the speed of light",
        "name the tallest animal",
        "what is the smallest planet in the solar system",
        "who was the roman emperor when jesus was born",
        "what is dna made of",
        "which element has the atomic number 8",
        "when was the first moon landing",
        "what is the official language of egypt",
        "how far is the moon from the earth",
        "which continent is kenya in",
        "how many planets are in the solar system",
        "how many states are in the united states",
    ],
    "writing": [
        "write a haiku about rain",
        "write a poem about autumn leaves",
        "proofread this paragraph",
        "rewrite this sentence to sound more formal",
        "summarize this article in three sentences",
        "write a cover letter for a junior designer job",
        "what is a synonym for happy",
        "give me an antonym of generous",
        "correct the grammar in this email",
        "make this paragraph more concise",
        "write a short story about a lost dog",
        "draft a polite reply declining the invitation",
        "is it affect or effect in this sentence",
        "fix the spelling mistakes in my essay",
        "write a catchy slogan for a coffee shop",
        "translate this sentence into plain english",
        "improve the tone of this message",
        "write a limerick about a cat",
        "suggest a title for my blog post",
        "write an opening line for a mystery novel",
        "should i use a comma or a semicolon here",
        "what is the past tense of swim",
        "paraphrase this quote",
        "write a wedding toast for my brother",
        "compose a sonnet about the ocean",
        "edit my resume summary",
        "write a product description for wireless headphones",
        "what rhymes with orange",
        "describe a sunset in vivid language",
        "write a thank you note to my teacher",
        "use the word ephemeral in a sentence",
        "outline an essay on climate change",
        "what is the plural of child",
        "what part of speech is the word quickly",
    ],
    "reasoning": [
        "if all cats are animals and felix is a cat, is felix an animal",
        "if all dogs bark and rex barks, is rex necessarily a dog",
        "a is taller than b and b is taller than c; who is the shortest",
        "which is heavier, a kilogram of feathers or a kilogram of steel",
        "what comes next in the pattern 2, 4, 8, 16",
        "is this argument valid: no birds are fish, some pets are fish, so some pets are not birds",
        "three boxes are labelled wrongly; how many boxes must you open",
        "a man has to cross a river with a wolf, a goat and a cabbage",
        "if it is not sunny then we stay home; we went out; was it sunny",
        "who is lying if alice says bob lies and bob says carol lies",
        "solve this logic puzzle",
        "if tomorrow is friday, what day was yesterday",
        "riddle: what has keys but cannot open locks",
        "find the odd one out: apple, banana, carrot, cherry",
        "if some students are athletes and all athletes are tall, are some students tall",
        "ann sits left of ben and ben sits left of cal; who sits in the middle",
        "how many handshakes happen when five people each shake hands once",
        "is the conclusion true, false or uncertain",
        "deduce which suspect committed the crime from these clues",
        "every knight tells the truth and every knave lies; which one is the knight",
        "if p implies q and q is false, what can we conclude about p",
        "which statement must be true",
        "complete the analogy: hand is to glove as foot is to what",
        "what is the missing number in 1, 1, 2, 3, 5, 8",
        "if it is 3 pm now, what time will it be in 20 hours",
        "does it follow that some roses fade quickly",
        "mary is older than tom and tom is older than sue; is sue older than mary",
        "two trains leave at the same time; which one arrives first if one is faster",
        "if yesterday was monday, what day is the day after tomorrow",
        "identify the flaw in this reasoning",
        "can both statements be true at the same time",
        "which conclusion follows from the premises",
    ],
}


def tokens(text):
    """Gate::features' tokens: lower-cased [a-z0-9] runs and single symbols."""
    out = []
    word = bytearray()
    data = text.encode("utf-8")
    i = 0
    while i < len(data):
        byte = data[i]
        if 0x30 <= byte <= 0x39 or 0x61 <= byte <= 0x7A or 0x41 <= byte <= 0x5A:
            word.append(byte | 0x20 if 0x41 <= byte <= 0x5A else byte)
            i += 1
            continue
        if word:
            out.append(word.decode("ascii"))
            word = bytearray()
        if byte in SYMBOLS:
            out.append(chr(byte))
        elif data[i:i + 2] in UTF8_SYMBOLS:
            out.append(UTF8_SYMBOLS[data[i:i + 2]])
            i += 1
        i += 1
    if word:
        out.append(word.decode("ascii"))
    return out


def features(text):
    """The words, then the bigrams, in text order (as Gate::features)."""
    words = tokens(text)
    return words + [a + " " + b for a, b in zip(words, words[1:])]


def vector(text):
    """Feature counts scaled by 1/sqrt(number of features), as Gate::weigh."""
    feats = features(text)
    if not feats:
        return {}
    scale = 1.0 / math.sqrt(len(feats))
    out = {}
    for f in feats:
        out[f] = out.get(f, 0.0) + scale
    return out


def fnv1a(feature):
    h = 0xCBF29CE484222325
    for byte in feature.encode("utf-8"):
        h ^= byte
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def fold_of(key):
    """Fixed held-out split: about one in five, by a task id or a phrase."""
    return fnv1a(key) % 5 == 0


def load_tasks():
    tasks = []
    for path in sorted(glob.glob(os.path.join(TASKSETS, "*.jsonl"))):
        if os.path.basename(path) == "mixed-small.jsonl":
            continue
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    tasks.append(json.loads(line))
    return tasks


def softmax(logits):
    top = max(logits)
    exps = [math.exp(x - top) for x in logits]
    total = sum(exps)
    return [e / total for e in exps]


class Model:
    def __init__(self):
        self.bias = [0.0] * len(DOMAINS)
        self.weights = [dict() for _ in DOMAINS]

    def logits(self, x):
        out = list(self.bias)
        for d, w in enumerate(self.weights):
            out[d] += sum(w.get(f, 0.0) * v for f, v in x.items())
        return out

    def predict(self, text):
        logits = self.logits(vector(text))
        return DOMAINS[max(range(len(DOMAINS)), key=lambda d: logits[d])]


def train(examples):
    """SGD on the cross-entropy with L2, over (text, domain) pairs."""
    model = Model()
    data = [(vector(text), DOMAINS.index(domain)) for text, domain in examples]
    rng = random.Random(SEED)
    order = list(range(len(data)))
    for epoch in range(EPOCHS):
        rng.shuffle(order)
        rate = LEARNING_RATE / (1.0 + 0.1 * epoch)
        for i in order:
            x, label = data[i]
            probs = softmax(model.logits(x))
            for d in range(len(DOMAINS)):
                grad = probs[d] - (1.0 if d == label else 0.0)
                model.bias[d] -= rate * grad
                w = model.weights[d]
                for f, v in x.items():
                    old = w.get(f, 0.0)
                    w[f] = old - rate * (grad * v + L2 * old)
    return model


def median(values):
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def pruned(model):
    """The model as written: small weights dropped, the rest rounded.

    A softmax does not change when the same amount is added to every logit, so
    each feature's weights (and the biases) are first shifted by their median
    across domains; that zeroes at least one weight per feature, usually most,
    and keeps the file small without changing a single prediction.
    """
    out = Model()
    shift = median(model.bias)
    out.bias = [round(b - shift, DIGITS) for b in model.bias]
    features = sorted({f for w in model.weights for f in w})
    for f in features:
        values = [w.get(f, 0.0) for w in model.weights]
        shift = median(values)
        for d, v in enumerate(values):
            v = round(v - shift, DIGITS)
            if abs(v) >= MIN_WEIGHT:
                out.weights[d][f] = v
    return out


class HashedModel:
    """A written model as Gate.cpp holds it: weights summed per bucket."""

    def __init__(self, model):
        self.bias = list(model.bias)
        self.weights = [dict() for _ in DOMAINS]
        for d, w in enumerate(model.weights):
            for f, v in w.items():
                bucket = fnv1a(f) % BUCKETS
                self.weights[d][bucket] = self.weights[d].get(bucket, 0.0) + v

    def predict(self, text):
        x = {}
        for f, v in vector(text).items():
            bucket = fnv1a(f) % BUCKETS
            x[bucket] = x.get(bucket, 0.0) + v
        logits = [b + sum(w.get(k, 0.0) * v for k, v in x.items()) for b, w in zip(self.bias, self.weights)]
        return DOMAINS[max(range(len(DOMAINS)), key=lambda d: logits[d])]


def accuracy(model, examples):
    hits = sum(1 for text, domain in examples if model.predict(text) == domain)
    return hits, len(examples)


def report(label, counts):
    hits, total = counts
    print(f"{label}: {hits}/{total} = {100.0 * hits / total:.1f}%")


def to_json(model):
    doc = {
        "buckets": BUCKETS,
        "domains": DOMAINS,
        "bias": {DOMAINS[d]: b for d, b in enumerate(model.bias)},
        "weights": {DOMAINS[d]: w for d, w in enumerate(model.weights)},
    }
    return json.dumps(doc, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if gate.json is not what this script writes")
    args = parser.parse_args()

    tasks = load_tasks()
    extra = [(text, domain) for domain in DOMAINS for text in EXTRA[domain]]
    # The tasks are generated from templates, so held-out tasks are easy; the
    # held-out phrases say more about free prompts.
    train_part = [(t["prompt"], t["domain"]) for t in tasks if not fold_of(t["id"])]
    train_part += [e for e in extra if not fold_of(e[0])]
    held_tasks = [(t["prompt"], t["domain"]) for t in tasks if fold_of(t["id"])]
    held_phrases = [e for e in extra if fold_of(e[0])]

    held_model = pruned(train(train_part))
    report("held-out split, training accuracy", accuracy(held_model, train_part))
    report("held-out split, held-out tasks", accuracy(held_model, held_tasks))
    report("held-out split, held-out phrases", accuracy(held_model, held_phrases))

    all_tasks = [(t["prompt"], t["domain"]) for t in tasks]
    model = pruned(train(all_tasks + extra))
    report("shipped gate, training accuracy (tasks + phrases)", accuracy(model, all_tasks + extra))
    hashed = HashedModel(model)
    report("shipped gate as Gate.cpp hashes it, tasks", accuracy(hashed, all_tasks))
    for domain in DOMAINS:
        report(f"  {domain}", accuracy(hashed, [e for e in all_tasks if e[1] == domain]))
    report("shipped gate as Gate.cpp hashes it, phrases", accuracy(hashed, extra))

    kept = sorted({f for w in model.weights for f in w})
    buckets = {}
    for f in kept:
        buckets.setdefault(fnv1a(f) % BUCKETS, []).append(f)
    collisions = sum(len(fs) for fs in buckets.values() if len(fs) > 1)
    print(f"features kept: {len(kept)}; sharing a bucket of {BUCKETS}: {collisions}")

    text = to_json(model)
    if args.check:
        with open(OUTPUT, encoding="utf-8") as f:
            if f.read() != text:
                print(f"{OUTPUT} is out of date; run scripts/train_gate.py", file=sys.stderr)
                return 1
        return 0
    with open(OUTPUT, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print(f"wrote {OUTPUT} ({len(text.encode('utf-8'))} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
