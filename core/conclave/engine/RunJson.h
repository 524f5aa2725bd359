#pragma once

#include "conclave/engine/RunResult.h"

#include <nlohmann/json.hpp>

#include <string>

namespace conclave {

// A run as the CLI's `run --json` prints it: run_id, status, output, answer,
// wall_ms, critical_path_ms, critical_path, cost_usd, tokens, calls, spans.
nlohmann::ordered_json runResultToJson(const RunResult& result, const std::string& runId);
nlohmann::ordered_json spanToJson(const Span& span);

} // namespace conclave
