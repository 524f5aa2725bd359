#include "conclave/local/ItemBank.h"

#include "conclave/engine/DeterministicRandom.h"
#include "conclave/engine/ReplyParser.h"
#include "conclave/local/TaskSet.h"

#include <boost/math/special_functions/erf.hpp>

#include <algorithm>
#include <cmath>

namespace conclave {

namespace {

const double kSqrtShared = std::sqrt(ItemBank::kShared);
const double kSqrtOwn = std::sqrt(1 - ItemBank::kShared);

} // namespace

ItemBank::ItemBank(const std::vector<Task>& tasks, const std::vector<size_t>& groupStarts)
{
    std::map<std::string, size_t, std::less<>> groupOf; // domain -> the first group holding it
    size_t group = 0;
    for (size_t i = 0; i < tasks.size(); ++i) {
        while (group + 1 < groupStarts.size() && i >= groupStarts[group + 1])
            ++group;
        const auto [it, fresh] = groupOf.emplace(tasks[i].domain, group);
        if (fresh || it->second == group)
            m_difficulties[tasks[i].domain].push_back(difficulty(tasks[i]));
        if (tasks[i].choices.empty() && !tasks[i].answer.empty()) {
            auto& answers = m_answers[tasks[i].domain];
            auto answer = ReplyParser::normalizeAnswer(tasks[i].answer);
            if (std::find(answers.begin(), answers.end(), answer) == answers.end())
                answers.push_back(std::move(answer));
        }
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

double ItemBank::difficulty(const Task& task)
{
    return task.difficulty ? *task.difficulty : drawn(task.id);
}

double ItemBank::normalCdf(double x)
{
    return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

double ItemBank::normalQuantile(double p)
{
    return -std::sqrt(2.0) * boost::math::erfc_inv(2 * p);
}

double ItemBank::pCorrect(std::string_view domain, double skill, double z) const
{
    if (skill <= 0)
        return 0;
    if (skill >= 1)
        return 1;
    return normalCdf((ability(domain, skill) - kSqrtShared * z) / kSqrtOwn);
}

double ItemBank::ability(std::string_view domain, double skill) const
{
    const auto tasks = m_difficulties.find(domain);
    if (tasks == m_difficulties.end() || skill <= 0 || skill >= 1)
        return normalQuantile(std::clamp(skill, 1e-12, 1 - 1e-12));
    std::lock_guard lock(m_mutex);
    auto& known = m_abilities[std::string(domain)];
    if (const auto it = known.find(skill); it != known.end())
        return it->second;
    // The mean of P over the domain's tasks rises with a: bisect for s.
    const auto& zs = tasks->second;
    const auto meanP = [&](double a) {
        double sum = 0;
        for (const double z : zs)
            sum += normalCdf((a - kSqrtShared * z) / kSqrtOwn);
        return sum / double(zs.size());
    };
    double low = -12, high = 12;
    for (int i = 0; i < 80 && high - low > 1e-12; ++i) {
        const double mid = (low + high) / 2;
        (meanP(mid) < skill ? low : high) = mid;
    }
    const double a = (low + high) / 2;
    known.emplace(skill, a);
    return a;
}

} // namespace conclave
