#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// How a `learned` router turns predicted chances into one route (docs/routing.md):
//  cheapest_above  the cheapest route whose p ≥ threshold; when none is, the highest p;
//  max_utility     the route maximising p − cost_weight · c / c_max;
//  strong_weak     two routes: strong when p_strong − p_weak ≥ threshold, else weak.
// Ties go to the earlier route (the router's edge order). Pure; the note is
// what the router's span says of its decision.
class RoutePolicy {
public:
    enum class Kind { CheapestAbove, MaxUtility, StrongWeak };

    struct Route {
        std::string name; // what the note calls it: the target's model
        double p = 0;     // predicted chance its answer is right
        double cost = 0;  // expected USD of its call
    };
    struct Decision {
        size_t route = 0;
        std::string note; // "route math-13b: p 0.81 ≥ 0.70 (cheapest above)"
    };

    static std::optional<Kind> fromString(std::string_view text);
    static std::string_view toString(Kind kind);
    static const std::vector<std::string>& names();

    // strong, weak: indices into routes (strong_weak only). routes is non-empty.
    static Decision decide(Kind kind, const std::vector<Route>& routes, double threshold, double costWeight,
                           size_t strong = 0, size_t weak = 1);
};

} // namespace conclave
