// How simulated models behave together, from their profiles, over many calls
// with exact seeds: difficulty_weight sets how much a task's difficulty ties
// two models' correctness, confidence the stated confidence of right and
// wrong answers (and its AUROC), synthesis how a synthesizer uses its
// candidates.
#include <QtTest>

#include "support/QtStrings.h"
#include "support/ResponderFixture.h"

#include "conclave/analysis/Auroc.h"
#include "conclave/engine/ReplyParser.h"
#include "conclave/local/WrongAnswers.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <optional>

using namespace conclave;
using namespace testsupport;

namespace {

ResolvedProfile weighted(double skill, double weight)
{
    auto p = exact(skill);
    p.difficultyWeight = weight;
    return p;
}

ResolvedProfile confident(ConfidenceProfile confidence)
{
    auto p = exact(0.6);
    p.confidence = confidence;
    return p;
}

ResolvedProfile synthesizing(std::vector<double> table, double selfAnswer)
{
    auto p = exact(0.5);
    p.synthesis = SynthesisProfile{std::move(table), selfAnswer};
    return p;
}

} // namespace

class TestLocalResponderJoint : public QObject, protected ResponderFixture {
    Q_OBJECT

    std::unique_ptr<LocalResponder> responder(uint64_t seed) const
    {
        std::map<std::string, ResolvedProfile> profiles{
            {"w0-a", weighted(0.6, 0)},
            {"w0-b", weighted(0.6, 0)},
            {"w1-a", weighted(0.6, 1)},
            {"w1-b", weighted(0.6, 1)},
            {"default", exact(0.6)},
            {"sure", confident({{0.9, 0, {}}, {0.3, 0, {}}})},
            {"table", synthesizing({0.2, 0.5, 0.8}, 0.5)},
            {"zero-one-zero", synthesizing({0, 1, 0}, 0)},
        };
        return std::make_unique<LocalResponder>(std::move(profiles), m_gate, m_tasks, seed);
    }

    // The answers of `model` to every bundled task at `seed`: (right, stated confidence).
    std::vector<std::pair<bool, double>> answers(const std::string& model, uint64_t seed) const
    {
        auto r = responder(seed);
        std::vector<std::pair<bool, double>> out;
        for (const auto& task : m_tasks->tasks()) {
            const auto call = r->respond(ask(model, task.prompt));
            const auto parsed = ReplyParser::parse(call.reply.text);
            out.emplace_back(parsed.answer == ReplyParser::normalizeAnswer(task.answer), parsed.confidence);
        }
        return out;
    }

    ModelRequest synthesis(const std::string& model, const Task& task, const std::vector<std::string>& given) const
    {
        std::vector<Candidate> candidates;
        for (const auto& answer : given)
            candidates.push_back({"e" + std::to_string(candidates.size()), answer, 0.8, "", 0});
        auto request = ask(model, PromptBuilder::synthesizePrompt(task.prompt, candidates));
        request.runInput = task.prompt;
        request.purpose = CallPurpose::Synthesize;
        request.inputs.task = task.prompt;
        request.inputs.candidates = candidates;
        return request;
    }

private slots:
    void initTestCase() { QVERIFY(load()); }

    // A held-out task's difficulty is unknown to a prediction: with the set's
    // unmeasured difficulties drawn per trial, a model at w = 1 (right exactly
    // when a > z) is right on a task in a share of seeds near its skill, where
    // one draw per task makes it right in every seed or in none. A measured
    // difficulty stays the task's in every trial.
    void unmeasuredDifficultyDrawnPerTrial()
    {
        auto perTrial = std::make_shared<TaskSet>(*m_tasks);
        perTrial->drawUnmeasuredPerTrial(true);
        const Task& task = m_tasks->tasks().front();
        const auto rightIn = [&](const std::shared_ptr<const TaskSet>& set) {
            int right = 0;
            for (uint64_t seed = 1; seed <= 400; ++seed) {
                const LocalResponder r({{"w1", weighted(0.6, 1)}}, m_gate, set, seed);
                const auto parsed = ReplyParser::parse(r.respond(ask("w1", task.prompt)).reply.text);
                right += parsed.answer == ReplyParser::normalizeAnswer(task.answer) ? 1 : 0;
            }
            return right;
        };
        QCOMPARE(rightIn(m_tasks), ItemBank::ability(0.6) > ItemBank::drawn(task.id) ? 400 : 0);
        QCOMPARE(rightIn(perTrial), 225); // 0.56: within a standard error (0.025) or two of 0.6
        QCOMPARE(ItemBank::difficulty(task, 7), ItemBank::drawn(task.id + "#trial7"));
        QCOMPARE(ItemBank::difficulty(Task{.id = "t", .difficulty = 1.25}, 7), 1.25);

        // Over every bundled task and 20 trials the draws average to the standard normal's
        // mean; the bundled set's one draw per task sits 0.081 above it (1.6 standard errors).
        double perTask = 0, drawnPerTrial = 0;
        for (const auto& t : m_tasks->tasks()) {
            perTask += ItemBank::difficulty(t);
            for (uint64_t seed = 1; seed <= 20; ++seed)
                drawnPerTrial += ItemBank::difficulty(t, seed);
        }
        const auto n = double(m_tasks->tasks().size());
        QCOMPARE(std::round(perTask / n * 1000) / 1000, 0.081);
        QCOMPARE(std::round(drawnPerTrial / (20 * n) * 1000) / 1000, -0.008); // standard error 0.011
    }

