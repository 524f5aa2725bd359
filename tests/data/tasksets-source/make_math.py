#!/usr/bin/env python3
"""Generate resources/tasksets/math.jsonl.

Every answer is computed here with exact integer / Fraction arithmetic and
normalised with tasklib.num(); nothing is typed in by hand. Re-running this
script reproduces the file byte for byte.
"""
from fractions import Fraction as F
import math

from tasklib import num, rng_for, task, write_tasks

rng = rng_for("math")
R = rng.randint
tasks = []

# --- Arithmetic -------------------------------------------------------------
for _ in range(3):
    a, b = R(100, 999), R(100, 999)
    tasks.append(task("Calculate %d + %d." % (a, b), num(a + b)))
for _ in range(2):
    a, b, c = R(1000, 9999), R(100, 999), R(10, 99)
    tasks.append(task("What is the sum of the numbers %d, %d and %d?" % (a, b, c), num(a + b + c)))
for _ in range(3):
    a, b = R(200, 999), R(100, 999)
    tasks.append(task("Compute %d - %d." % (a, b), num(a - b)))
a, b = R(1000, 4999), R(5000, 9999)
tasks.append(task("What number do you get when you subtract %d from %d?" % (b, a), num(a - b)))
for _ in range(3):
    a, b = R(12, 99), R(12, 99)
    tasks.append(task("Calculate %d × %d." % (a, b), num(a * b)))
for _ in range(2):
    a, b = R(101, 999), R(11, 49)
    tasks.append(task("What is the product of %d and %d?" % (a, b), num(a * b)))
for _ in range(2):
    q, d = R(12, 250), R(3, 29)
    tasks.append(task("Compute %d ÷ %d." % (q * d, d), num(q)))
for _ in range(2):
    n = R(101, 1999) * 4 + rng.choice([1, 2, 3])  # not a multiple of 4
    tasks.append(task("Divide %d by 4. What is the exact quotient as a decimal number?" % n, num(F(n, 4))))
exprs = []
for _ in range(4):
    a, b, c, d = R(2, 20), R(2, 12), R(2, 12), R(1, 30)
    exprs.append("%d + %d × %d - %d" % (a, b, c, d))
for e in exprs:
    value = eval(e.replace("×", "*"))  # only digits and + - * from above
    tasks.append(task("Using the usual order of operations, what is %s?" % e, num(value)))
for _ in range(2):
    a, b, c = R(2, 15), R(2, 15), R(2, 9)
    tasks.append(task("Evaluate the expression (%d + %d) × %d." % (a, b, c), num((a + b) * c)))

# --- Percentages ------------------------------------------------------------
for _ in range(6):
    p = rng.choice([5, 10, 12, 15, 17, 20, 25, 30, 35, 40, 45, 60, 75, 80, 120])
    base = R(2, 60) * 10
    phrase = "What is %d%% of %d?" if len(tasks) % 2 else "Calculate %d percent of %d."
    tasks.append(task(phrase % (p, base), num(F(p * base, 100))))
for _ in range(4):
    whole = rng.choice([20, 25, 40, 50, 80, 200, 250, 400, 500])
    part = R(1, whole - 1)
    pct = F(part * 100, whole)
    tasks.append(task("What percent of %d is %d?" % (whole, part), num(pct)))
for _ in range(2):
    price, p = R(2, 40) * 5, rng.choice([10, 20, 25, 30, 40, 50])
    tasks.append(task("A price of %d dollars is increased by %d%%. What is the new price in dollars?" % (price, p),
                      num(F(price * (100 + p), 100))))
for _ in range(2):
    price, p = R(2, 40) * 5, rng.choice([10, 15, 20, 25, 30, 40])
    tasks.append(task("A jacket costs %d dollars and is discounted by %d%%. What is the sale price in dollars?" % (price, p),
                      num(F(price * (100 - p), 100))))
old, new = 80, 100
tasks.append(task("A quantity rises from %d to %d. What is the percentage increase?" % (old, new),
                  num(F((new - old) * 100, old))))
old, new = 250, 200
tasks.append(task("A population falls from %d to %d. By what percentage did it decrease?" % (old, new),
                  num(F((old - new) * 100, old))))

# --- Algebra (solutions constructed first, equations built around them) ------
for _ in range(5):
    x, a, b = R(-12, 20), R(2, 9), R(1, 40)
    c = a * x + b
    tasks.append(task("Solve for x: %dx + %d = %d" % (a, b, c), num(x)))
for _ in range(4):
    x, a, c = R(-10, 15), R(4, 11), R(1, 3)
    b = R(1, 30)
    d = (a - c) * x + b  # a*x + b = c*x + d  ->  d = (a-c)x + b
    rhs = "%dx %s %d" % (c, "-" if d < 0 else "+", abs(d))
    tasks.append(task("Solve the equation %dx + %d = %s for x." % (a, b, rhs), num(x)))
