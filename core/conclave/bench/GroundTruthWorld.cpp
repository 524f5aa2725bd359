#include "conclave/bench/GroundTruthWorld.h"

#include "conclave/bench/WorldDraws.h"
#include "conclave/engine/DeterministicRandom.h"
#include "conclave/engine/ReplyParser.h"
#include "conclave/io/FileIo.h"
#include "conclave/io/JsonText.h"
#include "conclave/local/LocalResponder.h"
#include "conclave/local/WrongAnswers.h"
#include "conclave/util/TokenEstimate.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace conclave {

namespace {

using R = DeterministicRandom;

// Named streams of a call's draws, so adding one never shifts another.
enum Stream : uint64_t { kRight = 1, kWrong, kConfidence, kTtft, kLength, kSelf, kRecognise, kConform, kRoute };

// The most common answer shown; a tie goes to the one shown first.
std::string plurality(const std::vector<WorldPrompt::Shown>& shown)
{
    std::string best;
    long most = 0;
    for (const auto& s : shown) {
        const long n = std::count_if(shown.begin(), shown.end(), [&](const auto& o) { return o.answer == s.answer; });
        if (n > most) {
            most = n;
            best = s.answer;
        }
    }
    return best;
}

// The subtasks of a plan: each question (up to and with its '?') is one;
// text after the last one joins it; beyond `most` the rest joins the last.
std::string plan(std::string_view task, size_t most)
{
    std::vector<std::string> parts;
    std::string current;
    for (const char c : task) {
        current += c;
        if (c == '?') {
            parts.push_back(current);
            current.clear();
        }
    }
    if (current.find_first_not_of(" \n") != std::string::npos) {
        if (parts.empty())
            parts.push_back(current);
        else
            parts.back() += current;
    }
    for (auto& p : parts)
        p.erase(0, std::min(p.size(), p.find_first_not_of(" \n")));
    while (parts.size() > std::max<size_t>(1, most)) {
        parts[parts.size() - 2] += " " + parts.back();
        parts.pop_back();
    }
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i)
        out += std::to_string(i + 1) + ". " + parts[i] + "\n";
    return out;
}

Problem problemAt(std::string pointer, std::string message)
{
    Problem p;
    p.pointer = std::move(pointer);
    p.message = std::move(message);
    return p;
}

} // namespace

struct GroundTruthWorld::CallDraws {
    uint64_t key;
    double unit(Stream s) const { return R::unit(key, s); }
};

GroundTruthWorld::LoadResult GroundTruthWorld::load(const std::filesystem::path& path,
                                                    const std::filesystem::path& resourcesDir)
{
    return parseTextFile<LoadResult>(path, JsonLimits{}.maxBytes,
                                     [&](std::string_view text) { return fromJsonText(text, resourcesDir); });
}

GroundTruthWorld::LoadResult GroundTruthWorld::fromJsonText(std::string_view text,
                                                            const std::filesystem::path& resourcesDir)
{
    LoadResult result;
    auto parsed = WorldSpec::fromJsonText(text);
    result.problems = std::move(parsed.problems);
    if (!parsed.spec)
        return result;
    auto names = parsed.spec->taskSets.empty() ? TaskSet::bundledNames(resourcesDir) : parsed.spec->taskSets;
    auto tasks = std::make_shared<TaskSet>();
    for (size_t i = 0; i < names.size(); ++i) {
        const auto pointer = childPointer("/task_sets", i);
        const auto path = TaskSet::bundled(resourcesDir, names[i]);
        if (!path) {
            result.problems.push_back(problemAt(pointer, "no bundled task set \"" + names[i] + "\""));
            continue;
        }
        auto set = TaskSet::load(*path);
        if (!set.tasks) {
            const auto error =
                std::find_if(set.problems.begin(), set.problems.end(), [](const Problem& p) { return p.isError(); });
            result.problems.push_back(problemAt(pointer, "task set \"" + names[i] + "\" does not load: " +
                                                             (error == set.problems.end()
                                                                  ? std::string("no tasks")
                                                                  : formatProblem(*error, path->filename().string()))));
            continue;
        }
        tasks->merge(*set.tasks);
    }
    if (hasErrors(result.problems))
        return result;
    result.world = std::make_shared<const GroundTruthWorld>(std::move(*parsed.spec), std::move(tasks));
    return result;
}

