#include "conclave/whatif/WhatIfReport.h"

#include "conclave/whatif/WhatIfText.h"

#include <cstdio>

namespace conclave {

namespace {

using whatif_text::percentOf;
using whatif_text::seconds;

// A node's end: "-" when it did not end.
std::string endText(int64_t us)
{
    return us < 0 ? "-" : seconds(us);
}

std::string path(const std::vector<NodeId>& nodes)
{
    std::string out;
    for (const auto& node : nodes)
        out += (out.empty() ? "" : " → ") + node.str();
    return out.empty() ? "-" : out;
}

std::string statusText(Status status)
{
    return status == Status::Queued ? "did not run" : std::string(toString(status));
}

std::string names(const std::vector<NodeId>& nodes)
{
    std::string out;
    for (const auto& node : nodes)
        out += (out.empty() ? "" : ", ") + node.str();
    return out.empty() ? "none" : out;
}

} // namespace

std::vector<std::string> WhatIfReport::decisions() const
{
    std::vector<std::string> out;
    for (const auto& n : nodes) {
        const std::string name = n.node.str() + ": ";
        if (n.before != n.after)
            out.push_back(name + statusText(n.before) + " → " + statusText(n.after));
        // A node cut short or newly run has no answer on one side: its status says so.
        else if (n.answerBefore != n.answerAfter)
            out.push_back(name + "answer \"" + n.answerBefore + "\" → \"" + n.answerAfter + "\"");
        if (n.decidesOnTime && n.decidersBefore != n.decidersAfter && n.after == Status::Ok)
            out.push_back(name + (n.quorum ? "quorum now reached at " : "now decided at ") + endText(n.endAfter) +
                          " by " + names(n.decidersAfter) +
                          (n.cancelledAfter.empty() ? "" : "; " + names(n.cancelledAfter) + " cancelled") + " (was " +
                          endText(n.endBefore) + " by " + names(n.decidersBefore) + ")");
        if (n.noteBefore != n.noteAfter)
            out.push_back(name + "\"" + n.noteBefore + "\" → \"" + n.noteAfter + "\"");
    }
    return out;
}

nlohmann::ordered_json WhatIfReport::json() const
{
    nlohmann::ordered_json j;
    j["run"] = run;
    j["team"] = team;
    j["clock"] = std::string(toString(clock));
    j["projection"] = "simulated clock, the run's own calls replayed";
    j["changes"] = changes;
    j["status"] = {{"before", std::string(toString(statusBefore))}, {"after", std::string(toString(statusAfter))}};
    j["wall_ms"] = {{"before", double(wallBefore) / 1e3}, {"after", double(wallAfter) / 1e3}};
    j["saved_ms"] = double(wallBefore - wallAfter) / 1e3;
    j["cost_usd"] = {{"before", costBefore}, {"after", costAfter}};
    j["answer"] = {{"before", answerBefore}, {"after", answerAfter}};
    const auto ids = [](const std::vector<NodeId>& list) {
        std::vector<std::string> out;
        for (const auto& n : list)
            out.push_back(n.str());
        return out;
    };
    j["critical_path"] = {{"before", ids(pathBefore)}, {"after", ids(pathAfter)}};
    j["decisions_changed"] = decisions();
    j["calls"] = {{"replayed", replayedCalls},
                  {"simulated", simulatedCalls},
                  {"cut_short", cutShortAgain},
                  {"cut_short_when_recorded", cutShortCalls}};
    j["nodes"] = nlohmann::ordered_json::array();
    for (const auto& n : nodes) {
        const auto end = [](int64_t us) { return us < 0 ? nlohmann::ordered_json() : nlohmann::ordered_json(double(us) / 1e3); };
        j["nodes"].push_back({{"node", n.node.str()},
                              {"status", {{"before", statusText(n.before)}, {"after", statusText(n.after)}}},
                              {"end_ms", {{"before", end(n.endBefore)}, {"after", end(n.endAfter)}}}});
    }
    return j;
}

std::string WhatIfReport::text() const
{
    std::string out = "what-if of run " + run + " (" + team + "), projected on the simulated clock from its own calls";
    if (clock == ClockKind::Real)
        out += " (the run itself was on the real clock)";
    out += "\n";
    std::string changed;
    for (const auto& c : changes)
        changed += (changed.empty() ? "" : ", ") + c;
    out += "changes: " + (changed.empty() ? std::string("none") : changed) + "\n";
    out += "wall: " + seconds(wallBefore) + " → " + seconds(wallAfter) + " (saves " + seconds(wallBefore - wallAfter) +
           ", " + percentOf(wallBefore - wallAfter, wallBefore) + ")\n";
    if (statusBefore != statusAfter)
        out += "status: " + std::string(toString(statusBefore)) + " → " + std::string(toString(statusAfter)) + "\n";
    if (answerBefore != answerAfter)
        out += "answer: \"" + answerBefore + "\" → \"" + answerAfter + "\"\n";
    out += "critical path: " + path(pathBefore) + "\n";
    if (pathAfter != pathBefore)
        out += "        now:   " + path(pathAfter) + "\n";
    const auto changedDecisions = decisions();
    out += "decisions changed: " + (changedDecisions.empty() ? std::string("none") : std::to_string(changedDecisions.size())) + "\n";
    for (const auto& line : changedDecisions)
        out += "  " + line + "\n";
    out += "node ends (before → after):\n";
    for (const auto& n : nodes)
        if (n.endBefore != n.endAfter)
            out += "  " + n.node.str() + ": " + endText(n.endBefore) + " → " + endText(n.endAfter) + "\n";
    out += "calls: " + std::to_string(replayedCalls) + " replayed from the run";
    if (simulatedCalls > 0)
        out += ", " + std::to_string(simulatedCalls) + " simulated (the run did not make " +
               (simulatedCalls == 1 ? "it" : "them") + " or cut " + (simulatedCalls == 1 ? "it" : "them") +
               " short: the simulator answered)";
    if (cutShortAgain > 0)
        out += ", " + std::to_string(cutShortAgain) + " cut short";
    out += "\n";
    if (cutShortCalls > 0)
        out += std::to_string(cutShortCalls) +
               (cutShortCalls == 1 ? " call was cut short when recorded (cancelled or timed out): it goes"
                                   : " calls were cut short when recorded (cancelled or timed out): they go") +
               " on with a latency drawn from the simulator's profile, longer than " +
               (cutShortCalls == 1 ? "it was" : "they were") + " served, unless cut short again\n";
    out += "a projection: the run's recorded calls on the simulated clock, not a new measurement\n";
    return out;
}

} // namespace conclave
