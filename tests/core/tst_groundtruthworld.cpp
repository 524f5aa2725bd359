// The ground-truth world (GroundTruthWorld): each parameter of a world file
// is honoured, measured over many calls with exact seeds (the response
// curve's slope, the readable share of difficulty, wrong-answer agreement as
// a function of α, the confidence AUROC, the synthesizer's self-answers and
// recognition, a meeting's conformity, latency and load through
// LocalMoeBackend on the virtual clock); what a call is comes from its
// prompt's words only.
#include <QtTest>

#include "conclave/bench/GroundTruthWorld.h"
#include "conclave/bench/WorldDraws.h"
#include "conclave/engine/PromptBuilder.h"
#include "conclave/engine/ReplyParser.h"
#include "conclave/engine/ThreadPool.h"
#include "conclave/engine/VirtualClock.h"
#include "conclave/local/LocalMoeBackend.h"
#include "conclave/local/LocalResponder.h"
#include "conclave/util/TokenEstimate.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>

using namespace conclave;
using json = nlohmann::json;

namespace {

const std::filesystem::path kResources = CONCLAVE_RESOURCES;
const char* const kFrance = "What is the capital city of France?"; // facts-001: paris

// A world of one model "m" of `ability` in every domain, with `patch` merged in.
std::shared_ptr<const GroundTruthWorld> makeWorld(const json& patch, double ability = 0.5, double slope = 1.5)
{
    json doc = {
        {"format", 1},
        {"name", "test"},
        {"seed", 11},
        {"task_sets", {"math", "code", "facts", "reasoning", "writing"}},
        {"models",
         {{"m",
           {{"slope", slope},
            {"abilities",
             {{"math", ability}, {"code", ability}, {"facts", ability}, {"reasoning", ability}, {"writing", ability}}},
            {"ttft_ms", 300},
            {"output_tokens", 120},
            {"tokens_per_s", 60}}}}}};
    doc.merge_patch(patch);
    auto loaded = GroundTruthWorld::fromJsonText(doc.dump(), kResources);
    if (!loaded.world)
        qFatal("the test world does not load: %s", loaded.problems.front().message.c_str());
    return loaded.world;
}

ModelRequest ask(std::string model, std::string prompt, int seed)
{
    ModelRequest r;
    r.model = std::move(model);
    r.system = std::string(PromptBuilder::answerFormat());
    r.prompt = std::move(prompt);
    r.params.extra = json{{"seed", seed}};
    return r;
}

ParsedReply answerOf(const GroundTruthWorld& world, const ModelRequest& r)
{
    return ReplyParser::parse(world.respond(r).reply.text);
}

// Tasks with exactly three wrong options (four choices).
std::vector<const Task*> fourChoiceTasks(const GroundTruthWorld& world)
{
    std::vector<const Task*> out;
    for (const auto& t : world.tasks().tasks())
        if (world.truth(t).wrong.size() == 3 && t.choices.size() == 4)
            out.push_back(&t);
    return out;
}

// Mann–Whitney AUROC of scores of right against wrong answers, ties counting a half.
double auroc(std::vector<double> right, std::vector<double> wrong)
{
    std::sort(wrong.begin(), wrong.end());
    double sum = 0;
    for (const double r : right) {
        const auto below = std::lower_bound(wrong.begin(), wrong.end(), r) - wrong.begin();
        const auto notAbove = std::upper_bound(wrong.begin(), wrong.end(), r) - wrong.begin();
        sum += double(below) + 0.5 * double(notAbove - below);
    }
    return sum / (double(right.size()) * double(wrong.size()));
}

} // namespace

