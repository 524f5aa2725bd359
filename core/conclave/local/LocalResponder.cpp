#include "conclave/local/LocalResponder.h"

#include "conclave/engine/DeterministicRandom.h"
#include "conclave/engine/ReplyParser.h"
#include "conclave/local/ArithmeticQuestion.h"
#include "conclave/local/Plurality.h"
#include "conclave/local/ProfileGate.h"
#include "conclave/local/SynthesisTable.h"
#include "conclave/local/WrongAnswers.h"
#include "conclave/util/TokenEstimate.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>

namespace conclave {

namespace {

using R = DeterministicRandom;

// Named streams of draws, so adding one never shifts another.
enum Stream : uint64_t {
    kFailure = 1,
    kCorrect,
    kConfidence,
    kTtft,
    kSpeed,
    kLength,
    kWrong,
    kWording,
    kRoute,
    kOther,
    kSelf,
    kRepeat,
    kConform,
    kStanding
};

std::string withAnswer(std::string lead, std::string_view answer, double confidence)
{
    // Exactly printf's "%.2f", without its locale and format parsing.
    char number[32];
    const auto end = std::to_chars(number, number + sizeof number, confidence, std::chars_format::fixed, 2).ptr;
    constexpr std::string_view kAnswer = "\nAnswer: ", kConfidence = "\nConfidence: ";
    lead.reserve(lead.size() + kAnswer.size() + answer.size() + kConfidence.size() + size_t(end - number));
    lead.append(kAnswer).append(answer).append(kConfidence).append(number, end);
    return lead;
}

constexpr std::array<std::string_view, 4> kLeads{"Let me work through this step by step.",
                                                 "Here is my reasoning in brief.",
                                                 "Considering the question carefully:", "Working from what is given:"};

std::string_view lineOf(std::string_view text)
{
    const auto end = text.find('\n');
    return end == std::string_view::npos ? text : text.substr(0, end);
}

// The answers given, each as a vote would count it.
std::vector<std::string> normalizedAnswers(const std::vector<Candidate>& given)
{
    std::vector<std::string> out;
    out.reserve(given.size());
    for (const auto& c : given)
        out.push_back(ReplyParser::normalizeAnswer(c.answer));
    return out;
}

} // namespace

struct LocalResponder::Draws {
    uint64_t key;
    double unit(Stream s) const { return R::unit(key, s); }
    double normal(Stream s) const { return R::normal(key, s); }
};

const std::vector<std::string>& LocalResponder::freeAnswers()
{
    // Lower case and without a final full stop: as ReplyParser normalises them.
    static const std::vector<std::string> answers{"it depends mostly on the constraints you set",
                                                  "start with the simplest option and measure it",
                                                  "the first approach is the better choice here",
                                                  "yes, provided the risks are managed",
                                                  "no, not without more information",
                                                  "a staged plan of prototype, test, then scale"};
    return answers;
}

LocalResponder::LocalResponder(std::map<std::string, ResolvedProfile> profiles, std::shared_ptr<const Gate> gate,
                               std::shared_ptr<const TaskSet> tasks, uint64_t seed)
    : LocalResponder(std::make_shared<const Profiles>(std::make_move_iterator(profiles.begin()),
                                                      std::make_move_iterator(profiles.end())),
                     std::move(gate), std::move(tasks), seed)
{
}

LocalResponder::LocalResponder(std::shared_ptr<const Profiles> profiles, std::shared_ptr<const Gate> gate,
                               std::shared_ptr<const TaskSet> tasks, uint64_t seed)
    : m_profiles(std::move(profiles)), m_gate(std::move(gate)), m_tasks(std::move(tasks)), m_seed(seed),
      m_gateScores(m_gate, {m_profiles})
{
}

std::map<std::string, ResolvedProfile> LocalResponder::resolve(const std::map<std::string, ModelProfile>& catalog,
                                                               const std::map<std::string, ModelProfile>& overrides)
{
    std::map<std::string, ResolvedProfile> out;
    const auto apply = [](ResolvedProfile& r, const ModelProfile& p) {
        if (p.skills)
            for (const auto& [domain, skill] : *p.skills)
                r.skills[domain] = skill;
        if (p.ttftMs)
            r.ttftMs = *p.ttftMs;
        if (p.tokensPerS)
            r.tokensPerS = *p.tokensPerS;
        if (p.outputTokens)
            r.outputTokens = *p.outputTokens;
        if (p.pricePerMtok)
            r.pricePerMtok = *p.pricePerMtok;
        if (p.contextTokens)
            r.contextTokens = p.contextTokens;
        if (p.failureRate)
            r.failureRate = *p.failureRate;
        if (p.errorAgreement)
            r.errorAgreement = *p.errorAgreement;
        if (p.difficultyWeight)
            r.difficultyWeight = *p.difficultyWeight;
        if (p.confidence)
            r.confidence = *p.confidence;
        if (p.synthesis)
            r.synthesis = *p.synthesis;
        if (p.loadSlope)
            r.loadSlope = *p.loadSlope;
        if (p.retryRepeat)
            r.retryRepeat = *p.retryRepeat;
        if (p.conformity)
            r.conformity = *p.conformity;
        if (p.repeatAgreement)
            r.repeatAgreement = *p.repeatAgreement;
    };
    for (const auto& [name, profile] : catalog)
        apply(out[name], profile);
    for (const auto& [name, profile] : overrides)
        apply(out[name], profile);
    return out;
}

const ResolvedProfile* LocalResponder::profile(std::string_view model) const
{
    const auto it = m_profiles->find(model);
    return it == m_profiles->end() ? nullptr : &it->second;
}

void LocalResponder::prepareFor(std::string_view runInput)
{
    m_runInput = std::string(runInput);
    m_runItem = itemFor(runInput);
    m_runSkill.clear();
    if (m_gate) {
        const auto weights = m_gate->weigh(runInput);
        for (const auto& [name, profile] : *m_profiles)
            m_runSkill.emplace(&profile, skillUnder(weights, profile));
    }
}

double LocalResponder::expectedSkill(std::string_view text, const ResolvedProfile& profile) const
{
    if (!m_gate)
        return 0.5;
    if (text == m_runInput) {
        if (const auto it = m_runSkill.find(&profile); it != m_runSkill.end())
            return it->second;
    }
    return skillUnder(m_gate->weigh(text), profile);
}

double LocalResponder::skillUnder(const std::vector<double>& weights, const ResolvedProfile& profile) const
{
    double p = 0;
    for (size_t d = 0; d < weights.size(); ++d)
        p += weights[d] * profile.skill(m_gate->domains()[d]);
    return p;
}

std::vector<double> LocalResponder::gateScores(std::string_view prompt, const std::vector<std::string>& models) const
{
    return m_gateScores.scores(prompt, models);
}

LocalResponder::Item LocalResponder::itemFor(std::string_view text) const
{
    // A task without an answer (a judge scores it) is a free prompt here.
    Item item;
    if (const Task* t = m_tasks ? m_tasks->find(text) : nullptr; t && !t->answer.empty())
        return Item{.task = t};
    const auto key = std::to_string(R::hash(text));
    if (auto computed = ArithmeticQuestion::answer(text)) {
        item.made = std::make_shared<const Task>(
            Task{.id = "calc:" + key, .domain = "math", .prompt = std::string(text), .answer = std::move(*computed)});
    } else {
        const auto& answers = freeAnswers();
        item.made = std::make_shared<const Task>(Task{.id = "free:" + key,
                                                      .prompt = std::string(text),
                                                      .answer = answers[R::hash(text) % answers.size()],
                                                      .choices = answers});
        item.free = true;
        item.text = std::string(text);
    }
    item.task = item.made.get();
    return item;
}

LocalResponder::Item LocalResponder::itemFor(const ModelRequest& request) const
{
    // Every call of a judge run is about the question it grades.
    if (request.inputs.judge)
        return itemFor(std::string_view(request.inputs.judge->question));
    // The call's own task or computed question first: a coordinator's
    // subtask is not the run's question.
    const std::string_view task =
        request.inputs.task.empty() ? std::string_view(request.runInput) : std::string_view(request.inputs.task);
    if (m_tasks) {
        if (const Task* t = m_tasks->find(task); t && !t->answer.empty())
            return Item{.task = t};
    }
    if (task != request.runInput) {
        if (auto computed = ArithmeticQuestion::answer(task)) {
            Item item;
            item.made = std::make_shared<const Task>(Task{.id = "calc:" + std::to_string(R::hash(task)),
                                                          .domain = "math",
                                                          .prompt = std::string(task),
                                                          .answer = std::move(*computed)});
            item.task = item.made.get();
            return item;
        }
    }
    if (request.runInput == m_runInput)
        return m_runItem;
    return itemFor(request.runInput.empty() ? task : std::string_view(request.runInput));
}

const ItemBank& LocalResponder::items() const
{
    static const ItemBank none;
    return m_tasks ? m_tasks->items() : none;
}

double LocalResponder::difficultyOf(const Task& task) const
{
    const bool perTrial = m_tasks && m_tasks->drawsUnmeasuredPerTrial();
    return ItemBank::difficulty(task, perTrial ? std::optional<uint64_t>(m_seed) : std::nullopt);
}

double LocalResponder::pCorrect(const Item& item, const ResolvedProfile& profile) const
{
    const double z = difficultyOf(*item.task);
    if (item.free)
        return ItemBank::pCorrect(expectedSkill(item.text, profile), z, profile.difficultyWeight);
    return ItemBank::pCorrect(profile.skill(item.task->domain), z, profile.difficultyWeight);
}

double LocalResponder::confidenceFor(bool correct, const ResolvedProfile& profile, const Draws& draws)
{
    // Informative but imperfect: right answers sound surer on average, with overlap.
    const ConfidenceDraw& d = correct ? profile.confidence.right : profile.confidence.wrong;
    const double z = draws.normal(kConfidence);
    if (d.quantiles.size() >= 2) {
        // The same draw read as a share, so a profile's two forms keep common random numbers.
        const double h = ItemBank::normalCdf(z) * double(d.quantiles.size() - 1);
        const auto lo = std::min(size_t(h), d.quantiles.size() - 2);
        const double t = std::clamp(h - double(lo), 0.0, 1.0);
        return std::clamp(d.quantiles[lo] + t * (d.quantiles[lo + 1] - d.quantiles[lo]), 0.05, 0.99);
    }
    return std::clamp(d.mean + d.sd * z, 0.05, 0.99);
}

std::string LocalResponder::answer(const std::vector<Candidate>& shown, const ResolvedProfile& profile,
                                   const Item& item, const Draws& draws, double& confidence) const
{
    const Task& task = *item.task;
    const auto truth = ReplyParser::normalizeAnswer(task.answer);
    double p = pCorrect(item, profile);
    const auto peers = normalizedAnswers(shown);
    const auto share = [&](std::string_view answer) {
        const auto n = std::count(peers.begin(), peers.end(), answer);
        return double(n) / double(peers.size());
    };
    // In a meeting, a calibrated conformity takes the most common answer shown,
    // right or wrong; without one, peers' right answers persuade and wrong ones do not.
    std::string adopted;
    if (!peers.empty() && profile.conformity) {
        if (draws.unit(kConform) < *profile.conformity)
            adopted = Plurality::of(peers);
    } else if (!peers.empty()) {
        p += (1 - p) * 0.5 * share(truth);
    }
    const bool correct = adopted.empty() ? draws.unit(kCorrect) < p : adopted == truth;
    confidence = confidenceFor(correct, profile, draws);
    std::string answer = truth;
    if (!adopted.empty()) {
        answer = adopted;
    } else if (!correct) {
        // Wrong models are drawn to the same wrong answer, the more so when
        // peers already gave it (unless a calibrated conformity says how peers sway).
        const WrongAnswers wrong(task, items());
        double q = profile.agreement();
        if (!peers.empty() && !profile.conformity)
            q += (1 - q) * 0.5 * share(wrong.attractive());
        answer = draws.unit(kWrong) < q ? wrong.attractive() : wrong.other(draws.unit(kOther));
    }
    const auto lead = kLeads[static_cast<size_t>(draws.unit(kWording) * double(kLeads.size()))];
    if (!item.free)
        return withAnswer(std::string(lead), answer, confidence);
    const std::string topic(lineOf(task.prompt).substr(0, 60));
    return withAnswer("(simulated reply) On \"" + topic + "\": " + std::string(lead), answer, confidence);
}

std::string LocalResponder::chooseRoute(const std::vector<std::string>& labels, std::string_view requestText,
                                        const ResolvedProfile& profile, const Draws& draws) const
{
    if (labels.empty())
        return "";
    // Score each label by how well the request's domains match the label's own.
    const bool compound = std::count(requestText.begin(), requestText.end(), '?') >= 2 ||
                          requestText.find(" and then ") != std::string_view::npos;
    std::vector<double> scores(labels.size(), 0);
    const auto requestWeights = m_gate ? m_gate->weigh(requestText) : std::vector<double>{};
    for (size_t i = 0; i < labels.size(); ++i) {
        const auto& label = labels[i];
        if (label == "compound" || label == "multi" || label == "complex")
            scores[i] = compound ? 2 : -1;
        else if (label == "single" || label == "simple")
            scores[i] = compound ? -1 : 1;
        else if (m_gate) {
            const auto labelWeights = m_gate->weigh(label);
            for (size_t d = 0; d < requestWeights.size(); ++d)
                scores[i] += requestWeights[d] * labelWeights[d];
        }
    }
    const size_t best = static_cast<size_t>(std::max_element(scores.begin(), scores.end()) - scores.begin());
    if (labels.size() == 1 || draws.unit(kRoute) < profile.skill("reasoning"))
        return labels[best];
    size_t other = static_cast<size_t>(draws.unit(kWrong) * double(labels.size() - 1));
    if (other >= best)
        ++other;
    return labels[other];
}

std::string LocalResponder::decompose(std::string_view task, size_t maxSubtasks)
{
    const size_t maxParts = std::max<size_t>(1, maxSubtasks);
    std::vector<std::string> parts;
    std::string current;
    // A sentence ends at "?", or at "." before a space; each sentence is a part.
    for (size_t i = 0; i < task.size(); ++i) {
        const char c = task[i];
        current += c;
        const bool atEnd = i + 1 == task.size() || task[i + 1] == ' ' || task[i + 1] == '\n';
        if ((c == '?' || c == '.') && atEnd) {
            parts.push_back(current);
            current.clear();
        }
    }
    if (!std::all_of(current.begin(), current.end(), [](char c) { return c == ' ' || c == '\n'; }))
        parts.push_back(current);
    for (auto& part : parts) {
        // "And what is ..." reads as its own question once split off.
        while (!part.empty() && (part.front() == ' ' || part.front() == '\n'))
            part.erase(part.begin());
        for (std::string_view joiner : {"And ", "and ", "Also, ", "Then "}) {
            if (part.starts_with(joiner)) {
                part.erase(0, joiner.size());
                part[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(part[0])));
            }
        }
    }
    while (parts.size() > maxParts) {
        parts[parts.size() - 2] += " " + parts.back();
        parts.pop_back();
    }
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i)
        out += std::to_string(i + 1) + ". " + parts[i] + "\n";
    return out;
}

