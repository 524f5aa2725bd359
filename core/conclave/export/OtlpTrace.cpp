#include "conclave/export/RunExport.h"

#include "conclave/Version.h"

#include <cstdio>

namespace conclave {

namespace {

using J = nlohmann::ordered_json;

J attribute(const std::string& key, J value)
{
    J a;
    a["key"] = key;
    a["value"] = std::move(value);
    return a;
}

J str(const std::string& s)
{
    return J{{"stringValue", s}};
}
// OTLP/JSON writes 64-bit integers as strings.
J integer(int64_t v)
{
    return J{{"intValue", std::to_string(v)}};
}
J real(double v)
{
    return J{{"doubleValue", v}};
}

std::string hex(uint64_t value, int digits)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%0*llx", digits, static_cast<unsigned long long>(value));
    return buffer;
}

// 32 hex digits: the run id (hex) right-aligned, zero-padded.
std::string traceId(const std::string& runId)
{
    std::string id = runId.substr(0, 32);
    for (auto& c : id) {
        if (!std::isxdigit(static_cast<unsigned char>(c)))
            c = '0';
    }
    return std::string(32 - id.size(), '0') + id;
}

} // namespace

nlohmann::ordered_json otlpTrace(const StoredRun& run)
{
    const auto trace = traceId(run.summary.id.str());
    const int64_t baseNs = run.summary.startedAtMs * 1'000'000;
    const int64_t runEnd = run.summary.wallUs;
    auto spans = J::array();
    for (const auto& s : run.spans) {
        J o;
        o["traceId"] = trace;
        o["spanId"] = hex(s.id, 16);
        if (s.parent)
            o["parentSpanId"] = hex(s.parent, 16);
        o["name"] = s.kind == SpanKind::Attempt ? "chat " + s.model : s.name;
        o["kind"] = s.kind == SpanKind::Attempt ? 3 : 1; // CLIENT for model calls, INTERNAL otherwise
        const int64_t end = s.endUs >= 0 ? s.endUs : std::max(runEnd, s.startUs);
        o["startTimeUnixNano"] = std::to_string(baseNs + s.startUs * 1000);
        o["endTimeUnixNano"] = std::to_string(baseNs + end * 1000);
        auto attrs = J::array();
        attrs.push_back(attribute("gen_ai.operation.name", str(s.kind == SpanKind::Attempt ? "chat" : "invoke_agent")));
        attrs.push_back(attribute("gen_ai.agent.name", str(s.node.str())));
        if (!s.model.empty())
            attrs.push_back(attribute("gen_ai.request.model", str(s.model)));
        if (s.kind == SpanKind::Attempt) {
            attrs.push_back(attribute("gen_ai.usage.input_tokens", integer(s.tokensIn)));
            attrs.push_back(attribute("gen_ai.usage.output_tokens", integer(s.tokensOut)));
            attrs.push_back(attribute("conclave.cost_usd", real(s.costUsd)));
            attrs.push_back(attribute("conclave.attempt", integer(s.attempt)));
            if (s.ttftUs >= 0)
                attrs.push_back(attribute("conclave.ttft_us", integer(s.ttftUs)));
        }
        attrs.push_back(attribute("conclave.span.kind", str(std::string(toString(s.kind)))));
        attrs.push_back(attribute("conclave.status", str(std::string(toString(s.status)))));
        if (s.round)
            attrs.push_back(attribute("conclave.round", integer(s.round)));
        o["attributes"] = attrs;
        J status;
        if (s.status == Status::Ok) {
            status["code"] = 1;
        } else if (s.status == Status::Failed || s.status == Status::Timeout) {
            status["code"] = 2;
            status["message"] = s.error;
        } else {
            status["code"] = 0;
        }
        o["status"] = status;
        spans.push_back(o);
    }
    J scope;
    scope["scope"] = {{"name", "conclave"}, {"version", std::string(kVersion)}};
    scope["spans"] = spans;
    J resource;
    resource["attributes"] =
        J::array({attribute("service.name", str("conclave")), attribute("conclave.run_id", str(run.summary.id.str())),
                  attribute("conclave.team", str(run.summary.teamName)),
                  attribute("conclave.run.status", str(std::string(toString(run.summary.status))))});
    J rs;
    rs["resource"] = resource;
    rs["scopeSpans"] = J::array({scope});
    J root;
    root["resourceSpans"] = J::array({rs});
    return root;
}

} // namespace conclave