class TestGroundTruthWorld : public QObject {
    Q_OBJECT

private slots:
    void responseCurveHasTheModelsSlope_data()
    {
        QTest::addColumn<double>("slope");
        QTest::addColumn<double>("ability");
        QTest::newRow("flat 0.7") << 0.7 << 0.5;
        QTest::newRow("1.5, strong") << 1.5 << 1.5;
        QTest::newRow("steep 3") << 3.0 << 0.0;
    }
    void responseCurveHasTheModelsSlope()
    {
        QFETCH(double, slope);
        QFETCH(double, ability);
        const auto world = makeWorld(json::object(), ability, slope);
        std::vector<std::pair<double, bool>> seen; // ability − difficulty, right
        double expected = 0;
        for (const auto& task : world->tasks().tasks()) {
            const auto& truth = world->truth(task);
            for (int seed = 0; seed < 30; ++seed) {
                const bool right = answerOf(*world, ask("m", task.prompt, seed)).answer == truth.answer;
                seen.emplace_back(ability - truth.difficulty, right);
                expected += world->pRight("m", truth);
            }
        }
        // The slope by maximum likelihood over a grid of 0.01.
        double best = 0, bestLog = -1e300;
        for (double s = 0.05; s <= 6.0; s += 0.01) {
            double log = 0;
            for (const auto& [x, right] : seen) {
                const double p = 1 / (1 + std::exp(-s * x));
                log += std::log(std::clamp(right ? p : 1 - p, 1e-300, 1.0));
            }
            if (log > bestLog) {
                bestLog = log;
                best = s;
            }
        }
        const double accuracy =
            double(std::count_if(seen.begin(), seen.end(), [](const auto& s) { return s.second; })) /
            double(seen.size());
        qInfo("slope %.2f ability %.2f: fitted slope %.3f, accuracy %.4f, expected %.4f over %zu calls", slope, ability,
              best, accuracy, expected / double(seen.size()), seen.size());
        QVERIFY2(std::abs(best - slope) <= 0.1 * slope, std::to_string(best).c_str());
        QVERIFY(std::abs(accuracy - expected / double(seen.size())) <= 0.01);
    }

    void readableShareIsTheDifficultysReadablePart_data()
    {
        QTest::addColumn<double>("share");
        QTest::newRow("0.1") << 0.1;
        QTest::newRow("0.5") << 0.5;
        QTest::newRow("0.9") << 0.9;
    }
    void readableShareIsTheDifficultysReadablePart()
    {
        QFETCH(double, share);
        const auto world = makeWorld(json{{"readable_share", share}, {"difficulty_shift", 0.25}});
        const auto& tasks = world->tasks().tasks();
        double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
        for (const auto& t : tasks) {
            const double x = world->readable(t.prompt), y = world->truth(t).difficulty - 0.25;
            sx += x, sy += y, sxx += x * x, syy += y * y, sxy += x * y;
        }
        const double n = double(tasks.size());
        // readable() is standardised over the world's own prompts.
        QVERIFY(std::abs(sx / n) < 1e-9);
        QVERIFY(std::abs(sxx / n - 1) < 1e-9);
        const double corr =
            (sxy / n - sx * sy / n / n) / std::sqrt((sxx / n - sx * sx / n / n) * (syy / n - sy * sy / n / n));
        qInfo("readable share %.1f: correlation %.3f, sqrt(share) %.3f", share, corr, std::sqrt(share));
        QVERIFY2(std::abs(corr - std::sqrt(share)) <= 0.08, std::to_string(corr).c_str());
    }

    void allReadableDifficultyIsTheWords()
    {
        const auto world = makeWorld(json{{"readable_share", 1.0}, {"difficulty_shift", -0.5}});
        for (const auto& t : world->tasks().tasks())
            QCOMPARE(world->truth(t).difficulty, -0.5 + world->readable(t.prompt));
        // Another seed weighs words differently: another world.
        const auto other = world->withSeed(12);
        const auto& first = world->tasks().tasks().front();
        QVERIFY(other->readable(first.prompt) != world->readable(first.prompt));
    }

