#include "conclave/io/JsonFieldReader.h"

#include "conclave/io/JsonText.h"

#include <cmath>
#include <limits>

namespace conclave {

JsonFieldReader::JsonFieldReader(const nlohmann::json& object, std::string pointer, std::vector<Problem>& problems)
    : m_object(object), m_pointer(std::move(pointer)), m_problems(problems)
{
}

const nlohmann::json* JsonFieldReader::take(std::string_view key)
{
    if (!m_object.is_object())
        return nullptr;
    const auto it = m_object.find(key);
    if (it == m_object.end())
        return nullptr;
    m_taken.emplace(key);
    return &*it;
}

const nlohmann::json* JsonFieldReader::object(std::string_view key)
{
    const auto* value = take(key);
    if (value && !value->is_object()) {
        expected(key, "an object", *value);
        return nullptr;
    }
    return value;
}

void JsonFieldReader::fail(std::string_view key, std::string message)
{
    failAt(pointerTo(key), std::move(message));
}

void JsonFieldReader::failAt(std::string pointer, std::string message)
{
    Problem p;
    p.pointer = std::move(pointer);
    p.message = std::move(message);
    p.node = m_node;
    m_problems.push_back(std::move(p));
}

void JsonFieldReader::expected(std::string_view key, std::string_view what, const nlohmann::json& got)
{
    fail(key, "expected " + std::string(what) + ", got " + describeJsonValue(got));
}

std::optional<std::string> JsonFieldReader::string(std::string_view key, bool required)
{
    const auto* value = take(key);
    if (!value) {
        if (required)
            fail(key, "missing; expected a string");
        return std::nullopt;
    }
    if (!value->is_string()) {
        expected(key, "a string", *value);
        return std::nullopt;
    }
    return value->get<std::string>();
}

std::optional<int64_t> JsonFieldReader::integer(std::string_view key, std::string_view expectedText, bool required)
{
    const auto* value = take(key);
    if (!value) {
        if (required)
            fail(key, "missing; expected " + std::string(expectedText));
        return std::nullopt;
    }
    if (value->is_number_integer()) {
        if (value->is_number_unsigned() && value->get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max())) {
            expected(key, expectedText, *value);
            return std::nullopt;
        }
        return value->get<int64_t>();
    }
    if (value->is_number_float()) {
        // 1000.0 is a fine way to write 1000; 1.5 is not an integer.
        const double d = value->get<double>();
        if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9.0e15)
            return static_cast<int64_t>(d);
    }
    expected(key, expectedText, *value);
    return std::nullopt;
}

std::optional<double> JsonFieldReader::number(std::string_view key, std::string_view expectedText)
{
    const auto* value = take(key);
    if (!value)
        return std::nullopt;
    if (!value->is_number()) {
        expected(key, expectedText, *value);
        return std::nullopt;
    }
    return value->get<double>();
}

std::optional<bool> JsonFieldReader::boolean(std::string_view key)
{
    const auto* value = take(key);
    if (!value)
        return std::nullopt;
    if (!value->is_boolean()) {
        expected(key, "true or false", *value);
        return std::nullopt;
    }
    return value->get<bool>();
}

std::optional<std::vector<std::string>> JsonFieldReader::stringList(std::string_view key)
{
    return stringList(key, "an array of strings", "a string");
}

std::optional<std::vector<std::string>> JsonFieldReader::stringList(std::string_view key, std::string_view list,
                                                                    std::string_view itemIs)
{
    const auto* value = take(key);
    if (!value)
        return std::nullopt;
    if (!value->is_array()) {
        expected(key, list, *value);
        return std::nullopt;
    }
    std::vector<std::string> out;
    for (size_t i = 0; i < value->size(); ++i) {
        const auto& item = (*value)[i];
        if (!item.is_string()) {
            failAt(childPointer(pointerTo(key), i),
                   "expected " + std::string(itemIs) + ", got " + describeJsonValue(item));
            return std::nullopt;
        }
        out.push_back(item.get<std::string>());
    }
    return out;
}

std::optional<std::map<std::string, std::string>> JsonFieldReader::stringMap(std::string_view key)
{
    const auto* value = object(key);
    if (!value)
        return std::nullopt;
    std::map<std::string, std::string> out;
    for (const auto& [name, item] : value->items()) {
        if (!item.is_string()) {
            failAt(childPointer(pointerTo(key), name), "expected a string, got " + describeJsonValue(item));
            return std::nullopt;
        }
        out.emplace(name, item.get<std::string>());
    }
    return out;
}

std::optional<std::string> JsonFieldReader::enumText(std::string_view key, const std::vector<std::string>& names,
                                                     bool required)
{
    std::string choices;
    for (size_t i = 0; i < names.size(); ++i) {
        if (i > 0)
            choices += (i + 1 == names.size()) ? " or " : ", ";
        choices += names[i];
    }
    const auto* value = take(key);
    if (!value) {
        if (required)
            fail(key, "missing; expected " + choices);
        return std::nullopt;
    }
    if (value->is_string()) {
        const auto& text = value->get_ref<const std::string&>();
        for (const auto& name : names) {
            if (name == text)
                return text;
        }
    }
    expected(key, choices, *value);
    return std::nullopt;
}

nlohmann::json JsonFieldReader::leftovers() const
{
    // Null, not an empty object, when there are none: models are copied often and
    // an empty object costs an allocation per copy.
    nlohmann::json out;
    if (!m_object.is_object())
        return out;
    for (const auto& [key, value] : m_object.items()) {
        if (!m_taken.contains(key))
            out[key] = value;
    }
    return out;
}

} // namespace conclave