    // w = 1: right exactly when a > z, so two models of one skill are right
    // on the same tasks (those with z < Φ⁻¹(0.6)); w = 0: the task does not
    // matter, and they disagree as two independent draws of 0.6 would
    // (2·0.6·0.4·408 ≈ 196).
    void difficultyWeightTiesCorrectness()
    {
        const auto a1 = answers("w1-a", 42), b1 = answers("w1-b", 42);
        const auto a0 = answers("w0-a", 42), b0 = answers("w0-b", 42);
        int easy = 0, right1 = 0, disagree1 = 0, right0 = 0, disagree0 = 0;
        const double a = ItemBank::ability(0.6);
        for (size_t i = 0; i < a1.size(); ++i) {
            easy += a > ItemBank::difficulty(m_tasks->tasks()[i]) ? 1 : 0;
            right1 += a1[i].first;
            disagree1 += a1[i].first != b1[i].first;
            right0 += a0[i].first;
            disagree0 += a0[i].first != b0[i].first;
        }
        QCOMPARE(a1.size(), size_t(408));
        QCOMPARE(right1, easy);
        QCOMPARE(disagree1, 0);
        QCOMPARE(easy, 237);
        QCOMPARE(right0, 241);
        QCOMPARE(disagree0, 192);
    }

    void curveAtTheEnds()
    {
        QCOMPARE(ItemBank::pCorrect(0.6, 3.0, 0), 0.6);
        QCOMPARE(ItemBank::pCorrect(0.6, 0.25, 1), 1.0);
        QCOMPARE(ItemBank::pCorrect(0.6, 0.26, 1), 0.0);
        QCOMPARE(ItemBank::pCorrect(0.5, 0.0, 1), 0.0); // a = z is wrong
        QCOMPARE(ItemBank::pCorrect(0.8, 1, 0.7), ItemBank::pCorrect(0.8, 1));
        // The mean over z ~ N(0, 1) is s for any w (a midpoint sum over ±8).
        for (const double w : {0.0, 0.3, 0.7, 0.95}) {
            double mean = 0;
            const int n = 16000;
            for (int i = 0; i < n; ++i) {
                const double z = -8 + 16 * (i + 0.5) / n;
                mean += ItemBank::pCorrect(0.7, z, w) * std::exp(-z * z / 2) / std::sqrt(2 * std::numbers::pi) * 16 / n;
            }
            QVERIFY2(std::fabs(mean - 0.7) < 1e-6, qPrintable(QString::number(w)));
        }
        // skillFor inverts the curve at any weight.
        const std::vector<double> zs{-1.2, -0.3, 0.1, 0.8, 1.9};
        for (const double w : {0.0, 0.4, 0.9}) {
            double accuracy = 0;
            for (const double z : zs)
                accuracy += ItemBank::pCorrect(0.65, z, w) / double(zs.size());
            QVERIFY2(std::fabs(ItemBank::skillFor(accuracy, zs, w) - 0.65) < 1e-9, qPrintable(QString::number(w)));
        }
    }

