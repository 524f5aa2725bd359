#pragma once

// QCOMPARE_NEAR: closeness for figures that are irrational; everything
// rational is compared exactly with QCOMPARE. The message prints both values
// to 17 significant digits.
#include <QtTest>

#include <cmath>

#define QCOMPARE_NEAR(actual, expected, tolerance)                                                                     \
    QVERIFY2(                                                                                                          \
        std::abs(double(actual) - double(expected)) <= (tolerance),                                                    \
        qPrintable(QStringLiteral("%1 is not %2").arg(double(actual), 0, 'g', 17).arg(double(expected), 0, 'g', 17)))
