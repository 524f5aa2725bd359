// `conclave bench`: what it prints and how it refuses bad arguments. The
// figures themselves are timings, so only their shape and the exact counts
// that do not depend on the machine (spans cancelled, thread count) are checked.
#include <QtTest>

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "support/CliProcess.h"

#include "conclave/bench/GroundTruthWorld.h"

#include <nlohmann/json.hpp>

#include <fstream>

namespace {

testsupport::CliResult bench(const QStringList& args)
{
    return testsupport::runConclave(QStringList{"bench"} + args);
}

} // namespace

class TestCliBench : public QObject {
    Q_OBJECT

private slots:
    void fanOutPrintsOneRowPerSizeAndWhereTheTimeWent()
    {
        const auto r = bench({"fanout", "--runs", "1", "--max-n", "100", "--verbose"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.err, QString());
        const QRegularExpression row(QStringLiteral("^ +(\\d+) +([\\d.]+) +([\\d.]+) +([\\d.]+) +(\\d+) +([\\d.]+)$"),
                                     QRegularExpression::MultilineOption);
        QStringList sizes;
        for (auto it = row.globalMatch(r.out); it.hasNext();) {
            const auto m = it.next();
            sizes << m.captured(1);
            QVERIFY2(m.captured(4).toDouble() >= 1.0, qPrintable(r.out));  // wall is never below the critical path
        }
        QCOMPARE(sizes, (QStringList{"10", "100"}));
        QCOMPARE(r.out.count(QStringLiteral("last run: router ended at ")), 2);
        QVERIFY(r.out.contains(QStringLiteral("(medians of 1 runs;")));
    }

    void threadCountDoesNotGrowWithTheFanOut()
    {
        const auto r = bench({"fanout", "--runs", "1", "--max-n", "1000"});
        QCOMPARE(r.exitCode, 0);
        const QRegularExpression row(QStringLiteral("^ +\\d+ +[\\d.]+ +[\\d.]+ +[\\d.]+ +(\\d+) +[\\d.]+$"),
                                     QRegularExpression::MultilineOption);
        QSet<QString> threads;
        for (auto it = row.globalMatch(r.out); it.hasNext();)
            threads.insert(it.next().captured(1));
        QCOMPARE(threads.size(), 1);
    }

    void earlyTerminationCancelsTheFourSlowCalls()
    {
        const auto r = bench({"early"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("answer 783; 4 of 4 slow calls cancelled; run ok")), qPrintable(r.out));
    }

    void chainReportsAMedianOverItsRuns()
    {
        const auto r = bench({"chain", "--max-n", "50", "--runs", "3"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral(
                     "chain of 50 zero-latency experts: scheduler overhead per node, median [\\d.]+ us "
                     "\\(min [\\d.]+, max [\\d.]+, 3 runs; target <= 20 us\\)"))),
                 qPrintable(r.out));
    }

    // The virtual clock's figures; the simulated wall of the fan-out is exact
    // on any machine (a correctness check, not a timing).
    void theVirtualClockBench()
    {
        const auto r = bench({"clock", "--runs", "3", "--max-n", "300"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.err, QString());
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral(
                     "fan-out of 300 experts x 200 ms: real [\\d.]+ ms \\(median of 3; min [\\d.]+, max [\\d.]+\\), "
                     "simulated wall 200.0 ms, peak RSS [\\d.]+ MB"))),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression(
                     QStringLiteral("checking and planning the 304-node team before it, once: [\\d.]+ ms"))),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral(
                     "triage, one task, in process: real [\\d.]+ ms \\(median of 200; p95 [\\d.]+\\), CPU [\\d.]+ ms, "
                     "simulated wall [\\d.]+ ms"))),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral(
                     "keyword-vote, 300 runs, 256 in flight, \\d+ workers: \\d+ runs/s \\(median of 3; min \\d+\\), "
                     "CPU [\\d.]+ us per run, [\\d.]+ us per node \\(6 nodes\\)"))),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression(
                     QStringLiteral("the same with the run store: \\d+ runs/s \\(300 runs each, median of 3, every run "
                                    "committed\\)"))),
                 qPrintable(r.out));
    }

    // The what-if's figures: its two lines, each against its target.
    void whatIfBenchPrintsBothFigures()
    {
        const auto r = testsupport::runConclave({"bench", "whatif", "--runs", "1"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QRegularExpression(
                     "\nwhatif: a stored run of 1001 nodes \\(1001 ran\\) re-projected with one expert 50 % faster: "
                     "[0-9.]+ ms median, p95 [0-9.]+ ms of 20 \\(target <= 20 ms; loading and preparing the team "
                     "excluded\\)\n")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression(
                     "\nwhatif: the profile of a 10-agent design over 500 trials \\(10 agents x 4 speeds \\+ 1 "
                     "backend doubled \\+ none = 42 projections per trial\\): [0-9.]+ s median of 3 \\(target <= 2 "
                     "s\\); loading the trials [0-9]+ ms\n  out of [0-9.]+ s p50 over 500 trials, making ")),
                 qPrintable(r.out));
    }

    // bench fidelity on a small world (lab-a's rules over the 25 mixed-small
    // tasks): drawn under --world-seed mixed with its name, and --no-replay
    // leaves the replayed columns empty. The world and the simulator run in
    // process on the simulated clock, so its counts are exact.
    void fidelityBenchOnASmallWorld()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::ifstream in(std::string(CONCLAVE_RESOURCES) + "/bench/worlds/lab-a.json");
        auto world = nlohmann::json::parse(in);
        world["name"] = "tiny";
        world["task_sets"] = {"mixed-small"};
        const auto file = dir.filePath("tiny.json");
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(world.dump()));
        }
        const auto loaded = conclave::GroundTruthWorld::fromJsonText(world.dump(), CONCLAVE_RESOURCES);
        QVERIFY(loaded.world);
        const auto r = bench({"fidelity", "--world", file, "--world-seed", "5", "--folds", "1", "--no-replay"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("world tiny (seed " + QString::number(loaded.world->seedUnder(5)) + "): measured in "),
                 qPrintable(r.out));
        const QRegularExpression noReplay(QStringLiteral("^(single|cascade|vote|synthesizer|synthesizer-skip|debate) "
                                                         ".* +- +- +-$"),
                                          QRegularExpression::MultilineOption);
        int rows = 0;
        for (auto it = noReplay.globalMatch(r.out); it.hasNext(); it.next())
            ++rows;
        QCOMPARE(rows, 6);
        QVERIFY2(r.out.contains("fidelity targets over 6 (world, design) pairs on tasks the calibration did not "
                                "read:\n  accuracy within 1.96 combined se: 6 of 6 (100 %) (target >= 90 %, met)\n"
                                "  median predicted / measured CI width: 0.36 (target <= 2, met)\n"
                                "  cost within 10 %: 5 of 6 (83 %) (target >= 90 %, NOT met)\n"
                                "  p50 wall within 15 %: 3 of 6 (50 %) (target >= 90 %, NOT met)\n"),
                 qPrintable(r.out));
    }

    void unknownBenchmarkIsAUsageError()
    {
        const auto r = bench({"nope"});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.out, QString());
        QCOMPARE(r.err, QStringLiteral("which: nope not in {all,fanout,chain,early,clock,store,sim,eval,calibrate,fidelity,whatif,routing,routing-speed,http,serve,search,search-worlds}\n"
                                       "Run with --help for more information.\n"));
    }
};

QTEST_GUILESS_MAIN(TestCliBench)
#include "tst_clibench.moc"