GroundTruthWorld::GroundTruthWorld(WorldSpec spec, std::shared_ptr<const TaskSet> tasks)
    : m_spec(std::move(spec)), m_tasks(std::move(tasks)), m_kappa(WorldDraws::kappaForAuroc(m_spec.confidenceAuroc))
{
    // Standardise the readable part over the world's own prompts.
    const auto& all = m_tasks->tasks();
    if (all.size() >= 2) {
        double sum = 0, squares = 0;
        for (const auto& t : all) {
            const double x = rawReadable(t.prompt);
            sum += x;
            squares += x * x;
        }
        m_readableMean = sum / double(all.size());
        const double variance = squares / double(all.size()) - m_readableMean * m_readableMean;
        m_readableSd = variance > 1e-12 ? std::sqrt(variance) : 1.0;
    }
    for (const auto& t : all)
        m_truths.emplace(&t, truthFor(t));
}

std::shared_ptr<const GroundTruthWorld> GroundTruthWorld::withSeed(uint64_t seed) const
{
    auto spec = m_spec;
    spec.seed = seed;
    return std::make_shared<const GroundTruthWorld>(std::move(spec), m_tasks);
}

uint64_t GroundTruthWorld::seedUnder(uint64_t setSeed) const
{
    return R::key({"world", m_spec.name}, setSeed);
}

double GroundTruthWorld::rawReadable(std::string_view text) const
{
    double sum = 0;
    size_t words = 0;
    std::string word;
    const auto flush = [&] {
        if (word.empty())
            return;
        sum += R::normal(R::key({"word", word}, m_spec.seed), 1);
        ++words;
        word.clear();
    };
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) && u < 128)
            word += static_cast<char>(std::tolower(u));
        else
            flush();
    }
    flush();
    return words ? sum / std::sqrt(double(words)) : 0.0;
}

double GroundTruthWorld::readable(std::string_view text) const
{
    return (rawReadable(text) - m_readableMean) / m_readableSd;
}

std::vector<double> GroundTruthWorld::popularityFor(size_t options, std::string_view key) const
{
    return WorldDraws::dirichlet(m_spec.wrongAnswerAlpha, options, R::key({"popularity", key}, m_spec.seed));
}

GroundTruthWorld::Truth GroundTruthWorld::truthFor(const Task& task) const
{
    if (task.answer.empty()) {
        auto free = freeTruth(task.prompt);
        free.domain = task.domain;
        return free;
    }
    Truth t;
    t.domain = task.domain;
    t.answer = ReplyParser::normalizeAnswer(task.answer);
    const double r = m_spec.readableShare;
    const double hidden = R::normal(R::key({"hidden", task.id}, m_spec.seed), 1);
    t.difficulty = m_spec.difficultyShift + std::sqrt(r) * readable(task.prompt) + std::sqrt(1 - r) * hidden;
    if (!task.choices.empty()) {
        for (const auto& c : task.choices) {
            auto n = ReplyParser::normalizeAnswer(c);
            if (n != t.answer)
                t.wrong.push_back(std::move(n));
        }
    } else {
        t.wrong = WrongAnswers(task, m_tasks->items()).all();
    }
    if (t.wrong.empty())
        t.wrong.push_back("unknown");
    t.popularity = popularityFor(t.wrong.size(), task.id);
    return t;
}

