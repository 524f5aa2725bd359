// Crash safety of the run store: a child process (this executable, in child
// mode) runs a long team into the store and reports what has been committed;
// it is killed with SIGKILL at 20 random moments. Each time the database must
// pass `PRAGMA integrity_check`, the run must read back as interrupted, and
// every span the child reported as committed must be there.
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
#include <thread>

using namespace conclave;
using namespace std::chrono_literals;

namespace {

// Child mode: run a 400-node chain (5 ms a node) into `db`, printing "started RUN"
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
    auto team = BenchTeams::chain(400);
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
        std::uniform_int_distribution<int> killAfterMs(0, 1500);
        int checkedRuns = 0;
        for (int round = 0; round < 20; ++round) {
            QProcess child;
            auto env = QProcessEnvironment::systemEnvironment();
            env.insert("CONCLAVE_CRASH_CHILD", QString::fromStdString(db));
            child.setProcessEnvironment(env);
            child.start(QCoreApplication::applicationFilePath(), {});
            QVERIFY(child.waitForStarted(10000));
            // The random moment is counted from the run's start, not the process's:
            // under a sanitizer, loading the resources alone can take a second.
            QByteArray seen;
            while (!seen.contains("started") && child.waitForReadyRead(30000))
                seen = child.peek(1 << 16);
            QVERIFY2(seen.contains("started"), "the child did not start its run");
            const int delay = killAfterMs(rng);
            QThread::msleep(ulong(delay));
            ::kill(pid_t(child.processId()), SIGKILL);
            QVERIFY(child.waitForFinished(10000));
            QCOMPARE(child.exitStatus(), QProcess::CrashExit);
            const auto lines = QString::fromUtf8(child.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
            QVERIFY2(!lines.contains("done"), "the child finished before it was killed");
            Report last;
            for (const auto& line : lines) {
                const auto parts = line.split(' ');
                if (parts.size() == 4 && parts[0] == "committed")
                    last = {parts[1], parts[2].toULongLong(), parts[3].toULongLong()};
            }

            SqliteDb check;
            QVERIFY(!check.open(db, SqliteDb::Mode::ReadWrite));
            auto integrity = check.prepare("PRAGMA integrity_check");
            QVERIFY(integrity.step());
            QCOMPARE(q(integrity.text(0)), QString("ok"));
            check = SqliteDb();

            auto opened = RunStore::open(db);
            QVERIFY2(opened.store, opened.error.c_str());
            if (last.run.isEmpty())
                continue; // killed before its first commit: nothing was promised
            QCOMPARE(opened.store->recoveredRuns(), 1);
            std::string error;
            auto reader = opened.store->reader(error);
            const auto run = reader->load(RunId(last.run.toStdString()), false, error);
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
        QVERIFY2(checkedRuns >= 15, qPrintable(QString::number(checkedRuns)));
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
