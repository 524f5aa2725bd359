#include "conclave/routing/ScorerPredictor.h"

#include "conclave/engine/ReplyParser.h"
#include "conclave/local/Gate.h"
#include "conclave/util/NameList.h"

#include <cmath>

namespace conclave {

namespace {

double logistic(double z)
{
    return z >= 0 ? 1.0 / (1.0 + std::exp(-z)) : std::exp(z) / (1.0 + std::exp(z));
}

} // namespace

std::shared_ptr<const ScorerPredictor> ScorerPredictor::make(ScorerModel model, std::shared_ptr<const Gate> gate,
                                                             std::string& error)
{
    if (!gate) {
        error = "no gate to compute the scorer's prompt features with";
        return nullptr;
    }
    if (model.buckets != gate->buckets() || model.domains != gate->domains()) {
        error = "the scorer was trained with a gate of " + std::to_string(model.buckets) + " buckets and domains " +
                commaJoined(model.domains) + "; this gate has " + std::to_string(gate->buckets()) + " buckets and domains " +
                commaJoined(gate->domains()) + ": re-train it (conclave train-scorer)";
        return nullptr;
    }
    return std::shared_ptr<const ScorerPredictor>(new ScorerPredictor(std::move(model), std::move(gate)));
}

ScorerPredictor::ScorerPredictor(ScorerModel model, std::shared_ptr<const Gate> gate)
    : m_model(std::move(model)), m_gate(std::move(gate)), m_features(*m_gate)
{
    m_weights.assign(m_model.models.size(), std::vector<double>(m_model.dimension(), 0.0));
    for (size_t m = 0; m < m_weights.size() && m < m_model.linear.size(); ++m) {
        for (const auto& [index, weight] : m_model.linear[m].weights) {
            if (index < m_weights[m].size())
                m_weights[m][index] = weight;
        }
    }
}

double ScorerPredictor::predict(size_t m, const SparseVector& prompt,
                                const std::array<double, AnswerFeatures::kCount>& answer) const
{
    if (m >= m_weights.size())
        return 0.5;
    const auto& w = m_weights[m];
    double z = m < m_model.linear.size() ? m_model.linear[m].bias : 0.0;
    const uint32_t promptDimension = m_model.promptDimension();
    for (const auto& [index, value] : prompt) {
        if (index < promptDimension)
            z += w[index] * value;
    }
    for (uint32_t k = 0; k < AnswerFeatures::kCount; ++k)
        z += w[promptDimension + k] * answer[k];
    return logistic(z);
}

double ScorerPredictor::score(const ScoredAnswer& answer) const
{
    const auto m = m_model.modelIndex(std::string(answer.model));
    if (!m)
        return answer.confidence;
    SparseVector prompt;
    prompt.reserve(answer.input.size() * 4 + 16);
    m_features.occurrences(answer.input, prompt);
    const auto normalised = ReplyParser::normalizeAnswer(answer.answer);
    AnswerFeatures::Inputs in;
    in.prompt = answer.input;
    in.answer = normalised;
    in.answerLine = ReplyParser::parse(answer.text).answerLine;
    in.confidence = answer.confidence;
    in.same = AnswerFeatures::sameAs(normalised, answer.earlier);
    in.asked = answer.asked;
    return predict(*m, prompt, AnswerFeatures::of(in));
}

} // namespace conclave
