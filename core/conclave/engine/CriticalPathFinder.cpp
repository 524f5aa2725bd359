#include "conclave/engine/CriticalPathFinder.h"

#include <algorithm>
#include <unordered_map>

namespace conclave {

CriticalPath CriticalPathFinder::find(const Team& team, const std::vector<Span>& spans)
{
    // The top-level span of each node (members run inside their coordinator's span).
    std::unordered_map<NodeId, const Span*> nodeSpan;
    for (const auto& s : spans) {
        if (s.kind == SpanKind::Node && s.parent == 0 && s.endUs >= 0)
            nodeSpan.emplace(s.node, &s);
    }
    std::unordered_map<NodeId, std::vector<NodeId>> inputs;
    std::optional<NodeId> output;
    for (const auto& n : team.nodes) {
        if (n.kind == NodeKind::Output && nodeSpan.contains(n.id))
            output = n.id;
    }
    for (const auto& e : team.edges) {
        if (!e.isMember())
            inputs[e.to].push_back(e.from);
    }
    CriticalPath path;
    if (!output)
        return path;
    NodeId current = *output;
    std::vector<NodeId> reversed;
    for (size_t guard = 0; guard <= team.nodes.size(); ++guard) {
        const Span* span = nodeSpan.at(current);
        reversed.push_back(current);
        path.lengthUs += span->durationUs();
        const Span* gate = nullptr;
        NodeId gateId;
        for (const auto& from : inputs[current]) {
            const auto it = nodeSpan.find(from);
            // Skipped inputs have no span; a cancelled straggler never held anything up.
            if (it == nodeSpan.end() || it->second->status == Status::Cancelled || it->second->endUs > span->startUs)
                continue;
            if (!gate || it->second->endUs > gate->endUs) {
                gate = it->second;
                gateId = from;
            }
        }
        if (!gate)
            break;
        current = gateId;
    }
    path.nodes.assign(reversed.rbegin(), reversed.rend());
    return path;
}

} // namespace conclave
