#pragma once
// Comparing a run on the virtual clock with the same run on the real clock:
// which of its outcomes timing could have decided, and how far apart their
// span times are.

#include "conclave/engine/RunPlan.h"
#include "conclave/engine/RunResult.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace clockcompare {

using namespace conclave;

// The smallest margin, in team microseconds, by which a timing rule was
// decided in a run on the virtual clock: how close an attempt came to its
// timeout, two arrivals at an aggregator whose rules act on arrival order
// (first, quorum, min_confidence, deadline_ms) came to each other or to its
// deadline, or anything came to the max_wall_ms budget. A real run whose
// jitter stays under this margin must end the same way.
// How far a real run's span times may be from its virtual twin's, in team
// time at a real time_scale of 0.2: the real clock's timer and pool hops (and
// the CPU work, which takes real time there), a few per span along the longest
// chain. The sanitizers slow that work down several times over.
#if defined(__SANITIZE_THREAD__)
inline constexpr int64_t kJitterToleranceUs = 1'000'000;
#elif defined(__SANITIZE_ADDRESS__)
inline constexpr int64_t kJitterToleranceUs = 250'000;
#else
inline constexpr int64_t kJitterToleranceUs = 100'000;
#endif

inline int64_t timingMarginUs(const RunPlan& plan, const RunResult& r)
{
    int64_t margin = std::numeric_limits<int64_t>::max();
    const auto consider = [&](int64_t gap) { margin = std::min(margin, std::abs(gap)); };
    std::map<std::string, int64_t> nodeEnds;
    for (const auto& s : r.spans) {
        if (s.kind == SpanKind::Node && s.parent == 0)
            nodeEnds[s.node.str()] = s.endUs;
    }
    for (const auto& s : r.spans) {
        if (s.kind != SpanKind::Attempt)
            continue;
        const auto index = plan.indexOf(s.node);
        if (index && plan.at(*index).call)
            consider(s.durationUs() - plan.at(*index).call->timeoutMs * 1000);
    }
    for (const auto& pn : plan.nodes()) {
        const auto& c = pn.node->config;
        const bool orderMatters =
            c.aggregatorStrategy == AggregatorStrategy::First || c.quorum || c.minConfidence || c.deadlineMs;
        if (pn.node->kind != NodeKind::Aggregator || !orderMatters)
            continue;
        std::vector<int64_t> arrivals;
        for (const auto& [from, edge] : pn.in) {
            const auto it = nodeEnds.find(plan.at(from).node->id.str());
            if (it != nodeEnds.end() && it->second >= 0)
                arrivals.push_back(it->second);
        }
        std::sort(arrivals.begin(), arrivals.end());
        if (c.deadlineMs && !arrivals.empty())
            arrivals.push_back(arrivals.front() + *c.deadlineMs * 1000);
        std::sort(arrivals.begin(), arrivals.end());
        for (size_t i = 1; i < arrivals.size(); ++i)
            consider(arrivals[i] - arrivals[i - 1]);
    }
    if (const auto& budget = plan.team().budget; budget && budget->maxWallMs) {
        for (const auto& s : r.spans)
            consider(s.endUs - *budget->maxWallMs * 1000);
    }
    return margin;
}

// Spans matched by what they are (node, kind, name, round, attempt, and the
// how-manyth of that kind), not by id: on the real clock, spans that start at
// one instant may be numbered in either order.
inline std::map<std::tuple<std::string, int, std::string, int, int, int>, const Span*> byWhat(const RunResult& r)
{
    std::map<std::tuple<std::string, int, std::string, int, int, int>, const Span*> out;
    std::map<std::tuple<std::string, int, std::string, int, int>, int> seen;
    for (const auto& s : r.spans) {
        const auto key = std::make_tuple(s.node.str(), int(s.kind), s.name, s.round, s.attempt);
        out[std::tuple_cat(key, std::make_tuple(seen[key]++))] = &s;
    }
    return out;
}

struct TimeDifference {
    std::vector<std::string> unmatched; // spans only one of the runs has
    int64_t worstUs = 0;                // the largest start or end difference, in team microseconds
    std::string worstSpan;
};

// How far the real run's span times (in real microseconds at `timeScale`)
// are from the virtual run's (in team microseconds).
inline TimeDifference compareTimes(const RunResult& simulated, const RunResult& real, double timeScale)
{
    TimeDifference d;
    const auto a = byWhat(simulated);
    const auto b = byWhat(real);
    for (const auto& [key, span] : a) {
        const auto it = b.find(key);
        if (it == b.end()) {
            d.unmatched.push_back("virtual only: " + span->node.str() + " " + span->name);
            continue;
        }
        for (const auto& [v, rUs] : {std::pair{span->startUs, it->second->startUs}, {span->endUs, it->second->endUs}}) {
            const auto diff = std::llabs(int64_t(std::llround(double(rUs) / timeScale)) - v);
            if (diff > d.worstUs) {
                d.worstUs = diff;
                d.worstSpan = span->node.str() + " " + span->name;
            }
        }
    }
    for (const auto& [key, span] : b) {
        if (!a.count(key))
            d.unmatched.push_back("real only: " + span->node.str() + " " + span->name);
    }
    return d;
}

} // namespace clockcompare
