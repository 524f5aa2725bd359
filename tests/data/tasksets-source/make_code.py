#!/usr/bin/env python3
"""Generate resources/tasksets/code.jsonl.

Each task is a short program; its answer is what the program actually prints,
obtained by RUNNING it (python3 for Python, node for JavaScript, cc for C).
Nothing is predicted by hand. Every program must print exactly one short line
that is already normalised (no upper-case letters, no surrounding spaces), so
the printed text can be used as the answer verbatim; the script fails
otherwise. Re-running reproduces the file byte for byte.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from tasklib import task, write_tasks

PY = [
"""x = 7
y = 3
print(x // y + x % y)""",
"""total = 0
for i in range(1, 11):
    total += i
print(total)""",
"""s = "conclave"
print(s[2:5])""",
"""nums = [4, 8, 15, 16, 23, 42]
print(sum(n for n in nums if n % 2 == 0))""",
"""def f(n):
    return 1 if n <= 1 else n * f(n - 1)
print(f(6))""",
"""words = ["pear", "fig", "banana", "kiwi"]
print(max(words, key=len))""",
"""print(len(set("mississippi")))""",
"""a = [1, 2, 3]
b = a
b.append(4)
print(len(a))""",
"""print(2 ** 10 - 24)""",
"""s = "hello world"
print(s.count("o") + s.index("w"))""",
"""d = {"a": 1, "b": 2, "c": 3}
print(sum(d.values()) * len(d))""",
"""x = 10
def g():
    x = 20
    return x
g()
print(x)""",
"""print("-".join(str(i) for i in range(3, 0, -1)))""",
"""n = 0
while n * n < 50:
    n += 1
print(n)""",
"""print(17 % 5 * 3)""",
"""items = [3, 1, 2]
items.sort(reverse=True)
print(items[1])""",
"""print("python"[::-1])""",
"""def add(x, y=5):
    return x + y
print(add(3) + add(3, 1))""",
"""count = 0
for i in range(5):
    for j in range(i):
        count += 1
print(count)""",
"""print(int("101", 2) + int("ff", 16))""",
"""t = (1, 2, 3, 4, 5)
print(t[-2])""",
"""squares = [i * i for i in range(6)]
print(squares[4] - squares[2])""",
"""s = "banana"
print(s.replace("a", "o", 2))""",
"""x = [10, 20, 30]
x.insert(1, 15)
print(x.index(20))""",
"""def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a
print(fib(12))""",
"""print(round(7 / 2) + round(9 / 2))""",
"""print(len("one two three".split()))""",
"""d = {}
for ch in "abracadabra":
    d[ch] = d.get(ch, 0) + 1
print(d["a"])""",
"""print(max(3, 9, 4) - min(3, 9, 4))""",
"""def append_to(x, acc=[]):
    acc.append(x)
    return len(acc)
append_to(1)
append_to(2)
print(append_to(3))""",
"""print(sum(range(0, 20, 3)))""",
"""s = "Data Science"
print(s.lower().count("e"))""",
"""x = 5
x += 3
x *= 2
x -= 4
print(x)""",
"""nums = [5, 3, 8, 1]
print(sorted(nums)[len(nums) // 2])""",
"""print(abs(-7) + pow(2, 3))""",
"""print(10 / 4)""",
"""print(9 // 2 * 2 + 9 % 2)""",
"""letters = ["a", "b", "c", "d"]
for i, ch in enumerate(letters):
    if ch == "c":
        print(i)""",
"""pairs = list(zip([1, 2, 3], [4, 5, 6]))
print(sum(a * b for a, b in pairs))""",
"""try:
    print(int("12") + int("x"))
except ValueError:
    print("error")""",
"""print(6 & 3, 6 | 3, sep="")""",
"""print(1 << 5)""",
"""def make_counter():
    n = 0
    def inc():
        nonlocal n
        n += 1
        return n
    return inc
c = make_counter()
c()
c()
print(c())""",
"""print("abc" * 2 + "d")""",
"""x = [1, [2, 3], [4, [5, 6]]]
print(len(x))""",
"""print(all(n > 0 for n in [1, 2, 3]) and "yes" or "no")""",
"""print(sum(1 for c in "programming" if c in "aeiou"))""",
"""stack = []
for n in [1, 2, 3, 4]:
    stack.append(n)
stack.pop()
stack.pop()
print(stack[-1])""",
"""print(len([n for n in range(1, 31) if n % 3 == 0 or n % 5 == 0]))""",
"""def gen():
    yield 1
    yield 2
    yield 3
print(sum(gen()))""",
"""s = "a,b,,c"
print(len(s.split(",")))""",
"""print("%d-%s" % (7, "up"))""",
"""print(f"{3.14159:.2f}")""",
"""print(min("zebra", "apple", "mango"))""",
"""x = 0
for i in range(10):
    if i == 6:
        break
    if i % 2:
        continue
    x += i
print(x)""",
"""a, b = 3, 8
a, b = b, a
print(a - b)""",
"""print(len({1: "a", 2: "b", 1: "c"}))""",
"""print(ord("c") - ord("a"))""",
"""print(chr(ord("a") + 25))""",
"""def collatz_steps(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps
print(collatz_steps(6))""",
"""matrix = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
print(sum(matrix[i][i] for i in range(3)))""",
"""print("level" == "level"[::-1] and "palindrome" or "not")""",
"""x = list(range(10))
print(x[2:8:3][-1])""",
"""print(" spaced out ".strip().upper().lower().count(" "))""",
]

