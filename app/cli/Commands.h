#pragma once

#include "CliContext.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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
    std::optional<double> timeScale;  // replaces the local backends' time_scale
};

// `conclave run TEAM --input TEXT [--seed N] [--json] [--task ID [--taskset FILE]]`:
// 0 when the run produced an answer (ok or partial), 1 when it did not, 2 on bad input.
int runTeam(const CliContext& context, const RunArgs& args);

// `conclave backends check TEAM`: reaches every backend of the team once and
// prints its status and latency; 0 when all answered, 1 when one did not, 2 on bad input.
int runBackendsCheck(const CliContext& context, const std::string& team);

struct BenchArgs {
    std::string which = "all";  // all, fanout, chain, early
    int runs = 3;
    size_t maxN = 10000;
};

// `conclave bench [all|fanout|chain|early]`: the engine's performance figures.
int runBench(const CliContext& context, const BenchArgs& args);

} // namespace conclave::cli
