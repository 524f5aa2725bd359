#include "conclave/model/PromptTemplate.h"

namespace conclave {

std::vector<std::string> PromptTemplate::names(std::string_view tmpl)
{
    std::vector<std::string> out;
    scan(
        tmpl, [](std::string_view) {}, [&](const Placeholder& p) { out.emplace_back(p.name); });
    return out;
}

std::string PromptTemplate::renameNode(std::string_view tmpl, std::string_view from, std::string_view to)
{
    std::string out;
    out.reserve(tmpl.size());
    scan(
        tmpl, [&](std::string_view text) { out.append(text); },
        [&](const Placeholder& p) {
            if (!(p.name.starts_with(kFromPrefix) && p.name.substr(kFromPrefix.size()) == from)) {
                out.append(p.whole);
                return;
            }
            const size_t lead = size_t(p.name.data() - p.inside.data());
            out.append("{{").append(p.inside.substr(0, lead)).append(kFromPrefix).append(to);
            out.append(p.inside.substr(lead + p.name.size())).append("}}");
        });
    return out;
}

PromptTemplate::Use PromptTemplate::useOf(std::string_view name, bool inMeeting,
                                          const std::function<bool(std::string_view id)>& isUpstream)
{
    if (name == "input" || name == "inputs")
        return Use::Allowed;
    if (name == "transcript" || name == "round" || name == "task")
        return inMeeting ? Use::Allowed : Use::MeetingOnly;
    if (name.starts_with(kFromPrefix))
        return isUpstream(name.substr(kFromPrefix.size())) ? Use::Allowed : Use::NotUpstream;
    return Use::Unknown;
}

std::vector<std::string> PromptTemplate::allowedFor(const TeamGraph& graph, NodeIndex node, NodeKind kind)
{
    std::vector<std::string> out{"input", "inputs"};
    if (graph.isMember(node) || kind == NodeKind::Coordinator) {
        for (const char* name : {"transcript", "round", "task"})
            out.emplace_back(name);
    }
    const auto upstream = graph.upstreamOf(node);
    for (size_t i = 0; i < graph.size(); ++i) {
        if (upstream[i])
            out.push_back(std::string(kFromPrefix) + graph.idOf(NodeIndex(i)).str());
    }
    return out;
}

} // namespace conclave
