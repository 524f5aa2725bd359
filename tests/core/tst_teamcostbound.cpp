// TeamCostBound and ExperimentSetup::costBound: the typical figure and the
// true upper bound of a paid team, exactly, on a team with a retried expert
// with a fallback model, a decompose coordinator and a round-robin meeting;
// nested meetings, unpriced and uncapped calls, the judge, free local teams.
//
// The prompt texts are the engine's (PromptBuilder): the answer format is 99
// characters, the decompose system prompt 89, decomposePrompt("", 2) 88, the
// combine system prompt 131, combinePrompt("", {m1, m2}) 158, and a
// transcript line "- m3 (round 1): answer:  (confidence 0.00)\n" 43 before its
// answer. Tokens are ⌈characters / 4⌉; $ = (in · input + out · output) / 1e6.
#include <QtTest>

#include "support/CompareNear.h"

#include "conclave/engine/PromptBuilder.h"
#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/experiment/TeamCostBound.h"
#include "conclave/io/TeamJson.h"

#include <nlohmann/json.hpp>

using namespace conclave;
using nlohmann::json;

namespace {

json paidBackend()
{
    // big: $1 in, $2 out per million tokens; small: $0.5 and $1.
    return {{"kind", "openai"},
            {"base_url", "http://127.0.0.1:9/v1"},
            {"api_key_env", "CONCLAVE_TEST_NO_KEY"},
            {"prices", {{"big", {{"input", 1.0}, {"output", 2.0}}}, {"small", {{"input", 0.5}, {"output", 1.0}}}}}};
}

json expert(const char* id, const char* model, int maxTokens, int retries, const char* prompt)
{
    return {{"id", id},           {"kind", "expert"}, {"model", model}, {"params", {{"max_tokens", maxTokens}}},
            {"retries", retries}, {"prompt", prompt}};
}

// in → solo, plan (decompose: m1, m2), talk (round robin: m3, m4) → vote → out.
json boundTeam()
{
    auto solo = expert("solo", "big", 100, 1, "{{input}}");
    solo["fallback_model"] = "small";
    solo["system"] = "S";
    return {{"conclave", 3},
            {"name", "bound"},
            {"backends", {{"paid", paidBackend()}}},
            {"defaults", {{"backend", "paid"}}},
            {"nodes",
             {{{"id", "in"}, {"kind", "input"}},
              solo,
              {{"id", "plan"},
               {"kind", "coordinator"},
               {"mode", "decompose"},
               {"max_subtasks", 2},
               {"model", "big"},
               {"params", {{"max_tokens", 40}}},
               {"retries", 0}},
              expert("m1", "small", 10, 0, "{{task}}"),
              expert("m2", "small", 10, 0, "{{task}}"),
              {{"id", "talk"}, {"kind", "coordinator"}, {"mode", "round_robin"}, {"max_rounds", 2}},
              expert("m3", "big", 20, 0, "{{task}} {{transcript}}"),
              expert("m4", "small", 20, 2, "{{task}}"),
              {{"id", "vote"}, {"kind", "aggregator"}, {"strategy", "majority"}},
              {{"id", "out"}, {"kind", "output"}}}},
            {"edges",
             {{{"from", "in"}, {"to", "solo"}},
              {{"from", "in"}, {"to", "plan"}},
              {{"from", "in"}, {"to", "talk"}},
              {{"from", "plan"}, {"to", "m1"}, {"role", "member"}},
              {{"from", "plan"}, {"to", "m2"}, {"role", "member"}},
              {{"from", "talk"}, {"to", "m3"}, {"role", "member"}},
              {{"from", "talk"}, {"to", "m4"}, {"role", "member"}},
              {{"from", "solo"}, {"to", "vote"}},
              {{"from", "plan"}, {"to", "vote"}},
              {{"from", "talk"}, {"to", "vote"}},
              {{"from", "vote"}, {"to", "out"}}}}};
}

Team teamOf(const json& document)
{
    auto loaded = teamFromJson(document);
    if (!loaded.team)
        qFatal("the test team does not load: %s",
               loaded.problems.empty() ? "?" : loaded.problems.front().message.c_str());
    return std::move(*loaded.team);
}

// The team without one of its branches (its edges go too).
json without(json team, const std::vector<std::string>& ids)
{
    auto& nodes = team["nodes"];
    auto& edges = team["edges"];
    const auto gone = [&](const json& id) {
        return std::find(ids.begin(), ids.end(), id.get<std::string>()) != ids.end();
    };
    nodes.erase(std::remove_if(nodes.begin(), nodes.end(), [&](const json& n) { return gone(n["id"]); }), nodes.end());
    edges.erase(
        std::remove_if(edges.begin(), edges.end(), [&](const json& e) { return gone(e["from"]) || gone(e["to"]); }),
        edges.end());
    return team;
}

} // namespace

