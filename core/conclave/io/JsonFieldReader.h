#pragma once

#include "conclave/diagnostics/Problem.h"
#include "conclave/model/NodeKind.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// Reads typed fields out of one JSON object, recording a Problem (with the
// field's JSON pointer) for every missing or mistyped value, and remembering
// which keys it consumed so that the rest can be kept as unknown keys.
class JsonFieldReader {
public:
    JsonFieldReader(const nlohmann::json& object, std::string pointer, std::vector<Problem>& problems);

    void setNode(std::optional<NodeId> node) { m_node = std::move(node); }
    const std::string& pointer() const { return m_pointer; }
    std::string pointerTo(std::string_view key) const { return childPointer(m_pointer, key); }

    // Each returns nullopt when the key is absent (a problem only if required) or mistyped.
    std::optional<std::string> string(std::string_view key, bool required = false);
    std::optional<int64_t> integer(std::string_view key, std::string_view expected, bool required = false);
    std::optional<double> number(std::string_view key, std::string_view expected);
    std::optional<bool> boolean(std::string_view key);
    std::optional<std::vector<std::string>> stringList(std::string_view key);
    // The same, saying what the list and an item are: "an array of design names", "a design name".
    std::optional<std::vector<std::string>> stringList(std::string_view key, std::string_view list,
                                                       std::string_view item);
    std::optional<std::map<std::string, std::string>> stringMap(std::string_view key);

    template <class Enum>
    std::optional<Enum> enumeration(std::string_view key, bool required = false)
    {
        const auto text = enumText(key, allNames<Enum>(), required);
        if (!text)
            return std::nullopt;
        return enumFromString<Enum>(*text);
    }

    // The raw value of a key, marking it consumed; nullptr when absent.
    const nlohmann::json* take(std::string_view key);
    // Like take(), but a value that is not an object is a problem.
    const nlohmann::json* object(std::string_view key);

    void fail(std::string_view key, std::string message);
    void failAt(std::string pointer, std::string message);
    void expected(std::string_view key, std::string_view what, const nlohmann::json& got);

    // Every key not consumed, in an object, to be kept as is.
    nlohmann::json leftovers() const;

private:
    template <class Enum>
    static std::vector<std::string> allNames()
    {
        std::vector<std::string> names;
        for (const Enum value : allValues<Enum>())
            names.emplace_back(toString(value));
        return names;
    }

    std::optional<std::string> enumText(std::string_view key, const std::vector<std::string>& names, bool required);

    const nlohmann::json& m_object;
    std::string m_pointer;
    std::vector<Problem>& m_problems;
    std::optional<NodeId> m_node;
    std::set<std::string, std::less<>> m_taken;
};

} // namespace conclave
