// ExperimentGates: the CI gates of `eval` (--min-accuracy, --max-regressions), one rule in core.
#include <QtTest>

#include "conclave/analysis/ExperimentGates.h"

#include <limits>

using namespace conclave;

namespace {

DesignSummary design(const char* name, double accuracy, std::optional<int64_t> regressions)
{
    DesignSummary d;
    d.name = name;
    d.overall.accuracy = accuracy;
    if (regressions) {
        d.vsBaseline = PairedFigures{};
        d.vsBaseline->regressions = *regressions;
    }
    return d;
}

ExperimentSummary summary()
{
    ExperimentSummary s;
    s.baseline = 0;
    s.designs = {design("base", 0.1, std::nullopt), design("good", 0.8, 0), design("worse", 0.6, 3),
                 design("broken", std::numeric_limits<double>::quiet_NaN(), 1)};
    return s;
}

QStringList texts(const std::vector<std::string>& lines)
{
    QStringList out;
    for (const auto& line : lines)
        out << QString::fromStdString(line);
    return out;
}

} // namespace

class TestExperimentGates : public QObject {
    Q_OBJECT

private slots:
    void noGatesNoFailures() { QVERIFY(ExperimentGates{}.failures(summary()).empty()); }

    // The baseline is never gated (its 0.1 is below every bar); a NaN accuracy fails.
    void minAccuracy()
    {
        ExperimentGates gates;
        gates.minAccuracy = 0.7;
        QCOMPARE(texts(gates.failures(summary())),
                 (QStringList{"worse has accuracy 0.6000, below --min-accuracy 0.7000",
                              "broken has accuracy nan, below --min-accuracy 0.7000"}));
        gates.minAccuracy = 0.6; // at the bar is enough
        QCOMPARE(texts(gates.failures(summary())), QStringList{"broken has accuracy nan, below --min-accuracy 0.6000"});
    }

    void maxRegressions()
    {
        ExperimentGates gates;
        gates.maxRegressions = 1;
        QCOMPARE(texts(gates.failures(summary())),
                 QStringList{"worse has 3 regressions against the baseline, more than --max-regressions 1"});
        gates.maxRegressions = 0;
        QCOMPARE(texts(gates.failures(summary())),
                 (QStringList{"worse has 3 regressions against the baseline, more than --max-regressions 0",
                              "broken has 1 regressions against the baseline, more than --max-regressions 0"}));
    }

    // Both gates, in design order.
    void both()
    {
        ExperimentGates gates;
        gates.minAccuracy = 0.7;
        gates.maxRegressions = 2;
        QCOMPARE(texts(gates.failures(summary())),
                 (QStringList{"worse has accuracy 0.6000, below --min-accuracy 0.7000",
                              "worse has 3 regressions against the baseline, more than --max-regressions 2",
                              "broken has accuracy nan, below --min-accuracy 0.7000"}));
    }
};

QTEST_GUILESS_MAIN(TestExperimentGates)
#include "tst_experimentgates.moc"