class TestTeamCostBound : public QObject {
    Q_OBJECT

private slots:
    // The engine's texts the figures below are worked out from: a changed prompt changes the bound.
    void promptLengths()
    {
        QCOMPARE(PromptBuilder::answerFormat().size(), size_t(99));
        QCOMPARE(PromptBuilder::decomposeSystem().size(), size_t(89));
        QCOMPARE(PromptBuilder::decomposePrompt("", 2).size(), size_t(88));
        QCOMPARE(PromptBuilder::combineSystem().size(), size_t(131));
        QCOMPARE(PromptBuilder::combinePrompt("", {{"m1", "", 0, ""}, {"m2", "", 0, ""}}).size(), size_t(158));
        QCOMPARE(PromptBuilder::transcriptLine("m3", 1, "", 0).size(), size_t(43));
    }

    // Each branch alone, then the whole team, on an input of 40 characters.
    void branches_data()
    {
        QTest::addColumn<QStringList>("dropped");
        QTest::addColumn<double>("typical");
        QTest::addColumn<double>("upper");
        // solo: system "S\n\n" + the answer format = 102, prompt 40 → ⌈142/4⌉ = 36 tokens in, 100 out.
        // big: 36 + 200 = $0.000236; small: 18 + 100 = $0.000118. Typical: one attempt on big.
        // Upper: retries 1 → 2 attempts on big, then 2 on the fallback: 2·236 + 2·118 = $0.000708.
        QTest::newRow("solo") << QStringList{"plan", "m1", "m2", "talk", "m3", "m4"} << 0.000236 << 0.000708;
        // plan: worked out in decompose() below.
        QTest::newRow("plan") << QStringList{"solo", "talk", "m3", "m4"} << 0.000383 << 0.000403;
        // talk: the meeting (worked out in meeting() below).
        QTest::newRow("talk") << QStringList{"solo", "plan", "m1", "m2"} << 0.000287 << 0.000437;
        // All three: the sums.
        QTest::newRow("the team") << QStringList{} << 0.000906 << 0.001548;
    }

    void branches()
    {
        QFETCH(QStringList, dropped);
        QFETCH(double, typical);
        QFETCH(double, upper);
        std::vector<std::string> ids;
        for (const auto& id : dropped)
            ids.push_back(id.toStdString());
        const TeamCostBound bound(teamOf(without(boundTeam(), ids)));
        QVERIFY(bound.valid());
        QVERIFY(bound.paid());
        const auto run = bound.of(40);
        QCOMPARE_NEAR(run.typicalUsd, typical, 1e-15);
        QCOMPARE_NEAR(run.upperUsd, upper, 1e-15);
        QVERIFY(run.unpriced.empty());
        QVERIFY(run.uncapped.empty());
    }

