#pragma once

// A store filled by hand with one small experiment whose calibration has exact
// answers, for the suites of ModelCalibration (core) and `conclave calibrate`
// (app). Two tasks of a task file beside the store, two seeds: four trials.
//   q1 (facts, choices paris|lyon|nice|lille, answer paris), q2 (math, answer 42)
// The team: router r (llm, model hand/a), experts e1 (hand/a) and e2
// (local/tiny-1b), and expert m (hand/c), a member of debate coordinator c.
// Per trial (k = 0..3 in the order (q1,1) (q1,2) (q2,1) (q2,2)):
//   r   hand/a   ok: ttft 20 ms, 100 ms, 10 in, 4·(k+1) out
//   e1  hand/a   ok: ttft 40+20k ms, 540+20k ms, 100 in, 50·(k+1) out
//   e2  tiny-1b  trials 0 and 3 first fail (50 ms, 100 in); then ok:
//                ttft 200|200|300|300 ms, +1000 ms, 100|100|100|300 in, 100 out
//   m   hand/c   ok: ttft 10 ms, 110 ms, 20 in, 10 out
// Answers: e1 paris, lyon, 42, 42; e2 lyon, nice, 41, 42; m always lille.
// hand/a costs $2 and $10 per million tokens in and out; the others are free.
#include "conclave/experiment/ExperimentSpec.h"
#include "conclave/io/FileIo.h"
#include "conclave/io/TeamJson.h"
#include "conclave/store/RunStore.h"

#include <array>
#include <filesystem>
#include <string>

namespace calibration_store {

using namespace conclave;

inline constexpr const char* kTasks =
    R"({"id": "q1", "domain": "facts", "prompt": "Capital of France?", "answer": "paris", "choices": ["paris", "lyon", "nice", "lille"]}
{"id": "q2", "domain": "math", "prompt": "Calculate 40 + 2.", "answer": "42"}
)";

inline Team team()
{
    const auto loaded = teamFromJsonText(R"({"conclave": 1, "name": "hand",
        "backends": {"local": {"kind": "local-moe"}},
        "nodes": [{"id": "in", "kind": "input"},
                  {"id": "r", "kind": "router", "strategy": "llm", "model": "hand/a"},
                  {"id": "e1", "kind": "expert", "model": "hand/a"},
                  {"id": "e2", "kind": "expert", "model": "local/tiny-1b"},
                  {"id": "c", "kind": "coordinator", "mode": "debate"},
                  {"id": "m", "kind": "expert", "model": "hand/c"},
                  {"id": "out", "kind": "output"}],
        "edges": [{"from": "in", "to": "r"}, {"from": "r", "to": "e1", "when": "a"},
                  {"from": "r", "to": "e2", "when": "b"}, {"from": "in", "to": "c"},
                  {"from": "c", "to": "m", "role": "member"}, {"from": "c", "to": "out"}]})");
    return *loaded.team;
}

struct Attempt {
    const char* node;
    const char* model;
    bool ok;
    int64_t ttftMs; // -1: none
    int64_t durationMs;
    int64_t tokensIn;
    int64_t tokensOut;
};

inline double costOf(const Attempt& a)
{
    return std::string(a.model) == "hand/a" ? (double(a.tokensIn) * 2 + double(a.tokensOut) * 10) / 1e6 : 0;
}