for _ in range(2):
    x, y = R(1, 12), R(1, 12)
    s, t = x + y, x - y
    tasks.append(task("If x + y = %d and x - y = %d, what is the value of x?" % (s, t), num(x)))
x = R(3, 12)
k = R(2, 6)
tasks.append(task("If %d(x - %d) = %d, what is x?" % (k, 2, k * (x - 2)), num(x)))

# --- Unit conversions (exact factors) ----------------------------------------
v = R(2, 40) * F(1, 4)
tasks.append(task("Convert %s kilometres to metres." % num(v), num(v * 1000)))
v = R(3, 90)
tasks.append(task("How many centimetres are in %d metres?" % v, num(v * 100)))
v = R(1200, 9800)
tasks.append(task("Convert %d grams to kilograms." % v, num(F(v, 1000))))
v = R(2, 15) * F(1, 2)
tasks.append(task("How many grams are in %s kilograms?" % num(v), num(v * 1000)))
v = R(2, 12) * F(1, 4)
tasks.append(task("How many minutes are in %s hours?" % num(v), num(v * 60)))
v = R(3, 30)
tasks.append(task("How many seconds are in %d minutes?" % v, num(v * 60)))
v = R(2, 14)
tasks.append(task("How many hours are in %d days?" % v, num(v * 24)))
v = R(2, 40)
tasks.append(task("Given that 1 inch is exactly 2.54 centimetres, how many centimetres are in %d inches?" % v,
                  num(v * F(254, 100))))
v = R(2, 12)
tasks.append(task("How many inches are in %d feet?" % v, num(v * 12)))
v = R(-4, 20) * 5
tasks.append(task("Convert %d degrees Celsius to degrees Fahrenheit." % v, num(F(9, 5) * v + 32)))
v = R(-2, 22) * 9 + 32
tasks.append(task("Convert %d degrees Fahrenheit to degrees Celsius." % v, num((v - 32) * F(5, 9))))
v = R(3, 19) * F(1, 4)
tasks.append(task("How many millilitres are in %s litres?" % num(v), num(v * 1000)))

# --- Mean, powers, roots, geometry, number theory, fractions -----------------
for _ in range(3):
    vals = [R(10, 99) for _ in range(rng.choice([4, 5]))]
    tasks.append(task("What is the mean (average) of the numbers %s?" % ", ".join(map(str, vals)),
                      num(F(sum(vals), len(vals)))))
for _ in range(2):
    r = R(13, 40)
    tasks.append(task("What is the square root of %d?" % (r * r), num(r)))
r = R(13, 35)
tasks.append(task("What is %d squared?" % r, num(r * r)))
b, e = rng.choice([2, 3]), R(5, 10)
tasks.append(task("What is %d to the power of %d?" % (b, e), num(b ** e)))
b = R(4, 9)
tasks.append(task("Calculate %d cubed." % b, num(b ** 3)))
w, h = R(3, 25), R(3, 25)
tasks.append(task("A rectangle is %d cm long and %d cm wide. What is its area in square centimetres?" % (w, h),
                  num(w * h)))
w, h = R(3, 40), R(3, 40)
tasks.append(task("What is the perimeter, in metres, of a rectangle measuring %d m by %d m?" % (w, h),
                  num(2 * (w + h))))
a, b = R(2, 12) * 6, R(2, 12) * 4
tasks.append(task("What is the greatest common divisor of %d and %d?" % (a, b), num(math.gcd(a, b))))
a, b = R(4, 15), R(4, 15)
tasks.append(task("What is the least common multiple of %d and %d?" % (a, b), num(a * b // math.gcd(a, b))))
for n, d in [(3, 8), (7, 20)]:
    tasks.append(task("Write the fraction %d/%d as a decimal number." % (n, d), num(F(n, d))))
n1, d1, n2, d2 = 1, 4, 2, 5
tasks.append(task("Add the fractions %d/%d + %d/%d and give the result as a decimal number." % (n1, d1, n2, d2),
                  num(F(n1, d1) + F(n2, d2))))
speed, hours = R(40, 90), R(2, 6)
tasks.append(task("A car travels at %d km per hour for %d hours. How many kilometres does it travel?" % (speed, hours),
                  num(speed * hours)))
dist, t = R(3, 12) * 60, rng.choice([2, 3, 4, 5, 6])
tasks.append(task("A train covers %d km in %d hours at a constant speed. What is its speed in km per hour?" % (dist, t),
                  num(F(dist, t))))
qty, unit = R(3, 12), R(2, 20) * F(1, 4)
tasks.append(task("Pens cost %s dollars each. What is the total cost in dollars of %d pens?" % (num(unit), qty),
                  num(qty * unit)))

write_tasks("math", tasks)