    // The decompose branch step by step, input 40 characters (the task):
    // - the plan call: system 89, prompt 88 + 40 → ⌈217/4⌉ = 55 tokens in, 40 out at big: 55 + 80 = $0.000135;
    // - its reply is at most 40 tokens = 160 characters. Upper: each of the 2 subtasks that long →
    //   m1, m2: ⌈(99 + 160)/4⌉ = 65 in, 10 out at small: 32.5 + 10 = $0.0000425 each; typical: each
    //   subtask a half, 80 characters → ⌈179/4⌉ = 45 in: 22.5 + 10 = $0.0000325 each;
    // - the combine call: 131 + 158 + 40 (the task) + 2 · 40 (each part's answer, a 10-token reply) = 409
    //   → 103 in, 40 out at big: 103 + 80 = $0.000183.
    // Sums: typical 0.000135 + 2 · 0.0000325 + 0.000183 = $0.000383; upper 0.000135 + 2 · 0.0000425 +
    // 0.000183 = $0.000403 (the plan and the combine call have no retries and no fallback).
    void decompose()
    {
        const TeamCostBound bound(teamOf(without(boundTeam(), {"solo", "talk", "m3", "m4"})));
        const auto run = bound.of(40);
        QCOMPARE_NEAR(run.upperUsd - run.typicalUsd, 2 * (0.0000425 - 0.0000325), 1e-15);
        // The output is the combine call's reply: 40 tokens, 160 characters.
        QCOMPARE(run.outputChars, size_t(160));
    }

    // The round-robin branch: 2 rounds of m3 (big, 20 out, no retry; its prompt "{{task}} {{transcript}}")
    // and m4 (small, 20 out, retries 2; "{{task}}"). A transcript line is 43 + 80 (a 20-token answer) = 123.
    // Round 1: m3 sees nothing: 99 + 41 → 35 in: 35 + 40 = $0.000075; m4: 99 + 40 → 35 in: 17.5 + 20 =
    // $0.0000375, 3 attempts in the bound. Round 2: m3 sees 2 lines: 99 + 41 + 246 = 386 → 97 in:
    // 97 + 40 = $0.000137; m4 as before. Typical 75 + 37.5 + 137 + 37.5 = $0.000287; upper 75 + 112.5 +
    // 137 + 112.5 = $0.000437. The meeting's text: 4 lines, "\nAnswer: " and an answer: 492 + 9 + 80 = 581.
    void meeting()
    {
        const TeamCostBound bound(teamOf(without(boundTeam(), {"solo", "plan", "m1", "m2"})));
        const auto run = bound.of(40);
        QCOMPARE_NEAR(run.typicalUsd, 0.000287, 1e-15);
        QCOMPARE_NEAR(run.upperUsd, 0.000437, 1e-15);
        QCOMPARE(run.outputChars, size_t(581));
    }

    // A member that is a meeting holds it every time it is asked: an outer round robin of 3 rounds over
    // `talk` alone costs 3 of its meetings, on the outer task.
    void nestedMeeting()
    {
        auto team = without(boundTeam(), {"solo", "plan", "m1", "m2"});
        team["nodes"].push_back({{"id", "outer"}, {"kind", "coordinator"}, {"mode", "round_robin"}, {"max_rounds", 3}});
        auto& edges = team["edges"];
        for (auto& e : edges) {
            if (e["from"] == "in" && e["to"] == "talk")
                e["to"] = "outer";
            if (e["from"] == "talk" && e["to"] == "vote")
                e["from"] = "outer";
        }
        edges.push_back({{"from", "outer"}, {"to", "talk"}, {"role", "member"}});
        const TeamCostBound bound(teamOf(team));
        QVERIFY(bound.valid());
        const auto run = bound.of(40);
        QCOMPARE_NEAR(run.typicalUsd, 3 * 0.000287, 1e-15);
        QCOMPARE_NEAR(run.upperUsd, 3 * 0.000437, 1e-15);
    }

    void unpricedAndUncappedAreNamed()
    {
        auto team = without(boundTeam(), {"plan", "m1", "m2", "talk", "m3", "m4"});
        team["nodes"][1]["model"] = "mystery";
        team["nodes"][1]["params"] = json::object();
        const TeamCostBound bound(teamOf(team));
        const auto run = bound.of(40);
        QCOMPARE(run.unpriced, (std::set<std::string>{"mystery"}));
        QCOMPARE(run.uncapped, (std::set<std::string>{"solo"}));
        // mystery is free; the fallback small is not, at 512 tokens out: 36 in → 18 + 512 = $0.00053, twice.
        QCOMPARE_NEAR(run.typicalUsd, 0.0, 1e-15);
        QCOMPARE_NEAR(run.upperUsd, 2 * 0.00053, 1e-15);
    }

