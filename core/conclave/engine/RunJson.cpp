#include "conclave/engine/RunJson.h"

#include <cmath>

namespace conclave {

namespace {

double ms(int64_t us) { return std::round(double(us) / 10.0) / 100.0; }

} // namespace

nlohmann::ordered_json spanToJson(const Span& span)
{
    nlohmann::ordered_json j;
    j["id"] = span.id;
    j["node"] = span.node.str();
    j["kind"] = std::string(toString(span.kind));
    j["name"] = span.name;
    j["parent"] = span.parent ? nlohmann::ordered_json(span.parent) : nlohmann::ordered_json(nullptr);
    j["start_ms"] = ms(span.startUs);
    j["end_ms"] = ms(span.endUs);
    j["status"] = std::string(toString(span.status));
    j["attempt"] = span.attempt;
    j["round"] = span.round;
    j["model"] = span.model.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(span.model);
    j["tokens_in"] = span.tokensIn;
    j["tokens_out"] = span.tokensOut;
    j["cost_usd"] = span.costUsd;
    j["ttft_ms"] = span.ttftUs < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(ms(span.ttftUs));
    if (span.plannedMs > 0)
        j["planned_ms"] = std::round(span.plannedMs * 100.0) / 100.0;
    if (span.waitUs >= 0)
        j["wait_ms"] = ms(span.waitUs);
    if (span.inflight > 0)
        j["inflight"] = span.inflight;
    if (!span.draw.empty())
        j["draw"] = span.draw;
    if (!span.error.empty())
        j["error"] = span.error;
    if (!span.note.empty())
        j["note"] = span.note;
    return j;
}

nlohmann::ordered_json runResultToJson(const RunResult& result, const std::string& runId)
{
    nlohmann::ordered_json j;
    j["run_id"] = runId;
    j["status"] = std::string(toString(result.status));
    j["output"] = result.output.text;
    j["answer"] = result.output.answer;
    j["confidence"] = std::round(result.output.confidence * 1000.0) / 1000.0;
    j["wall_ms"] = ms(result.wallUs);
    j["critical_path_ms"] = ms(result.criticalPath.lengthUs);
    nlohmann::ordered_json path = nlohmann::ordered_json::array();
    for (const auto& node : result.criticalPath.nodes)
        path.push_back(node.str());
    j["critical_path"] = path;
    j["cost_usd"] = result.costUsd;
    j["tokens"] = result.tokensIn + result.tokensOut;
    j["tokens_in"] = result.tokensIn;
    j["tokens_out"] = result.tokensOut;
    j["calls"] = result.calls;
    j["clock"] = std::string(toString(result.clock));
    j["cpu_ms"] = ms(result.cpuUs);
    nlohmann::ordered_json spans = nlohmann::ordered_json::array();
    for (const auto& span : result.spans)
        spans.push_back(spanToJson(span));
    j["spans"] = spans;
    return j;
}

} // namespace conclave
