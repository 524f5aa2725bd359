// Qt first: moc fails on <compare> when a conclave header is the first it meets.
#include <QtTest>

#include "conclave/analysis/ExperimentStats.h"
#include "conclave/analysis/TaskMatrix.h"

#include <string>
#include <vector>

using namespace conclave;

namespace {

TrialRecord trial(int design, const char* task, const char* domain, uint64_t seed, std::optional<bool> correct,
                  RunStatus status = RunStatus::Ok)
{
    TrialRecord t;
    t.experimentId = "e1";
    t.design = design;
    t.task = task;
    t.domain = domain;
    t.seed = seed;
    t.correct = correct;
    t.status = status;
    t.runId = RunId(std::string(task) + "-d" + std::to_string(design) + "-s" + std::to_string(seed));
    return t;
}

using Outcome = TaskMatrixCell::Outcome;

} // namespace

// The studio's task matrix: tasks × designs from an experiment's trials.
class TestTaskMatrix : public QObject {
    Q_OBJECT

    const std::vector<std::string> m_designs{"base", "new"};

    // Two seeds, stored seed 2 before seed 1 on purpose. Tasks: m1, m2 (math),
    // f1 (facts, between them in trial order), m3 run by the baseline only.
    std::vector<TrialRecord> trials() const
    {
        return {
            trial(0, "m1", "math", 2, true),
            trial(0, "m1", "math", 1, true),
            trial(1, "m1", "math", 1, true),
            trial(1, "m1", "math", 2, true),
            trial(0, "f1", "facts", 1, true),
            trial(0, "f1", "facts", 2, false),
            trial(1, "f1", "facts", 1, std::nullopt, RunStatus::Failed),
            trial(1, "f1", "facts", 2, true, RunStatus::Failed), // failed: wrong whatever `correct` says
            trial(0, "m2", "math", 1, false),
            trial(0, "m2", "math", 2, false),
            trial(1, "m2", "math", 1, true),
            trial(1, "m2", "math", 2, false),
            trial(0, "m3", "math", 1, std::nullopt),
            trial(0, "m3", "math", 2, std::nullopt),
        };
    }

private slots:
    void cellsRowsAndFilters()
    {
        const auto t = trials();
        const auto summary = ExperimentStats::summarize(m_designs, 0, t);
        const auto m = TaskMatrix::build(m_designs, summary, t);
        QCOMPARE(m.designs(), size_t(2));
        // Grouped by domain in order of first appearance, then trial order.
        QStringList order;
        for (const auto& row : m.rows())
            order << QString::fromStdString(row.task + "/" + row.domain);
        QCOMPARE(order, QStringList({"m1/math", "m2/math", "m3/math", "f1/facts"}));

        const auto& m1 = m.rows()[0];
        QCOMPARE(int(m1.cells[0].outcome()), int(Outcome::Correct));
        QCOMPARE(m1.cells[0].runs.size(), size_t(2));
        QCOMPARE(m1.cells[0].runs[0].first, uint64_t(1)); // by seed
        QCOMPARE(QString::fromStdString(m1.cells[0].runs[0].second.str()), QString("m1-d0-s1"));
        QVERIFY(!m1.differs);
        QVERIFY(!m1.regressed);

        const auto& m2 = m.rows()[1];
        QCOMPARE(int(m2.cells[0].outcome()), int(Outcome::Wrong));
        QCOMPARE(int(m2.cells[1].outcome()), int(Outcome::Mixed));
        QCOMPARE(m2.cells[1].accuracy(), 0.5);
        QVERIFY(m2.differs);
        QVERIFY(!m2.regressed); // better than the baseline

        const auto& m3 = m.rows()[2];
        QCOMPARE(int(m3.cells[0].outcome()), int(Outcome::Unscored));
        QCOMPARE(int(m3.cells[1].outcome()), int(Outcome::NotRun));
        QVERIFY(!m3.differs);

        const auto& f1 = m.rows()[3];
        QCOMPARE(int(f1.cells[0].outcome()), int(Outcome::Mixed));
        QCOMPARE(int(f1.cells[1].outcome()), int(Outcome::Failed));
        QCOMPARE(f1.cells[1].failed, 2);
        QCOMPARE(f1.cells[1].wrong, 2);
        QVERIFY(f1.cells[1].regressed);
        QVERIFY(!f1.cells[0].regressed);
        QVERIFY(f1.differs);
        QVERIFY(f1.regressed);

        const auto names = [](const std::vector<const TaskMatrixRow*>& rows) {
            QStringList out;
            for (const auto* r : rows)
                out << QString::fromStdString(r->task);
            return out;
        };
        QCOMPARE(names(m.rows(TaskMatrix::Filter::All)), QStringList({"m1", "m2", "m3", "f1"}));
        QCOMPARE(names(m.rows(TaskMatrix::Filter::Differs)), QStringList({"m2", "f1"}));
        QCOMPARE(names(m.rows(TaskMatrix::Filter::Regressions)), QStringList({"f1"}));
        // The same regressions as the statistics.
        QCOMPARE(summary.designs[1].vsBaseline->regressedTasks, std::vector<std::string>{"f1"});
    }

    void trialsOfUnknownDesignsAreIgnored()
    {
        auto t = trials();
        t.push_back(trial(5, "x1", "code", 1, true));
        const auto summary = ExperimentStats::summarize(m_designs, 0, t);
        const auto m = TaskMatrix::build(m_designs, summary, t);
        QCOMPARE(m.rows().size(), size_t(4));
        QVERIFY(TaskMatrix::build(m_designs, summary, {}).rows().empty());
    }
};

QTEST_GUILESS_MAIN(TestTaskMatrix)
#include "tst_taskmatrix.moc"