    // The chance known from the readable part alone: with nothing readable, the
    // response curve averaged over a standard normal difficulty, E[σ(1.5 (0.5 − h))]
    // = 0.629982 (numerical integration), 0.629989 by the 81-point rule; with
    // everything readable, the curve at the task's own difficulty.
    void readableChanceAveragesTheHiddenPart()
    {
        const auto hidden = makeWorld(json{{"readable_share", 0.0}});
        for (const auto& t : hidden->tasks().tasks()) {
            QVERIFY(std::abs(hidden->pRightReadable("m", t) - 0.629988633) < 1e-9);
            QVERIFY(std::abs(hidden->pRightReadable("m", t) - 0.629982094) < 1e-5);
        }
        const auto words = makeWorld(json{{"readable_share", 1.0}, {"difficulty_shift", -0.5}});
        for (const auto& t : words->tasks().tasks())
            QVERIFY(std::abs(words->pRightReadable("m", t) - words->pRight("m", words->truth(t))) < 1e-12);
        // Half readable: between the two, and ordered as the readable part says.
        const auto half = makeWorld(json{{"readable_share", 0.5}});
        const auto& tasks = half->tasks().tasks();
        const auto easier = std::min_element(tasks.begin(), tasks.end(), [&](const Task& a, const Task& b) {
            return half->readable(a.prompt) < half->readable(b.prompt);
        });
        const auto harder = std::max_element(tasks.begin(), tasks.end(), [&](const Task& a, const Task& b) {
            return half->readable(a.prompt) < half->readable(b.prompt);
        });
        QVERIFY(half->pRightReadable("m", *easier) > 0.63);
        QVERIFY(half->pRightReadable("m", *harder) < 0.63);
        QCOMPARE(half->pRightReadable("nobody", *easier), 0.0);
    }

    // Worlds drawn again under one set seed share no draws: each is drawn
    // under the set seed mixed with its name, so two worlds of one file but
    // other names differ, and one world under one set seed is always the same.
    void worldsUnderOneSetSeedAreIndependent()
    {
        const auto a = makeWorld(json{{"name", "lab-x"}, {"readable_share", 0.5}});
        const auto b = makeWorld(json{{"name", "lab-y"}, {"readable_share", 0.5}});
        QCOMPARE(a->seedUnder(22), a->seedUnder(22));
        QVERIFY(a->seedUnder(22) != b->seedUnder(22));
        QVERIFY(a->seedUnder(22) != a->seedUnder(23));
        const auto firstOf = [](const std::shared_ptr<const GroundTruthWorld>& w) -> const auto& {
            return w->truth(w->tasks().tasks().front());
        };
        QVERIFY(firstOf(a->withSeed(a->seedUnder(22))).difficulty != firstOf(b->withSeed(b->seedUnder(22))).difficulty);
        QCOMPARE(firstOf(a->withSeed(22)).difficulty, firstOf(b->withSeed(22)).difficulty); // one seed: one draw
    }

    void wrongAnswersAgreeAsAlphaSays_data()
    {
        QTest::addColumn<double>("alpha");
        QTest::newRow("0.05: errors agree") << 0.05;
        QTest::newRow("0.3") << 0.3;
        QTest::newRow("1") << 1.0;
        QTest::newRow("3: errors scatter") << 3.0;
    }
    void wrongAnswersAgreeAsAlphaSays()
    {
        QFETCH(double, alpha);
        json patch = {{"wrong_answer_alpha", alpha}};
        patch["models"]["n"] = {{"slope", 1.0},
                                {"abilities", {{"facts", -2.0}, {"writing", -2.0}}},
                                {"ttft_ms", 300},
                                {"output_tokens", 100},
                                {"tokens_per_s", 60}};
        const auto world = makeWorld(patch, -2.0);
        // Over pairs of different models both wrong on one task: the share
        // giving the same answer; a Dirichlet(α) over K = 3 options gives
        // E[Σ p²] = (α + 1) / (3α + 1).
        double same = 0, pairs = 0;
        for (const Task* task : fourChoiceTasks(*world)) {
            const auto& truth = world->truth(*task);
            for (int seed = 0; seed < 12; ++seed) {
                const auto a = answerOf(*world, ask("m", task->prompt, seed)).answer;
                const auto b = answerOf(*world, ask("n", task->prompt, seed)).answer;
                if (a == truth.answer || b == truth.answer)
                    continue;
                pairs += 1;
                same += a == b ? 1 : 0;
            }
        }
        const double expected = (alpha + 1) / (3 * alpha + 1);
        qInfo("alpha %.2f: agreement %.3f over %.0f pairs, expected %.3f", alpha, same / pairs, pairs, expected);
        QVERIFY2(std::abs(same / pairs - expected) <= 0.06, std::to_string(same / pairs).c_str());
    }