GroundTruthWorld::Truth GroundTruthWorld::freeTruth(std::string_view text) const
{
    const auto& answers = LocalResponder::freeAnswers();
    const uint64_t h = R::hash(text);
    Truth t;
    t.domain = std::string(Task::kDefaultDomain);
    t.answer = answers[h % answers.size()];
    for (const auto& a : answers)
        if (a != t.answer)
            t.wrong.push_back(a);
    const double r = m_spec.readableShare;
    const std::string key = "free:" + std::to_string(h);
    t.difficulty = m_spec.difficultyShift + std::sqrt(r) * readable(text) +
                   std::sqrt(1 - r) * R::normal(R::key({"hidden", key}, m_spec.seed), 1);
    t.popularity = popularityFor(t.wrong.size(), key);
    return t;
}

const GroundTruthWorld::Truth& GroundTruthWorld::truth(const Task& task) const
{
    return m_truths.at(&task);
}

double GroundTruthWorld::pRight(std::string_view model, const Truth& truth) const
{
    const auto it = m_spec.models.find(model);
    if (it == m_spec.models.end())
        return 0;
    const auto& m = it->second;
    return 1 / (1 + std::exp(-m.slope * (m.ability(truth.domain) - truth.difficulty)));
}

double GroundTruthWorld::pRightReadable(std::string_view model, const Task& task) const
{
    Truth t;
    t.domain = task.domain;
    const double r = m_spec.readableShare;
    const double known = m_spec.difficultyShift + std::sqrt(r) * readable(task.prompt);
    double sum = 0, weights = 0;
    for (int i = 0; i <= 80; ++i) {
        const double h = -4 + 0.1 * i, w = std::exp(-h * h / 2);
        t.difficulty = known + std::sqrt(1 - r) * h;
        sum += w * pRight(model, t);
        weights += w;
    }
    return sum / weights;
}

std::string GroundTruthWorld::withConfidence(std::string lead, std::string_view answer, bool right,
                                             const CallDraws& draws) const
{
    const double c = WorldDraws::confidence(right, m_kappa, m_spec.confidenceFloor, m_spec.confidenceCeiling,
                                            draws.unit(kConfidence));
    char number[32];
    const auto end = std::to_chars(number, number + sizeof number, c, std::chars_format::fixed, 2).ptr;
    lead.append("\nAnswer: ").append(answer).append("\nConfidence: ").append(number, end);
    return lead;
}

std::string GroundTruthWorld::answerAs(std::string_view model, const Truth& truth, const CallDraws& draws,
                                       bool& right) const
{
    right = draws.unit(kRight) < pRight(model, truth);
    if (right)
        return truth.answer;
    // The wrong option whose cumulative popularity first passes the draw.
    const double u = draws.unit(kWrong);
    double cumulative = 0;
    for (size_t i = 0; i < truth.wrong.size(); ++i) {
        cumulative += truth.popularity[i];
        if (u < cumulative)
            return truth.wrong[i];
    }
    return truth.wrong.back();
}

