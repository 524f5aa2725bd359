#include "conclave/routing/RoutePolicy.h"

#include <algorithm>
#include <cstdio>

namespace conclave {

namespace {

std::string fixed2(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", value);
    return text;
}

} // namespace

std::optional<RoutePolicy::Kind> RoutePolicy::fromString(std::string_view text)
{
    if (text == "cheapest_above")
        return Kind::CheapestAbove;
    if (text == "max_utility")
        return Kind::MaxUtility;
    if (text == "strong_weak")
        return Kind::StrongWeak;
    return std::nullopt;
}

std::string_view RoutePolicy::toString(Kind kind)
{
    switch (kind) {
    case Kind::CheapestAbove:
        return "cheapest_above";
    case Kind::MaxUtility:
        return "max_utility";
    case Kind::StrongWeak:
        return "strong_weak";
    }
    return "cheapest_above";
}

const std::vector<std::string>& RoutePolicy::names()
{
    static const std::vector<std::string> all{"cheapest_above", "max_utility", "strong_weak"};
    return all;
}

RoutePolicy::Decision RoutePolicy::decide(Kind kind, const std::vector<Route>& routes, double threshold,
                                          double costWeight, size_t strong, size_t weak)
{
    Decision d;
    switch (kind) {
    case Kind::CheapestAbove: {
        std::optional<size_t> cheapest;
        for (size_t i = 0; i < routes.size(); ++i) {
            if (routes[i].p >= threshold && (!cheapest || routes[i].cost < routes[*cheapest].cost))
                cheapest = i;
        }
        if (cheapest) {
            d.route = *cheapest;
            d.note = "route " + routes[d.route].name + ": p " + fixed2(routes[d.route].p) + " \u2265 " +
                     fixed2(threshold) + " (cheapest above)";
            return d;
        }
        for (size_t i = 1; i < routes.size(); ++i) {
            if (routes[i].p > routes[d.route].p)
                d.route = i;
        }
        d.note = "route " + routes[d.route].name + ": p " + fixed2(routes[d.route].p) + ", none \u2265 " +
                 fixed2(threshold) + " (highest p)";
        return d;
    }
    case Kind::MaxUtility: {
        double top = 0;
        for (const auto& r : routes)
            top = std::max(top, r.cost);
        const auto utility = [&](const Route& r) { return r.p - (top > 0 ? costWeight * r.cost / top : 0.0); };
        for (size_t i = 1; i < routes.size(); ++i) {
            if (utility(routes[i]) > utility(routes[d.route]))
                d.route = i;
        }
        const auto& r = routes[d.route];
        d.note = "route " + r.name + ": utility " + fixed2(utility(r)) + " = p " + fixed2(r.p) + " \u2212 " +
                 fixed2(costWeight) + " \u00d7 cost " + fixed2(top > 0 ? r.cost / top : 0.0) + " (max utility)";
        return d;
    }
    case Kind::StrongWeak: {
        const double gain = routes[strong].p - routes[weak].p;
        const bool toStrong = gain >= threshold;
        d.route = toStrong ? strong : weak;
        d.note = "route " + routes[d.route].name + ": p " + fixed2(routes[strong].p) + " \u2212 " +
                 fixed2(routes[weak].p) + " = " + fixed2(gain) + (toStrong ? " \u2265 " : " < ") + fixed2(threshold) +
                 " (strong-weak)";
        return d;
    }
    }
    return d;
}

} // namespace conclave
