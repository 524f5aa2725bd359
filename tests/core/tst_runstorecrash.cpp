// Crash safety of the run store: a child process (this executable, in child
// mode) runs a long team into the store and reports, through its stdout, what
// has been committed; it is killed with SIGKILL as soon as it has reported a
// random number of committed spans (20 rounds). The kill follows what the child
// reported, not a timer, so a loaded machine slows both and changes nothing: the
// chain is long enough that the run is still going when the kill lands. Each
// time the database must pass `PRAGMA integrity_check`, the run must read as
// interrupted (to a reader first, which writes nothing, then marked so by a
// writer's open), and every span the child reported as committed must be there.
#include <QDeadlineTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "support/QtStrings.h"

#undef emit

#include "conclave/bench/BenchTeams.h"
#include "conclave/session/Engine.h"
#include "conclave/store/RunStore.h"
#include "conclave/store/SqliteDb.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <random>

using namespace conclave;
using namespace std::chrono_literals;

namespace {

// Child mode: run a 2,000-node chain (5 ms a node) into `db`, printing "started RUN"
// and then "committed RUN STARTED FINISHED" each time the committed counts change.
int crashChild(const char* db)
{
    RunStore::Options options;
    options.writer.maxDelay = 10ms;
    auto opened = RunStore::open(db, options);
    if (!opened.store) {
        std::fprintf(stderr, "%s\n", opened.error.c_str());
        return 2;
    }
    std::vector<std::string> errors;
    Engine engine(EngineResources::load(CONCLAVE_RESOURCES, errors));
    auto team = BenchTeams::chain(2000);
    for (auto& [name, profile] : *team.backends.begin()->second.models)
        profile.ttftMs = Distribution{5, 5};
    std::string error;
    auto recorder = opened.store->record(team, error);
    if (!recorder) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 2;
    }
    auto started = engine.start(team, "crash", 1, {recorder.get()});
    if (!started.run)
        return 2;
    std::printf("started %s\n", recorder->id().str().c_str());
    std::fflush(stdout);
    uint64_t lastStarted = 0, lastFinished = 0;
    for (;;) {
        const bool done = started.run->waitFor(2ms);
        const auto s = recorder->progress().spansStarted.load();
        const auto f = recorder->progress().spansFinished.load();
        if (s != lastStarted || f != lastFinished) {
            std::printf("committed %s %llu %llu\n", recorder->id().str().c_str(), static_cast<unsigned long long>(s),
                        static_cast<unsigned long long>(f));
            std::fflush(stdout);
            lastStarted = s;
            lastFinished = f;
        }
        if (done)
            break;
    }
    recorder->waitUntilStored();
    std::printf("done\n");
    std::fflush(stdout);
    return 0;
}

struct Report {
    QString run;
    uint64_t started = 0;
    uint64_t finished = 0;
    bool done = false; // the child finished its run

    // Takes one line of the child's; the last "committed" line is the latest promise.
    void read(const QString& line)
    {
        const auto parts = line.trimmed().split(' ');
        if (parts.size() == 4 && parts[0] == "committed") {
            run = parts[1];
            started = parts[2].toULongLong();
            finished = parts[3].toULongLong();
        } else if (line.trimmed() == "done") {
            done = true;
        }
    }
};

} // namespace

class TestRunStoreCrash : public QObject {
    Q_OBJECT

private slots:
    void sigkillAtRandomMoments()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto db = (dir.path() + "/crash.sqlite").toStdString();
        std::mt19937 rng(20260);
        // About 300 of the chain's 2,000 nodes at most: the run is seconds from its end.
        std::uniform_int_distribution<int> killAtSpans(1, 600);
        int checkedRuns = 0;
        for (int round = 0; round < 20; ++round) {
            QProcess child;
            auto env = QProcessEnvironment::systemEnvironment();
            env.insert("CONCLAVE_CRASH_CHILD", QString::fromStdString(db));
            child.setProcessEnvironment(env);
            child.start(QCoreApplication::applicationFilePath(), {});
            QVERIFY(child.waitForStarted(10000));
            const auto target = uint64_t(killAtSpans(rng));
            Report last;
            // Generous: under a sanitizer on a loaded machine, loading the resources alone takes seconds.
            QDeadlineTimer deadline(std::chrono::minutes(3));
            while (last.started < target && !last.done && !deadline.hasExpired() &&
                   child.state() == QProcess::Running) {
                if (child.canReadLine() || child.waitForReadyRead(1000)) {
                    while (child.canReadLine())
                        last.read(QString::fromUtf8(child.readLine()));
                }
            }
            QVERIFY2(last.started >= target, qPrintable(QString("the child reported %1 committed spans, not %2: %3")
                                                            .arg(last.started)
                                                            .arg(target)
                                                            .arg(QString::fromUtf8(child.readAllStandardError()))));
            ::kill(pid_t(child.processId()), SIGKILL);
            QVERIFY(child.waitForFinished(10000));
            QCOMPARE(child.exitStatus(), QProcess::CrashExit);
            // What it reported after the line that triggered the kill was committed too.
            for (const auto& line : QString::fromUtf8(child.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts))
                last.read(line);
            QVERIFY2(!last.done, "the child finished before it was killed");

            SqliteDb check;
            QVERIFY(!check.open(db, SqliteDb::Mode::ReadWrite));
            auto integrity = check.prepare("PRAGMA integrity_check");
            QVERIFY(integrity.step());
            QCOMPARE(q(integrity.text(0)), QString("ok"));
            check = SqliteDb();

            const RunId id(last.run.toStdString());
            std::string error;
            {
                auto reading = RunStore::openForReading(db);
                QVERIFY2(reading.store, reading.error.c_str());
                const auto seen = reading.store->reader(error)->load(id, false, error);
                QVERIFY2(seen, error.c_str());
                QVERIFY(seen->summary.status == RunStatus::Interrupted);
            }
            auto opened = RunStore::open(db);
            QVERIFY2(opened.store, opened.error.c_str());
            QCOMPARE(opened.store->recoveredRuns(), 1);
            auto reader = opened.store->reader(error);
            const auto run = reader->load(id, false, error);
            QVERIFY2(run, error.c_str());
            QVERIFY(run->summary.status == RunStatus::Interrupted);
            QVERIFY2(run->spans.size() >= last.started,
                     qPrintable(QString("%1 spans stored, %2 reported").arg(run->spans.size()).arg(last.started)));
            for (uint64_t i = 0; i < last.started; ++i)
                QCOMPARE(run->spans[i].id, SpanId(i + 1));
            const auto ended =
                std::count_if(run->spans.begin(), run->spans.end(), [](const Span& s) { return s.endUs >= 0; });
            QVERIFY(uint64_t(ended) >= last.finished);
            ++checkedRuns;
        }
        QCOMPARE(checkedRuns, 20);
    }
};

int main(int argc, char** argv)
{
    if (const char* db = std::getenv("CONCLAVE_CRASH_CHILD"))
        return crashChild(db);
    QCoreApplication app(argc, argv);
    TestRunStoreCrash test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_runstorecrash.moc"