    void kappaGivesTheAuroc()
    {
        QCOMPARE(WorldDraws::aurocOf(1), 0.5);
        QVERIFY(std::abs(WorldDraws::aurocOf(2) - 5.0 / 6.0) < 1e-12);
        QVERIFY(std::abs(WorldDraws::kappaForAuroc(5.0 / 6.0) - 2) < 1e-9);
        QVERIFY(std::abs(WorldDraws::aurocOf(WorldDraws::kappaForAuroc(0.72)) - 0.72) < 1e-12);
    }

    void statedConfidenceHasTheFilesAuroc_data()
    {
        QTest::addColumn<double>("target");
        QTest::addColumn<double>("floor");
        QTest::addColumn<double>("ceiling");
        QTest::newRow("0.55, high") << 0.55 << 0.6 << 0.95;
        QTest::newRow("0.72") << 0.72 << 0.35 << 0.97;
        QTest::newRow("0.85, wide") << 0.85 << 0.05 << 0.99;
    }
    void statedConfidenceHasTheFilesAuroc()
    {
        QFETCH(double, target);
        QFETCH(double, floor);
        QFETCH(double, ceiling);
        const auto world =
            makeWorld(json{{"confidence", {{"auroc", target}, {"floor", floor}, {"ceiling", ceiling}}}}, 0.0);
        std::vector<double> right, wrong;
        for (const auto& task : world->tasks().tasks()) {
            for (int seed = 0; seed < 20; ++seed) {
                const auto reply = answerOf(*world, ask("m", task.prompt, seed));
                QVERIFY(reply.confidence >= floor - 0.005 && reply.confidence <= ceiling + 0.005);
                (reply.answer == world->truth(task).answer ? right : wrong).push_back(reply.confidence);
            }
        }
        const double measured = auroc(right, wrong);
        qInfo("auroc %.2f: measured %.4f over %zu right, %zu wrong", target, measured, right.size(), wrong.size());
        QVERIFY2(std::abs(measured - target) <= 0.02, std::to_string(measured).c_str());
    }

    void synthesizerAnswersItselfOrRecognises_data()
    {
        QTest::addColumn<double>("selfAnswer");
        QTest::addColumn<double>("recognition");
        QTest::newRow("rarely itself, rarely recognises") << 0.1 << 0.3;
        QTest::newRow("half itself, mostly recognises") << 0.5 << 0.8;
    }
    void synthesizerAnswersItselfOrRecognises()
    {
        QFETCH(double, selfAnswer);
        QFETCH(double, recognition);
        const auto world = makeWorld(json{{"synthesis", {{"self_answer", selfAnswer}, {"recognition", recognition}}}});
        int calls = 0, itself = 0, picked = 0, pickedRight = 0;
        for (const Task* task : fourChoiceTasks(*world)) {
            const auto& truth = world->truth(*task);
            // Outvoted: two agents give the same wrong answer, one the right one.
            const std::vector<Candidate> candidates{
                {"a", truth.wrong[0], 0.8, "", 0}, {"b", truth.answer, 0.6, "", 0}, {"c", truth.wrong[0], 0.7, "", 0}};
            for (int seed = 0; seed < 25; ++seed) {
                auto r = ask("m", PromptBuilder::synthesizePrompt(task->prompt, candidates), seed);
                r.system = PromptBuilder::synthesizeSystem();
                const auto text = world->respond(r).reply.text;
                ++calls;
                if (text.starts_with("Answering the task myself:")) {
                    ++itself;
                    continue;
                }
                QVERIFY(text.starts_with("Weighing the candidates:"));
                ++picked;
                pickedRight += ReplyParser::parse(text).answer == truth.answer ? 1 : 0;
            }
        }
        const double selfShare = double(itself) / calls, recognised = double(pickedRight) / picked;
        qInfo("self_answer %.2f: measured %.4f; recognition %.2f: measured %.4f (%d calls)", selfAnswer, selfShare,
              recognition, recognised, calls);
        QVERIFY(std::abs(selfShare - selfAnswer) <= 0.03);
        QVERIFY(std::abs(recognised - recognition) <= 0.04);
    }

