#pragma once

#include "conclave/store/ExperimentRecords.h"
#include "conclave/store/StoredRun.h"

#include <map>
#include <vector>

namespace conclave {

// One agent's latency over several runs, in milliseconds.
struct AgentLatency {
    NodeId node;
    int samples = 0; // runs in which the agent ran
    double min = 0, q1 = 0, median = 0, q3 = 0, max = 0;
};

// Per-agent latency distributions over a set of runs: a five-number summary
// per agent (the box of a box plot). An agent's latency in a run is its wall
// time (RunAnalysis: first span start to last span end) in ms; a run in which
// it neither took time nor made a call gives no sample. min and max are the
// extreme samples; q1, median and q3 are Quantile::of at 0.25, 0.5 and 0.75
// (linear interpolation between order statistics, Hyndman & Fan definition 7).
class LatencyDistribution {
public:
    // Agents in the order they are first met: the first run's team order,
    // then any others; agents without a sample are left out.
    static std::vector<AgentLatency> perAgent(const std::vector<StoredRun>& runs);
    // The same summary over one design's trials of an experiment, from what
    // the trial rows keep: an agent's samples are its call attempts
    // (TrialAgent::attemptsUs), every one of every trial, so a member's rounds
    // and a retried call count one by one, as ExperimentStats' per-agent
    // p50/p95 do. Agents in the order they are first met among the design's
    // trials; an agent that made no call (a vote) has no sample and is left
    // out; other designs' trials are ignored.
    static std::vector<AgentLatency> perAgent(const std::vector<TrialRecord>& trials, int design);

private:
    static std::vector<AgentLatency> summarize(const std::vector<NodeId>& order,
                                               std::map<NodeId, std::vector<double>>& samples);
};

} // namespace conclave
