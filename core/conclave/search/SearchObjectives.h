#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// What a design search optimises: accuracy up, everything else down.
enum class Objective { Accuracy, Cost, P50Wall, P95Wall, Calls, Tokens };
constexpr size_t kObjectiveCount = 6;

// "accuracy", "cost", "p50_wall", "p95_wall", "calls", "tokens".
std::string_view toString(Objective objective);

// A bound a front design must meet on its point estimate: `accuracy>=0.9`, `cost<=0.002`.
struct SearchConstraint {
    Objective objective = Objective::Accuracy;
    bool atLeast = true;
    double bound = 0;
    std::string text; // as typed

    bool met(double value) const { return atLeast ? value >= bound : value <= bound; }
};

class SearchObjectives {
public:
    // "accuracy,cost,p95_wall": each once; unset with an error naming the unknown one.
    static std::optional<std::vector<Objective>> parse(std::string_view list, std::string& error);
    // NAME>=NUMBER or NAME<=NUMBER.
    static std::optional<SearchConstraint> parseConstraint(std::string_view text, std::string& error);
    static bool maximised(Objective objective) { return objective == Objective::Accuracy; }
    // A figure as reports show it: "71.2 %", "$0.000412", "812 ms", "3.1 calls", "840 tokens".
    static std::string format(Objective objective, double value);
};

// A candidate's figures on some tasks: per objective (indexed by Objective), the
// point estimate — accuracy the mean of per-task accuracies, cost, calls and
// tokens the mean per trial, wall times quantiles (Quantile::of) of every trial.
struct ObjectiveFigures {
    std::array<double, kObjectiveCount> value{};
    size_t tasks = 0;  // with a scored trial
    size_t trials = 0; // that ran

    double operator[](Objective objective) const { return value[size_t(objective)]; }
};

} // namespace conclave
