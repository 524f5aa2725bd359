#pragma once

#include "conclave/store/RunSource.h"
#include "CliContext.h"
#include "ExperimentOutput.h"

#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/experiment/ModelOutcomes.h"

#include "conclave/local/TaskSet.h"
#include "conclave/model/Team.h"
#include "conclave/session/Engine.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace conclave {
class Gate;
class RunQueries;
} // namespace conclave

namespace conclave::cli {

// `conclave validate FILE...`: 0 when every file is valid, 2 otherwise.
int runValidate(const CliContext& context, const std::vector<std::string>& files);

// `conclave fmt FILE... [--check]`: rewrites files in canonical form; with
// check, changes nothing and returns 1 when a file is not canonical.
int runFormat(const CliContext& context, const std::vector<std::string>& files, bool check);

struct RunArgs {
    std::string team;
    std::string input;
    std::optional<uint64_t> seed;
    bool json = false;
    std::string task;
    std::string taskset;
    std::optional<double> timeScale; // replaces the local backends' time_scale (real clock only)
    std::optional<std::string> db;   // --db: the run store file
    std::string clock;               // --clock virtual|real; empty: virtual for local-only teams
};

// `conclave run TEAM --input TEXT [--seed N] [--json] [--task ID [--taskset FILE]] [--clock virtual|real]`:
// 0 when the run produced an answer (ok or partial), 1 when it did not, 2 on bad input.
int runTeam(const CliContext& context, const RunArgs& args);

// A team ready to run (from a file, or a stored run being re-run), stored in the run store.
struct RunRequest {
    Team team;
    std::string input;
    std::optional<uint64_t> seed;
    bool json = false;
    const Task* task = nullptr;
    std::optional<std::string> db;
    std::string label; // what errors name (the team file)
    ClockRequest clock = ClockRequest::Auto;
    std::filesystem::path teamFolder; // where a relative models_file is; empty: the current directory
    RunSource source = RunSource::Run; // `runs rerun`: Rerun
};

// Runs a request, stores it and prints it as `conclave run` does.
int executeRun(const CliContext& context, EngineResources resources, const RunRequest& request);

struct RunsArgs {
    std::string action; // list, show, export, rerun, delete, prune
    std::optional<std::string> db;
    std::vector<std::string> ids; // show/export/rerun: one; delete: several
    std::string team;
    std::string status;
    int limit = 0;
    bool json = false;
    std::string format;
    std::string outFile;
    int keep = 0;
    bool experiments = false; // list: experiments' trial runs too
    std::string source;       // list: only runs with this source (RunSource); empty: any
};

// `conclave runs list|show|export|rerun|delete|prune`: the run store.
int runRuns(const CliContext& context, const RunsArgs& args);

// `conclave backends check TEAM [--load N]`: reaches every backend of the team once and
// prints its status and latency; with --load, sends N calls at once to each openai
// backend and prints the peak in flight reached. 0 when all answered, 1 when one did
// not, 2 on bad input.
int runBackendsCheck(const CliContext& context, const std::string& team, int load = 0);

struct EvalArgs {
    EvalRequest request;
    std::optional<std::string> db;
    bool json = false;
    std::string output; // -o FILE.md|.json|.csv
    int concurrency = 32;
    std::optional<double> maxCostUsd;
    std::string shard;          // "I/N"
    std::string resume;         // an experiment id
    bool summariesOnly = false; // --store summaries: trial rows only, no runs
    bool yes = false;
    bool dryRun = false;
    bool calibrationUncertainty = true; // --no-calibration-uncertainty: simulation noise only
    EvalGates gates;
};

// `conclave eval DESIGN... --taskset SET`: runs an experiment and prints its summary.
// 0 when it finished and every gate is met; 1 when a gate failed or it stopped early; 2 on bad input.
int runEval(const CliContext& context, const EvalArgs& args);

struct ExperimentsArgs {
    std::string action; // list, show, export, delete, merge
    std::optional<std::string> db;
    std::vector<std::string> ids; // show/export/delete: one id; merge: the shard files
    bool json = false;
    std::string format; // export
    std::string output; // export -o
    std::string trial;  // rerun --trial DESIGN/TASK/SEED
};

// `conclave experiments list|show|export|delete|merge`.
int runExperiments(const CliContext& context, const ExperimentsArgs& args);
// `conclave experiments rerun ID --trial DESIGN/TASK/SEED`: rebuilds a trial's
// run on the simulated clock, stores it and compares it with the trial.
// 0 when it reproduces the trial, 1 when a figure differs, 2 on bad input.
int runExperimentRerun(const CliContext& context, const ExperimentsArgs& args);

struct WorldArgs {
    std::string file;
    uint16_t port = 8089;
    std::optional<uint64_t> seed; // --seed: the world drawn under another seed
    double timeScale = 1.0;       // --time-scale: its latencies × this
};

// `conclave world serve FILE [--port 8089] [--seed S] [--time-scale X]`: serves a
// ground-truth world as an OpenAI-compatible endpoint until Ctrl+C.
int runWorldServe(const CliContext& context, const WorldArgs& args);

struct ServeArgs {
    std::vector<std::string> teams; // FILE[=NAME][:last-user|:transcript]
    std::string host = "127.0.0.1";
    uint16_t port = 8080;
    std::string apiKeysFile;
    std::string apiKeyEnv;
    std::string input = "last-user";
    int maxConcurrency = 64;
    int maxQueue = 256;
    int ioThreads = 2;
    size_t maxBodyBytes = 1024 * 1024;
    std::optional<std::string> db;
    double drainSeconds = 30;
    int keepRuns = 0;
    std::string storeText = "full";
};

// `conclave serve TEAM.json[=NAME]... [--host H] [--port P] [--api-keys-file F | --api-key-env VAR] ...`:
// the teams as an OpenAI-compatible endpoint until SIGTERM or Ctrl+C (docs/serve.md).
int runServe(const CliContext& context, const ServeArgs& args);

struct FidelityArgs {
    std::vector<std::string> experiments; // ids or unique prefixes
    std::optional<std::string> db;
    double holdout = 0.5;
    int folds = 1; // --folds K: K-fold cross-fitting
    uint64_t seed = 0;
    bool calibrationUncertainty = true; // --no-calibration-uncertainty
    bool replay = true;                 // --no-replay
    size_t simulatedSeeds = 10;         // --simulated-seeds
    bool json = false;
    std::string output; // -o report.md | report.json
};

// `conclave fidelity EXPERIMENT... [--holdout 0.5] [--seed N]`: calibrates on
// one part of the measured tasks and predicts every measured design on the
// other. 0 when it ran; 2 on bad input.
int runFidelity(const CliContext& context, const FidelityArgs& args);

struct WhatIfArgs {
    std::string run; // an id or a unique prefix; empty with --experiment
    std::optional<std::string> db;
    std::vector<std::string> speeds;   // --speed NODE=CHANGE
    std::vector<std::string> backends; // --backend NAME.max_concurrency=N
    std::vector<std::string> models;   // --model NODE=MODEL
    std::string modelsFile;            // --models-file: the simulator's profiles for what it answers
    std::string experiment, design;    // --experiment ID --design NAME (with --profile)
    bool profile = false;              // --profile: each agent 10, 25, 50 and 100 % faster
    bool json = false;
};

// `conclave whatif RUN_ID [--speed NODE=CHANGE]... [--backend NAME.max_concurrency=N]...
// [--model NODE=MODEL]... [--models-file F] [--json]`: the stored run re-run on the simulated clock from
// its own calls with some nodes' latencies or models, or backends' limits, changed; `--profile` of a
// run or of an experiment's design (`--experiment ID --design NAME`). The rules are in core/conclave/whatif/.
int runWhatIf(const CliContext& context, const WhatIfArgs& args);

struct SearchArgs {
    std::vector<std::string> bases; // team files
    std::string space;              // --space FILE
    std::string proposeSpace;       // --propose-space FILE: write SpaceProposal's flags there and stop
    std::string taskset;
    std::optional<int64_t> budgetTrials;
    std::optional<double> budgetSeconds;
    std::string objectives = "accuracy,cost,p95_wall";
    std::vector<std::string> constraints;
    std::string split = "0.5/0.25/0.25";
    uint64_t seed = 1;
    int seeds = 1; // trial seeds 1..N
    int population = 0;
    std::string output; // -o DIR
    bool force = false;
    std::vector<std::string> references;
    std::string confirmOn; // --confirm-on BACKENDS.team.json
    bool yes = false;      // --yes: confirm on paid endpoints without asking
    std::optional<std::string> db;
    bool json = false;
};

// `conclave search BASE.team.json... --space SPACE.json --taskset T -o DIR [--budget-trials N |
// --budget-seconds S] [--objectives LIST] [--constraint C]... [--split a/b/c] [--seed N]`: a design search
// on the simulator (docs/search.md); its front written to DIR. 0 when it finished; 1 when stopped or failed
// while running; 2 on bad input.
int runSearch(const CliContext& context, const SearchArgs& args);

struct SearchesArgs {
    std::string action; // list, show, export, delete
    std::optional<std::string> db;
    std::string id;
    bool json = false;
    bool candidates = false; // show: every candidate, with why any was dropped
    std::string format = "json";
    std::string output;
};

// `conclave searches list|show|export|delete`: stored design searches.
int runSearches(const CliContext& context, const SearchesArgs& args);

struct CalibrateArgs {
    std::vector<std::string> experiments; // ids or unique prefixes
    std::vector<std::string> models;      // --model: only these; empty: every model called
    std::vector<std::string> contexts;    // --context MODEL=TOKENS: measured context windows
    std::optional<std::string> db;
    std::string output;                  // -o: the models file to write
    std::optional<std::string> tasksOut; // --tasks-out: the measured tasks with their fitted difficulties
    std::optional<std::string> runsFromServe; // --runs-from-serve SINCE: also the calls of runs served since then
};

// `conclave calibrate [EXPERIMENT_ID...] [--runs-from-serve SINCE] [--model NAME]... [--context MODEL=TOKENS]...
// [--db FILE] -o models.json [--tasks-out tasks.jsonl]` (experiments, served runs or both):
// 0 when the file is written (thin data only warns), 2 on bad input.
int runCalibrate(const CliContext& context, const CalibrateArgs& args);

struct CalibrateThresholdArgs {
    std::string team;
    std::optional<std::string> node; // --node: the learned router (default: the team's only one)
    std::string taskset;             // --taskset: a bundled set's name or a file
    double strongShare = 0.3;        // --strong-share
    bool write = false;              // --write: set the router's threshold in the team file
};

// `conclave calibrate-threshold TEAM [--node ID] --taskset T --strong-share 0.3 [--write]`: prints (or
// writes) the threshold that sends that share of the tasks to the strong route. 0 on success, 2 on bad input.
int runCalibrateThreshold(const CliContext& context, const CalibrateThresholdArgs& args);

struct TrainRouterArgs {
    std::vector<std::string> experiments; // ids or unique prefixes
    std::vector<std::string> models;      // --models A,B,...: the candidates; empty: every model that answered
    std::string method = "logistic";      // --method logistic|knn
    std::string weights = "chosen";       // --weights chosen|separate|common (logistic)
    double holdout = 0.3;                 // --holdout: the share of tasks measured on, never trained on
    uint64_t seed = 0;                    // --seed: the split's and the folds'
    std::optional<std::string> db;
    std::string output; // -o: router.json
};

// `conclave train-router EXPERIMENT... -o router.json [--models A,B,...] [--method logistic|knn]
// [--weights chosen|separate|common] [--holdout 0.3] [--seed N] [--db FILE]`: 0 when the file is written, 2 on bad input.
int runTrainRouter(const CliContext& context, const TrainRouterArgs& args);

struct TrainScorerArgs {
    std::vector<std::string> experiments; // ids or unique prefixes
    std::vector<std::string> models;      // --models A,B,...: the cascade's members in order; empty: every answering
                                          // model by ascending training accuracy
    double holdout = 0.3;                 // --holdout: the share of tasks measured on, never trained on
    uint64_t seed = 0;                    // --seed: the split's and the folds'
    std::optional<std::string> db;
    std::string output; // -o: scorer.json
};

// `conclave train-scorer EXPERIMENT... -o scorer.json [--models A,B,...] [--holdout 0.3] [--seed N] [--db FILE]`:
// 0 when the file is written, 2 on bad input.
int runTrainScorer(const CliContext& context, const TrainScorerArgs& args);

struct BenchArgs {
    std::string which = "all";     // all, fanout, chain, early, clock, store, eval, sim, http, routing, ...
    std::optional<std::string> db; // store: where to measure (default: a temporary file)
    int runs = 3;
    size_t maxN = 10000;
    bool verbose = false;              // where each fan-out's time went
    std::vector<std::string> worlds;   // fidelity: --world FILE (default: every bundled world)
    std::optional<uint64_t> worldSeed; // fidelity: --world-seed S (default: each file's own)
    int folds = 2;                     // fidelity: --folds K (1: one split at --holdout 0.5)
    bool replay = true;                // fidelity: --no-replay skips the replayed predictions
};

// `conclave bench fidelity [--world FILE]... [--world-seed S] [--folds K] [--no-replay]`: measure, calibrate and
// predict on ground-truth worlds.
int fidelityBench(const CliContext& context, const BenchArgs& args);

// `conclave bench [all|fanout|chain|early]`: the engine's performance figures.
int runBench(const CliContext& context, const BenchArgs& args);

// `conclave bench search`: issue 33's targets for the design search, on the simulator.
int searchBench(const CliContext& context, Engine& engine, const BenchArgs& args);
// Its part on ground-truth worlds: calibrate, search on the simulator, measure the front in the world.
int searchWorldBench(const CliContext& context, const EngineResources& resources, const BenchArgs& args);

// `conclave bench eval`: an experiment of the six examples on every bundled task, and one against a test server.
int evalBench(const CliContext& context, Engine& engine, const BenchArgs& args);

// `conclave bench http`: peak in flight, calls/s and wave walls against every server shape.
int httpBench(const CliContext& context, const BenchArgs& args);

// `conclave bench serve`: a served team under load (issue 35's targets).
int serveBench(const CliContext& context, Engine& engine, const BenchArgs& args);

// `conclave bench sim`: how the simulator's errors agree and correlate, and its accuracy against its profiles.
int simBench(const CliContext& context, Engine& engine, const BenchArgs& args);

// `conclave bench calibrate`: the joint fit on 5 models × 2,000 answers, and calibrate end to end on 10,000 trials.
int calibrateBench(const CliContext& context, Engine& engine, const BenchArgs& args);
// `conclave bench routing`: training a router (5 models × 1,000 tasks) and routing one prompt.
int routingSpeedBench(const CliContext& context, Engine& engine, const BenchArgs& args);
// `conclave bench routing` (quality): learned routers on ground-truth worlds, judged by replay on held-out tasks.
int routingQualityBench(const CliContext& context, const BenchArgs& args);
// Its cascade lines for one world: a learned scorer against stated confidence on the held-out tasks; an error or
// nothing.
std::optional<std::string> cascadeScorerLines(std::ostream& out, RunQueries& reader, const std::string& experiment,
                                              uint64_t splitSeed, const std::filesystem::path& resources,
                                              std::shared_ptr<const Gate> gate, const ModelOutcomes& outcomes,
                                              const std::vector<std::string>& heldout);
// Its last part: a learned router against moe_gate on the simulator's bundled tasks; an error or nothing.
std::optional<std::string> gateComparisonLines(std::ostream& out, const EngineResources& resources,
                                               const std::filesystem::path& resourcesDir, uint64_t splitSeed);
// `conclave bench whatif`: a 1,000-node run re-projected, a 10-agent profile over 500 trials.
int whatIfBench(const CliContext& context, Engine& engine, const BenchArgs& args);

// `conclave bench clock`: the virtual clock's figures (a wide fan-out, one run in process, throughput).
int clockBench(const CliContext& context, Engine& engine, const BenchArgs& args);

// `conclave bench store`: the run store's insert rate, its cost on a fan-out, and load time.
int storeBench(const CliContext& context, Engine& engine, const BenchArgs& args);

} // namespace conclave::cli
