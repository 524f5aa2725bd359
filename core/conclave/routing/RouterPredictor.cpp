#include "conclave/routing/RouterPredictor.h"

#include "conclave/local/Gate.h"
#include "conclave/util/NameList.h"

#include <algorithm>
#include <cmath>

namespace conclave {

namespace {

double logistic(double z)
{
    return z >= 0 ? 1.0 / (1.0 + std::exp(-z)) : std::exp(z) / (1.0 + std::exp(z));
}

} // namespace

std::optional<size_t> RouterModel::modelIndex(const std::string& name) const
{
    const auto it = std::find(models.begin(), models.end(), name);
    if (it == models.end())
        return std::nullopt;
    return static_cast<size_t>(it - models.begin());
}

std::string_view toString(RouterModel::Method method)
{
    return method == RouterModel::Method::Logistic ? "logistic" : "knn";
}

std::shared_ptr<const RouterPredictor> RouterPredictor::make(RouterModel model, std::shared_ptr<const Gate> gate,
                                                              std::string& error)
{
    if (!gate) {
        error = "no gate to compute the router's features with";
        return nullptr;
    }
    if (model.buckets != gate->buckets() || model.domains != gate->domains()) {
        error = "the router was trained with a gate of " + std::to_string(model.buckets) + " buckets and domains " +
                commaJoined(model.domains) + "; this gate has " + std::to_string(gate->buckets()) +
                " buckets and domains " + commaJoined(gate->domains()) + ": re-train it (conclave train-router)";
        return nullptr;
    }
    return std::shared_ptr<const RouterPredictor>(new RouterPredictor(std::move(model), std::move(gate)));
}

RouterPredictor::RouterPredictor(RouterModel model, std::shared_ptr<const Gate> gate)
    : m_model(std::move(model)), m_gate(std::move(gate)), m_features(*m_gate)
{
    const uint32_t dimension = m_features.dimension();
    if (m_model.method == RouterModel::Method::Logistic) {
        m_stride = m_model.models.size();
        m_weights.assign(size_t(dimension) * m_stride, 0.0);
        for (size_t m = 0; m < m_model.linear.size() && m < m_stride; ++m) {
            for (const auto& [index, weight] : m_model.linear[m].weights) {
                if (index < dimension)
                    m_weights[size_t(index) * m_stride + m] = weight;
            }
        }
    } else {
        m_nearest = std::make_unique<NearestPrompts>(m_model.prompts, m_model.outcomes, m_model.baseRates, dimension);
    }
}

std::vector<double> RouterPredictor::predict(std::string_view prompt) const
{
    if (m_model.method == RouterModel::Method::Logistic) {
        SparseVector occurrences;
        occurrences.reserve(prompt.size() * 4 + 16);
        m_features.occurrences(prompt, occurrences);
        return linear(occurrences);
    }
    return nearest(m_features.vector(prompt));
}

std::vector<double> RouterPredictor::predict(const SparseVector& x) const
{
    return m_model.method == RouterModel::Method::Logistic ? linear(x) : nearest(x);
}

std::vector<double> RouterPredictor::linear(const SparseVector& occurrences) const
{
    std::vector<double> z(m_stride, 0.0);
    for (size_t m = 0; m < m_stride && m < m_model.linear.size(); ++m)
        z[m] = m_model.linear[m].bias;
    const size_t limit = m_weights.size() / std::max<size_t>(m_stride, 1);
    for (const auto& [index, value] : occurrences) {
        if (index >= limit)
            continue;
        const double* row = &m_weights[size_t(index) * m_stride];
        for (size_t m = 0; m < m_stride; ++m)
            z[m] += row[m] * value;
    }
    for (double& v : z)
        v = logistic(v);
    return z;
}

std::vector<double> RouterPredictor::nearest(const SparseVector& x) const
{
    const size_t k = size_t(std::max(m_model.k, 1));
    return m_nearest->estimate(m_nearest->nearest(x, k), k);
}

} // namespace conclave
