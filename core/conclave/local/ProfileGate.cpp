#include "conclave/local/ProfileGate.h"

namespace conclave {

ProfileGate::ProfileGate(std::shared_ptr<const Gate> gate, std::vector<std::shared_ptr<const Profiles>> sources)
    : m_gate(std::move(gate)), m_sources(std::move(sources))
{
}

const ResolvedProfile* ProfileGate::find(std::string_view model) const
{
    for (const auto& source : m_sources) {
        if (!source)
            continue;
        if (const auto it = source->find(model); it != source->end())
            return &it->second;
    }
    return nullptr;
}

std::vector<double> ProfileGate::scores(std::string_view prompt, const std::vector<std::string>& models) const
{
    std::vector<double> scores(models.size(), 0.5);
    if (!m_gate)
        return scores;
    const auto weights = m_gate->weigh(prompt);
    for (size_t m = 0; m < models.size(); ++m) {
        const ResolvedProfile* p = find(models[m]);
        double score = 0;
        for (size_t d = 0; d < weights.size(); ++d)
            score += weights[d] * (p ? p->skill(m_gate->domains()[d]) : 0.5);
        scores[m] = score;
    }
    return scores;
}

} // namespace conclave
