#pragma once

#include "conclave/local/Gate.h"
#include "conclave/local/ResolvedProfile.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// The mixture-of-experts gate's score of models for a prompt, the one rule
// behind a moe_gate router's choice and an adaptive coordinator's ranking:
// sum over the gate's domains of weight(prompt) × the model's skill in it.
// A model's profile is the first of `sources`' that names it; a model none
// names, and a domain its profile lacks, count 0.5; without a gate every
// model scores 0.5. Immutable, so runs on any thread share one.
class ProfileGate {
public:
    using Profiles = std::map<std::string, ResolvedProfile, std::less<>>;

    ProfileGate(std::shared_ptr<const Gate> gate, std::vector<std::shared_ptr<const Profiles>> sources);

    std::vector<double> scores(std::string_view prompt, const std::vector<std::string>& models) const;

private:
    const ResolvedProfile* find(std::string_view model) const;

    std::shared_ptr<const Gate> m_gate;
    std::vector<std::shared_ptr<const Profiles>> m_sources;
};

} // namespace conclave
