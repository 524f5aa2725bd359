#pragma once

#include "conclave/store/StoredRun.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace conclave {

// The formats a stored run can be exported to (`runs export --format`).
enum class ExportFormat { Json, Chrome, Otlp, Csv };

std::optional<ExportFormat> exportFormatFromString(std::string_view name);

// The whole run as text in `format` (JSON formats pretty-printed with 2 spaces).
std::string exportRun(const StoredRun& run, ExportFormat format);

// json: the run as `run --json` prints it, plus team, input, seed, times, node results and streamed text.
nlohmann::ordered_json storedRunToJson(const StoredRun& run);
// chrome: Trace Event Format (Perfetto UI, chrome://tracing): one thread per agent, "X" events in µs.
nlohmann::ordered_json chromeTrace(const StoredRun& run);
// otlp: OTLP/JSON (resourceSpans) with OpenTelemetry GenAI attributes.
nlohmann::ordered_json otlpTrace(const StoredRun& run);
// csv: a header and one row per span (RFC 4180 quoting).
std::string spansCsv(const StoredRun& run);

} // namespace conclave
