#pragma once
// Teams whose what-if projections are known by hand (docs/whatif.md), shared
// by the core what-if tests and the studio's What-if panel tests: the test
// models answer after exact latencies (EngineTestKit.h).

#include "support/EngineTestKit.h"

namespace enginetest {

// in → a (1 s) → b (300 ms) → out: 1.3 s.
inline TeamBuilder chain()
{
    TeamBuilder b(1.0);
    b.expert("a", "right-1000").expert("b", "right-300").edge("in", "a").edge("a", "b").output("b");
    return b;
}

// Three experts of 100 ms, 300 ms and 1 s into a majority with quorum 2: 0.3 s, the slowest cancelled.
inline TeamBuilder quorum()
{
    TeamBuilder b(1.0);
    b.expert("fast", "right-100").expert("mid", "right-300").expert("slow", "right-1000");
    b.node("vote", "aggregator", json{{"strategy", "majority"}, {"quorum", 2}});
    for (const char* e : {"fast", "mid", "slow"})
        b.edge("in", e).edge(e, "vote");
    b.output("vote");
    return b;
}

// A cascade (threshold 0.8) of an always-wrong 150 ms model that says 0.30, then a right 300 ms one
// that says 0.90, then a 1 s one never asked: 0.45 s.
inline TeamBuilder cascade()
{
    TeamBuilder b(1.0);
    json sure = timed(skillsAll(1), 300);
    sure["confidence"] = json{{"right", {{"mean", 0.9}, {"sd", 0}}}, {"wrong", {{"mean", 0.3}, {"sd", 0}}}};
    b.doc()["backends"]["local"]["models"]["sure-300"] = sure;
    sure = timed(skillsAll(1), 100);
    sure["confidence"] = json{{"right", {{"mean", 0.9}, {"sd", 0}}}, {"wrong", {{"mean", 0.3}, {"sd", 0}}}};
    b.doc()["backends"]["local"]["models"]["sure-100"] = sure;
    b.node("c", "coordinator", json{{"mode", "cascade"}, {"threshold", 0.8}}).edge("in", "c");
    b.expert("first", "doubtful").expert("second", "sure-300").expert("third", "right-1000");
    b.member("c", "first").member("c", "second").member("c", "third");
    b.output("c");
    return b;
}

// Three experts of 300 ms on one backend serving one call at a time, into a concat: 0.9 s.
inline TeamBuilder queued()
{
    TeamBuilder b(1.0);
    b.doc()["backends"]["local"]["max_concurrency"] = 1;
    b.expert("x", "right-300").expert("y", "right-300").expert("z", "right-300");
    b.node("all", "aggregator", json{{"strategy", "concat"}});
    for (const char* e : {"x", "y", "z"})
        b.edge("in", e).edge(e, "all");
    b.output("all");
    return b;
}

} // namespace enginetest
