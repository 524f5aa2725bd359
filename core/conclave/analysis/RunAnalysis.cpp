#include "conclave/analysis/RunAnalysis.h"

#include "conclave/io/TeamJson.h"
#include "conclave/model/NodeKind.h"

#include <algorithm>
#include <map>
#include <utility>

namespace conclave {

namespace {

using Interval = std::pair<int64_t, int64_t>;

int64_t unionLength(std::vector<Interval> intervals)
{
    std::sort(intervals.begin(), intervals.end());
    int64_t total = 0;
    int64_t start = 0;
    int64_t end = -1;
    for (const auto& [s, e] : intervals) {
        if (s > end) {
            if (end > start)
                total += end - start;
            start = s;
            end = e;
        } else {
            end = std::max(end, e);
        }
    }
    if (end > start)
        total += end - start;
    return total;
}

struct NodeSpans {
    std::vector<Interval> node;
    std::vector<Interval> attempts;
};

} // namespace

RunAnalysis RunAnalysis::of(const StoredRun& run)
{
    RunAnalysis a;
    a.criticalPath = run.criticalPath;
    a.criticalPathUs = run.summary.criticalPathUs;
    a.wallUs = run.summary.wallUs;

    const auto loaded = teamFromJsonText(run.teamJson);
    const Team* team = loaded.team ? &*loaded.team : nullptr;

    // Unfinished spans (an interrupted run) count up to the run's end.
    const int64_t runEnd = std::max<int64_t>(a.wallUs, 0);
    std::map<NodeId, NodeSpans> spans;
    std::map<NodeId, AgentStats> stats;
    std::map<NodeId, Status> lastNodeStatus;
    for (const auto& s : run.spans) {
        const int64_t end = s.endUs >= 0 ? s.endUs : std::max(runEnd, s.startUs);
        auto& st = stats[s.node];
        st.node = s.node;
        if (s.kind == SpanKind::Attempt) {
            ++st.calls;
            spans[s.node].attempts.emplace_back(s.startUs, end);
            st.tokensIn += s.tokensIn;
            st.tokensOut += s.tokensOut;
            st.costUsd += s.costUsd;
            if (st.ttftUs < 0 && s.ttftUs >= 0)
                st.ttftUs = s.ttftUs;
        } else if (s.kind == SpanKind::Node) {
            spans[s.node].node.emplace_back(s.startUs, end);
            lastNodeStatus[s.node] = s.status;
        }
    }
    for (auto& [node, st] : stats) {
        const auto& ns = spans[node];
        const auto& all = ns.node.empty() ? ns.attempts : ns.node;
        if (!all.empty()) {
            int64_t first = all.front().first, last = all.front().second;
            for (const auto& [s, e] : all) {
                first = std::min(first, s);
                last = std::max(last, e);
            }
            st.wallUs = last - first;
        }
        st.busyUs = unionLength(ns.attempts.empty() ? ns.node : ns.attempts);
        const auto it = lastNodeStatus.find(node);
        st.status = it == lastNodeStatus.end() ? Status::Running : it->second;
    }
    for (const auto& n : run.nodes) {
        if (auto it = stats.find(n.node); it != stats.end())
            it->second.status = n.result.status;
    }

    int64_t busy = 0;
    if (team) {
        for (const auto& node : team->nodes) {
            auto it = stats.find(node.id);
            AgentStats st = it == stats.end() ? AgentStats{} : it->second;
            st.node = node.id;
            st.kind = std::string(toString(node.kind));
            if (it == stats.end())
                st.status = Status::Skipped;
            a.agents.push_back(st);
            if (it != stats.end())
                stats.erase(it);
        }
    }
    for (const auto& [node, st] : stats)
        a.agents.push_back(st);
    for (const auto& st : a.agents)
        busy += st.busyUs;
    a.parallelism = a.wallUs > 0 ? double(busy) / double(a.wallUs) : 0;

    if (!team)
        return a;
    a.serialised = ParallelismAudit::find(*team, run.spans, runEnd);
    return a;
}

} // namespace conclave