JS = [
"""console.log(typeof null);""",
"""console.log("5" + 3);""",
"""console.log("5" - 3);""",
"""console.log([1, 2, 3].map(x => x * 2).reduce((a, b) => a + b, 0));""",
"""let s = 0;
for (let i = 0; i < 5; i++) { s += i; }
console.log(s);""",
"""console.log(0.1 + 0.2 === 0.3 ? "yes" : "no");""",
"""console.log([10, 1, 2].sort()[0]);""",
]

C = [
"""#include <stdio.h>
int main(void) {
    int a = 17, b = 5;
    printf("%d\\n", a / b + a % b);
    return 0;
}""",
"""#include <stdio.h>
int main(void) {
    int x = 0;
    for (int i = 0; i < 4; i++) x += i * i;
    printf("%d\\n", x);
    return 0;
}""",
"""#include <stdio.h>
int main(void) {
    int i = 5;
    int j = i++ + 2;
    printf("%d\\n", i + j);
    return 0;
}""",
"""#include <stdio.h>
int main(void) {
    unsigned char c = 250;
    c += 10;
    printf("%d\\n", c);
    return 0;
}""",
]

NORMALISED = re.compile(r"^[^A-Z\s](?:[^A-Z\n]*[^A-Z\s])?$")


def check_output(lang, src, out):
    text = out.decode("utf-8")
    if not text.endswith("\n") or text.count("\n") != 1:
        sys.exit("%s program must print exactly one line:\n%s\n-> %r" % (lang, src, text))
    line = text[:-1]
    if not NORMALISED.match(line) or len(line) > 40:
        sys.exit("%s program output is not a short normalised answer:\n%s\n-> %r" % (lang, src, line))
    return line


def run_python(src):
    env = dict(os.environ, PYTHONHASHSEED="0")
    r = subprocess.run(["python3", "-I", "-c", src], capture_output=True, timeout=10, env=env, check=True)
    return check_output("python", src, r.stdout)


def run_js(src):
    r = subprocess.run(["node", "-e", src], capture_output=True, timeout=10, check=True)
    return check_output("javascript", src, r.stdout)


def run_c(src, tmp):
    cc = shutil.which("cc") or shutil.which("gcc")
    c_file = os.path.join(tmp, "prog.c")
    exe = os.path.join(tmp, "prog")
    with open(c_file, "w") as f:
        f.write(src + "\n")
    subprocess.run([cc, "-std=c99", "-O0", "-Wall", "-Werror", "-o", exe, c_file], check=True)
    r = subprocess.run([exe], capture_output=True, timeout=10, check=True)
    return check_output("c", src, r.stdout)


def main():
    for tool in ("node",):
        if not shutil.which(tool):
            sys.exit("%s is required to regenerate code.jsonl" % tool)
    if not (shutil.which("cc") or shutil.which("gcc")):
        sys.exit("a C compiler (cc) is required to regenerate code.jsonl")
    tasks = []
    for i, src in enumerate(PY):
        head = ("What does this Python program print?" if i % 3 == 0 else
                "What is the output of the following Python code?" if i % 3 == 1 else
                "Run this Python snippet in your head. What does it print?")
        tasks.append(task("%s\n\n```python\n%s\n```" % (head, src), run_python(src)))
    for src in JS:
        tasks.append(task("What does this JavaScript program print to the console when run with Node.js?\n\n"
                          "```javascript\n%s\n```" % src, run_js(src)))
    with tempfile.TemporaryDirectory() as tmp:
        for src in C:
            tasks.append(task("What does this C program print when compiled and run?\n\n```c\n%s\n```" % src,
                              run_c(src, tmp)))
    write_tasks("code", tasks)


if __name__ == "__main__":
    main()
