#include "conclave/whatif/SpeedChanges.h"

namespace conclave {

bool SpeedChanges::add(std::string_view assignment, std::string& error)
{
    const auto equals = assignment.rfind('=');
    // "=300ms" sets a time: the '=' that separates the node is the one before it.
    size_t split = equals;
    if (equals != std::string_view::npos && equals > 0 && assignment[equals - 1] == '=')
        split = equals - 1;
    if (split == std::string_view::npos || split == 0) {
        error = "expected NODE=CHANGE (e.g. mid=-30%), got \"" + std::string(assignment) + "\"";
        return false;
    }
    const NodeId node(std::string(assignment.substr(0, split)));
    std::string why;
    const auto change = LatencyChange::parse(assignment.substr(split + 1), why);
    if (!change) {
        error = node.str() + ": " + why;
        return false;
    }
    if (m_changes.count(node)) {
        error = node.str() + ": changed twice";
        return false;
    }
    m_changes.emplace(node, *change);
    return true;
}

const LatencyChange* SpeedChanges::of(const ModelRequest& request) const
{
    const std::string_view salt = request.salt;
    const auto it = m_changes.find(NodeId(std::string(salt.substr(0, salt.find('#')))));
    return it == m_changes.end() ? nullptr : &it->second;
}

CallRetiming SpeedChanges::retiming() const
{
    if (m_changes.empty())
        return {};
    return [changes = *this](const ModelRequest& request, CallTimes times) {
        const auto* change = changes.of(request);
        return change ? change->apply(times) : times;
    };
}

} // namespace conclave