    void localTeamsAreFree()
    {
        auto team = boundTeam();
        team["backends"] = {{"local", {{"kind", "local-moe"}}}};
        team["defaults"] = {{"backend", "local"}};
        const TeamCostBound bound(teamOf(team));
        QVERIFY(bound.valid());
        QVERIFY(!bound.paid());
        const auto run = bound.of(40);
        QCOMPARE(run.typicalUsd, 0.0);
        QCOMPARE(run.upperUsd, 0.0);
    }

    // The experiment: every trial of the spec, each task at its own prompt length, times the seeds.
    void experiment()
    {
        ExperimentSpec spec;
        spec.designs.push_back(
            makeDesign("bound", "", teamOf(without(boundTeam(), {"plan", "m1", "m2", "talk", "m3", "m4"}))));
        auto local = boundTeam();
        local["backends"] = {{"local", {{"kind", "local-moe"}}}};
        local["defaults"] = {{"backend", "local"}};
        spec.designs.push_back(makeDesign("local", "", teamOf(local)));
        const std::string a(40, 'x');
        const std::string b(44, 'y');
        auto loaded = TaskSet::fromJsonLines(R"({"id":"a","domain":"math","prompt":")" + a +
                                             R"(","answer":"1"})"
                                             "\n" +
                                             R"({"id":"b","domain":"math","prompt":")" + b + R"(","answer":"2"})");
        QVERIFY(loaded.tasks);
        spec.tasks = std::make_shared<const TaskSet>(std::move(*loaded.tasks));
        spec.seeds = {1, 2, 3};
        const auto bound = ExperimentSetup::costBound(spec);
        // a: 36 tokens in as above; b: 146 characters → 37 in: big 237, small 118.5 → typical $0.000237,
        // upper 2·237 + 2·118.5 = $0.000711. Three seeds each; the local design costs nothing.
        QCOMPARE(bound.paidTrials, 6);
        QCOMPARE_NEAR(bound.typicalUsd, 3 * (0.000236 + 0.000237), 1e-15);
        QCOMPARE_NEAR(bound.upperUsd, 3 * (0.000708 + 0.000711), 1e-15);
        QVERIFY(bound.unpriced.empty());
        QVERIFY(bound.uncapped.empty());
    }

    // A task without an answer is judged: the judge's bound on its input (the question, no reference,
    // and the design's longest answer, here solo's 100 tokens = 400 characters) joins the trial's.
    void judgedTasksAddTheJudge()
    {
        ExperimentSpec spec;
        spec.designs.push_back(
            makeDesign("bound", "", teamOf(without(boundTeam(), {"plan", "m1", "m2", "talk", "m3", "m4"}))));
        const std::string prompt(40, 'q');
        auto loaded = TaskSet::fromJsonLines(R"({"id":"free","domain":"writing","prompt":")" + prompt +
                                             R"("})"
                                             "\n"
                                             R"({"id":"exact","domain":"math","prompt":")" +
                                             prompt + R"(","answer":"4"})");
        QVERIFY(loaded.tasks);
        spec.tasks = std::make_shared<const TaskSet>(std::move(*loaded.tasks));
        spec.seeds = {1};
        auto judge = without(boundTeam(), {"plan", "m1", "m2", "talk", "m3", "m4"});
        judge["nodes"][1] = expert("solo", "small", 4, 0, "{{input}}");
        spec.judge = makeDesign("judge", "", teamOf(judge));
        const auto bound = ExperimentSetup::costBound(spec);
        // The judge reads 99 (its answer format) + the judge input: the engine's text around the question,
        // plus the 400 characters of the answer; 4 tokens out at small. Only "free" is judged.
        const size_t input = PromptBuilder::judgeInput({prompt, "", ""}).size() + 400;
        const double judged = Price{0.5, 1.0}.costUsd(double((99 + input + 3) / 4), 4);
        QCOMPARE(bound.paidTrials, 2);
        QCOMPARE_NEAR(bound.typicalUsd, 2 * 0.000236 + judged, 1e-15);
        QCOMPARE_NEAR(bound.upperUsd, 2 * 0.000708 + judged, 1e-15);
    }
};

QTEST_GUILESS_MAIN(TestTeamCostBound)
#include "tst_teamcostbound.moc"