// Stores trial k's run as coming from `origin` (a trial's, or a served run's);
// its id, or an empty one on a store error.
inline RunId storeRun(RunStore& store, RunOrigin origin, int k)
{
    std::string error;
    auto recorder = store.record(team(), error, std::move(origin));
    if (!recorder)
        return {};
    recorder->runStarted(k < 2 ? "Capital of France?" : "Calculate 40 + 2.", uint64_t(k % 2 + 1), ClockKind::Virtual);
    const std::array<int64_t, 4> e2ttft{200, 200, 300, 300};
    const std::array<int64_t, 4> e2in{100, 100, 100, 300};
    std::vector<Attempt> attempts{{"r", "hand/a", true, 20, 100, 10, 4 * (k + 1)},
                                  {"e1", "hand/a", true, 40 + 20 * k, 540 + 20 * k, 100, 50 * (k + 1)}};
    if (k == 0 || k == 3)
        attempts.push_back({"e2", "local/tiny-1b", false, -1, 50, 100, 0});
    attempts.push_back(
        {"e2", "local/tiny-1b", true, e2ttft[size_t(k)], e2ttft[size_t(k)] + 1000, e2in[size_t(k)], 100});
    attempts.push_back({"m", "hand/c", true, 10, 110, 20, 10});
    SpanId id = 0;
    int64_t clock = 0;
    for (const auto& a : attempts) {
        Span s;
        s.id = ++id;
        s.node = NodeId(a.node);
        s.kind = SpanKind::Attempt;
        s.model = a.model;
        s.attempt = 1;
        s.startUs = clock;
        recorder->spanStarted(s);
        s.endUs = clock + a.durationMs * 1000;
        s.ttftUs = a.ttftMs < 0 ? -1 : a.ttftMs * 1000;
        s.status = a.ok ? Status::Ok : Status::Failed;
        s.tokensIn = a.tokensIn;
        s.tokensOut = a.tokensOut;
        s.costUsd = costOf(a);
        s.error = a.ok ? "" : "simulated server error (503)";
        recorder->spanFinished(s);
        clock = s.endUs;
    }
    const std::array<const char*, 4> e1{"paris", "lyon", "42", "42"};
    const std::array<const char*, 4> e2{"lyon", "nice", "41", "42"};
    const auto finish = [&](const char* node, const std::string& text) {
        NodeResult r;
        r.status = Status::Ok;
        r.text = text;
        recorder->nodeFinished(NodeId(node), r, clock);
    };
    finish("r", k % 2 == 0 ? "a" : "b");
    finish("e1", std::string("Let me see.\nAnswer: ") + e1[size_t(k)] + "\nConfidence: 0.80");
    finish("e2", std::string("Answer: ") + e2[size_t(k)] + "\nConfidence: 0.50");
    finish("m", "Answer: lille\nConfidence: 0.90");
    RunResult result;
    result.status = RunStatus::Ok;
    recorder->runFinished(result);
    if (!recorder->waitUntilStored().empty())
        return {};
    return recorder->id();
}

// Stores trial k's run as a trial of `experimentId`.
inline RunId storeRun(RunStore& store, const std::string& experimentId, int k)
{
    return storeRun(store, RunOrigin{RunSource::Eval, experimentId, {}}, k);
}

// Stores the four trials' runs again as runs `conclave serve` stored for API key "alice"; false on a store error.
inline bool storeServed(RunStore& store)
{
    for (int k = 0; k < 4; ++k) {
        if (storeRun(store, RunOrigin{RunSource::Serve, {}, "alice"}, k).str().empty())
            return false;
    }
    return true;
}

// Writes the task file into `folder` and fills `store` with the experiment; its id, or empty on failure.
inline std::string fill(RunStore& store, const std::filesystem::path& folder)
{
    const auto taskFile = folder / "hand-tasks.jsonl";
    if (writeFileAtomically(taskFile, kTasks))
        return {};
    auto tasks = TaskSet::load(taskFile);
    if (!tasks.tasks)
        return {};
    ExperimentSpec spec;
    spec.name = "hand-made";
    spec.designs.push_back(makeDesign("hand", "", team()));
    spec.tasksetName = taskFile.string();
    spec.tasks = std::make_shared<const TaskSet>(std::move(*tasks.tasks));
    spec.seeds = {1, 2};
    spec.clock = ClockRequest::Virtual;
    ExperimentRecord record;
    record.id = spec.id();
    record.name = spec.name;
    record.status = ExperimentStatus::Finished;
    record.specJson = spec.toJson().dump();
    record.designs = spec.designNames();
    record.taskset = spec.tasksetName;
    record.plannedTrials = 4;
    record.startedAtMs = 1700000000000;
    record.endedAtMs = 1700000001000;
    if (store.saveExperiment(record))
        return {};
    for (int k = 0; k < 4; ++k) {
        TrialRecord t;
        t.experimentId = record.id;
        t.designName = "hand";
        t.task = k < 2 ? "q1" : "q2";
        t.domain = k < 2 ? "facts" : "math";
        t.seed = uint64_t(k % 2 + 1);
        t.runId = storeRun(store, record.id, k);
        if (t.runId.str().empty())
            return {};
        store.addTrial(t);
    }
    if (store.flushTrials())
        return {};
    return record.id;
}

} // namespace calibration_store
