#include "conclave/analysis/CriticalPathFinder.h"

#include "conclave/model/TeamGraph.h"

#include <algorithm>

namespace conclave {

CriticalPath CriticalPathFinder::find(const Team& team, const std::vector<Span>& spans)
{
    const TeamGraph graph(team);
    // The top-level span of each node (members run inside their coordinator's span).
    std::vector<const Span*> nodeSpan(graph.size(), nullptr);
    for (const auto& s : spans) {
        if (s.kind != SpanKind::Node || s.parent != 0 || s.endUs < 0)
            continue;
        const auto index = graph.indexOf(s.node);
        if (index && !nodeSpan[*index])
            nodeSpan[*index] = &s;
    }
    std::optional<size_t> output;
    for (size_t i = 0; i < graph.size(); ++i) {
        if (team.nodes[i].kind == NodeKind::Output && nodeSpan[i])
            output = i;
    }
    CriticalPath path;
    if (!output)
        return path;
    size_t current = *output;
    std::vector<NodeId> reversed;
    for (size_t guard = 0; guard <= graph.size(); ++guard) {
        const Span* span = nodeSpan[current];
        reversed.push_back(graph.idOf(NodeIndex(current)));
        path.lengthUs += span->durationUs();
        const Span* gate = nullptr;
        size_t gateNode = 0;
        for (const auto& link : graph.in(NodeIndex(current))) {
            const Span* from = nodeSpan[link.node];
            // Skipped inputs have no span; a cancelled straggler never held anything up.
            if (!from || from->status == Status::Cancelled || from->endUs > span->startUs)
                continue;
            if (!gate || from->endUs > gate->endUs) {
                gate = from;
                gateNode = link.node;
            }
        }
        if (!gate)
            break;
        current = gateNode;
    }
    path.nodes.assign(reversed.rbegin(), reversed.rend());
    return path;
}

} // namespace conclave
