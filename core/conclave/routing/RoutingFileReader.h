#pragma once

#include "conclave/diagnostics/Problem.h"
#include "conclave/io/JsonText.h"
#include "conclave/routing/PromptFeatures.h"
#include "conclave/routing/RouterModel.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

// A pretty-printed document with some long arrays on one line each: put
// onelinePlaceholder(n) where array n goes, dump, then onelineArrays() puts
// them in. One [index, weight] pair a line would be most of a router file.
inline std::string onelinePlaceholder(size_t n)
{
    return "@oneline " + std::to_string(n) + "@";
}

inline std::string onelineArrays(std::string text, const std::vector<nlohmann::ordered_json>& arrays)
{
    for (size_t n = 0; n < arrays.size(); ++n) {
        // With its quotes: no escaped string in the document can hold that.
        const auto placeholder = "\"" + onelinePlaceholder(n) + "\"";
        const auto at = text.find(placeholder);
        if (at != std::string::npos)
            text.replace(at, placeholder.size(), arrays[n].dump());
    }
    return text;
}

// The reading rules router.json and scorer.json share (RouterFile,
// ScorerFile): each problem is recorded where it is (a JSON pointer) with
// what was expected and what was found. Header-only: small, and used by two files.
class RoutingFileReader {
public:
    explicit RoutingFileReader(std::vector<Problem>& problems) : m_problems(problems) {}

    void fail(const std::string& pointer, std::string message)
    {
        Problem p;
        p.pointer = pointer;
        p.message = std::move(message);
        m_problems.push_back(std::move(p));
    }

    const nlohmann::json* field(const nlohmann::json& object, const std::string& pointer, const char* key,
                                bool required = true)
    {
        const auto it = object.find(key);
        if (it == object.end()) {
            if (required)
                fail(pointer, std::string("missing required field \"") + key + "\"");
            return nullptr;
        }
        return &*it;
    }

    std::optional<double> number(const nlohmann::json& object, const std::string& pointer, const char* key,
                                 bool required = true)
    {
        const auto* value = field(object, pointer, key, required);
        if (!value)
            return std::nullopt;
        if (!value->is_number() || !std::isfinite(value->get<double>())) {
            fail(childPointer(pointer, key), "expected a finite number, got " + describeJsonValue(*value));
            return std::nullopt;
        }
        return value->get<double>();
    }

    std::optional<std::vector<std::string>> strings(const nlohmann::json& object, const std::string& pointer,
                                                    const char* key)
    {
        const auto* value = field(object, pointer, key);
        if (!value)
            return std::nullopt;
        std::vector<std::string> out;
        if (value->is_array()) {
            for (const auto& item : *value) {
                if (!item.is_string())
                    break;
                out.push_back(item.get<std::string>());
            }
            if (out.size() == value->size())
                return out;
        }
        fail(childPointer(pointer, key), "expected an array of strings, got " + describeJsonValue(*value));
        return std::nullopt;
    }

    std::vector<RouterModel::TaskRef> tasks(const nlohmann::json& object, const std::string& pointer)
    {
        std::vector<RouterModel::TaskRef> out;
        const auto* value = field(object, pointer, "tasks");
        if (!value)
            return out;
        const auto at = childPointer(pointer, "tasks");
        if (!value->is_array()) {
            fail(at, "expected an array of {\"set\", \"id\"} tasks, got " + describeJsonValue(*value));
            return out;
        }
        for (size_t i = 0; i < value->size(); ++i) {
            const auto& task = (*value)[i];
            const bool shaped = task.is_object() && task.contains("set") && task["set"].is_string() &&
                                task.contains("id") && task["id"].is_string();
            if (!shaped) {
                fail(childPointer(at, i), "expected a task {\"set\", \"id\"}, got " + describeJsonValue(task));
                return {};
            }
            out.push_back({task["set"].get<std::string>(), task["id"].get<std::string>()});
        }
        return out;
    }

    std::optional<SparseVector> sparse(const nlohmann::json& value, const std::string& pointer, uint32_t dimension)
    {
        if (!value.is_array()) {
            fail(pointer, "expected an array of [index, value] pairs, got " + describeJsonValue(value));
            return std::nullopt;
        }
        SparseVector out;
        out.reserve(value.size());
        for (size_t i = 0; i < value.size(); ++i) {
            const auto& pair = value[i];
            const bool shaped = pair.is_array() && pair.size() == 2 && pair[0].is_number_unsigned() &&
                                pair[1].is_number() && std::isfinite(pair[1].get<double>());
            if (!shaped || pair[0].get<uint64_t>() >= dimension ||
                (!out.empty() && pair[0].get<uint64_t>() <= out.back().first)) {
                fail(childPointer(pointer, i), "expected [index, value] with index ascending and below " +
                                                   std::to_string(dimension) + ", got " + pair.dump());
                return std::nullopt;
            }
            out.emplace_back(static_cast<uint32_t>(pair[0].get<uint64_t>()), pair[1].get<double>());
        }
        return out;
    }

private:
    std::vector<Problem>& m_problems;
};

} // namespace conclave
