#pragma once

#include "support/EngineTestKit.h"

namespace enginetest {

// A learned router choosing between a cheap expert (wrong-100) and a dear one
// (right-100), joined by `first`: the router's fields are `router`'s, its strategy `learned`.
inline TeamBuilder learnedRouterTeam(json router)
{
    TeamBuilder b;
    router["strategy"] = "learned";
    b.node("route", "router", std::move(router));
    b.expert("cheap", "wrong-100").expert("dear", "right-100");
    b.node("join", "aggregator", json{{"strategy", "first"}});
    b.edge("in", "route").edge("route", "cheap").edge("route", "dear");
    b.edge("cheap", "join").edge("dear", "join");
    b.output("join");
    // The dear model's price makes it the expensive route.
    b.doc()["backends"]["local"]["models"]["right-100"]["price_per_mtok"] = json{{"input", 5.0}, {"output", 15.0}};
    b.doc()["backends"]["local"]["models"]["wrong-100"]["price_per_mtok"] = json{{"input", 0.1}, {"output", 0.3}};
    return b;
}

} // namespace enginetest
