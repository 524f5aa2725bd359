// The engine end to end on the local backend: routers, aggregators, meetings,
// timing, failures, budgets, cancellation and determinism, read back from the
// run's result and spans. Inline model profiles without jitter make every
// latency exact and skills of 1 or 0 make every answer certain; a small
// time_scale keeps the suite fast. Timing is asserted from spans only, never
// from the wall clock (except generous upper bounds for cancellation).

// Qt first: moc fails on <compare> when a conclave header is the first it meets.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QtTest>

#include "support/QtStrings.h"

// Qt's `emit` keyword macro would eat the name of Run::emit(); this suite emits no signals.
#undef emit

#include "conclave/engine/CriticalPathFinder.h"
#include "conclave/engine/Engine.h"
#include "conclave/engine/RunObserver.h"
#include "conclave/io/TeamJson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace conclave;
using json = nlohmann::json;
using namespace std::chrono_literals;

namespace {

// Tasks of resources/tasksets with their answers.
const char* const kMath = "Calculate 323 + 460.";  // math-001: 783
// reasoning-001: yes. Two choices, so a wrong answer is always "no".
const char* const kYesNo = "All bloops are razzies. All razzies are lazzies. Does it necessarily follow that all "
                           "bloops are lazzies? Answer yes or no.";
const char* const kFrance = "What is the capital city of France?";  // facts-001: paris
const char* const kTwoCapitals = "What is the capital city of France? What is the capital city of Japan?";
const char* const kCompound = "Calculate 323 + 460. And what is the capital city of France?";

// Every node result and span outlives a test only as a copy, so these are plain helpers.
json skillsAll(double skill)
{
    json s = json::object();
    for (const char* d : {"math", "code", "facts", "writing", "reasoning"})
        s[d] = skill;
    return s;
}

json skillsOnly(const char* domain, double skill = 1)
{
    json s = skillsAll(0);
    s[domain] = skill;
    return s;
}

json distribution(double value)
{
    json d = json::object();
    d["median"] = value;
    d["p95"] = value;  // no jitter
    return d;
}

// latency = ttft + tokens / speed, exactly.
json profile(const json& skills, double ttftMs, double tokens, double tokensPerS, double failureRate = 0)
{
    json p = json::object();
    p["skills"] = skills;
    p["ttft_ms"] = distribution(ttftMs);
    p["tokens_per_s"] = distribution(tokensPerS);
    p["output_tokens"] = distribution(tokens);
    p["price_per_mtok"] = json{{"input", 1}, {"output", 2}};
    p["context_tokens"] = 100000;
    p["failure_rate"] = failureRate;
    return p;
}

// A model that answers after exactly latencyMs simulated milliseconds (ttft 50).
json timed(const json& skills, double latencyMs)
{
    return profile(skills, 50, latencyMs - 50, 1000);
}

json testModels()
{
    json m = json::object();
    m["right"] = timed(skillsAll(1), 150);
    m["wrong"] = timed(skillsAll(0), 150);
    for (const int ms : {100, 300, 1000, 2000}) {
        m["right-" + std::to_string(ms)] = timed(skillsAll(1), ms);
        m["wrong-" + std::to_string(ms)] = timed(skillsAll(0), ms);
    }
    m["slow"] = profile(skillsAll(1), 50, 1000, 10);  // 100 s
    m["wrong-slow"] = profile(skillsAll(0), 50, 1000, 10);
    m["flaky"] = profile(skillsAll(1), 50, 100, 1000, 1.0);
    m["math-only"] = timed(skillsOnly("math"), 150);
    m["math-half"] = timed(skillsOnly("math", 0.5), 150);
    m["math-only-slow"] = timed(skillsOnly("math"), 1000);
    m["facts-only"] = timed(skillsOnly("facts"), 150);
    m["code-only"] = timed(skillsOnly("code"), 150);
    m["five-seconds"] = profile(skillsAll(1), 20, 4980, 1000);  // first token at 20 ms, done at 5 s
    return m;
}

// A team written as JSON, with the test models inline and retries off by default.
class TeamBuilder {
public:
    explicit TeamBuilder(double timeScale = 0.01)
    {
        m_doc["conclave"] = 1;
        m_doc["name"] = "test";
        json local = json::object();
        local["kind"] = "local-moe";
        local["seed"] = 42;
        local["time_scale"] = timeScale;
        local["models"] = testModels();
        m_doc["backends"]["local"] = local;
        m_doc["defaults"] = json{{"backend", "local"}, {"timeout_ms", 30000}, {"retries", 0}};
        m_doc["nodes"] = json::array();
        m_doc["edges"] = json::array();
        node("in", "input");
    }

    TeamBuilder& node(const std::string& id, const std::string& kind, json fields = json::object())
    {
        fields["id"] = id;
        fields["kind"] = kind;
        m_doc["nodes"].push_back(std::move(fields));
        return *this;
    }
    TeamBuilder& expert(const std::string& id, const std::string& model, json fields = json::object())
    {
        fields["model"] = model;
        return node(id, "expert", std::move(fields));
    }
    TeamBuilder& edge(const std::string& from, const std::string& to, const std::string& when = {})
    {
        json e{{"from", from}, {"to", to}};
        if (!when.empty())
            e["when"] = when;
        m_doc["edges"].push_back(std::move(e));
        return *this;
    }
    TeamBuilder& member(const std::string& coordinator, const std::string& expertId)
    {
        m_doc["edges"].push_back(json{{"from", coordinator}, {"to", expertId}, {"role", "member"}});
        return *this;
    }
    TeamBuilder& output(const std::string& from)
    {
        node("out", "output");
        return edge(from, "out");
    }
    json& doc() { return m_doc; }

    std::optional<Team> build(std::string& problems) const
    {
        auto loaded = teamFromJson(m_doc);
        for (const auto& p : loaded.problems)
            problems += p.message + "\n";
        return loaded.team;
    }

private:
    json m_doc = json::object();
};

// Records what a run reports, for counting and for waiting on it.
class Recorder : public RunObserver {
public:
    void runStarted(std::string_view, uint64_t) override
    {
        std::lock_guard lock(m_mutex);
        ++m_runsStarted;
    }
    void spanStarted(const Span& span) override
    {
        std::lock_guard lock(m_mutex);
        m_started.push_back(span);
        m_changed.notify_all();
    }
    void nodeToken(const NodeId&, SpanId, std::string_view, int64_t) override
    {
        std::lock_guard lock(m_mutex);
        ++m_tokens;
        m_changed.notify_all();
    }
    void spanFinished(const Span& span) override
    {
        std::lock_guard lock(m_mutex);
        m_spanFinished.push_back(span);
    }
    void nodeFinished(const NodeId& node, const NodeResult&, int64_t) override
    {
        std::lock_guard lock(m_mutex);
        m_nodesFinished.push_back(node.str());
    }
    void runFinished(const RunResult&) override
    {
        std::lock_guard lock(m_mutex);
        ++m_runsFinished;
    }

