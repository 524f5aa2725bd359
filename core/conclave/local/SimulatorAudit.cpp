#include "conclave/local/SimulatorAudit.h"

#include "conclave/engine/ReplyParser.h"
#include "conclave/local/ItemBank.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace conclave {

namespace {

// One model's answers: [task × seeds + seed], nullopt when every attempt failed.
using Answers = std::vector<std::optional<std::string>>;

double pearson(const std::vector<double>& x, const std::vector<double>& y, bool& defined)
{
    const double n = double(x.size());
    double mx = 0, my = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        mx += x[i];
        my += y[i];
    }
    mx /= n;
    my /= n;
    double sxy = 0, sxx = 0, syy = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    defined = sxx > 0 && syy > 0;
    return defined ? sxy / std::sqrt(sxx * syy) : 0;
}

} // namespace

SimulatorAudit::Result SimulatorAudit::run(std::shared_ptr<const LocalResponder::Profiles> profiles,
                                           std::shared_ptr<const Gate> gate, std::shared_ptr<const TaskSet> tasks,
                                           const std::vector<uint64_t>& seeds, const std::vector<std::string>& voters)
{
    Result result;
    const auto& list = tasks->tasks();
    const size_t perModel = list.size() * seeds.size();
    std::vector<std::string> models;
    for (const auto& [name, profile] : *profiles)
        models.push_back(name);
    std::map<std::string, Answers, std::less<>> answers;
    std::vector<double> stated(models.size() * perModel, 0); // [model × perModel + i]
    for (const auto& model : models)
        answers[model].resize(perModel);
    std::vector<std::string> truths;
    for (const auto& task : list)
        truths.push_back(ReplyParser::normalizeAnswer(task.answer));

    for (size_t s = 0; s < seeds.size(); ++s) {
        LocalResponder responder(profiles, gate, tasks, seeds[s]);
        for (size_t t = 0; t < list.size(); ++t) {
            responder.prepareFor(list[t].prompt);
            for (size_t m = 0; m < models.size(); ++m) {
                const auto& model = models[m];
                ModelRequest request;
                request.model = model;
                request.prompt = list[t].prompt;
                request.runInput = list[t].prompt;
                request.draw = "agent:0";
                for (request.attempt = 1; request.attempt <= 3; ++request.attempt) {
                    ++result.calls;
                    const auto call = responder.respond(request);
                    if (call.reply.ok) {
                        auto parsed = ReplyParser::parse(call.reply.text);
                        answers[model][t * seeds.size() + s] = std::move(parsed.answer);
                        stated[m * perModel + t * seeds.size() + s] = parsed.confidence;
                        break;
                    }
                }
            }
        }
    }
    const auto right = [&](const std::optional<std::string>& answer, size_t i) {
        return answer && *answer == truths[i / seeds.size()];
    };

    // Agreement of errors on 4-choice tasks, and correlations of correctness.
    std::vector<std::vector<double>> correct(models.size(), std::vector<double>(perModel));
    for (size_t m = 0; m < models.size(); ++m)
        for (size_t i = 0; i < perModel; ++i)
            correct[m][i] = right(answers[models[m]][i], i) ? 1 : 0;
    double sumR = 0;
    for (size_t a = 0; a < models.size(); ++a) {
        for (size_t b = a + 1; b < models.size(); ++b) {
            const auto& x = answers[models[a]];
            const auto& y = answers[models[b]];
            for (size_t i = 0; i < perModel; ++i) {
                if (list[i / seeds.size()].choices.size() != 4 || !x[i] || !y[i] || right(x[i], i) || right(y[i], i))
                    continue;
                ++result.bothWrong;
                result.agreeing += *x[i] == *y[i] ? 1 : 0;
            }
            bool defined = false;
            const double r = pearson(correct[a], correct[b], defined);
            if (defined) {
                sumR += r;
                ++result.pairs;
            }
        }
    }
    for (size_t m = 0; m < models.size(); ++m) {
        Confidences c{.model = models[m], .right = {}, .wrong = {}};
        for (size_t i = 0; i < perModel; ++i) {
            if (answers[models[m]][i])
                (correct[m][i] > 0 ? c.right : c.wrong).push_back(stated[m * perModel + i]);
        }
        result.confidences.push_back(std::move(c));
    }
    result.agreement = result.bothWrong ? double(result.agreeing) / double(result.bothWrong) : 0;
    result.meanCorrelation = result.pairs ? sumR / double(result.pairs) : 0;

    // Accuracy per model and domain against skill.
    std::vector<std::string> domains;
    for (const auto& task : list) {
        if (std::find(domains.begin(), domains.end(), task.domain) == domains.end())
            domains.push_back(task.domain);
    }
    double sumGap = 0;
    double sumFromCurve = 0;
    for (const auto& model : models) {
        for (const auto& domain : domains) {
            const ResolvedProfile& profile = profiles->at(model);
            Cell cell{.model = model, .domain = domain, .skill = profile.skill(domain)};
            int64_t rightCount = 0;
            double sumP = 0;
            for (size_t i = 0; i < perModel; ++i) {
                const Task& task = list[i / seeds.size()];
                if (task.domain != domain || !answers[model][i])
                    continue;
                ++cell.answers;
                rightCount += right(answers[model][i], i) ? 1 : 0;
                sumP += ItemBank::pCorrect(cell.skill, ItemBank::difficulty(task), profile.difficultyWeight);
            }
            cell.accuracy = cell.answers ? double(rightCount) / double(cell.answers) : 0;
            cell.expected = cell.answers ? sumP / double(cell.answers) : 0;
            const double gap = cell.accuracy - cell.skill;
            sumGap += std::fabs(gap);
            sumFromCurve += std::fabs(cell.accuracy - cell.expected);
            if (std::fabs(gap) > std::fabs(result.maxAbsGap))
                result.maxAbsGap = gap;
            result.cells.push_back(std::move(cell));
        }
    }
    result.meanAbsGap = result.cells.empty() ? 0 : sumGap / double(result.cells.size());
    result.meanAbsFromCurve = result.cells.empty() ? 0 : sumFromCurve / double(result.cells.size());

    // Plurality votes.
    const auto vote = [&](const std::vector<std::string>& group) {
        Vote v{.models = group};
        int64_t rightCount = 0;
        for (size_t i = 0; i < perModel; ++i) {
            std::vector<std::pair<std::string, int>> counts; // in the order first given
            for (const auto& model : group) {
                const auto& answer = answers[model][i];
                if (!answer)
                    continue;
                auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == *answer; });
                if (it == counts.end())
                    counts.emplace_back(*answer, 1);
                else
                    ++it->second;
            }
            if (counts.empty())
                continue;
            const auto best = std::max_element(counts.begin(), counts.end(),
                                               [](const auto& a, const auto& b) { return a.second < b.second; });
            rightCount += best->first == truths[i / seeds.size()] ? 1 : 0;
        }
        v.accuracy = perModel ? double(rightCount) / double(perModel) : 0;
        return v;
    };
    for (const auto& model : voters) {
        const auto single = vote({model});
        if (result.bestSingle.models.empty() || single.accuracy > result.bestSingle.accuracy)
            result.bestSingle = single;
    }
    for (size_t a = 0; a < voters.size(); ++a)
        for (size_t b = a + 1; b < voters.size(); ++b)
            for (size_t c = b + 1; c < voters.size(); ++c)
                result.threeWay.push_back(vote({voters[a], voters[b], voters[c]}));
    if (!voters.empty())
        result.allVoters = vote(voters);
    return result;
}

} // namespace conclave
