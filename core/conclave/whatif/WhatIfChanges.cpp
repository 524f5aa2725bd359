#include "conclave/whatif/WhatIfChanges.h"

#include "conclave/util/NumberText.h"

#include <cmath>

namespace conclave {

bool WhatIfChanges::addBackend(std::string_view assignment, std::string& error)
{
    const std::string text(assignment);
    const auto equals = assignment.find('=');
    const auto dot = assignment.substr(0, equals).rfind('.');
    if (equals == std::string_view::npos || dot == std::string_view::npos || dot == 0) {
        error = "expected NAME.max_concurrency=N, got \"" + text + "\"";
        return false;
    }
    const BackendName name(std::string(assignment.substr(0, dot)));
    const auto field = assignment.substr(dot + 1, equals - dot - 1);
    if (field != "max_concurrency") {
        error = name.str() + ": only max_concurrency can change, got \"" + std::string(field) + "\"";
        return false;
    }
    const auto value = parseNumber(assignment.substr(equals + 1));
    if (!value || *value < 1 || *value > 1e6 || std::floor(*value) != *value) {
        error = name.str() + ".max_concurrency: expected a whole number from 1 to 1000000, got \"" +
                std::string(assignment.substr(equals + 1)) + "\"";
        return false;
    }
    if (!maxConcurrency.emplace(name, int64_t(*value)).second) {
        error = name.str() + ".max_concurrency: changed twice";
        return false;
    }
    return true;
}

bool WhatIfChanges::addModel(std::string_view assignment, std::string& error)
{
    const auto equals = assignment.rfind('=');
    if (equals == std::string_view::npos || equals == 0 || equals + 1 == assignment.size()) {
        error = "expected NODE=MODEL, got \"" + std::string(assignment) + "\"";
        return false;
    }
    const NodeId node(std::string(assignment.substr(0, equals)));
    if (!models.emplace(node, std::string(assignment.substr(equals + 1))).second) {
        error = node.str() + ": model changed twice";
        return false;
    }
    return true;
}

} // namespace conclave
