#include "conclave/export/RunExport.h"

#include "conclave/engine/RunJson.h"
#include "conclave/io/JsonText.h"

#include <cmath>

namespace conclave {

std::optional<ExportFormat> exportFormatFromString(std::string_view name)
{
    if (name == "json")
        return ExportFormat::Json;
    if (name == "chrome")
        return ExportFormat::Chrome;
    if (name == "otlp")
        return ExportFormat::Otlp;
    if (name == "csv")
        return ExportFormat::Csv;
    return std::nullopt;
}

std::string exportRun(const StoredRun& run, ExportFormat format)
{
    switch (format) {
    case ExportFormat::Json:
        return storedRunToJson(run).dump(2) + "\n";
    case ExportFormat::Chrome:
        return chromeTrace(run).dump(2) + "\n";
    case ExportFormat::Otlp:
        return otlpTrace(run).dump(2) + "\n";
    case ExportFormat::Csv:
        return spansCsv(run);
    }
    return {};
}

nlohmann::ordered_json storedRunToJson(const StoredRun& run)
{
    RunResult result;
    result.status = run.summary.status;
    result.output = run.output;
    result.spans = run.spans;
    result.wallUs = run.summary.wallUs;
    result.criticalPath.nodes = run.criticalPath;
    result.criticalPath.lengthUs = run.summary.criticalPathUs;
    result.tokensIn = run.summary.tokensIn;
    result.tokensOut = run.summary.tokensOut;
    result.costUsd = run.summary.costUsd;
    result.calls = run.summary.calls;
    result.clock = run.summary.clock;
    result.cpuUs = run.summary.cpuUs;
    auto j = runResultToJson(result, run.summary.id.str());
    j["team_name"] = run.summary.teamName;
    j["input"] = run.summary.input;
    j["seed"] = run.summary.seed;
    j["started_at_ms"] = run.summary.startedAtMs;
    j["ended_at_ms"] =
        run.summary.endedAtMs < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(run.summary.endedAtMs);
    j["team"] = parseOrderedJsonQuietly(run.teamJson);
    if (j["team"].is_discarded())
        j["team"] = nullptr;
    auto nodes = nlohmann::ordered_json::array();
    for (const auto& n : run.nodes) {
        nlohmann::ordered_json o;
        o["node"] = n.node.str();
        o["status"] = std::string(toString(n.result.status));
        o["text"] = n.result.text;
        o["answer"] = n.result.answer;
        o["confidence"] = std::round(n.result.confidence * 1000.0) / 1000.0;
        o["tokens_in"] = n.result.tokensIn;
        o["tokens_out"] = n.result.tokensOut;
        o["cost_usd"] = n.result.costUsd;
        if (!n.result.error.empty())
            o["error"] = n.result.error;
        if (!n.result.skippedModel.empty()) {
            o["skipped_model"] = n.result.skippedModel;
            o["agreed"] = n.result.agreed;
        }
        nodes.push_back(o);
    }
    j["nodes"] = nodes;
    for (auto& span : j["spans"]) {
        const auto it = run.texts.find(span["id"].get<SpanId>());
        if (it != run.texts.end())
            span["text"] = it->second;
    }
    return j;
}

} // namespace conclave
