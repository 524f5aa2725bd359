#pragma once

// <string> first: moc 6.4 cannot parse <compare> when it is the first standard header it meets.
#include <string>

#include <compare>
#include <functional>
#include <utility>

namespace conclave {

// A string id that cannot be mixed up with another kind of id: a NodeId is not
// a RunId, and neither is a plain std::string.
template <class Tag>
class StrongId {
public:
    StrongId() = default;
    explicit StrongId(std::string value) : m_value(std::move(value)) {}

    const std::string& str() const { return m_value; }
    bool empty() const { return m_value.empty(); }

    friend bool operator==(const StrongId&, const StrongId&) = default;
    friend auto operator<=>(const StrongId&, const StrongId&) = default;

private:
    std::string m_value;
};

using NodeId = StrongId<struct NodeIdTag>;
using BackendName = StrongId<struct BackendNameTag>;

} // namespace conclave

template <class Tag>
struct std::hash<conclave::StrongId<Tag>> {
    size_t operator()(const conclave::StrongId<Tag>& id) const noexcept
    {
        return std::hash<std::string>{}(id.str());
    }
};
