// A decompose meeting's plan under max_subtasks (Meeting, ReplyParser::subtasksUpTo):
// the plan prompt asks for at most max_subtasks (default: one per member),
// plan lines beyond it are dropped before any member is called, and the plan
// round's span notes how many ("max_subtasks 3: 99,997 further lines
// dropped"), as the observers see it when the span closes. The coordinator's
// model is a scripted backend, so a reply can be anything, 100,000 lines too.
#include <QtTest>

#include "support/EngineTestKit.h"
#include "support/RunInvariants.h"
#include "support/ScriptedBackend.h"

#include "conclave/engine/RealClock.h"
#include "conclave/engine/RunPlan.h"
#include "conclave/engine/ThreadPool.h"
#include "conclave/engine/TimerService.h"

using namespace enginetest;

namespace {

constexpr int kUnset = 0;

// in -> plan (decompose on the scripted backend, its members m1..mN) -> out.
std::shared_ptr<const RunPlan> decomposePlan(int members, int maxSubtasks)
{
    json doc{{"conclave", 3}, {"name", "plan"}};
    doc["backends"]["scripted"] = json{{"kind", "local-moe"}, {"time_scale", 1}};
    doc["defaults"] = json{{"backend", "scripted"}, {"timeout_ms", 30000}, {"retries", 0}};
    json plan{{"id", "plan"}, {"kind", "coordinator"}, {"mode", "decompose"}, {"model", "m"}};
    if (maxSubtasks != kUnset)
        plan["max_subtasks"] = maxSubtasks;
    doc["nodes"] = json::array({json{{"id", "in"}, {"kind", "input"}}, plan, json{{"id", "out"}, {"kind", "output"}}});
    doc["edges"] = json::array({json{{"from", "in"}, {"to", "plan"}}, json{{"from", "plan"}, {"to", "out"}}});
    for (int i = 1; i <= members; ++i) {
        const auto id = "m" + std::to_string(i);
        doc["nodes"].push_back(json{{"id", id}, {"kind", "expert"}, {"model", "m"}});
        doc["edges"].push_back(json{{"from", "plan"}, {"to", id}, {"role", "member"}});
    }
    auto loaded = teamFromJson(doc);
    if (!loaded.team)
        return nullptr;
    std::string error;
    return RunPlan::make(*loaded.team, error);
}

// A plan reply of `lines` numbered lines: the first named part1, part2, ...; the rest all "more".
// Short lines, so that 100,000 of them stay below a megabyte.
std::string planReply(int lines)
{
    std::string out;
    for (int i = 1; i <= lines; ++i)
        out += i <= 5 ? std::to_string(i) + ". part" + std::to_string(i) + "\n" : std::string("6. more\n");
    return out;
}

} // namespace

class TestDecomposePlan : public QObject {
    Q_OBJECT

private slots:
    void planIsCapped_data()
    {
        QTest::addColumn<int>("members");
        QTest::addColumn<int>("maxSubtasks"); // kUnset: the default
        QTest::addColumn<int>("planLines");
        QTest::addColumn<QString>("promptNumber"); // "at most N"
        QTest::addColumn<QStringList>("calledParts");
        QTest::addColumn<QString>("note");

        QTest::newRow("100,000 lines, max_subtasks 3")
            << 2 << 3 << 100000 << "3" << QStringList{"part1", "part2", "part3"}
            << "max_subtasks 3: 99,997 further lines dropped";
        QTest::newRow("default: one per member")
            << 2 << kUnset << 5 << "2" << QStringList{"part1", "part2"} << "max_subtasks 2: 3 further lines dropped";
        QTest::newRow("one line over") << 2 << 4 << 5 << "4" << QStringList{"part1", "part2", "part3", "part4"}
                                       << "max_subtasks 4: 1 further line dropped";
        QTest::newRow("max_subtasks 1 of 1,500 lines")
            << 3 << 1 << 1500 << "1" << QStringList{"part1"} << "max_subtasks 1: 1,499 further lines dropped";
        QTest::newRow("within the limit: no note") << 3 << 3 << 2 << "3" << QStringList{"part1", "part2"} << "";
        QTest::newRow("exactly the limit: no note")
            << 3 << kUnset << 3 << "3" << QStringList{"part1", "part2", "part3"} << "";
    }