    void meetingMembersConform()
    {
        const double conformity = 0.4;
        const auto world = makeWorld(json{{"meeting_conformity", conformity}}, 1.0);
        double tookPeers = 0, expected = 0;
        int calls = 0;
        for (const Task* task : fourChoiceTasks(*world)) {
            const auto& truth = world->truth(*task);
            const auto shown = PromptBuilder::transcriptLine("a", 1, truth.wrong[1], 0.7) +
                               PromptBuilder::transcriptLine("b", 1, truth.wrong[1], 0.6);
            const double pOwn = (1 - world->pRight("m", truth)) * truth.popularity[1];
            for (int seed = 0; seed < 20; ++seed) {
                const auto r = ask("m", task->prompt + "\n\nThe discussion so far:\n" + shown, seed);
                tookPeers += answerOf(*world, r).answer == truth.wrong[1] ? 1 : 0;
                expected += conformity + (1 - conformity) * pOwn;
                ++calls;
            }
        }
        qInfo("conformity %.2f: peers' answer taken %.4f, expected %.4f", conformity, tookPeers / calls,
              expected / calls);
        QVERIFY(std::abs(tookPeers - expected) / calls <= 0.03);
    }

    void eachKindOfCallIsReadFromItsPrompt()
    {
        const auto world = makeWorld(json{{"route_accuracy", 1.0}, {"judge_accuracy", 1.0}});
        // Route: the task's domain label.
        const auto route =
            world->respond(ask("m", PromptBuilder::routeChoicePrompt({"math", "facts", "code"}, kFrance), 1));
        QCOMPARE(QString::fromStdString(route.reply.text), QStringLiteral("facts"));
        // Plan: one subtask per question.
        const auto plan =
            world->respond(ask("m",
                               PromptBuilder::decomposePrompt(
                                   "What is the capital city of France? And what is the capital city of Japan?", 3),
                               1));
        QCOMPARE(QString::fromStdString(plan.reply.text),
                 QStringLiteral("1. What is the capital city of France?\n2. And what is the capital city of Japan?\n"));
        const auto planOne =
            world->respond(ask("m", PromptBuilder::decomposePrompt("Calculate 323 + 460. Then halve it?", 1), 1));
        QCOMPARE(QString::fromStdString(planOne.reply.text),
                 QStringLiteral("1. Calculate 323 + 460. Then halve it?\n"));
        // Combine: the parts' answers in order.
        const auto combine = world->respond(ask(
            "m",
            PromptBuilder::combinePrompt("two capitals", {{"p1", "Paris", 0.9, "", 0}, {"p2", "tokyo", 0.8, "", 0}}),
            1));
        QCOMPARE(QString::fromStdString(ReplyParser::parse(combine.reply.text).answer), QStringLiteral("paris; tokyo"));
        // Judge: the true verdict when judge_accuracy is 1, the other one when 0.
        const auto judged = [&](const GroundTruthWorld& w, const std::string& reference, const std::string& response) {
            return QString::fromStdString(
                answerOf(w, ask("m", PromptBuilder::judgeInput({kFrance, reference, response}), 1)).answer);
        };
        QCOMPARE(judged(*world, "paris", "It is Paris.\nAnswer: Paris"), QStringLiteral("correct"));
        QCOMPARE(judged(*world, "paris", "Answer: lyon"), QStringLiteral("incorrect"));
        QCOMPARE(judged(*world, "", "Answer: paris"), QStringLiteral("correct")); // no reference: the task's answer
        const auto liar = makeWorld(json{{"judge_accuracy", 0.0}});
        QCOMPARE(judged(*liar, "paris", "Answer: paris"), QStringLiteral("incorrect"));

        const auto read = WorldPrompt::read(PromptBuilder::judgeInput({kFrance, "Paris.", "x\nAnswer: Lyon"}));
        QVERIFY(read.kind == WorldPrompt::Kind::Judge);
        QCOMPARE(QString::fromStdString(read.subject), QString::fromUtf8(kFrance));
        QCOMPARE(QString::fromStdString(read.reference), QStringLiteral("paris"));
        QCOMPARE(QString::fromStdString(read.response), QStringLiteral("lyon"));
        const auto synth = WorldPrompt::read(PromptBuilder::synthesizePrompt(kFrance, {{"a", "Paris", 0.75, "", 0}}));
        QVERIFY(synth.kind == WorldPrompt::Kind::Synthesize);
        QCOMPARE(QString::fromStdString(synth.subject), QString::fromUtf8(kFrance));
        QCOMPARE(synth.shown.size(), size_t(1));
        QCOMPARE(synth.shown[0].confidence, 0.75);
        const auto labelled =
            WorldPrompt::read(std::string(kFrance) + "\n\n[e0]\nI think so.\nAnswer: Paris\nConfidence: 0.9");
        QVERIFY(labelled.kind == WorldPrompt::Kind::MemberTurn);
        QCOMPARE(QString::fromStdString(labelled.shown.at(0).answer), QStringLiteral("paris"));
        QVERIFY(WorldPrompt::read(kFrance).kind == WorldPrompt::Kind::Answer);
        const auto routeRead = WorldPrompt::read(PromptBuilder::routeChoicePrompt({"a b", "c"}, "x"));
        QCOMPARE(routeRead.labels, (std::vector<std::string>{"a b", "c"}));
        QCOMPARE(WorldPrompt::read(PromptBuilder::decomposePrompt("x", 7)).maxSubtasks, size_t(7));
    }