std::string LocalResponder::synthesize(const std::vector<Candidate>& candidates, const ResolvedProfile& profile,
                                       const Item& item, const Draws& draws, double& confidence) const
{
    std::map<std::string, double> score;
    for (const auto& c : candidates)
        score[ReplyParser::normalizeAnswer(c.answer)] += c.confidence;
    if (score.empty()) {
        confidence = 0.1;
        return withAnswer("No candidate answers were given.", "unknown", confidence);
    }
    const auto lead = "Having weighed " + std::to_string(candidates.size()) + " candidate answers:";
    const auto truth = ReplyParser::normalizeAnswer(item.task->answer);
    if (profile.synthesis) {
        const SynthesisTable table(*profile.synthesis);
        bool correct = false;
        const auto chosen = table.answer(candidates, truth, WrongAnswers(*item.task, items()), profile.agreement(),
                                         {.right = draws.unit(kCorrect),
                                          .self = draws.unit(kSelf),
                                          .wrong = draws.unit(kWrong),
                                          .other = draws.unit(kOther)},
                                         correct);
        confidence = confidenceFor(correct, profile, draws);
        return withAnswer(lead, chosen, confidence);
    }
    double total = 0;
    for (const auto& [answer, s] : score)
        total += s;
    auto best =
        std::max_element(score.begin(), score.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    std::string chosen = best->first;
    // A good synthesizer recognises the right candidate even when it is
    // outvoted, less often on a hard task.
    if (const auto right = score.find(truth); right != score.end()) {
        const double recognises =
            ItemBank::pCorrect(profile.skill("reasoning"), difficultyOf(*item.task), profile.difficultyWeight);
        const double p = std::max(right->second / total, recognises * 0.9);
        chosen = draws.unit(kCorrect) < p ? truth : chosen;
    }
    confidence = std::clamp(score[chosen] / total * 0.5 + 0.45 + 0.05 * draws.normal(kConfidence), 0.05, 0.99);
    return withAnswer(lead, chosen, confidence);
}

std::string LocalResponder::combine(const std::vector<Candidate>& parts, double& confidence)
{
    // Parts keep their order: the combined answer is each part's answer in turn.
    std::string answer;
    confidence = parts.empty() ? 0.1 : 1.0;
    for (const auto& part : parts) {
        answer += (answer.empty() ? "" : "; ") + ReplyParser::normalizeAnswer(part.answer);
        confidence = std::min(confidence, part.confidence);
    }
    return withAnswer("Putting the " + std::to_string(parts.size()) + " parts together:",
                      answer.empty() ? "unknown" : answer, confidence);
}

std::string LocalResponder::judge(const JudgeCase& judged, const Item& item, const ResolvedProfile& profile,
                                  const Draws& draws, double& confidence) const
{
    // The verdict a perfect judge would give: the response against the
    // reference, else against the truth of the question's item (a task's
    // answer, a computed one, a free prompt's hidden best answer).
    const auto response = ReplyParser::normalizeAnswer(judged.response);
    const std::string& truth = judged.reference.empty() ? item.task->answer : judged.reference;
    const bool right = response == ReplyParser::normalizeAnswer(truth);
    // Grading is easier than answering: a judge errs half as often as its
    // model would answering the question (hard questions are hard to grade).
    const double p = 1 - (1 - pCorrect(item, profile)) / 2;
    const bool accurate = draws.unit(kCorrect) < p;
    confidence = confidenceFor(accurate, profile, draws);
    const bool verdict = accurate ? right : !right;
    return withAnswer("Comparing the response with the reference:", verdict ? "correct" : "incorrect", confidence);
}

double LocalResponder::costOf(std::string_view model, int64_t tokensIn, int64_t tokensOut) const
{
    const auto* found = profile(model);
    return found ? found->pricePerMtok.costUsd(double(tokensIn), double(tokensOut)) : 0.0;
}

SimulatedCall LocalResponder::respond(const ModelRequest& request) const
{
    SimulatedCall call;
    const ResolvedProfile* p = profile(request.model);
    if (!p) {
        call.reply.error = "unknown local model \"" + request.model + "\"";
        return call;
    }
    call.loadSlope = p->loadSlope;
    const Item item = itemFor(request);
    std::string taskKey = item.made ? std::to_string(R::hash(request.runInput)) : item.task->id;
    if (request.inputs.judge)
        taskKey.insert(0, "judge:"); // a judge's luck is its own, not the judged design's
    // Common random numbers: the draws depend on which of the model's calls on
    // this task it is (its draw role), not on the caller's id or its prompt's
    // wording, so two designs of one shape see the same luck.
    const std::string& role = request.draw.empty() ? request.salt : request.draw;
    const Draws fresh{R::key({request.model, taskKey, role, std::to_string(request.attempt)}, m_seed)};
    // A retry answered as the attempt before it (retry_repeat) takes that
    // attempt's draws; whether the server fails is drawn anew each time.
    int answeredAs = request.attempt;
    while (answeredAs > 1 && p->retryRepeat > 0 &&
           R::unit(R::key({request.model, taskKey, role, std::to_string(answeredAs)}, m_seed), kRepeat) <
               p->retryRepeat)
        --answeredAs;
    const Draws draws = answeredAs == request.attempt
                            ? fresh
                            : Draws{R::key({request.model, taskKey, role, std::to_string(answeredAs)}, m_seed)};

    call.reply.tokensIn = estimateTokens(request.system.size() + request.prompt.size());
    call.ttftMs = ResolvedProfile::at(p->ttftMs, draws.normal(kTtft));
    if (p->contextTokens && call.reply.tokensIn > *p->contextTokens) {
        call.reply.error = "the prompt is " + std::to_string(call.reply.tokensIn) + " tokens; " + request.model +
                           " has a context window of " + std::to_string(*p->contextTokens);
        call.totalMs = call.ttftMs;
        call.reply.plannedMs = call.totalMs;
        return call;
    }
    if (fresh.unit(kFailure) < p->failureRate) {
        call.reply.error = "simulated server error (503) from " + request.model;
        call.reply.retryable = true;
        call.totalMs = call.ttftMs;
        call.reply.plannedMs = call.totalMs;
        return call;
    }

    // Asked exactly the same again in a run (repeat_agreement κ), a model
    // answers from its standing draws on the request: keyed by the request
    // (its task, system prompt, prompt and seed) and the run's seed, not by the
    // call's role or attempt. Each call takes them with chance √κ, so two such
    // calls answer alike with chance κ beyond what the task's difficulty
    // shares. Which answers the endpoint stands by is not known, so each trial
    // draws them anew and a prediction averages over them (docs/simulator.md,
    // "Asked the same again"). Latency stays each call's own.
    const Draws said =
        p->repeatAgreement > 0 && draws.unit(kStanding) < std::sqrt(p->repeatAgreement)
            ? Draws{R::key({"standing", request.model, taskKey, request.system, request.prompt,
                            request.params.seedText()},
                           m_seed)}
            : draws;

    // What the call is, as the engine says: its prompt's wording never matters.
    double confidence = 0;
    std::string text;
    const CallInputs& in = request.inputs;
    switch (request.purpose) {
    case CallPurpose::Route:
        text = chooseRoute(in.routes, in.task, *p, said);
        break;
    case CallPurpose::Plan:
        text = decompose(in.task, in.maxSubtasks);
        break;
    case CallPurpose::Combine:
        text = combine(in.candidates, confidence);
        break;
    case CallPurpose::Synthesize:
        text = synthesize(in.candidates, *p, item, said, confidence);
        break;
    case CallPurpose::Judge:
        if (in.judge) {
            text = judge(*in.judge, item, *p, said, confidence);
            break;
        }
        [[fallthrough]]; // a judge call without its case answers as any call would
    case CallPurpose::Answer:
    case CallPurpose::MemberTurn:
        text = answer(in.transcript, *p, item, said, confidence);
        break;
    }

    auto tokensOut = std::max<int64_t>(1, std::llround(ResolvedProfile::at(p->outputTokens, said.normal(kLength))));
    if (request.params.maxTokens)
        tokensOut = std::min(tokensOut, *request.params.maxTokens);
    // tokens_per_s p95 is the slow tail: a positive draw means slower.
    const double speed = std::max(1.0, ResolvedProfile::at(p->tokensPerS, draws.normal(kSpeed)));
    call.totalMs = call.ttftMs + double(tokensOut) / speed * 1000.0;
    call.reply.ok = true;
    call.reply.text = std::move(text);
    call.reply.tokensOut = tokensOut;
    call.reply.plannedMs = call.totalMs;
    const auto firstSpace = call.reply.text.find(' ', 12);
    call.firstChunk = call.reply.text.substr(0, firstSpace == std::string::npos ? call.reply.text.size() : firstSpace);
    return call;
}

} // namespace conclave
