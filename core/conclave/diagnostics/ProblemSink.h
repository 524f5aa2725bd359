#pragma once

#include "conclave/diagnostics/Problem.h"

#include <optional>
#include <string>
#include <vector>

namespace conclave {

// Collects problems for the validator, in the order they are found.
class ProblemSink {
public:
    void error(std::string pointer, std::string message, std::optional<NodeId> node = {},
               std::optional<size_t> edge = {})
    {
        add(Severity::Error, std::move(pointer), std::move(message), std::move(node), edge);
    }
    void warning(std::string pointer, std::string message, std::optional<NodeId> node = {},
                 std::optional<size_t> edge = {})
    {
        add(Severity::Warning, std::move(pointer), std::move(message), std::move(node), edge);
    }

    std::vector<Problem> take() { return std::move(m_problems); }

private:
    void add(Severity severity, std::string pointer, std::string message, std::optional<NodeId> node,
             std::optional<size_t> edge)
    {
        Problem p;
        p.severity = severity;
        p.pointer = std::move(pointer);
        p.message = std::move(message);
        p.node = std::move(node);
        p.edge = edge;
        m_problems.push_back(std::move(p));
    }

    std::vector<Problem> m_problems;
};

} // namespace conclave