    void onlyThePromptSeedAndModelMatter()
    {
        const auto world = makeWorld(json::object());
        auto plain = ask("m", kFrance, 5);
        auto dressed = plain;
        dressed.purpose = CallPurpose::Synthesize;
        dressed.inputs.task = "something else";
        dressed.inputs.candidates = {{"x", "lyon", 1.0, "", 0}};
        dressed.runInput = "another input";
        dressed.salt = "node#3";
        dressed.draw = "expert:1";
        dressed.attempt = 3;
        const auto a = world->respond(plain), b = world->respond(dressed);
        QCOMPARE(QString::fromStdString(a.reply.text), QString::fromStdString(b.reply.text));
        QCOMPARE(a.reply.tokensOut, b.reply.tokensOut);
        QCOMPARE(a.totalMs, b.totalMs);
        // The request's seed draws new luck; the same seed the same.
        std::set<std::string> texts;
        for (int seed = 0; seed < 20; ++seed)
            texts.insert(world->respond(ask("m", kFrance, seed)).reply.text);
        QVERIFY(texts.size() >= 10);
        QCOMPARE(QString::fromStdString(world->respond(ask("m", kFrance, 5)).reply.text),
                 QString::fromStdString(a.reply.text));
        // A model the world does not have is an error.
        const auto none = world->respond(ask("zeta", kFrance, 1));
        QVERIFY(!none.reply.ok);
        QCOMPARE(QString::fromStdString(none.reply.error), QStringLiteral("unknown model \"zeta\" in world \"test\""));
        // A free prompt gets a free answer.
        const auto free = answerOf(*world, ask("m", "Should we rewrite the billing service?", 1));
        const auto& answers = LocalResponder::freeAnswers();
        QVERIFY(std::find(answers.begin(), answers.end(), free.answer) != answers.end());
    }

