#include "conclave/analysis/ParallelismAudit.h"

#include "conclave/engine/RunPlan.h"
#include "conclave/model/DefaultValues.h"
#include "conclave/model/TeamGraph.h"

#include <algorithm>
#include <map>
#include <optional>

namespace conclave {

namespace {

struct Execution {
    int64_t start = 0;
    int64_t end = 0;
    int64_t ready = 0;
    SpanId id = 0;
    int round = 0;
};

bool speaksInTurn(const Node& coordinator)
{
    const auto mode = coordinator.config.mode.value_or(CoordinatorMode::RoundRobin);
    // An adaptive meeting asks its first members together, then one more a
    // round: a member it asks later waits, by design, for the answers before.
    return mode == CoordinatorMode::RoundRobin || mode == CoordinatorMode::Cascade || mode == CoordinatorMode::Adaptive;
}

} // namespace

std::vector<SerialisedBranches> ParallelismAudit::find(const Team& team, const std::vector<Span>& spans,
                                                       int64_t runEndUs)
{
    const TeamGraph graph(team);
    const size_t n = graph.size();
    const auto endOf = [runEndUs](const Span& s) { return s.endUs >= 0 ? s.endUs : std::max(runEndUs, s.startUs); };

    // Each node's executions (node spans), the coordinators' rounds, and every attempt.
    std::vector<std::vector<Execution>> runs(n);
    std::map<std::pair<size_t, int>, int64_t> roundStart; // (coordinator, round) -> start
    std::vector<const Span*> attempts;
    for (const auto& s : spans) {
        const auto i = graph.indexOf(s.node);
        if (!i)
            continue;
        if (s.kind == SpanKind::Node)
            runs[*i].push_back({s.startUs, endOf(s), s.startUs, s.id, s.round});
        else if (s.kind == SpanKind::Round)
            roundStart.try_emplace({size_t(*i), s.round}, s.startUs);
        else
            attempts.push_back(&s);
    }

    // Ready: a member from its coordinator's round (or the coordinator's start);
    // another node from the last end of its inputs' executions before it started.
    for (size_t i = 0; i < n; ++i) {
        for (auto& e : runs[i]) {
            const NodeIndex node(i);
            if (graph.isMember(node)) {
                const size_t c = graph.coordinators(node).front().node;
                if (speaksInTurn(team.nodes[c]))
                    continue; // asked when its turn comes: ready when it starts

                const auto r = roundStart.find({c, e.round});
                if (r != roundStart.end())
                    e.ready = std::min(e.start, r->second);
                else if (!runs[c].empty())
                    e.ready = std::min(e.start, runs[c].front().start);
                continue;
            }
            std::optional<int64_t> settled;
            for (const auto& link : graph.in(node))
                for (const auto& input : runs[link.node])
                    if (input.end <= e.start)
                        settled = std::max(settled.value_or(input.end), input.end);
            e.ready = settled.value_or(e.start);
        }
    }

    std::string planError;
    const auto plan = RunPlan::make(team, planError);
    const auto backendOf = [&](const NodeId& id) -> const CallSettings* {
        const auto i = plan ? plan->indexOf(id) : std::nullopt;
        return i && plan->at(*i).call ? &*plan->at(*i).call : nullptr;
    };
    // What held `later` back while `earlier` ran, judged at the middle of its wait.
    const auto why = [&](size_t earlier, const Execution& first, size_t later, int64_t waitFrom, int64_t waitTo) {
        const CallSettings* a = backendOf(graph.idOf(NodeIndex(earlier)));
        const CallSettings* b = backendOf(graph.idOf(NodeIndex(later)));
        if (a && b && a->backend == b->backend) {
            const auto backend = team.backends.find(b->backend);
            if (backend == team.backends.end())
                return std::string("no backend limit explains it (the engine's workers may have been busy)");
            const Backend& block = backend->second;
            // Calls at a time: its own max_concurrency, else an openai backend's default; 0 for none.
            int64_t limit = 0;
            if (block.maxConcurrency)
                limit = *block.maxConcurrency;
            else if (block.kind == BackendKind::OpenAi)
                limit = defaults::kOpenAiMaxConcurrency;
            const int64_t at = waitFrom + (waitTo - waitFrom) / 2;
            int64_t inFlight = 0;
            bool retried = false;
            for (const Span* s : attempts) {
                const CallSettings* on = backendOf(s->node);
                if (on && on->backend == b->backend && s->startUs <= at && at < endOf(*s))
                    ++inFlight;
                if (s->parent == first.id && s->attempt > 1)
                    retried = true;
            }
            const std::string name = "backend \"" + b->backend.str() + "\"";
            if (limit > 0 && inFlight >= limit) {
                std::string text =
                    name + " allows " + std::to_string(limit) + (limit == 1 ? " call" : " calls") + " at a time";
                return retried ? text + "; " + graph.idOf(NodeIndex(earlier)).str() + "'s retry held it" : text;
            }
            if (block.requestsPerMinute)
                return name + " allows " + std::to_string(*block.requestsPerMinute) + " requests a minute";
        }
        return std::string("no backend limit explains it (the engine's workers may have been busy)");
    };

    std::vector<std::vector<bool>> reach;
    reach.reserve(n);
    for (size_t i = 0; i < n; ++i)
        reach.push_back(graph.reachableFrom(NodeIndex(i)));
    const auto audited = [&](size_t i) {
        const NodeKind kind = team.nodes[i].kind;
        return kind != NodeKind::Input && kind != NodeKind::Output && !runs[i].empty() &&
               std::none_of(runs[i].begin(), runs[i].end(), [](const Execution& e) { return e.end <= e.start; });
    };
    // The meetings a node sits in: its coordinator, the meeting that
    // coordinator is a member of, and so on out (at most n: a cycle is invalid).
    const auto meetingsOf = [&](size_t i) {
        std::vector<size_t> out;
        for (NodeIndex at(i); graph.isMember(at) && out.size() < n;) {
            at = graph.coordinators(at).front().node;
            out.push_back(at);
        }
        return out;
    };
    // Two nodes in one meeting that speaks in turn (however deep inside it) never overlap by design.
    const auto takeTurns = [&](size_t i, size_t j) {
        const auto outer = meetingsOf(j);
        for (const size_t c : meetingsOf(i))
            if (speaksInTurn(team.nodes[c]) && std::find(outer.begin(), outer.end(), c) != outer.end())
                return true;
        return false;
    };

    std::vector<SerialisedBranches> found;
    for (size_t i = 0; i < n; ++i) {
        for (size_t j = i + 1; j < n; ++j) {
            if (!audited(i) || !audited(j) || reach[i][j] || reach[j][i] || takeTurns(i, j))
                continue;
            bool overlapped = false;
            std::optional<std::pair<size_t, size_t>> waited; // (execution of i, execution of j)
            for (size_t x = 0; x < runs[i].size() && !overlapped; ++x) {
                for (size_t y = 0; y < runs[j].size() && !overlapped; ++y) {
                    const auto& a = runs[i][x];
                    const auto& b = runs[j][y];
                    overlapped = a.start < b.end && b.start < a.end;
                    const int64_t common = std::min(a.end, b.end) - std::max(a.ready, b.ready);
                    if (!waited && common >= kMinCommonUs)
                        waited = std::pair{x, y};
                }
            }
            if (overlapped || !waited)
                continue;
            const auto& a = runs[i][waited->first];
            const auto& b = runs[j][waited->second];
            const bool iFirst = a.start <= b.start;
            const size_t first = iFirst ? i : j;
            const size_t second = iFirst ? j : i;
            const Execution& earlier = iFirst ? a : b;
            const Execution& later = iFirst ? b : a;
            found.push_back({{graph.idOf(NodeIndex(first)), graph.idOf(NodeIndex(second))},
                             why(first, earlier, second, std::max(later.ready, earlier.ready), later.start)});
        }
    }
    std::sort(found.begin(), found.end(), [&](const SerialisedBranches& x, const SerialisedBranches& y) {
        return x.nodes.front().str() != y.nodes.front().str() ? x.nodes.front().str() < y.nodes.front().str()
                                                              : x.nodes.back().str() < y.nodes.back().str();
    });
    return found;
}

} // namespace conclave