    void planIsCapped()
    {
        QFETCH(int, members);
        QFETCH(int, maxSubtasks);
        QFETCH(int, planLines);
        QFETCH(QString, promptNumber);
        QFETCH(QStringList, calledParts);
        QFETCH(QString, note);
        const auto plan = decomposePlan(members, maxSubtasks);
        QVERIFY(plan);

        ThreadPool pool(2);
        TimerService timers(pool);
        auto backend = std::make_shared<ScriptedBackend>();
        invariants::EventLog log;
        Recorder recorder;
        auto run = scriptedRun(plan, backend, std::make_shared<RealClock>(pool, timers), {&log, &recorder});
        run->start();

        // The plan: the prompt asks for at most N.
        QVERIFY(backend->waitUntil([&] { return backend->startedCount() == 1; }, 10s));
        const auto planRequest = backend->requests().at(0);
        QCOMPARE(q(planRequest.prompt), QStringLiteral("Split the task below into at most %1 independent subtasks "
                                                       "that together solve it.\n\nTask:\nhello")
                                            .arg(promptNumber));
        backend->reply(backend->started()[0].first, planReply(planLines));

        // The members: one call per kept part, all at once; then the combination.
        const auto subtaskCalls = size_t(calledParts.size());
        QVERIFY(backend->waitUntil([&] { return backend->startedCount() == 1 + subtaskCalls; }, 10s));
        QStringList parts;
        for (size_t i = 1; i <= subtaskCalls; ++i) {
            const auto request = backend->requests().at(i);  // requests() returns a copy
            for (int k = 1; k <= 6; ++k) {
                const auto part = k <= 5 ? "part" + std::to_string(k) : std::string("more");
                if (request.prompt.find(part) != std::string::npos)
                    parts << q(part);
            }
            backend->reply(backend->started()[i].first, "Answer: " + std::to_string(i) + "\nConfidence: 0.9");
        }
        parts.sort();
        QCOMPARE(parts, calledParts);
        QVERIFY(backend->waitUntil([&] { return backend->startedCount() == 2 + subtaskCalls; }, 10s));
        backend->reply(backend->started().back().first, "Answer: done\nConfidence: 0.8");
        const auto result = run->wait();

        // A clear outcome: ok, and no call beyond the plan, the kept parts and the combination.
        QCOMPARE(q(toString(result.status)), QStringLiteral("ok"));
        QCOMPARE(q(result.output.answer), QStringLiteral("done"));
        QCOMPARE(backend->started().size(), 2 + subtaskCalls);
        const auto rounds = spansOf(result, "plan", SpanKind::Round);
        QCOMPARE(rounds.size(), size_t(3));
        QCOMPARE(q(rounds[0].name), QStringLiteral("plan"));
        QCOMPARE(q(rounds[0].note), note);
        QCOMPARE(q(rounds[1].name), QStringLiteral("solve"));
        QCOMPARE(q(rounds[1].note), QString());
        QCOMPARE(q(rounds[2].note), QString());
        size_t memberCalls = 0;
        for (const auto& s : result.spans)
            memberCalls += s.kind == SpanKind::Node && s.parent == rounds[1].id ? 1 : 0;
        QCOMPARE(memberCalls, subtaskCalls);
        // Part i goes to member i modulo the members: the first member takes the 1st, (N+1)th, ... part.
        QCOMPARE(spansOf(result, "m1", SpanKind::Node).size(), (subtaskCalls + size_t(members) - 1) / size_t(members));

        // The observers saw the note when the plan round closed.
        QString seen = QStringLiteral("(plan round never finished)");
        for (const auto& s : recorder.finishedSpans()) {
            if (s.id == rounds[0].id)
                seen = q(s.note);
        }
        QCOMPARE(seen, note);
        QCOMPARE(invariants::check(*plan, result, log), std::vector<std::string>{});
    }

    // A reply without one subtask line solves the whole task as one part, with no note.
    void anEmptyPlanSolvesTheTask()
    {
        const auto plan = decomposePlan(2, 3);
        QVERIFY(plan);
        ThreadPool pool(2);
        TimerService timers(pool);
        auto backend = std::make_shared<ScriptedBackend>();
        auto run = scriptedRun(plan, backend, std::make_shared<RealClock>(pool, timers));
        run->start();
        QVERIFY(backend->waitUntil([&] { return backend->startedCount() == 1; }, 10s));
        backend->reply(backend->started()[0].first, "\n  \n");
        QVERIFY(backend->waitUntil([&] { return backend->startedCount() == 2; }, 10s));
        QVERIFY(backend->requests().at(1).prompt.find("hello") != std::string::npos);
        backend->reply(backend->started()[1].first, "Answer: hi\nConfidence: 0.9");
        QVERIFY(backend->waitUntil([&] { return backend->startedCount() == 3; }, 10s));
        backend->reply(backend->started()[2].first, "Answer: hi\nConfidence: 0.9");
        const auto result = run->wait();
        QCOMPARE(q(toString(result.status)), QStringLiteral("ok"));
        QCOMPARE(backend->started().size(), size_t(3));
        QCOMPARE(q(spansOf(result, "plan", SpanKind::Round).at(0).note), QString());
    }
};

QTEST_GUILESS_MAIN(TestDecomposePlan)
#include "tst_decomposeplan.moc"
