#pragma once

// The local simulator's test world: profiles with exact or jittery timing,
// requests as the engine makes them, and a responder over the bundled gate
// and task sets (tst_localresponder, tst_localrespondercalls).
#include "conclave/engine/PromptBuilder.h"
#include "conclave/local/Gate.h"
#include "conclave/local/LocalResponder.h"
#include "conclave/local/TaskSet.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace testsupport {

using namespace conclave;

inline const std::vector<std::string> kDomains{"math", "code", "facts", "writing", "reasoning"};

// A profile without jitter: every call takes ttft + tokens / speed.
inline ResolvedProfile exact(double skill, double ttftMs = 50, double tokensPerS = 1000, double outputTokens = 100)
{
    ResolvedProfile p;
    for (const auto& d : kDomains)
        p.skills[d] = skill;
    p.ttftMs = {ttftMs, ttftMs};
    p.tokensPerS = {tokensPerS, tokensPerS};
    p.outputTokens = {outputTokens, outputTokens};
    p.pricePerMtok = {1, 2};
    p.contextTokens = 100000;
    p.failureRate = 0;
    return p;
}

// A profile with jitter, like the shipped ones.
inline ResolvedProfile jittery(double skill)
{
    auto p = exact(skill);
    p.ttftMs = {300, 900};
    p.tokensPerS = {60, 35};
    p.outputTokens = {300, 800};
    return p;
}

inline ResolvedProfile only(const std::string& domain)
{
    auto p = exact(0);
    p.skills[domain] = 1;
    return p;
}

inline ModelRequest ask(std::string model, std::string prompt, int attempt = 1, std::string salt = "node")
{
    ModelRequest r;
    r.model = std::move(model);
    r.system = std::string(PromptBuilder::answerFormat());
    r.runInput = prompt;
    r.prompt = std::move(prompt);
    r.salt = std::move(salt);
    r.attempt = attempt;
    return r;
}

// The call of a judge run that grades `judged`, as the engine makes it.
inline ModelRequest judging(ModelRequest r, const JudgeCase& judged)
{
    r.purpose = CallPurpose::Judge;
    r.inputs.judge = judged;
    return r;
}

// The gate and task sets as shipped, and responders over them.
class ResponderFixture {
protected:
    std::shared_ptr<const Gate> m_gate;
    std::shared_ptr<const TaskSet> m_tasks;
    std::unique_ptr<LocalResponder> m_responder;

    std::unique_ptr<LocalResponder> make(uint64_t seed) const
    {
        std::map<std::string, ResolvedProfile> profiles{
            {"right", exact(1)},
            {"wrong", exact(0)},
            {"jittery", jittery(0.5)},
            {"failing",
             [] {
                 auto p = exact(1);
                 p.failureRate = 1;
                 return p;
             }()},
            {"small-window",
             [] {
                 auto p = exact(1);
                 p.contextTokens = 10;
                 return p;
             }()},
            {"no-window",
             [] {
                 auto p = exact(1);
                 p.contextTokens.reset();
                 return p;
             }()},
            {"slow", exact(1, 200, 50, 100)},
            {"math-only", only("math")},
            {"code-only", only("code")},
        };
        return std::make_unique<LocalResponder>(std::move(profiles), m_gate, m_tasks, seed);
    }

    // Loads the bundled gate and tasks and makes m_responder (seed 42).
    bool load()
    {
        auto gate = Gate::load(CONCLAVE_RESOURCES "/models/gate.json");
        if (!gate.gate)
            return false;
        m_gate = std::make_shared<const Gate>(std::move(*gate.gate));
        auto tasks = TaskSet::loadFolder(CONCLAVE_RESOURCES "/tasksets");
        if (!tasks.tasks || tasks.tasks->tasks().size() < 50)
            return false;
        m_tasks = std::make_shared<const TaskSet>(std::move(*tasks.tasks));
        m_responder = make(42);
        return true;
    }
};

} // namespace testsupport