    bool waitForTokens(int count, std::chrono::milliseconds limit)
    {
        std::unique_lock lock(m_mutex);
        return m_changed.wait_for(lock, limit, [&] { return m_tokens >= count; });
    }
    int nodeFinishedCount(const std::string& node) const
    {
        std::lock_guard lock(m_mutex);
        return int(std::count(m_nodesFinished.begin(), m_nodesFinished.end(), node));
    }
    size_t nodesFinished() const
    {
        std::lock_guard lock(m_mutex);
        return m_nodesFinished.size();
    }
    size_t spansStarted() const
    {
        std::lock_guard lock(m_mutex);
        return m_started.size();
    }
    size_t spansFinished() const
    {
        std::lock_guard lock(m_mutex);
        return m_spanFinished.size();
    }
    int runsStarted() const
    {
        std::lock_guard lock(m_mutex);
        return m_runsStarted;
    }
    int runsFinished() const
    {
        std::lock_guard lock(m_mutex);
        return m_runsFinished;
    }

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<Span> m_started;
    std::vector<Span> m_spanFinished;
    std::vector<std::string> m_nodesFinished;
    int m_tokens = 0;
    int m_runsStarted = 0;
    int m_runsFinished = 0;
};

QString statusOf(const RunResult& r, const std::string& node)
{
    const auto it = r.results.find(NodeId(node));
    return it == r.results.end() ? QStringLiteral("missing") : q(toString(it->second.status));
}

NodeResult resultOf(const RunResult& r, const std::string& node)
{
    const auto it = r.results.find(NodeId(node));
    return it == r.results.end() ? NodeResult{} : it->second;
}

QString answerOf(const RunResult& r, const std::string& node)
{
    return q(resultOf(r, node).answer);
}

// "a=ok b=skipped" for the nodes named, in that order.
QString statuses(const RunResult& r, const QStringList& nodes)
{
    QStringList out;
    for (const auto& n : nodes)
        out << n + QLatin1Char('=') + statusOf(r, n.toStdString());
    return out.join(QLatin1Char(' '));
}

std::vector<Span> spansOf(const RunResult& r, const std::string& node, SpanKind kind)
{
    std::vector<Span> out;
    for (const auto& s : r.spans) {
        if (s.node.str() == node && s.kind == kind)
            out.push_back(s);
    }
    return out;
}

std::vector<Span> spansOfKind(const RunResult& r, SpanKind kind)
{
    std::vector<Span> out;
    for (const auto& s : r.spans) {
        if (s.kind == kind)
            out.push_back(s);
    }
    return out;
}

// The node's own (top-level) span, or a default one with startUs -1.
Span nodeSpan(const RunResult& r, const std::string& node)
{
    for (const auto& s : r.spans) {
        if (s.node.str() == node && s.kind == SpanKind::Node && s.parent == 0)
            return s;
    }
    Span none;
    none.startUs = -1;
    return none;
}

// The node's first call attempt, or a default span with startUs -1.
Span firstAttempt(const RunResult& r, const std::string& node)
{
    for (const auto& s : r.spans) {
        if (s.node.str() == node && s.kind == SpanKind::Attempt)
            return s;
    }
    Span none;
    none.startUs = -1;
    return none;
}

// "1:flaky:failed 2:right:ok": attempt number, model and status of each attempt span.
QString attempts(const RunResult& r, const std::string& node)
{
    QStringList out;
    for (const auto& s : spansOf(r, node, SpanKind::Attempt))
        out << QStringLiteral("%1:%2:%3").arg(s.attempt).arg(q(s.model), q(toString(s.status)));
    return out.join(QLatin1Char(' '));
}

// A span described without its real times or ids, so two runs can be compared.
std::string describe(const RunResult& r, const Span& s)
{
    char numbers[160];
    std::snprintf(numbers, sizeof numbers, "|%lld|%lld|%.12g|%.9f", static_cast<long long>(s.tokensIn),
                  static_cast<long long>(s.tokensOut), s.costUsd, s.plannedMs);
    std::string parent = "-";
    if (s.parent > 0 && s.parent <= r.spans.size()) {
        const auto& p = r.spans[s.parent - 1];
        parent = p.node.str() + "/" + std::string(toString(p.kind)) + "/" + p.name;
    }
    return s.node.str() + "|" + std::string(toString(s.kind)) + "|" + s.name + "|" + std::to_string(s.round) + "|" +
           std::to_string(s.attempt) + "|" + s.model + "|" + std::string(toString(s.status)) + "|" + s.error + "|" +
           parent + numbers;
}

std::vector<std::string> describeAll(const RunResult& r)
{
    std::vector<std::string> out;
    for (const auto& s : r.spans)
        out.push_back(describe(r, s));
    std::sort(out.begin(), out.end());
    return out;
}

// Every node's result, one line each, in node id order.
std::vector<std::string> describeResults(const RunResult& r)
{
    std::vector<std::string> out;
    char number[64];
    for (const auto& [id, result] : r.results) {
        std::snprintf(number, sizeof number, "|%.12g|%.12g", result.confidence, result.costUsd);
        out.push_back(id.str() + "|" + std::string(toString(result.status)) + "|" + result.answer + "|" +
                      result.text + "|" + std::to_string(result.tokensIn) + "|" + std::to_string(result.tokensOut) +
                      number);
    }
    return out;
}

std::string readFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll().toStdString();
}

std::optional<Team> loadExample(const QString& name, double timeScale)
{
    auto loaded = teamFromJsonText(readFile(QStringLiteral(CONCLAVE_RESOURCES "/examples/") + name));
    if (!loaded.team)
        return std::nullopt;
    for (auto& [backendName, backend] : loaded.team->backends)
        backend.timeScale = timeScale;
    return loaded.team;
}

} // namespace

class TestEngine : public QObject {
    Q_OBJECT

    std::unique_ptr<Engine> m_engine;

    // Starts a run and waits for it (at most a minute, then it is cancelled).
    RunResult run(const Team& team, const std::string& input, std::optional<uint64_t> seed = 42,
                  std::vector<RunObserver*> observers = {})
    {
        auto started = m_engine->start(team, input, seed, std::move(observers));
        if (!started.run) {
            QTest::qFail(("the team does not start: " + started.error).c_str(), __FILE__, __LINE__);
            return {};
        }
        if (!started.run->waitFor(60s)) {
            QTest::qFail("the run did not finish within a minute", __FILE__, __LINE__);
            started.run->cancel();
        }
        return started.run->wait();
    }

    RunResult run(const TeamBuilder& builder, const std::string& input, std::optional<uint64_t> seed = 42,
                  std::vector<RunObserver*> observers = {})
    {
        std::string problems;
        const auto team = builder.build(problems);
        if (!team) {
            QTest::qFail(("the team does not load: " + problems).c_str(), __FILE__, __LINE__);
            return {};
        }
        return run(*team, input, seed, std::move(observers));
    }

private slots:
    void initTestCase()
    {
        std::vector<std::string> errors;
        auto resources = EngineResources::load(CONCLAVE_RESOURCES, errors);
        for (const auto& e : errors)
            qWarning("%s", e.c_str());
        QVERIFY(errors.empty());
        QVERIFY(resources.tasks && resources.gate);
        m_engine = std::make_unique<Engine>(std::move(resources));
    }

    void cleanupTestCase() { m_engine.reset(); }

    // ---- routers ----