    // A profile's confidence: sd 0 states exactly its means.
    void confidenceFromTheProfile()
    {
        const auto got = answers("sure", 42);
        std::vector<double> right, wrong;
        for (const auto& [correct, confidence] : got)
            (correct ? right : wrong).push_back(confidence);
        QCOMPARE(int(right.size()), 242);
        QCOMPARE(int(wrong.size()), 166);
        QVERIFY(std::all_of(right.begin(), right.end(), [](double c) { return c == 0.9; }));
        QVERIFY(std::all_of(wrong.begin(), wrong.end(), [](double c) { return c == 0.3; }));
        QCOMPARE(Auroc::of(right, wrong), std::optional<double>(1.0));
    }

    // The built-in default, as published for verbalised confidence: high
    // means (right 0.86, wrong 0.78) and an AUROC near 0.7.
    void defaultConfidenceIsOverconfidentAndWeak()
    {
        std::vector<double> right, wrong;
        for (const uint64_t seed : {1, 2, 3, 4, 5}) {
            for (const auto& [correct, confidence] : answers("default", seed))
                (correct ? right : wrong).push_back(confidence);
        }
        const auto mean = [](const std::vector<double>& v) {
            double sum = 0;
            for (const double x : v)
                sum += x;
            return sum / double(v.size());
        };
        QCOMPARE(int(right.size()), 1200);
        QCOMPARE(int(wrong.size()), 840);
        QCOMPARE(QString::number(mean(right), 'f', 3), QString("0.857"));
        QCOMPARE(QString::number(mean(wrong), 'f', 3), QString("0.774"));
        QCOMPARE(QString::number(*Auroc::of(right, wrong), 'f', 3), QString("0.709"));
    }

    // synthesis [0, 1, 0]: with 0 right candidates never right (the
    // candidates' wrong answer), with 1 always right, with 2 never (no wrong
    // candidate: its own wrong answer).
    void synthesisTableHonoured_data()
    {
        QTest::addColumn<QStringList>("candidates");
        QTest::addColumn<QString>("answer");
        QTest::newRow("k=0") << QStringList{"784", "784", "782"} << "784";
        QTest::newRow("k=1") << QStringList{"783", "784", "784"} << "783";
        QTest::newRow("k=2") << QStringList{"783", "783"} << "?";
    }

    void synthesisTableHonoured()
    {
        QFETCH(QStringList, candidates);
        QFETCH(QString, answer);
        const Task* task = m_tasks->find("Calculate 323 + 460.");
        QVERIFY(task);
        const auto r = responder(42);
        const auto reply = r->respond(synthesis("zero-one-zero", *task, toStd(candidates))).reply;
        QVERIFY(reply.ok);
        const auto parsed = ReplyParser::parse(reply.text);
        if (answer == "?") {
            QVERIFY(parsed.answer != "783");
            QVERIFY(WrongAnswers(*task, m_tasks->items()).all().size() == 6);
        } else {
            QCOMPARE(q(parsed.answer), answer);
        }
    }

    // synthesis [0.2, 0.5, 0.8] over every bundled task, with k right
    // candidates of three: right at p_k's rate; its wrong answers are its own
    // (none of the candidates') about half the time (self_answer 0.5).
    void synthesisRatesOverManyTasks()
    {
        const auto r = responder(8);
        std::array<int, 3> rightByK{};
        int wrongs = 0, own = 0;
        for (const auto& task : m_tasks->tasks()) {
            const auto truth = ReplyParser::normalizeAnswer(task.answer);
            const WrongAnswers wrong(task, m_tasks->items());
            const auto& w = wrong.all();
            for (size_t k = 0; k < 3; ++k) {
                std::vector<std::string> given(k, truth);
                while (given.size() < 3)
                    given.push_back(w.front());
                const auto parsed = ReplyParser::parse(r->respond(synthesis("table", task, given)).reply.text);
                if (parsed.answer == truth) {
                    ++rightByK[k];
                } else {
                    ++wrongs;
                    own += parsed.answer != w.front();
                }
            }
        }
        // 408 tasks: p_k · 408 = 81.6, 204, 326.4; own ≈ half of the wrong ones.
        QCOMPARE(rightByK[0], 84);
        QCOMPARE(rightByK[1], 224);
        QCOMPARE(rightByK[2], 332);
        QCOMPARE(wrongs, 584);
        QCOMPARE(own, 282);
    }
};

QTEST_GUILESS_MAIN(TestLocalResponderJoint)
#include "tst_localresponderjoint.moc"
