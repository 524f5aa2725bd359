#pragma once
// What the engine's test suites share: inline model profiles without jitter
// (every latency exact), skills of 1 or 0 (every answer certain), a team
// builder, an observer that records what a run reports, readers of a run's
// spans and results, and a harness that owns the engine and runs a team.
// Include <QtTest> first: moc fails on <compare> when a conclave header is the first it meets.

#include "support/QtStrings.h"

// Qt's `emit` keyword macro would eat the name of Run::emit(); these suites emit no signals.
#undef emit

#include "conclave/engine/RunObserver.h"
#include "conclave/io/TeamJson.h"
#include "conclave/session/Engine.h"
#include "conclave/session/RecordedStart.h"
#include "conclave/store/RunStore.h"

#include <QDir>
#include <QFile>

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

namespace enginetest {

using namespace conclave;
using json = nlohmann::json;
using namespace std::chrono_literals;

// Tasks of resources/tasksets with their answers.
inline constexpr const char* kMath = "Calculate 323 + 460."; // math-001: 783
// reasoning-001: yes. Two choices, so a wrong answer is always "no".
inline constexpr const char* kYesNo =
    "All bloops are razzies. All razzies are lazzies. Does it necessarily follow that all "
    "bloops are lazzies? Answer yes or no.";
inline constexpr const char* kFrance = "What is the capital city of France?"; // facts-001: paris
inline constexpr const char* kTwoCapitals = "What is the capital city of France? What is the capital city of Japan?";
inline constexpr const char* kCompound = "Calculate 323 + 460. And what is the capital city of France?";

// Every node result and span outlives a test only as a copy, so these are plain helpers.
inline json skillsAll(double skill)
{
    json s = json::object();
    for (const char* d : {"math", "code", "facts", "writing", "reasoning"})
        s[d] = skill;
    return s;
}

inline json skillsOnly(const char* domain, double skill = 1)
{
    json s = skillsAll(0);
    s[domain] = skill;
    return s;
}

inline json distribution(double value)
{
    json d = json::object();
    d["median"] = value;
    d["p95"] = value; // no jitter
    return d;
}

// latency = ttft + tokens / speed, exactly.
inline json profile(const json& skills, double ttftMs, double tokens, double tokensPerS, double failureRate = 0)
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
inline json timed(const json& skills, double latencyMs)
{
    return profile(skills, 50, latencyMs - 50, 1000);
}

inline json testModels()
{
    json m = json::object();
    m["right"] = timed(skillsAll(1), 150);
    m["wrong"] = timed(skillsAll(0), 150);
    for (const int ms : {100, 300, 1000, 2000}) {
        m["right-" + std::to_string(ms)] = timed(skillsAll(1), ms);
        m["wrong-" + std::to_string(ms)] = timed(skillsAll(0), ms);
    }
    m["slow"] = profile(skillsAll(1), 50, 1000, 10); // 100 s
    m["wrong-slow"] = profile(skillsAll(0), 50, 1000, 10);
    m["flaky"] = profile(skillsAll(1), 50, 100, 1000, 1.0);
    m["math-only"] = timed(skillsOnly("math"), 150);
    m["math-half"] = timed(skillsOnly("math", 0.5), 150);
    m["math-only-slow"] = timed(skillsOnly("math"), 1000);
    m["facts-only"] = timed(skillsOnly("facts"), 150);
    m["code-only"] = timed(skillsOnly("code"), 150);
    m["five-seconds"] = profile(skillsAll(1), 20, 4980, 1000); // first token at 20 ms, done at 5 s
    // Always wrong, and says so: its wrong answers state exactly 0.30 (the
    // built-in default states about 0.78, as real models do).
    m["doubtful"] = timed(skillsAll(0), 150);
    m["doubtful"]["confidence"] = json{{"right", {{"mean", 0.9}, {"sd", 0}}}, {"wrong", {{"mean", 0.3}, {"sd", 0}}}};
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
    void runStarted(std::string_view, uint64_t, ClockKind) override
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
    // Each span as the observers saw it when it closed.
    std::vector<Span> finishedSpans() const
    {
        std::lock_guard lock(m_mutex);
        return m_spanFinished;
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

inline QString statusOf(const RunResult& r, const std::string& node)
{
    const auto it = r.results.find(NodeId(node));
    return it == r.results.end() ? QStringLiteral("missing") : q(toString(it->second.status));
}

inline NodeResult resultOf(const RunResult& r, const std::string& node)
{
    const auto it = r.results.find(NodeId(node));
    return it == r.results.end() ? NodeResult{} : it->second;
}

inline QString answerOf(const RunResult& r, const std::string& node)
{
    return q(resultOf(r, node).answer);
}

// "a=ok b=skipped" for the nodes named, in that order.
inline QString statuses(const RunResult& r, const QStringList& nodes)
{
    QStringList out;
    for (const auto& n : nodes)
        out << n + QLatin1Char('=') + statusOf(r, n.toStdString());
    return out.join(QLatin1Char(' '));
}

inline std::vector<Span> spansOf(const RunResult& r, const std::string& node, SpanKind kind)
{
    std::vector<Span> out;
    for (const auto& s : r.spans) {
        if (s.node.str() == node && s.kind == kind)
            out.push_back(s);
    }
    return out;
}

inline std::vector<Span> spansOfKind(const RunResult& r, SpanKind kind)
{
    std::vector<Span> out;
    for (const auto& s : r.spans) {
        if (s.kind == kind)
            out.push_back(s);
    }
    return out;
}

// The node's own (top-level) span, or a default one with startUs -1.
inline Span nodeSpan(const RunResult& r, const std::string& node)
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
inline Span firstAttempt(const RunResult& r, const std::string& node)
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
inline QString attempts(const RunResult& r, const std::string& node)
{
    QStringList out;
    for (const auto& s : spansOf(r, node, SpanKind::Attempt))
        out << QStringLiteral("%1:%2:%3").arg(s.attempt).arg(q(s.model), q(toString(s.status)));
    return out.join(QLatin1Char(' '));
}

// A span described without its real times or ids, so two runs can be compared.
inline std::string describe(const RunResult& r, const Span& s)
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

inline std::vector<std::string> describeAll(const RunResult& r)
{
    std::vector<std::string> out;
    for (const auto& s : r.spans)
        out.push_back(describe(r, s));
    std::sort(out.begin(), out.end());
    return out;
}

// Every node's result, one line each, in node id order.
inline std::vector<std::string> describeResults(const RunResult& r)
{
    std::vector<std::string> out;
    char number[64];
    for (const auto& [id, result] : r.results) {
        std::snprintf(number, sizeof number, "|%.12g|%.12g", result.confidence, result.costUsd);
        out.push_back(id.str() + "|" + std::string(toString(result.status)) + "|" + result.answer + "|" + result.text +
                      "|" + std::to_string(result.tokensIn) + "|" + std::to_string(result.tokensOut) + number);
    }
    return out;
}

inline std::string readFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll().toStdString();
}

// The files an example reads beside it (a scorer, a router file), made absolute: a team run
// without its folder (Engine::start) finds relative paths from the current directory.
inline void resolveExampleFiles(Team& team)
{
    const std::string folder = CONCLAVE_RESOURCES "/examples/";
    for (auto& node : team.nodes) {
        for (auto* path : {&node.config.scorer, &node.config.routerFile}) {
            if (*path && !path->value().empty() && path->value().front() != '/')
                *path = folder + path->value();
        }
    }
}

inline std::optional<Team> loadExample(const QString& name, double timeScale)
{
    auto loaded = teamFromJsonText(readFile(QStringLiteral(CONCLAVE_RESOURCES "/examples/") + name));
    if (!loaded.team)
        return std::nullopt;
    for (auto& [backendName, backend] : loaded.team->backends)
        backend.timeScale = timeScale;
    resolveExampleFiles(*loaded.team);
    return loaded.team;
}

// Owns the engine for a suite and runs teams on it.
class EngineHarness {
public:
    // Loads the engine's resources; false (with a warning per problem) when they do not load.
    bool init()
    {
        std::vector<std::string> errors;
        auto resources = EngineResources::load(CONCLAVE_RESOURCES, errors);
        for (const auto& e : errors)
            qWarning("%s", e.c_str());
        if (!errors.empty() || !resources.tasks || !resources.gate)
            return false;
        m_engine = std::make_unique<Engine>(std::move(resources));
        return true;
    }
    void reset() { m_engine.reset(); }
    Engine& engine() { return *m_engine; }

    // Runs `team` on `input` under seed 5 on the virtual clock, stored in the store at `db`; its id (empty on failure).
    RunId record(const std::string& db, const Team& team, const std::string& input, RunResult& result,
                 ClockRequest clock = ClockRequest::Virtual)
    {
        auto opened = RunStore::open(db);
        if (!opened.store)
            return {};
        const auto prepared = m_engine->prepare(team);
        if (!prepared.team)
            return {};
        auto started = startRecorded(*m_engine, opened.store.get(), *prepared.team, input,
                                     Engine::StartOptions{5, {}, clock, {}, {}});
        if (!started.run)
            return {};
        result = started.run->wait();
        if (!started.recorder->waitUntilStored().empty())
            return {};
        return started.recorder->id();
    }

    // Starts a run and waits for it (at most a minute, then it is cancelled).
    RunResult run(const Team& team, const std::string& input, std::optional<uint64_t> seed = 42,
                  std::vector<RunObserver*> observers = {})
    {
        return run(team, input, Engine::StartOptions{seed, std::move(observers), ClockRequest::Real, {}, {}});
    }
    RunResult run(const Team& team, const std::string& input, Engine::StartOptions options)
    {
        auto started = m_engine->start(team, input, std::move(options));
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
        return run(builder, input, Engine::StartOptions{seed, std::move(observers), ClockRequest::Real, {}, {}});
    }
    RunResult run(const TeamBuilder& builder, const std::string& input, Engine::StartOptions options)
    {
        std::string problems;
        const auto team = builder.build(problems);
        if (!team) {
            QTest::qFail(("the team does not load: " + problems).c_str(), __FILE__, __LINE__);
            return {};
        }
        return run(*team, input, std::move(options));
    }
    // The same on the virtual clock: exact, simulated time.
    template <typename TeamOrBuilder>
    RunResult runVirtual(const TeamOrBuilder& team, const std::string& input, std::optional<uint64_t> seed = 42,
                         std::optional<double> cancelAfterMs = std::nullopt)
    {
        return run(team, input, Engine::StartOptions{seed, {}, ClockRequest::Virtual, cancelAfterMs, {}});
    }

private:
    std::unique_ptr<Engine> m_engine;
};

} // namespace enginetest