    void routers_data()
    {
        QTest::addColumn<QByteArray>("router");
        QTest::addColumn<QStringList>("targets");  // "id:model:route label"
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("expected");

        const QStringList byDomain{"math:math-only:math", "facts:facts-only:facts", "code:code-only:code"};
        const QByteArray keyword = R"({"strategy": "keyword", "routes": {"math": ["calculate", "/[0-9]+ \\+ [0-9]+/"],
                                       "facts": ["capital"], "code": ["python"]}})";
        const QByteArray keywordWithDefault = R"({"strategy": "keyword", "default": "code",
            "routes": {"math": ["calculate"], "facts": ["capital"], "code": ["python"]}})";

        QTest::newRow("all") << QByteArray(R"({"strategy": "all"})") << byDomain << kMath
                             << "math=ok facts=ok code=ok join=ok out=ok";
        QTest::newRow("keyword: substring") << keyword << byDomain << kMath
                                            << "math=ok facts=skipped code=skipped join=ok out=ok";
        QTest::newRow("keyword: case-insensitive") << keyword << byDomain << "The CAPITAL of Peru?"
                                                   << "math=skipped facts=ok code=skipped join=ok out=ok";
        QTest::newRow("keyword: regex") << keyword << byDomain << "What is 2 + 2?"
                                        << "math=ok facts=skipped code=skipped join=ok out=ok";
        QTest::newRow("keyword: several routes") << keyword << byDomain << "Calculate the capital in Python."
                                                 << "math=ok facts=ok code=ok join=ok out=ok";
        QTest::newRow("keyword: default") << keywordWithDefault << byDomain << "Which element has atomic number 1?"
                                          << "math=skipped facts=skipped code=ok join=ok out=ok";
        QTest::newRow("keyword: a match, not the default") << keywordWithDefault << byDomain << kFrance
                                                           << "math=skipped facts=ok code=skipped join=ok out=ok";
        QTest::newRow("keyword: no match, no default") << keyword << byDomain << "Which element has atomic number 1?"
                                                       << "math=skipped facts=skipped code=skipped join=skipped "
                                                          "out=skipped";

        // Gate scores: math-only = w(math), math-half = w(math) / 2, facts-only = w(facts); a
        // math question puts nearly all weight on math, so math-half's share is just under 1/3.
        const QStringList gateTargets{"math:math-only:math", "half:math-half:half", "facts:facts-only:facts"};
        QTest::newRow("moe_gate: top 1") << QByteArray(R"({"strategy": "moe_gate", "top_k": 1})") << gateTargets
                                         << kMath << "math=ok half=skipped facts=skipped join=ok out=ok";
        QTest::newRow("moe_gate: top 1, facts") << QByteArray(R"({"strategy": "moe_gate", "top_k": 1})")
                                                << gateTargets << kFrance
                                                << "math=skipped half=skipped facts=ok join=ok out=ok";
        QTest::newRow("moe_gate: top 2") << QByteArray(R"({"strategy": "moe_gate", "top_k": 2})") << gateTargets
                                         << kMath << "math=ok half=ok facts=skipped join=ok out=ok";
        QTest::newRow("moe_gate: top 2, min_weight drops the second")
            << QByteArray(R"({"strategy": "moe_gate", "top_k": 2, "min_weight": 0.4})") << gateTargets << kMath
            << "math=ok half=skipped facts=skipped join=ok out=ok";
        QTest::newRow("moe_gate: top 3, min_weight drops the weakest")
            << QByteArray(R"({"strategy": "moe_gate", "top_k": 3, "min_weight": 0.1})") << gateTargets << kMath
            << "math=ok half=ok facts=skipped join=ok out=ok";

        // The llm router asks its model for one label; a reasoning skill of 1 always picks
        // the label that fits, 0 always the other one.
        const QStringList singleCompound{"one:math-only:single", "many:facts-only:compound"};
        QTest::newRow("llm: single") << QByteArray(R"({"strategy": "llm", "model": "right"})") << singleCompound
                                     << kMath << "one=ok many=skipped join=ok out=ok";
        QTest::newRow("llm: compound") << QByteArray(R"({"strategy": "llm", "model": "right"})") << singleCompound
                                       << kTwoCapitals << "one=skipped many=ok join=ok out=ok";
        QTest::newRow("llm: a router without reasoning picks the other")
            << QByteArray(R"({"strategy": "llm", "model": "wrong"})") << singleCompound << kMath
            << "one=skipped many=ok join=ok out=ok";
    }

    void routers()
    {
        QFETCH(QByteArray, router);
        QFETCH(QStringList, targets);
        QFETCH(QString, input);
        QFETCH(QString, expected);
        TeamBuilder team;
        team.node("r", "router", json::parse(router.toStdString())).edge("in", "r");
        team.node("join", "aggregator", json{{"strategy", "concat"}});
        QStringList reported;
        for (const auto& t : targets) {
            const auto parts = t.split(QLatin1Char(':'));
            const auto id = parts[0].toStdString();
            team.expert(id, parts[1].toStdString()).edge("r", id, parts[2].toStdString()).edge(id, "join");
            reported << parts[0];
        }
        team.output("join");
        reported << "join" << "out";
        const auto result = run(team, input.toStdString());
        QCOMPARE(statuses(result, reported), expected);
        QCOMPARE(statusOf(result, "r"), QStringLiteral("ok"));
        // A skipped expert never started: no span of its own.
        for (const auto& t : targets) {
            const auto id = t.section(QLatin1Char(':'), 0, 0).toStdString();
            if (statusOf(result, id) == QStringLiteral("skipped"))
                QCOMPARE(spansOf(result, id, SpanKind::Node).size(), size_t(0));
        }
        const bool anyRan = expected.contains(QStringLiteral("join=ok"));
        QCOMPARE(q(toString(result.status)), anyRan ? QStringLiteral("ok") : QStringLiteral("failed"));
    }

    // ---- aggregators ----

    void aggregators_data()
    {
        QTest::addColumn<QByteArray>("aggregator");
        QTest::addColumn<QStringList>("experts");  // "id:model" or "id:model:weight"
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("answer");
        QTest::addColumn<QString>("expected");  // the experts' statuses

        QTest::newRow("majority") << QByteArray(R"({"strategy": "majority"})")
                                  << QStringList{"a:right", "b:right", "c:wrong"} << kYesNo << "yes"
                                  << "a=ok b=ok c=ok";
        QTest::newRow("majority of wrong answers") << QByteArray(R"({"strategy": "majority"})")
                                                   << QStringList{"a:right", "b:wrong", "c:wrong"} << kYesNo << "no"
                                                   << "a=ok b=ok c=ok";
        QTest::newRow("majority, numbers") << QByteArray(R"({"strategy": "majority"})")
                                           << QStringList{"a:right", "b:right", "c:wrong"} << kMath << "783"
                                           << "a=ok b=ok c=ok";
        QTest::newRow("weighted: one heavy vote") << QByteArray(R"({"strategy": "weighted"})")
                                                  << QStringList{"a:right:1", "b:right:1", "c:wrong:3"} << kYesNo
                                                  << "no" << "a=ok b=ok c=ok";
        QTest::newRow("weighted: light votes add up") << QByteArray(R"({"strategy": "weighted"})")
                                                      << QStringList{"a:right:2", "b:wrong:1", "c:wrong:0.5"} << kYesNo
                                                      << "yes" << "a=ok b=ok c=ok";
        QTest::newRow("best_confidence") << QByteArray(R"({"strategy": "best_confidence"})")
                                         << QStringList{"a:wrong", "b:right", "c:wrong"} << kMath << "783"
                                         << "a=ok b=ok c=ok";
        QTest::newRow("first: the fastest, even if wrong") << QByteArray(R"({"strategy": "first"})")
                                                           << QStringList{"a:wrong-100", "b:slow"} << kYesNo
                                                           << "no" << "a=ok b=cancelled";
        QTest::newRow("first: the fastest, right") << QByteArray(R"({"strategy": "first"})")
                                                   << QStringList{"a:wrong-slow", "b:right-100"} << kYesNo << "yes"
                                                   << "a=cancelled b=ok";
        QTest::newRow("concat") << QByteArray(R"({"strategy": "concat"})") << QStringList{"a:right", "b:wrong"}
                                << kMath << "783" << "a=ok b=ok";
        QTest::newRow("synthesize: all agree") << QByteArray(R"({"strategy": "synthesize", "model": "right"})")
                                               << QStringList{"a:right", "b:right", "c:right"} << kMath << "783"
                                               << "a=ok b=ok c=ok";
        QTest::newRow("synthesize: all agree on a wrong answer")
            << QByteArray(R"({"strategy": "synthesize", "model": "right"})") << QStringList{"a:wrong", "b:wrong"}
            << kYesNo << "no" << "a=ok b=ok";
    }

    void aggregators()
    {
        QFETCH(QByteArray, aggregator);
        QFETCH(QStringList, experts);
        QFETCH(QString, input);
        QFETCH(QString, answer);
        QFETCH(QString, expected);
        TeamBuilder team;
        team.node("agg", "aggregator", json::parse(aggregator.toStdString()));
        QStringList ids;
        for (const auto& e : experts) {
            const auto parts = e.split(QLatin1Char(':'));
            json fields = json::object();
            if (parts.size() > 2)
                fields["weight"] = parts[2].toDouble();
            const auto id = parts[0].toStdString();
            team.expert(id, parts[1].toStdString(), fields).edge("in", id).edge(id, "agg");
            ids << parts[0];
        }
        team.output("agg");
        const auto result = run(team, input.toStdString());
        QCOMPARE(statuses(result, ids), expected);
        QCOMPARE(statusOf(result, "agg"), QStringLiteral("ok"));
        QCOMPARE(answerOf(result, "agg"), answer);
        QCOMPARE(q(result.output.answer), answer);
        QCOMPARE(q(toString(result.status)), QStringLiteral("ok"));
        const bool synthesizes = aggregator.contains("synthesize");
        QCOMPARE(spansOf(result, "agg", SpanKind::Attempt).size(), size_t(synthesizes ? 1 : 0));
        if (aggregator.contains("concat")) {
            for (const auto& id : ids) {
                const auto text = resultOf(result, "agg").text;
                QVERIFY(text.find("[" + id.toStdString() + "]\n" + resultOf(result, id.toStdString()).text) !=
                        std::string::npos);
            }
        }
        if (aggregator.contains("best_confidence")) {
            double best = 0;
            for (const auto& id : ids)
                best = std::max(best, resultOf(result, id.toStdString()).confidence);
            QCOMPARE(resultOf(result, "agg").confidence, best);
        }
    }

    // Quorum, min_confidence, deadline_ms and first stop an aggregator before its slow
    // inputs (100 s simulated, 1 s real) answer; those are cancelled, attempts included.
    void earlyTermination_data()
    {
        QTest::addColumn<QByteArray>("aggregator");
        QTest::addColumn<int>("fast");
        QTest::addColumn<int>("slow");

        QTest::newRow("quorum 5 of 9") << QByteArray(R"({"strategy": "majority", "quorum": 5})") << 5 << 4;
        QTest::newRow("min_confidence") << QByteArray(R"({"strategy": "majority", "min_confidence": 0.5})") << 1
                                        << 2;
        QTest::newRow("deadline_ms") << QByteArray(R"({"strategy": "majority", "deadline_ms": 20000})") << 2 << 1;
        QTest::newRow("first") << QByteArray(R"({"strategy": "first"})") << 1 << 3;
    }

    void earlyTermination()
    {
        QFETCH(QByteArray, aggregator);
        QFETCH(int, fast);
        QFETCH(int, slow);
        TeamBuilder team;
        team.node("agg", "aggregator", json::parse(aggregator.toStdString()));
        std::vector<std::string> fastIds;
        std::vector<std::string> slowIds;
        // The slow inputs come first, so their calls are surely in flight when the fast ones
        // (10 ms of real time) answer.
        for (int i = 1; i <= fast + slow; ++i) {
            const bool isFast = i > slow;
            const auto id = (isFast ? "f" : "s") + std::to_string(i);
            team.expert(id, isFast ? "right-1000" : "slow").edge("in", id).edge(id, "agg");
            (isFast ? fastIds : slowIds).push_back(id);
        }
        team.output("agg");
        Recorder recorder;
        const auto result = run(team, kMath, 42, {&recorder});
        QCOMPARE(q(toString(result.status)), QStringLiteral("ok"));
        QCOMPARE(q(result.output.answer), QStringLiteral("783"));
        const auto agg = nodeSpan(result, "agg");
        QCOMPARE(spansOf(result, "agg", SpanKind::Node).size(), size_t(1));
        QCOMPARE(recorder.nodeFinishedCount("agg"), 1);
        for (const auto& id : fastIds) {
            QCOMPARE(statusOf(result, id), QStringLiteral("ok"));
            QVERIFY(agg.startUs >= nodeSpan(result, id).endUs);
        }
        const int64_t slowUs = 100050 * 10;  // 100.05 s simulated at time_scale 0.01
        for (const auto& id : slowIds) {
            QCOMPARE(statusOf(result, id), QStringLiteral("cancelled"));
            QCOMPARE(q(toString(nodeSpan(result, id).status)), QStringLiteral("cancelled"));
            const auto tries = spansOf(result, id, SpanKind::Attempt);
            QCOMPARE(tries.size(), size_t(1));
            QCOMPARE(q(toString(tries[0].status)), QStringLiteral("cancelled"));
            QVERIFY(tries[0].endUs >= 0);
            // The aggregator decided long before the slow call would have answered.
            QVERIFY(agg.startUs < tries[0].startUs + slowUs);
            QVERIFY(tries[0].endUs < tries[0].startUs + slowUs);
        }
        // The critical path runs through an input the aggregator waited for, never a cancelled one.
        QCOMPARE(result.criticalPath.nodes.size(), size_t(4));
        const auto through = result.criticalPath.nodes[1].str();
        QVERIFY2(std::find(fastIds.begin(), fastIds.end(), through) != fastIds.end(), through.c_str());
    }

    // ---- coordinators ----

    void meetings_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QStringList>("members");
        QTest::addColumn<QByteArray>("fields");
        QTest::addColumn<bool>("isolated");  // members see only {{task}}, so nobody is persuaded
        QTest::addColumn<QString>("input");
        QTest::addColumn<int>("rounds");
        QTest::addColumn<QString>("answer");  // empty: not checked

        const QStringList threeRight{"right", "right", "right"};
        QTest::newRow("round_robin: agreement ends it") << "round_robin" << threeRight
                                                         << QByteArray(R"({"max_rounds": 3})") << false << kMath << 1
                                                         << "783";
        QTest::newRow("round_robin: max_rounds") << "round_robin" << QStringList{"right", "wrong"}
                                                 << QByteArray(R"({"max_rounds": 2})") << true << kYesNo << 2 << "";
        QTest::newRow("debate: consensus ends it") << "debate" << threeRight << QByteArray(R"({"max_rounds": 5})")
                                                   << false << kMath << 1 << "783";
        QTest::newRow("debate: max_rounds") << "debate" << QStringList{"right", "wrong"}
                                            << QByteArray(R"({"max_rounds": 3})") << true << kYesNo << 3 << "";
        QTest::newRow("debate: partial consensus is enough")
            << "debate" << QStringList{"right", "right", "wrong"}
            << QByteArray(R"({"max_rounds": 3, "consensus": 0.6})") << true << kYesNo << 1 << "yes";
        QTest::newRow("debate: full consensus needed") << "debate" << QStringList{"right", "right", "wrong"}
                                                       << QByteArray(R"({"max_rounds": 4, "consensus": 1})") << true
                                                       << kYesNo << 4 << "yes";
    }

    void meetings()
    {
        QFETCH(QString, mode);
        QFETCH(QStringList, members);
        QFETCH(QByteArray, fields);
        QFETCH(bool, isolated);
        QFETCH(QString, input);
        QFETCH(int, rounds);
        QFETCH(QString, answer);
        TeamBuilder team;
        json config = json::parse(fields.toStdString());
        config["mode"] = mode.toStdString();
        team.node("meet", "coordinator", config).edge("in", "meet");
        std::vector<std::string> ids;
        for (int i = 0; i < members.size(); ++i) {
            const auto id = "m" + std::to_string(i + 1);
            json memberFields = json::object();
            if (isolated)
                memberFields["prompt"] = "{{task}}";
            team.expert(id, members[i].toStdString(), memberFields).member("meet", id);
            ids.push_back(id);
        }
        team.output("meet");
        const auto result = run(team, input.toStdString());
        QCOMPARE(statusOf(result, "meet"), QStringLiteral("ok"));
        if (!answer.isEmpty())
            QCOMPARE(q(result.output.answer), answer);
        const auto roundSpans = spansOf(result, "meet", SpanKind::Round);
        QCOMPARE(int(roundSpans.size()), rounds);
        for (size_t i = 0; i < roundSpans.size(); ++i) {
            QCOMPARE(roundSpans[i].round, int(i + 1));
            QCOMPARE(q(roundSpans[i].name), QStringLiteral("round %1").arg(i + 1));
            QCOMPARE(roundSpans[i].parent, nodeSpan(result, "meet").id);
            QCOMPARE(q(toString(roundSpans[i].status)), QStringLiteral("ok"));
        }
        for (const auto& id : ids) {
            QCOMPARE(statusOf(result, id), QStringLiteral("ok"));
            const auto turns = spansOf(result, id, SpanKind::Node);
            QCOMPARE(int(turns.size()), rounds);
            for (const auto& turn : turns) {
                const auto& parent = result.spans[turn.parent - 1];
                QVERIFY(parent.kind == SpanKind::Round);
                QCOMPARE(parent.round, turn.round);
                QCOMPARE(spansOf(result, id, SpanKind::Attempt).size(), size_t(rounds));
            }
        }
        if (mode == QStringLiteral("round_robin")) {
            // Members speak in turn: each starts after the previous one ended...
            std::vector<Span> turns;
            for (const auto& s : result.spans) {
                if (s.kind == SpanKind::Node && s.parent != 0)
                    turns.push_back(s);
            }
            for (size_t i = 1; i < turns.size(); ++i)
                QVERIFY(turns[i].startUs >= turns[i - 1].endUs);
            // ...over a shared transcript that grows with each speaker.
            if (!isolated) {
                int64_t previous = 0;
                for (const auto& id : ids) {
                    const auto first = firstAttempt(result, id);
                    QVERIFY(first.tokensIn > previous);
                    previous = first.tokensIn;
                }
            }
        }
    }

    void decompose_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QStringList>("members");        // models, in member order
        QTest::addColumn<QStringList>("memberAnswers");  // each member's answer to its subtask
        QTest::addColumn<QString>("answer");

        QTest::newRow("two questions") << kTwoCapitals << QStringList{"facts-only", "facts-only"}
                                       << QStringList{"paris", "tokyo"} << "paris; tokyo";
        QTest::newRow("a calculation and a question") << kCompound << QStringList{"math-only", "facts-only"}
                                                      << QStringList{"783", "paris"} << "783; paris";
        // The second part is solved first: the combination still follows the subtasks' order.
        QTest::newRow("parts combined in subtask order") << kCompound << QStringList{"math-only-slow", "facts-only"}
                                                         << QStringList{"783", "paris"} << "783; paris";
    }

    void decompose()
    {
        QFETCH(QString, input);
        QFETCH(QStringList, members);
        QFETCH(QStringList, memberAnswers);
        QFETCH(QString, answer);
        TeamBuilder team;
        team.node("plan", "coordinator", json{{"mode", "decompose"}, {"model", "right"}}).edge("in", "plan");
        std::vector<std::string> ids;
        for (int i = 0; i < members.size(); ++i) {
            const auto id = "sub" + std::to_string(i + 1);
            team.expert(id, members[i].toStdString()).member("plan", id);
            ids.push_back(id);
        }
        team.output("plan");
        const auto result = run(team, input.toStdString());
        QCOMPARE(q(toString(result.status)), QStringLiteral("ok"));
        QCOMPARE(q(result.output.answer), answer);
        QStringList rounds;
        for (const auto& s : spansOf(result, "plan", SpanKind::Round))
            rounds << q(s.name);
        QCOMPARE(rounds, (QStringList{"plan", "solve", "combine"}));
        const auto roundSpans = spansOf(result, "plan", SpanKind::Round);
        // The coordinator's model plans and combines: one attempt under each of those rounds.
        const auto coordinatorCalls = spansOf(result, "plan", SpanKind::Attempt);
        QCOMPARE(coordinatorCalls.size(), size_t(2));
        QCOMPARE(coordinatorCalls[0].parent, roundSpans[0].id);
        QCOMPARE(coordinatorCalls[1].parent, roundSpans[2].id);
        for (size_t i = 0; i < ids.size(); ++i) {
            const auto turns = spansOf(result, ids[i], SpanKind::Node);
            QCOMPARE(turns.size(), size_t(1));
            QCOMPARE(turns[0].parent, roundSpans[1].id);
            QCOMPARE(statusOf(result, ids[i]), QStringLiteral("ok"));
            QCOMPARE(answerOf(result, ids[i]), memberAnswers[int(i)]);
            // Members solve their parts in parallel, after the plan and before the combination.
            QVERIFY(turns[0].startUs >= coordinatorCalls[0].endUs);
            QVERIFY(turns[0].endUs <= coordinatorCalls[1].startUs);
        }
    }

    void cascade_data()
    {
        QTest::addColumn<double>("threshold");
        QTest::addColumn<QStringList>("members");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<int>("steps");
        QTest::addColumn<QString>("answer");  // empty: not checked

        QTest::newRow("a confident first member stops it")
            << 0.5 << QStringList{"right", "right", "right"} << "c1=ok c2=skipped c3=skipped" << 1 << "783";
        QTest::newRow("a doubtful first member escalates")
            << 0.7 << QStringList{"wrong", "right", "right"} << "c1=ok c2=ok c3=skipped" << 2 << "783";
        QTest::newRow("nobody is sure: every member speaks")
            << 0.99 << QStringList{"wrong", "wrong", "wrong"} << "c1=ok c2=ok c3=ok" << 3 << "";
    }

    void cascade()
    {
        QFETCH(double, threshold);
        QFETCH(QStringList, members);
        QFETCH(QString, expected);
        QFETCH(int, steps);
        QFETCH(QString, answer);
        TeamBuilder team;
        team.node("cas", "coordinator", json{{"mode", "cascade"}, {"threshold", threshold}}).edge("in", "cas");
        QStringList ids;
        for (int i = 0; i < members.size(); ++i) {
            const auto id = "c" + std::to_string(i + 1);
            team.expert(id, members[i].toStdString()).member("cas", id);
            ids << q(id);
        }
        team.output("cas");
        const auto result = run(team, kMath);
        QCOMPARE(statuses(result, ids), expected);
        QCOMPARE(statusOf(result, "cas"), QStringLiteral("ok"));
        if (!answer.isEmpty())
            QCOMPARE(q(result.output.answer), answer);
        const auto roundSpans = spansOf(result, "cas", SpanKind::Round);
        QCOMPARE(int(roundSpans.size()), steps);
        for (int i = 0; i < steps; ++i)
            QCOMPARE(q(roundSpans[size_t(i)].name), QStringLiteral("step %1: c%1").arg(i + 1));
        // Only the members that spoke called a model; the cascade stops at the first sure one.
        int spoke = 0;
        for (const auto& id : ids)
            spoke += int(spansOf(result, id.toStdString(), SpanKind::Attempt).size());
        QCOMPARE(spoke, steps);
        const auto last = resultOf(result, "c" + std::to_string(steps));
        if (steps < members.size())
            QVERIFY(last.confidence >= threshold);
        for (int i = 1; i < steps; ++i)
            QVERIFY(resultOf(result, "c" + std::to_string(i)).confidence < threshold);
    }

    // ---- determinism ----

    void determinism_data()
    {
        QTest::addColumn<QString>("example");
        QTest::addColumn<QString>("input");
        QTest::newRow("mixture-of-agents") << "mixture-of-agents.team.json" << kFrance;
        QTest::newRow("debate") << "debate.team.json" << kYesNo;
        QTest::newRow("cascade") << "cascade.team.json" << kMath;
        QTest::newRow("triage") << "triage.team.json" << kCompound;
        QTest::newRow("triage, single question") << "triage.team.json" << kFrance;
        QTest::newRow("review-board") << "review-board.team.json" << kYesNo;
        QTest::newRow("keyword-vote") << "keyword-vote.team.json" << kMath;
    }

    void determinism()
    {
        QFETCH(QString, example);
        QFETCH(QString, input);
        auto team = loadExample(example, 0.005);
        QVERIFY(team);
        // What depends on real time by design goes: early termination (quorum, min_confidence,
        // deadline_ms decide on what has arrived by then), and real-time limits that a call near
        // them may meet or miss on a loaded machine (timeouts, max_wall_ms).
        for (auto& node : team->nodes) {
            node.config.quorum.reset();
            node.config.minConfidence.reset();
            node.config.deadlineMs.reset();
            if (node.config.call.model)
                node.config.call.timeoutMs = 3'600'000;
        }
        if (team->budget)
            team->budget->maxWallMs.reset();
        const auto first = run(*team, input.toStdString(), 7);
        const auto second = run(*team, input.toStdString(), 7);
        QCOMPARE(q(toString(second.status)), q(toString(first.status)));
        const auto resultsA = describeResults(first);
        const auto resultsB = describeResults(second);
        QCOMPARE(resultsB.size(), resultsA.size());
        for (size_t i = 0; i < resultsA.size(); ++i)
            QCOMPARE(q(resultsB[i]), q(resultsA[i]));
        QVERIFY(first.output == second.output);
        QCOMPARE(second.tokensIn, first.tokensIn);
        QCOMPARE(second.tokensOut, first.tokensOut);
        QCOMPARE(second.costUsd, first.costUsd);
        QCOMPARE(second.calls, first.calls);
        QCOMPARE(second.spans.size(), first.spans.size());
        const auto a = describeAll(first);
        const auto b = describeAll(second);
        for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
            QCOMPARE(q(b[i]), q(a[i]));
        // Planned latencies are the simulator's draws: they must be there, and equal.
        QVERIFY(std::any_of(first.spans.begin(), first.spans.end(), [](const Span& s) { return s.plannedMs > 0; }));

        const auto other = run(*team, input.toStdString(), 8);
        QVERIFY2(describeAll(other) != a, "another seed changes nothing");
    }

    // The texts a join sees must not depend on which input happened to arrive first: two
    // inputs with the same simulated latency race on the real clock. Here the race is made
    // certain by swapping which input is quicker (max_tokens shortens a reply without changing
    // its text), and the join's prompt and result must stay the same.
    void joinInputsDoNotDependOnArrivalOrder()
    {
        const auto build = [](bool aFirst) {
            TeamBuilder team(0.3);
            json quick = json::object();
            quick["params"] = json{{"max_tokens", 5}};  // 55 ms instead of 150 ms
            team.expert("a", "right", aFirst ? quick : json::object()).edge("in", "a");
            team.expert("b", "right", aFirst ? json::object() : quick).edge("in", "b");
            team.expert("j", "right").edge("a", "j").edge("b", "j");
            team.node("c", "aggregator", json{{"strategy", "concat"}}).edge("a", "c").edge("b", "c");
            team.node("v", "aggregator", json{{"strategy", "concat"}}).edge("j", "v").edge("c", "v");
            return team.output("v");
        };
        const auto one = run(build(true), kMath);
        const auto two = run(build(false), kMath);
        QCOMPARE(q(toString(one.status)), QStringLiteral("ok"));
        QCOMPARE(q(toString(two.status)), QStringLiteral("ok"));
        // The premise: a and b said the same in both runs, and arrived in opposite orders.
        QCOMPARE(q(resultOf(two, "a").text), q(resultOf(one, "a").text));
        QCOMPARE(q(resultOf(two, "b").text), q(resultOf(one, "b").text));
        QVERIFY(nodeSpan(one, "a").endUs < nodeSpan(one, "b").endUs);
        QVERIFY(nodeSpan(two, "b").endUs < nodeSpan(two, "a").endUs);
        // The expert's prompt ({{inputs}}) and so its reply; the concatenation's text.
        QCOMPARE(firstAttempt(two, "j").tokensIn, firstAttempt(one, "j").tokensIn);
        QCOMPARE(q(resultOf(two, "j").text), q(resultOf(one, "j").text));
        QCOMPARE(resultOf(two, "j").confidence, resultOf(one, "j").confidence);
        QCOMPARE(q(resultOf(two, "c").text), q(resultOf(one, "c").text));
    }

    // The same in a debate: what members see of the previous round (the transcript) and
    // the final vote must not depend on which member happened to answer first.
    void debateDoesNotDependOnArrivalOrder()
    {
        const auto build = [](bool firstQuicker) {
            TeamBuilder team(0.3);
            json quick = json::object();
            quick["params"] = json{{"max_tokens", 5}};
            team.node("meet", "coordinator", json{{"mode", "debate"}, {"max_rounds", 2}}).edge("in", "meet");
            team.expert("m1", "right", firstQuicker ? quick : json::object()).member("meet", "m1");
            team.expert("m2", "wrong", firstQuicker ? json::object() : quick).member("meet", "m2");
            return team.output("meet");
        };
        const auto one = run(build(true), kYesNo);
        const auto two = run(build(false), kYesNo);
        QCOMPARE(q(toString(one.status)), QStringLiteral("ok"));
        QCOMPARE(q(toString(two.status)), QStringLiteral("ok"));
        // The premise: round 1 was said alike and finished in opposite orders, and a second round followed.
        const auto turns = [](const RunResult& r, const std::string& id) { return spansOf(r, id, SpanKind::Node); };
        QCOMPARE(turns(one, "m1").size(), size_t(2));
        QCOMPARE(turns(two, "m1").size(), size_t(2));
        QVERIFY(turns(one, "m1")[0].endUs < turns(one, "m2")[0].endUs);
        QVERIFY(turns(two, "m2")[0].endUs < turns(two, "m1")[0].endUs);
        // Round 2 prompts hold the round 1 transcript: same length, and they must be the same text.
        QCOMPARE(spansOf(two, "m1", SpanKind::Attempt)[1].tokensIn, spansOf(one, "m1", SpanKind::Attempt)[1].tokensIn);
        QCOMPARE(q(resultOf(two, "m1").text), q(resultOf(one, "m1").text));
        QCOMPARE(q(resultOf(two, "m2").text), q(resultOf(one, "m2").text));
        QCOMPARE(q(resultOf(two, "meet").text), q(resultOf(one, "meet").text));
        QCOMPARE(q(two.output.answer), q(one.output.answer));
    }

    // ---- concurrency ----

    void branchesRunConcurrently()
    {
        // time_scale 0.1: the branches take 30 ms and 10 ms of real time.
        TeamBuilder team(0.1);
        team.expert("long", "right-300").edge("in", "long");
        team.expert("short", "right-100").edge("in", "short");
        team.node("join", "aggregator", json{{"strategy", "concat"}}).edge("long", "join").edge("short", "join");
        team.output("join");
        const auto result = run(team, kMath);
        QCOMPARE(q(toString(result.status)), QStringLiteral("ok"));
        const auto longSpan = nodeSpan(result, "long");
        const auto shortSpan = nodeSpan(result, "short");
        const auto join = nodeSpan(result, "join");
        QVERIFY(longSpan.startUs < shortSpan.endUs);
        QVERIFY(shortSpan.startUs < longSpan.endUs);
        QVERIFY(shortSpan.endUs < longSpan.endUs);  // the short branch does not wait for the long one
        QVERIFY(join.startUs >= longSpan.endUs);
        QCOMPARE(firstAttempt(result, "long").plannedMs, 300.0);
        QCOMPARE(firstAttempt(result, "short").plannedMs, 100.0);
    }

    void joinRunsOnce_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QStringList>("models");
        const QStringList same{"right", "right", "right", "right", "right"};
        const QStringList spread{"right-100", "right", "right-300", "wrong-100", "right-1000"};
        QTest::newRow("aggregator, same latency") << "aggregator" << same;
        QTest::newRow("aggregator, spread") << "aggregator" << spread;
        QTest::newRow("expert, same latency") << "expert" << same;
        QTest::newRow("expert, spread") << "expert" << spread;
    }

    void joinRunsOnce()
    {
        QFETCH(QString, kind);
        QFETCH(QStringList, models);
        for (int repeat = 0; repeat < 5; ++repeat) {
            TeamBuilder team;
            if (kind == QStringLiteral("expert"))
                team.expert("join", "right");
            else
                team.node("join", "aggregator", json{{"strategy", "majority"}});
            for (int i = 0; i < models.size(); ++i) {
                const auto id = "e" + std::to_string(i + 1);
                team.expert(id, models[i].toStdString()).edge("in", id).edge(id, "join");
            }
            team.output("join");
            Recorder recorder;
            const auto result = run(team, kMath, 42, {&recorder});
            QCOMPARE(q(toString(result.status)), QStringLiteral("ok"));
            QCOMPARE(spansOf(result, "join", SpanKind::Node).size(), size_t(1));
            QCOMPARE(recorder.nodeFinishedCount("join"), 1);
            QCOMPARE(spansOf(result, "join", SpanKind::Attempt).size(), size_t(kind == QStringLiteral("expert")));
            const auto join = nodeSpan(result, "join");
            for (int i = 1; i <= models.size(); ++i)
                QVERIFY(join.startUs >= nodeSpan(result, "e" + std::to_string(i)).endUs);
            QCOMPARE(q(result.output.answer), QStringLiteral("783"));
        }
    }

    void observerSeesEveryEventOnce()
    {
        TeamBuilder team;
        team.node("r", "router", json{{"strategy", "keyword"}, {"routes", json{{"math", json::array({"calculate"})},
                                                                               {"facts", json::array({"capital"})}}}})
            .edge("in", "r");
        team.expert("a", "right").edge("r", "a", "math");
        team.expert("b", "right").edge("r", "b", "facts");
        team.node("join", "aggregator", json{{"strategy", "majority"}}).edge("a", "join").edge("b", "join");
        team.output("join");
        Recorder recorder;
        const auto result = run(team, kMath, 42, {&recorder});
        QCOMPARE(recorder.runsStarted(), 1);
        QCOMPARE(recorder.runsFinished(), 1);
        QCOMPARE(recorder.nodesFinished(), result.results.size());
        for (const auto& [id, r] : result.results)
            QCOMPARE(recorder.nodeFinishedCount(id.str()), 1);
        QCOMPARE(recorder.spansStarted(), result.spans.size());
        QCOMPARE(recorder.spansFinished(), result.spans.size());
        for (const auto& s : result.spans) {
            QVERIFY(s.endUs >= s.startUs);
            QVERIFY(s.status != Status::Running && s.status != Status::Queued);
        }
        QCOMPARE(result.calls, 1);
    }

    // ---- skips and failures ----

    void skippedBranchSkipsDownstream()
    {
        TeamBuilder team;
        team.node("r", "router", json{{"strategy", "keyword"}, {"routes", json{{"math", json::array({"calculate"})},
                                                                               {"facts", json::array({"capital"})}}}})
            .edge("in", "r");
        team.expert("a", "right").edge("r", "a", "math");
        team.expert("a2", "right").edge("a", "a2");
        team.expert("b", "right").edge("r", "b", "facts");
        team.expert("b2", "right").edge("b", "b2");
        team.expert("b3", "right").edge("b2", "b3");
        team.node("join", "aggregator", json{{"strategy", "concat"}}).edge("a2", "join").edge("b3", "join");
        team.output("join");
        const auto result = run(team, kMath);
        QCOMPARE(statuses(result, {"a", "a2", "b", "b2", "b3", "join", "out"}),
                 QStringLiteral("a=ok a2=ok b=skipped b2=skipped b3=skipped join=ok out=ok"));
        for (const char* id : {"b", "b2", "b3"})
            QCOMPARE(spansOf(result, id, SpanKind::Node).size(), size_t(0));
        QCOMPARE(q(toString(result.status)), QStringLiteral("ok"));
        QCOMPARE(q(result.output.answer), QStringLiteral("783"));
    }

    void inputsAllFailed_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("error");
        QTest::newRow("expert") << "expert" << "no upstream result to work on";
        QTest::newRow("aggregator") << "aggregator" << "every input failed";
    }

    void inputsAllFailed()
    {
        QFETCH(QString, kind);
        QFETCH(QString, error);
        TeamBuilder team;
        if (kind == QStringLiteral("expert"))
            team.expert("join", "right");
        else
            team.node("join", "aggregator", json{{"strategy", "majority"}});
        team.expert("f1", "flaky").edge("in", "f1").edge("f1", "join");
        team.expert("f2", "flaky").edge("in", "f2").edge("f2", "join");
        team.output("join");
        const auto result = run(team, kMath);
        QCOMPARE(statuses(result, {"f1", "f2", "join", "out"}),
                 QStringLiteral("f1=failed f2=failed join=failed out=failed"));
        QCOMPARE(q(resultOf(result, "join").error), error);
        QCOMPARE(spansOf(result, "join", SpanKind::Node).size(), size_t(1));
        QCOMPARE(spansOf(result, "join", SpanKind::Attempt).size(), size_t(0));
        QCOMPARE(q(toString(result.status)), QStringLiteral("failed"));
    }

    void failedExpertWithVotesLeftIsPartial()
    {
        TeamBuilder team;
        team.node("vote", "aggregator", json{{"strategy", "majority"}});
        const std::vector<std::pair<std::string, std::string>> experts{{"a", "right"}, {"b", "right"}, {"c", "flaky"}};
        for (const auto& [id, model] : experts)
            team.expert(id, model).edge("in", id).edge(id, "vote");
        team.output("vote");
        const auto result = run(team, kMath);
        QCOMPARE(statuses(result, {"a", "b", "c", "vote"}), QStringLiteral("a=ok b=ok c=failed vote=ok"));
        QCOMPARE(q(result.output.answer), QStringLiteral("783"));
        QCOMPARE(q(toString(result.status)), QStringLiteral("partial"));
    }

    void timeouts_data()
    {
        QTest::addColumn<int>("retries");
        QTest::addColumn<QString>("fallback");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("status");
        QTest::addColumn<QString>("runStatus");

        QTest::newRow("no retries") << 0 << "" << "1:slow:timeout" << "timeout" << "failed";
        QTest::newRow("two retries") << 2 << "" << "1:slow:timeout 2:slow:timeout 3:slow:timeout" << "timeout"
                                     << "failed";
        QTest::newRow("then the fallback") << 1 << "right-100" << "1:slow:timeout 2:slow:timeout 3:right-100:ok"
                                           << "ok" << "ok";
    }

    void timeouts()
    {
        QFETCH(int, retries);
        QFETCH(QString, fallback);
        QFETCH(QString, expected);
        QFETCH(QString, status);
        QFETCH(QString, runStatus);
        TeamBuilder team;
        // 5000 ms is 50 ms of real time: the slow model needs 1 s, the fallback 1 ms.
        json fields{{"timeout_ms", 5000}, {"retries", retries}};
        if (!fallback.isEmpty())
            fields["fallback_model"] = fallback.toStdString();
        team.expert("e", "slow", fields).edge("in", "e");
        team.output("e");
        const auto result = run(team, kMath);
        QCOMPARE(attempts(result, "e"), expected);
        QCOMPARE(statusOf(result, "e"), status);
        QCOMPARE(q(toString(result.status)), runStatus);
        for (const auto& s : spansOf(result, "e", SpanKind::Attempt)) {
            QCOMPARE(s.parent, nodeSpan(result, "e").id);
            if (s.status == Status::Timeout)
                QCOMPARE(q(s.error), QStringLiteral("timed out after 5000 ms"));
        }
        if (status == QStringLiteral("timeout"))
            QCOMPARE(q(resultOf(result, "e").error), QStringLiteral("timed out after 5000 ms"));
    }

    void retriesThenFallback()
    {
        TeamBuilder team;
        team.expert("e", "flaky", json{{"retries", 2}, {"fallback_model", "right"}}).edge("in", "e");
        team.output("e");
        const auto result = run(team, kMath);
        QCOMPARE(attempts(result, "e"), QStringLiteral("1:flaky:failed 2:flaky:failed 3:flaky:failed 4:right:ok"));
        QCOMPARE(statusOf(result, "e"), QStringLiteral("ok"));
        QCOMPARE(answerOf(result, "e"), QStringLiteral("783"));
        QCOMPARE(q(toString(result.status)), QStringLiteral("ok"));
        QCOMPARE(result.calls, 4);
        const auto tries = spansOf(result, "e", SpanKind::Attempt);
        for (size_t i = 0; i < tries.size(); ++i) {
            QCOMPARE(tries[i].attempt, int(i + 1));
            QCOMPARE(tries[i].parent, nodeSpan(result, "e").id);
            if (i > 0)
                QVERIFY(tries[i].startUs >= tries[i - 1].endUs);
            if (i < 3) {
                QCOMPARE(q(tries[i].error), QStringLiteral("simulated server error (503) from flaky"));
                QCOMPARE(tries[i].plannedMs, 50.0);
            }
        }
        QCOMPARE(tries.back().plannedMs, 150.0);
        // The node's usage adds up every attempt's.
        int64_t tokensIn = 0;
        for (const auto& s : tries)
            tokensIn += s.tokensIn;
        QCOMPARE(resultOf(result, "e").tokensIn, tokensIn);
        QCOMPARE(resultOf(result, "e").tokensOut, int64_t(100));
    }

    void retriesExhaustedFail()
    {
        TeamBuilder team;
        team.expert("e", "flaky", json{{"retries", 1}}).edge("in", "e");
        team.output("e");
        const auto result = run(team, kMath);
        QCOMPARE(attempts(result, "e"), QStringLiteral("1:flaky:failed 2:flaky:failed"));
        QCOMPARE(statusOf(result, "e"), QStringLiteral("failed"));
        QCOMPARE(q(resultOf(result, "e").error), QStringLiteral("simulated server error (503) from flaky"));
        QCOMPARE(q(toString(result.status)), QStringLiteral("failed"));
    }

    // ---- budgets ----

    void budgetExhaustion_data()
    {
        QTest::addColumn<QByteArray>("budget");
        QTest::addColumn<QString>("error");
        QTest::newRow("max_tokens") << QByteArray(R"({"max_tokens": 10})")
                                    << "budget exhausted: max_tokens 10 reached";
        QTest::newRow("max_cost_usd") << QByteArray(R"({"max_cost_usd": 0.0001})")
                                      << "budget exhausted: max_cost_usd 0.0001 reached";
    }

    void budgetExhaustion()
    {
        QFETCH(QByteArray, budget);
        QFETCH(QString, error);
        TeamBuilder team;
        team.doc()["budget"] = json::parse(budget.toStdString());
        team.expert("e1", "right").edge("in", "e1");
        team.expert("e2", "right").edge("e1", "e2");
        team.expert("e3", "right").edge("e2", "e3");
        team.output("e3");
        const auto result = run(team, kMath);
        QCOMPARE(q(toString(result.status)), QStringLiteral("budget_exhausted"));
        // The first call spends the whole budget; no call is dispatched after it.
        QCOMPARE(result.calls, 1);
        QCOMPARE(spansOfKind(result, SpanKind::Attempt).size(), size_t(1));
        QCOMPARE(attempts(result, "e1"), QStringLiteral("1:right:ok"));
        QCOMPARE(statuses(result, {"e1", "e2", "e3"}),
                 QStringLiteral("e1=ok e2=budget_exhausted e3=budget_exhausted"));
        QCOMPARE(q(resultOf(result, "e2").error), error);
        QCOMPARE(result.tokensIn + result.tokensOut,
                 resultOf(result, "e1").tokensIn + resultOf(result, "e1").tokensOut);
    }

    void budgetWallClock()
    {
        TeamBuilder team;
        team.doc()["budget"] = json{{"max_wall_ms", 1000}};  // 10 ms of real time; the slow call needs 1 s
        team.expert("e1", "slow").edge("in", "e1");
        team.expert("e2", "right").edge("e1", "e2");
        team.output("e2");
        const auto result = run(team, kMath);
        QCOMPARE(q(toString(result.status)), QStringLiteral("budget_exhausted"));
        QCOMPARE(attempts(result, "e1"), QStringLiteral("1:slow:budget_exhausted"));
        QCOMPARE(statuses(result, {"e1", "e2"}), QStringLiteral("e1=budget_exhausted e2=budget_exhausted"));
        QCOMPARE(result.calls, 1);
        const auto attempt = firstAttempt(result, "e1");
        QVERIFY(attempt.endUs < attempt.startUs + 100050 * 10);
    }

    // ---- cancellation ----

    void cancelMidRun()
    {
        TeamBuilder team(1.0);  // real time: each call takes 5 s
        team.expert("a", "five-seconds").edge("in", "a");
        team.expert("b", "five-seconds").edge("in", "b");
        team.node("join", "aggregator", json{{"strategy", "majority"}}).edge("a", "join").edge("b", "join");
        team.output("join");
        std::string problems;
        const auto built = team.build(problems);
        QVERIFY2(built, problems.c_str());
        Recorder recorder;
        auto started = m_engine->start(*built, kMath, 42, {&recorder});
        QVERIFY2(started.run, started.error.c_str());
        // Both calls are in flight once their first tokens arrive (20 ms in).
        QVERIFY(recorder.waitForTokens(2, 10s));
        std::this_thread::sleep_for(30ms);
        QElapsedTimer clock;
        clock.start();
        started.run->cancel();
        QVERIFY(started.run->waitFor(1s));
        QVERIFY(clock.elapsed() <= 1000);
        const auto result = started.run->wait();
        QCOMPARE(q(toString(result.status)), QStringLiteral("cancelled"));
        QCOMPARE(statuses(result, {"a", "b", "join", "out"}),
                 QStringLiteral("a=cancelled b=cancelled join=cancelled out=cancelled"));
        QCOMPARE(attempts(result, "a"), QStringLiteral("1:five-seconds:cancelled"));
        QCOMPARE(attempts(result, "b"), QStringLiteral("1:five-seconds:cancelled"));
        for (const auto& s : result.spans)
            QVERIFY(s.endUs >= 0);
        QVERIFY(result.wallUs < 5'000'000);
        QCOMPARE(recorder.runsFinished(), 1);
        // Cancelling again, or after the end, changes nothing.
        started.run->cancel();
        QCOMPARE(q(toString(started.run->wait().status)), QStringLiteral("cancelled"));
    }

    // ---- critical path ----

    void criticalPath_data()
    {
        QTest::addColumn<QStringList>("branches");  // "model>model..." chains from the input to the join
        QTest::addColumn<bool>("router");
        QTest::addColumn<QStringList>("path");

        QTest::newRow("the longer branch") << QStringList{"right-300", "right-100"} << false
                                           << QStringList{"in", "a1", "join", "out"};
        QTest::newRow("the longer branch, second") << QStringList{"right-100", "right-300"} << false
                                                   << QStringList{"in", "b1", "join", "out"};
        QTest::newRow("a chain beats a single node") << QStringList{"right-1000>right-1000", "right-100"} << false
                                                     << QStringList{"in", "a1", "a2", "join", "out"};
        QTest::newRow("a single node beats a chain") << QStringList{"right-100>right-100", "right-2000"} << false
                                                     << QStringList{"in", "b1", "join", "out"};
        QTest::newRow("through a router") << QStringList{"right-100", "right-1000"} << true
                                          << QStringList{"in", "r", "b1", "join", "out"};
    }

    void criticalPath()
    {
        QFETCH(QStringList, branches);
        QFETCH(bool, router);
        QFETCH(QStringList, path);
        TeamBuilder team(0.05);  // the branches differ by 10 ms of real time or more
        std::string source = "in";
        if (router) {
            team.node("r", "router", json{{"strategy", "all"}}).edge("in", "r");
            source = "r";
        }
        team.node("join", "aggregator", json{{"strategy", "concat"}});
        for (int b = 0; b < branches.size(); ++b) {
            std::string previous = source;
            const auto models = branches[b].split(QLatin1Char('>'));
            for (int i = 0; i < models.size(); ++i) {
                const auto id = std::string(1, char('a' + b)) + std::to_string(i + 1);
                team.expert(id, models[i].toStdString()).edge(previous, id, previous == "r" ? id : std::string());
                previous = id;
            }
            team.edge(previous, "join");
        }
        team.output("join");
        const auto result = run(team, kMath);
        QCOMPARE(q(toString(result.status)), QStringLiteral("ok"));
        QStringList actual;
        int64_t length = 0;
        for (const auto& id : result.criticalPath.nodes) {
            actual << q(id.str());
            length += nodeSpan(result, id.str()).durationUs();
        }
        QCOMPARE(actual, path);
        QCOMPARE(result.criticalPath.lengthUs, length);
        QVERIFY(result.criticalPath.lengthUs <= result.wallUs);
    }

    // An aggregator that stops early cancels its stragglers right as it starts, so a
    // straggler's span can end in the very microsecond the aggregator's begins. The
    // aggregator did not wait for it: the path goes through the input that decided.
    void criticalPathSkipsCancelledStragglers()
    {
        TeamBuilder builder;
        builder.expert("a", "right").edge("in", "a");
        builder.expert("s", "slow").edge("in", "s");
        builder.node("agg", "aggregator", json{{"strategy", "first"}}).edge("a", "agg").edge("s", "agg");
        builder.output("agg");
        std::string problems;
        const auto team = builder.build(problems);
        QVERIFY2(team, problems.c_str());
        const auto span = [](SpanId id, const char* node, int64_t start, int64_t end, Status status) {
            Span s;
            s.id = id;
            s.node = NodeId(node);
            s.kind = SpanKind::Node;
            s.name = node;
            s.startUs = start;
            s.endUs = end;
            s.status = status;
            return s;
        };
        for (const int64_t stragglerEnd : {200, 201}) {
            const std::vector<Span> spans{
                span(1, "in", 0, 10, Status::Ok),
                span(2, "a", 10, 100, Status::Ok),
                span(3, "s", 10, stragglerEnd, Status::Cancelled),
                span(4, "agg", 200, 210, Status::Ok),
                span(5, "out", 210, 211, Status::Ok),
            };
            const auto path = CriticalPathFinder::find(*team, spans);
            QStringList nodes;
            for (const auto& id : path.nodes)
                nodes << q(id.str());
            QCOMPARE(nodes, (QStringList{"in", "a", "agg", "out"}));
            QCOMPARE(path.lengthUs, int64_t(10 + 90 + 10 + 1));
        }
    }

    // ---- the shipped examples ----

    void examplesRun_data()
    {
        QTest::addColumn<QString>("example");
        QTest::addColumn<QString>("input");
        const std::map<QString, QString> inputs{
            {"cascade.team.json", kMath},
            {"debate.team.json", kYesNo},
            {"keyword-vote.team.json", kMath},
            {"mixture-of-agents.team.json", kFrance},
            {"review-board.team.json", "Which word is spelled correctly: accomodate, accommodate, acommodate, "
                                       "accommodete?"},
            {"triage.team.json", kCompound},
        };
        const auto files = QDir(QStringLiteral(CONCLAVE_RESOURCES "/examples"))
                               .entryList({QStringLiteral("*.team.json")}, QDir::Files, QDir::Name);
        QVERIFY(!files.isEmpty());
        for (const auto& file : files) {
            const auto it = inputs.find(file);
            // A new example needs an input here; until then it runs on a math task.
            QTest::newRow(qPrintable(file)) << file << (it == inputs.end() ? QString(kMath) : it->second);
        }
        QTest::newRow("triage, single question") << "triage.team.json" << kFrance;
    }

    void examplesRun()
    {
        QFETCH(QString, example);
        QFETCH(QString, input);
        const auto team = loadExample(example, 0.002);
        QVERIFY(team);
        const auto result = run(*team, input.toStdString());
        const auto status = q(toString(result.status));
        QVERIFY2(status == QStringLiteral("ok") || status == QStringLiteral("partial"),
                 qPrintable(status + QStringLiteral(": ") + q(result.output.error)));
        QVERIFY(!result.output.answer.empty());
        QVERIFY(result.calls > 0);
        QVERIFY(result.costUsd > 0);
        QVERIFY(!result.criticalPath.nodes.empty());
        QCOMPARE(q(result.criticalPath.nodes.front().str()), QStringLiteral("in"));
        QCOMPARE(q(result.criticalPath.nodes.back().str()), QStringLiteral("out"));
        for (const auto& s : result.spans)
            QVERIFY(s.endUs >= s.startUs);
    }

    void invalidTeamDoesNotStart()
    {
        TeamBuilder team;
        team.expert("e", "right");  // not connected; the output has no input
        team.node("out", "output");
        std::string problems;
        const auto built = team.build(problems);
        QVERIFY(built);
        const auto started = m_engine->start(*built, kMath);
        QVERIFY(!started.run);
        QVERIFY(q(started.error).startsWith(QStringLiteral("the team is invalid: ")));
    }
};

QTEST_GUILESS_MAIN(TestEngine)
#include "tst_engine.moc"