std::string GroundTruthWorld::reply(const WorldPrompt& prompt, std::string_view name, const CallDraws& draws) const
{
    const Task* task = prompt.subject.empty() ? nullptr : m_tasks->find(prompt.subject);
    const Truth truth = task ? m_truths.at(task) : freeTruth(prompt.subject);
    bool right = false;
    switch (prompt.kind) {
    case WorldPrompt::Kind::Route: {
        if (prompt.labels.empty())
            return "";
        const auto domain = std::find_if(prompt.labels.begin(), prompt.labels.end(), [&](const std::string& l) {
            return task && ReplyParser::normalizeAnswer(l) == ReplyParser::normalizeAnswer(task->domain);
        });
        if (domain != prompt.labels.end() && draws.unit(kRoute) < m_spec.routeAccuracy)
            return *domain;
        const auto pick = size_t(draws.unit(kWrong) * double(prompt.labels.size()));
        return prompt.labels[std::min(pick, prompt.labels.size() - 1)];
    }
    case WorldPrompt::Kind::Plan:
        return plan(prompt.subject, prompt.maxSubtasks);
    case WorldPrompt::Kind::Combine: {
        std::string joined;
        for (const auto& s : prompt.shown)
            joined += (joined.empty() ? "" : "; ") + s.answer;
        if (joined.empty())
            joined = "unknown";
        return withConfidence("Putting the parts together:", joined, !task || joined == truth.answer, draws);
    }
    case WorldPrompt::Kind::Judge: {
        const auto& reference = prompt.reference.empty() ? truth.answer : prompt.reference;
        const bool accurate = draws.unit(kRight) < m_spec.judgeAccuracy;
        const bool correct = (prompt.response == reference) == accurate;
        return withConfidence("Grading against the reference:", correct ? "correct" : "incorrect", accurate, draws);
    }
    case WorldPrompt::Kind::Synthesize: {
        if (prompt.shown.empty() || draws.unit(kSelf) < m_spec.synthesisSelfAnswer) {
            const auto own = answerAs(name, truth, draws, right);
            return withConfidence("Answering the task myself:", own, right, draws);
        }
        const bool present = std::any_of(prompt.shown.begin(), prompt.shown.end(),
                                         [&](const auto& s) { return s.answer == truth.answer; });
        const auto chosen =
            present && draws.unit(kRecognise) < m_spec.synthesisRecognition ? truth.answer : plurality(prompt.shown);
        return withConfidence("Weighing the candidates:", chosen, chosen == truth.answer, draws);
    }
    case WorldPrompt::Kind::MemberTurn: {
        auto own = answerAs(name, truth, draws, right);
        if (draws.unit(kConform) < m_spec.meetingConformity) {
            own = plurality(prompt.shown);
            right = own == truth.answer;
        }
        return withConfidence("Having read the others:", own, right, draws);
    }
    case WorldPrompt::Kind::Answer:
        break;
    }
    const auto own = answerAs(name, truth, draws, right);
    return withConfidence(task ? "Working it out:" : "In short:", own, right, draws);
}

SimulatedCall GroundTruthWorld::respond(const ModelRequest& request) const
{
    SimulatedCall call;
    const auto it = m_spec.models.find(request.model);
    if (it == m_spec.models.end()) {
        call.reply.error = "unknown model \"" + request.model + "\" in world \"" + m_spec.name + "\"";
        return call;
    }
    const WorldModel& model = it->second;
    const CallDraws draws{
        R::key({request.model, request.system, request.prompt, request.params.seedText()}, m_spec.seed)};
    call.reply.text = reply(WorldPrompt::read(request.prompt), request.model, draws);
    call.reply.ok = true;
    call.reply.tokensIn = estimateTokens(request.system.size() + request.prompt.size());
    auto tokensOut = std::max<int64_t>(
        1, std::llround(WorldDraws::logLogistic(model.outputTokens, model.latencyShape, draws.unit(kLength))));
    if (request.params.maxTokens)
        tokensOut = std::max<int64_t>(1, std::min(tokensOut, *request.params.maxTokens));
    call.reply.tokensOut = tokensOut;
    call.ttftMs = WorldDraws::logLogistic(model.ttftMs, model.latencyShape, draws.unit(kTtft));
    call.totalMs = call.ttftMs + double(tokensOut) / model.tokensPerS * 1000.0;
    call.reply.plannedMs = call.totalMs;
    call.loadSlope = model.loadSlope;
    const auto space = call.reply.text.find(' ');
    call.firstChunk = call.reply.text.substr(0, space == std::string::npos ? call.reply.text.size() : space);
    return call;
}

double GroundTruthWorld::costOf(std::string_view model, int64_t tokensIn, int64_t tokensOut) const
{
    const auto it = m_spec.models.find(model);
    if (it == m_spec.models.end())
        return 0;
    return it->second.pricePerMtok.costUsd(double(tokensIn), double(tokensOut));
}

} // namespace conclave
