// A what-if with no change reproduces the run it projects: every example,
// stored on the simulated clock, exactly (the same wall, statuses, answers
// and node ends); stored on the real clock, within the real clock's jitter
// (docs/clocks.md), its statuses and answers the same.
#include <QtTest>

#include "support/EngineTestKit.h"

#include "conclave/io/TeamFile.h"
#include "conclave/store/RunQueries.h"
#include "conclave/whatif/WhatIf.h"

#include <QDir>
#include <QTemporaryDir>

using namespace conclave;
using namespace enginetest;

namespace {

// The jitter a real-clock run's times may have against their replay: 100 ms of team time, more
// under the sanitizers, which slow the real clock's CPU work down many times (docs/clocks.md).
int64_t jitterUs(double timeScale)
{
#if defined(__SANITIZE_THREAD__)
    const double ms = 1000;
#elif defined(__SANITIZE_ADDRESS__)
    const double ms = 250;
#else
    const double ms = 100;
#endif
    return int64_t(ms * 1000 * timeScale);
}

QStringList examples()
{
    return QDir(CONCLAVE_RESOURCES "/examples").entryList({"*.team.json"}, QDir::Files, QDir::Name);
}

} // namespace

class TestWhatIfIdentity : public QObject {
    Q_OBJECT

    EngineHarness m_h;
    QTemporaryDir m_dir;
    std::string m_db;

    std::optional<WhatIfReport> unchanged(const RunId& id, std::string& error)
    {
        auto reader = RunQueries::open(m_db, error);
        if (!reader)
            return std::nullopt;
        const auto whatIf = WhatIf::load(m_h.engine(), *reader, id.str(), error);
        return whatIf ? whatIf->project({}, error) : std::nullopt;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_h.init());
        m_db = m_dir.filePath("runs.sqlite").toStdString();
        QCOMPARE(examples().size(), 11);
    }

    void everyExampleIsReproducedOnTheSimulatedClock_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("input");
        for (const auto& file : examples()) {
            QTest::newRow(qPrintable(file + " math")) << file << QString(kMath);
            QTest::newRow(qPrintable(file + " compound")) << file << QString(kCompound);
        }
    }
    void everyExampleIsReproducedOnTheSimulatedClock()
    {
        QFETCH(QString, file);
        QFETCH(QString, input);
        auto loaded = loadTeamFile((QStringLiteral(CONCLAVE_RESOURCES "/examples/") + file).toStdString());
        QVERIFY(loaded.team);
        resolveExampleFiles(*loaded.team);
        RunResult original;
        const auto id = m_h.record(m_db, *loaded.team, input.toStdString(), original);
        QVERIFY(!id.empty());
        std::string error;
        const auto report = unchanged(id, error);
        QVERIFY2(report, error.c_str());
        QCOMPARE(report->wallAfter, report->wallBefore);
        QCOMPARE(report->wallAfter, original.wallUs);
        QVERIFY(report->statusAfter == report->statusBefore);
        QCOMPARE(q(report->answerAfter), q(report->answerBefore));
        QCOMPARE(report->costAfter, report->costBefore);
        QVERIFY2(report->decisions().empty(), report->text().c_str());
        for (const auto& n : report->nodes)
            QCOMPARE(n.endAfter, n.endBefore);
        QVERIFY(report->pathAfter == report->pathBefore);
        QCOMPARE(report->simulatedCalls, int64_t(0));
        QCOMPARE(report->replayedCalls + report->cutShortAgain, int64_t(original.calls));
    }

    void everyExampleIsReproducedFromTheRealClockWithinJitter_data()
    {
        QTest::addColumn<QString>("file");
        for (const auto& file : examples())
            QTest::newRow(qPrintable(file)) << file;
    }
    void everyExampleIsReproducedFromTheRealClockWithinJitter()
    {
        QFETCH(QString, file);
        auto loaded = loadTeamFile((QStringLiteral(CONCLAVE_RESOURCES "/examples/") + file).toStdString());
        QVERIFY(loaded.team);
        resolveExampleFiles(*loaded.team);
        constexpr double kScale = 0.05; // team time runs 20× faster than the wall clock
        for (auto& [name, backend] : loaded.team->backends)
            backend.timeScale = kScale;
        RunResult original;
        const auto id = m_h.record(m_db, *loaded.team, kMath, original, ClockRequest::Real);
        QVERIFY(!id.empty());
        std::string error;
        const auto report = unchanged(id, error);
        QVERIFY2(report, error.c_str());
        QVERIFY(report->clock == ClockKind::Real);
        // The replay waits only what the calls took: the real run's own scheduling is what it leaves out.
        const auto slack = jitterUs(kScale) + jitterUs(kScale) / 4 * int64_t(report->nodes.size()) / 4;
        QVERIFY2(std::llabs(report->wallAfter - report->wallBefore) <= slack,
                 qPrintable(QString("%1 µs against %2 µs, slack %3 µs\n%4")
                                .arg(report->wallAfter)
                                .arg(report->wallBefore)
                                .arg(slack)
                                .arg(q(report->text()))));
        QVERIFY(report->statusAfter == report->statusBefore);
        QCOMPARE(q(report->answerAfter), q(report->answerBefore));
        for (const auto& n : report->nodes) {
            QVERIFY2(n.before == n.after, n.node.str().c_str());
            if (n.endBefore >= 0)
                QVERIFY2(std::llabs(n.endAfter - n.endBefore) <= slack, n.node.str().c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestWhatIfIdentity)
#include "tst_whatifidentity.moc"