    void latencyTokensAndPrice()
    {
        json patch;
        patch["models"]["m"] = {{"ttft_ms", 250},     {"output_tokens", 90},
                                {"tokens_per_s", 45}, {"latency_shape", 3.0},
                                {"load_slope", 0.2},  {"price_per_mtok", {{"input", 2.0}, {"output", 8.0}}}};
        const auto world = makeWorld(patch);
        std::vector<double> ttfts, outs;
        for (int seed = 0; seed < 2001; ++seed) {
            const auto r = ask("m", kFrance, seed);
            const auto call = world->respond(r);
            QCOMPARE(call.reply.tokensIn, estimateTokens(r.system.size() + r.prompt.size()));
            QCOMPARE(call.totalMs, call.ttftMs + double(call.reply.tokensOut) / 45.0 * 1000.0);
            QCOMPARE(call.reply.plannedMs, call.totalMs);
            QCOMPARE(call.loadSlope, 0.2);
            ttfts.push_back(call.ttftMs);
            outs.push_back(double(call.reply.tokensOut));
        }
        std::nth_element(ttfts.begin(), ttfts.begin() + 1000, ttfts.end());
        std::nth_element(outs.begin(), outs.begin() + 1000, outs.end());
        qInfo("median ttft %.1f ms (250), median output %.0f tokens (90)", ttfts[1000], outs[1000]);
        QVERIFY(std::abs(ttfts[1000] / 250 - 1) <= 0.05);
        QVERIFY(std::abs(outs[1000] / 90 - 1) <= 0.05);
        auto capped = ask("m", kFrance, 1);
        capped.params.maxTokens = 3;
        QCOMPARE(world->respond(capped).reply.tokensOut, int64_t(3));
        QCOMPARE(world->costOf("m", 1000, 500), (1000 * 2.0 + 500 * 8.0) / 1e6);
    }

    void loadSlowsCallsOnTheVirtualClock_data()
    {
        QTest::addColumn<double>("slope");
        QTest::newRow("none") << 0.0;
        QTest::newRow("0.1") << 0.1;
        QTest::newRow("0.35") << 0.35;
    }
    void loadSlowsCallsOnTheVirtualClock()
    {
        QFETCH(double, slope);
        json patch;
        patch["models"]["m"]["load_slope"] = slope;
        const auto world = makeWorld(patch);
        ThreadPool pool(2);
        auto clock = std::make_shared<VirtualClock>(pool);
        auto backend = std::make_shared<LocalMoeBackend>(world, clock, 1.0);
        std::mutex mutex;
        std::condition_variable done;
        std::map<int, std::pair<ModelReply, int64_t>> replies; // by call: reply, end on the clock
        const int calls = 4;
        {
            RunClock::Hold hold(*clock);
            for (int i = 0; i < calls; ++i) {
                CallCallbacks callbacks;
                callbacks.onDone = [&, i](ModelReply reply) {
                    std::lock_guard lock(mutex);
                    replies[i] = {std::move(reply), clock->nowUs()};
                    done.notify_all();
                };
                backend->start(ask("m", kFrance, i), std::move(callbacks));
            }
        }
        std::unique_lock lock(mutex);
        QVERIFY(done.wait_for(lock, std::chrono::seconds(10), [&] { return int(replies.size()) == calls; }));
        for (int i = 0; i < calls; ++i) {
            const auto alone = world->respond(ask("m", kFrance, i));
            const auto& [reply, endUs] = replies.at(i);
            const double load = 1.0 + slope * double(i);
            QCOMPARE(reply.inflight, int64_t(i + 1));
            QCOMPARE(reply.plannedMs, alone.totalMs * load);
            QCOMPARE(endUs, static_cast<int64_t>(alone.totalMs * load * 1000.0));
            QCOMPARE(QString::fromStdString(reply.text), QString::fromStdString(alone.reply.text));
        }
    }
};

QTEST_GUILESS_MAIN(TestGroundTruthWorld)
#include "tst_groundtruthworld.moc"
