#include "conclave/serve/ServeMetrics.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace conclave {

namespace {

// A label value with \, " and newlines escaped, as the format asks.
std::string label(const std::string& value)
{
    std::string out;
    for (const char c : value) {
        if (c == '\\' || c == '"')
            out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out;
}

std::string number(double x)
{
    if (std::isinf(x))
        return x > 0 ? "+Inf" : "-Inf";
    // The shortest text that reads back the same: stable pages, small numbers.
    char text[64];
    const auto end = std::to_chars(text, text + sizeof text, x).ptr;
    return std::string(text, end);
}

void header(std::string& out, const char* name, const char* type, const char* help)
{
    out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
}

} // namespace

void ServeMetrics::Histogram::observe(double x)
{
    for (size_t i = 0; i < kBuckets.size(); ++i) {
        if (x <= kBuckets[i]) {
            ++counts[i];
            break;
        }
    }
    ++count;
    sum += x;
}

void ServeMetrics::request(const std::string& team, int status)
{
    std::lock_guard lock(m_mutex);
    ++m_requests[{team, status}];
}

void ServeMetrics::inFlight(int delta)
{
    std::lock_guard lock(m_mutex);
    m_inFlight += delta;
}

void ServeMetrics::queued(int delta)
{
    std::lock_guard lock(m_mutex);
    m_queued += delta;
}

void ServeMetrics::run(const std::string& team, double seconds, int64_t tokensIn, int64_t tokensOut, double costUsd)
{
    std::lock_guard lock(m_mutex);
    auto& t = m_teams[team];
    t.runSeconds.observe(seconds);
    t.tokensIn += tokensIn;
    t.tokensOut += tokensOut;
    t.costUsd += costUsd;
}

void ServeMetrics::firstToken(const std::string& team, double seconds)
{
    std::lock_guard lock(m_mutex);
    m_teams[team].ttftSeconds.observe(seconds);
}

std::string ServeMetrics::text() const
{
    std::lock_guard lock(m_mutex);
    std::string out;
    header(out, "conclave_requests_total", "counter", "Requests answered, by team and HTTP status.");
    for (const auto& [key, count] : m_requests)
        out += "conclave_requests_total{team=\"" + label(key.first) + "\",code=\"" + std::to_string(key.second) +
               "\"} " + std::to_string(count) + "\n";
    header(out, "conclave_requests_in_flight", "gauge", "Requests whose run is going.");
    out += "conclave_requests_in_flight " + std::to_string(m_inFlight) + "\n";
    header(out, "conclave_queue_length", "gauge", "Requests waiting for a run slot.");
    out += "conclave_queue_length " + std::to_string(m_queued) + "\n";
    const auto histogram = [&](const char* name, const char* help, Histogram TeamFigures::*which) {
        header(out, name, "histogram", help);
        for (const auto& [team, figures] : m_teams) {
            const auto& h = figures.*which;
            const std::string prefix = std::string(name) + "_bucket{team=\"" + label(team) + "\",le=\"";
            uint64_t cumulative = 0;
            for (size_t i = 0; i < kBuckets.size(); ++i) {
                cumulative += h.counts[i];
                out += prefix + number(kBuckets[i]) + "\"} " + std::to_string(cumulative) + "\n";
            }
            out += prefix + "+Inf\"} " + std::to_string(h.count) + "\n";
            out += std::string(name) + "_sum{team=\"" + label(team) + "\"} " + number(h.sum) + "\n";
            out += std::string(name) + "_count{team=\"" + label(team) + "\"} " + std::to_string(h.count) + "\n";
        }
    };
    histogram("conclave_run_seconds", "Wall time of served runs.", &TeamFigures::runSeconds);
    histogram("conclave_ttft_seconds", "Time from a request's arrival to the first byte of its answer's content.",
              &TeamFigures::ttftSeconds);
    header(out, "conclave_tokens_total", "counter", "Tokens of every model call of served runs, by direction.");
    for (const auto& [team, t] : m_teams) {
        out += "conclave_tokens_total{team=\"" + label(team) + "\",direction=\"in\"} " + std::to_string(t.tokensIn) + "\n";
        out += "conclave_tokens_total{team=\"" + label(team) + "\",direction=\"out\"} " + std::to_string(t.tokensOut) +
               "\n";
    }
    header(out, "conclave_cost_usd_total", "counter", "What served runs' model calls cost, in US dollars.");
    for (const auto& [team, t] : m_teams)
        out += "conclave_cost_usd_total{team=\"" + label(team) + "\"} " + number(t.costUsd) + "\n";
    return out;
}

} // namespace conclave
