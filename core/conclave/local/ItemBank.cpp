#include "conclave/local/ItemBank.h"

#include "conclave/engine/DeterministicRandom.h"
#include "conclave/engine/ReplyParser.h"
#include "conclave/local/TaskSet.h"

#include <boost/math/special_functions/erf.hpp>

#include <algorithm>
#include <cmath>

namespace conclave {

namespace {

double curve(double a, double z, double weight)
{
    if (weight >= 1)
        return a > z ? 1.0 : 0.0; // no call's own noise left: the latent decides
    if (weight <= 0)
        return ItemBank::normalCdf(a);
    return ItemBank::normalCdf((a - std::sqrt(weight) * z) / std::sqrt(1 - weight));
}

} // namespace

ItemBank::ItemBank(const std::vector<Task>& tasks)
{
    for (const auto& task : tasks) {
        if (!task.choices.empty() || task.answer.empty())
            continue;
        auto& answers = m_answers[task.domain];
        auto answer = ReplyParser::normalizeAnswer(task.answer);
        if (std::find(answers.begin(), answers.end(), answer) == answers.end())
            answers.push_back(std::move(answer));
    }
}

const std::vector<std::string>& ItemBank::answers(std::string_view domain) const
{
    static const std::vector<std::string> none;
    const auto it = m_answers.find(domain);
    return it == m_answers.end() ? none : it->second;
}

double ItemBank::drawn(std::string_view key)
{
    // Strictly inside (0, 1), so the quantile is finite.
    const uint64_t bits = DeterministicRandom::hash(key, 0xD1FF1C017ull) >> 11;
    return normalQuantile((static_cast<double>(bits) + 0.5) * 0x1.0p-53);
}

double ItemBank::difficulty(const Task& task, std::optional<uint64_t> trialSeed)
{
    if (task.difficulty)
        return *task.difficulty;
    if (trialSeed)
        return drawn(task.id + "#trial" + std::to_string(*trialSeed));
    return drawn(task.id);
}

double ItemBank::normalCdf(double x)
{
    return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

double ItemBank::normalQuantile(double p)
{
    return -std::sqrt(2.0) * boost::math::erfc_inv(2 * p);
}

double ItemBank::ability(double skill)
{
    return normalQuantile(skill);
}

double ItemBank::pCorrect(double skill, double z, double weight)
{
    if (skill <= 0)
        return 0;
    if (skill >= 1)
        return 1;
    return curve(ability(skill), z, weight);
}

double ItemBank::skillFor(double accuracy, const std::vector<double>& zs, double weight)
{
    if (accuracy <= 0)
        return 0;
    if (accuracy >= 1)
        return 1;
    if (zs.empty())
        return accuracy;
    // The mean of P over zs rises with a: bisect for the accuracy.
    const auto meanP = [&](double a) {
        double sum = 0;
        for (const double z : zs)
            sum += curve(a, z, weight);
        return sum / double(zs.size());
    };
    double low = -40, high = 40;
    for (int i = 0; i < 200 && high - low > 1e-13; ++i) {
        const double mid = (low + high) / 2;
        (meanP(mid) < accuracy ? low : high) = mid;
    }
    return normalCdf((low + high) / 2);
}

} // namespace conclave
