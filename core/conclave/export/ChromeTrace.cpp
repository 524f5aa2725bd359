#include "conclave/export/RunExport.h"

#include <map>

namespace conclave {

nlohmann::ordered_json chromeTrace(const StoredRun& run)
{
    using J = nlohmann::ordered_json;
    auto events = J::array();
    J process;
    process["name"] = "process_name";
    process["ph"] = "M";
    process["pid"] = 1;
    process["tid"] = 0;
    process["args"] = {{"name", run.summary.teamName + " (run " + run.summary.id.str() + ")"}};
    events.push_back(process);

    // One thread per agent, numbered in the order agents first appear.
    std::map<NodeId, int> tids;
    for (const auto& s : run.spans) {
        if (tids.count(s.node))
            continue;
        const int tid = int(tids.size()) + 1;
        tids.emplace(s.node, tid);
        J name;
        name["name"] = "thread_name";
        name["ph"] = "M";
        name["pid"] = 1;
        name["tid"] = tid;
        name["args"] = {{"name", s.node.str()}};
        events.push_back(name);
        J order;
        order["name"] = "thread_sort_index";
        order["ph"] = "M";
        order["pid"] = 1;
        order["tid"] = tid;
        order["args"] = {{"sort_index", tid}};
        events.push_back(order);
    }
    const int64_t runEnd = run.summary.wallUs;
    for (const auto& s : run.spans) {
        J e;
        e["name"] = s.name;
        e["cat"] = std::string(toString(s.kind));
        e["ph"] = "X";
        e["ts"] = s.startUs;
        // A span still open (an interrupted run) is drawn to the run's end.
        e["dur"] = s.endUs >= 0 ? s.durationUs() : std::max<int64_t>(0, runEnd - s.startUs);
        e["pid"] = 1;
        e["tid"] = tids.at(s.node);
        J args;
        args["span_id"] = s.id;
        args["parent"] = s.parent;
        args["status"] = std::string(toString(s.status));
        if (s.attempt)
            args["attempt"] = s.attempt;
        if (s.round)
            args["round"] = s.round;
        if (!s.model.empty())
            args["model"] = s.model;
        if (s.kind == SpanKind::Attempt) {
            args["tokens_in"] = s.tokensIn;
            args["tokens_out"] = s.tokensOut;
            args["cost_usd"] = s.costUsd;
            if (s.ttftUs >= 0)
                args["ttft_us"] = s.ttftUs;
        }
        if (!s.error.empty())
            args["error"] = s.error;
        e["args"] = args;
        events.push_back(e);
    }
    J trace;
    trace["traceEvents"] = events;
    trace["displayTimeUnit"] = "ms";
    trace["otherData"] = {{"run_id", run.summary.id.str()},
                          {"team", run.summary.teamName},
                          {"status", std::string(toString(run.summary.status))}};
    return trace;
}

} // namespace conclave
