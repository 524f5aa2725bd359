// Qt first: moc fails on <compare> when a conclave header is the first it meets.
#include <QtTest>

#include "support/QtStrings.h"

#include "conclave/engine/PromptBuilder.h"
#include "conclave/engine/ReplyParser.h"
#include "conclave/local/ArithmeticQuestion.h"
#include "conclave/local/Gate.h"
#include "conclave/local/ItemBank.h"
#include "conclave/local/LocalResponder.h"
#include "conclave/analysis/Auroc.h"
#include "conclave/local/SimulatorAudit.h"
#include "conclave/local/TaskSet.h"
#include "conclave/local/WrongAnswers.h"
#include "conclave/resources/LocalModelCatalog.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

using namespace conclave;

namespace {

ResolvedProfile withSkill(double skill, std::optional<double> agreement = std::nullopt)
{
    ResolvedProfile p;
    for (const char* d : {"math", "code", "facts", "writing", "reasoning"})
        p.skills[d] = skill;
    p.ttftMs = {10, 10};
    p.tokensPerS = {1000, 1000};
    p.outputTokens = {10, 10};
    p.contextTokens = 100000;
    p.errorAgreement = agreement;
    return p;
}

ModelRequest ask(const std::string& model, const std::string& prompt, const std::string& draw = "agent:0")
{
    ModelRequest r;
    r.model = model;
    r.prompt = prompt;
    r.runInput = prompt;
    r.draw = draw;
    return r;
}

// The call of a judge run that grades `judged`, as the engine makes it.
ModelRequest judging(ModelRequest r, const JudgeCase& judged)
{
    r.purpose = CallPurpose::Judge;
    r.inputs.judge = judged;
    return r;
}

Task task(std::string id, std::string domain, std::optional<double> difficulty = std::nullopt)
{
    return Task{
        .id = std::move(id), .domain = std::move(domain), .prompt = "p", .answer = "a", .difficulty = difficulty};
}

} // namespace

// The simulator's rules (docs/simulator.md): task difficulty, shared wrong
// answers, computed questions, and the audit `conclave bench sim` prints.
class TestSimulator : public QObject {
    Q_OBJECT

    std::shared_ptr<const Gate> m_gate;
    std::shared_ptr<const TaskSet> m_tasks;

private slots:
    void initTestCase()
    {
        auto gate = Gate::load(CONCLAVE_RESOURCES "/models/gate.json");
        QVERIFY(gate.gate);
        m_gate = std::make_shared<const Gate>(std::move(*gate.gate));
        auto tasks = TaskSet::loadFolder(CONCLAVE_RESOURCES "/tasksets");
        QVERIFY(tasks.tasks);
        m_tasks = std::make_shared<const TaskSet>(std::move(*tasks.tasks));
    }

    void arithmeticOfTheBundledMathFamilies()
    {
        // Every bundled math task the simulator can compute gets its answer.
        auto math = TaskSet::load(CONCLAVE_RESOURCES "/tasksets/math.jsonl");
        QVERIFY(math.tasks);
        int computed = 0;
        for (const auto& t : math.tasks->tasks()) {
            const auto answer = ArithmeticQuestion::answer(t.prompt);
            if (!answer)
                continue;
            ++computed;
            const auto got = TaskSet::parseNumber(*answer);
            const auto want = TaskSet::parseNumber(ReplyParser::normalizeAnswer(t.answer));
            QVERIFY2(got && want && std::fabs(*got - *want) <= t.tolerance.value_or(1e-9),
                     qPrintable(QString::fromStdString(t.id + ": " + *answer + " for " + t.answer)));
        }
        QCOMPARE(computed, 57); // of 82: not the word problems (areas, speeds, unit conversions)
    }

    void arithmetic_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("answer"); // empty: not a question the simulator computes
        QTest::newRow("sum") << "Calculate 17 + 25."
                             << "42";
        QTest::newRow("precedence") << "What is 8 + 2 × 6 - 23?"
                                    << "-3";
        QTest::newRow("parentheses") << "Compute (3 + 4) * 5"
                                     << "35";
        QTest::newRow("x as times") << "How much is 12 x 3?"
                                    << "36";
        QTest::newRow("division") << "Evaluate 7 / 2."
                                  << "3.5";
        QTest::newRow("unicode minus") << "What is 5 \u2212 9?"
                                       << "-4";
        QTest::newRow("thousands") << "Calculate 1,000 + 27."
                                   << "1027";
        QTest::newRow("percent of") << "Calculate 17 percent of 550."
                                    << "93.5";
        QTest::newRow("% of") << "What is 20% of 80?"
                              << "16";
        QTest::newRow("what percent") << "What percent of 200 is 75?"
                                      << "37.5";
        QTest::newRow("sum of a list") << "What is the sum of the numbers 6500, 698 and 93?"
                                       << "7291";
        QTest::newRow("product") << "What is the product of 339 and 33?"
                                 << "11187";
        QTest::newRow("mean") << "What is the mean (average) of the numbers 59, 57, 47, 14, 60?"
                              << "47.4";
        QTest::newRow("subtract from") << "What number do you get when you subtract 8278 from 3909?"
                                       << "-4369";
        QTest::newRow("divide by") << "Divide 4402 by 4. What is the exact quotient?"
                                   << "1100.5";
        QTest::newRow("square root") << "What is the square root of 196?"
                                     << "14";
        QTest::newRow("a third") << "Calculate 1 / 3."
                                 << "0.3333333333";
        QTest::newRow("equation") << "Solve for x: 4x + 36 = 80"
                                  << "11";
        QTest::newRow("x on both sides") << "Solve the equation 7x + 2 = 2x - 3 for x."
                                         << "-1";
        QTest::newRow("bracketed") << "If 3(x - 2) = 12, what is x?"
                                   << "6";
        QTest::newRow("squared") << "What is 32 squared?"
                                 << "1024";
        QTest::newRow("cubed") << "Calculate 6 cubed."
                               << "216";
        QTest::newRow("increase") << "A price of 80 dollars is increased by 50%. What is the new price?"
                                  << "120";
        QTest::newRow("discount") << "A jacket costs 195 dollars and is discounted by 40%. The sale price?"
                                  << "117";
        QTest::newRow("percent change") << "A population falls from 250 to 200. By what percentage?"
                                        << "20";
        QTest::newRow("fraction") << "Write the fraction 7/20 as a decimal number."
                                  << "0.35";
        QTest::newRow("no operator") << "What is 5?"
                                     << "";
        QTest::newRow("a word, not a sum") << "What is the capital city of France?"
                                           << "";
        QTest::newRow("division by zero") << "Calculate 4 / 0."
                                          << "";
        QTest::newRow("numbers in prose") << "Summarise the 3 - 4 key points of the memo."
                                          << "";
        QTest::newRow("x inside a word") << "What is 3 xor 5?"
                                         << "";
        // Nesting: 64 levels are arithmetic, the 65th is not (a free prompt).
        const auto brackets = [](int n, const QString& inner) {
            return "Calculate " + QString(n, '(') + inner + QString(n, ')') + ".";
        };
        const auto minus = [](int n) { return "Calculate 1 + " + QString(n, '-') + "2."; };
        QTest::newRow("64 brackets") << brackets(64, "2 + 3") << "5";
        QTest::newRow("65 brackets") << brackets(65, "2 + 3") << "";
        QTest::newRow("64 signs") << minus(64) << "3";
        QTest::newRow("65 signs") << minus(65) << "";
        QTest::newRow("63 brackets and a sign") << brackets(63, "-2 * 3") << "-6";
        QTest::newRow("64 brackets and a sign") << brackets(64, "-2 * 3") << "";
        QTest::newRow("60,000 brackets") << brackets(60000, "1 + 1") << "";
        QTest::newRow("an equation 64 deep")
            << "Solve for x: " + QString(63, '(') + "2(x - 1)" + QString(63, ')') + " = 4"
            << "3";
        QTest::newRow("an equation 65 deep")
            << "Solve for x: " + QString(64, '(') + "2(x - 1)" + QString(64, ')') + " = 4"
            << "";
    }

    void arithmetic()
    {
        QFETCH(QString, text);
        QFETCH(QString, answer);
        const auto got = ArithmeticQuestion::answer(text.toStdString());
        QCOMPARE(got ? QString::fromStdString(*got) : QString(), answer);
    }

    void aSkillIsTheMeanChanceOverTypicalTasks()
    {
        // The mean of P(s, z) over z ~ N(0, 1) is s (Simpson's rule over ±12σ, to 1e-9), at any skill.
        for (const double skill : {0.05, 0.3, 0.55, 0.9, 0.99}) {
            const int steps = 4800;
            const double h = 24.0 / steps;
            double mean = 0;
            for (int i = 0; i <= steps; ++i) {
                const double z = -12 + i * h;
                const double weight = i == 0 || i == steps ? 1 : i % 2 ? 4 : 2;
                mean += weight * ItemBank::pCorrect(skill, z) * std::exp(-z * z / 2) / std::sqrt(2 * std::numbers::pi);
            }
            mean *= h / 3;
            QVERIFY2(std::fabs(mean - skill) < 1e-9, qPrintable(QString::number(skill)));
        }
        QCOMPARE(ItemBank::ability(0.5), 0.0);
        QVERIFY(std::fabs(ItemBank::ability(0.8413447460685429) - 1.0) < 1e-9);
        // On the typical task a good model does better than its skill; one σ harder, worse.
        QCOMPARE(QString::number(ItemBank::pCorrect(0.8, 0), 'f', 4), QStringLiteral("0.9378"));
        QCOMPARE(QString::number(ItemBank::pCorrect(0.8, 1), 'f', 4), QStringLiteral("0.5036"));
        QCOMPARE(ItemBank::pCorrect(0.0, -3), 0.0);
        QCOMPARE(ItemBank::pCorrect(1.0, 3), 1.0);
    }

    void calibrationInvertsTheCurve()
    {
        // The accuracy a skill gives over the bundled math tasks reads back as that skill.
        std::vector<double> zs;
        for (const auto& t : m_tasks->tasks())
            if (t.domain == "math")
                zs.push_back(ItemBank::difficulty(t));
        QCOMPARE(zs.size(), size_t(82));
        for (const double skill : {0.05, 0.3, 0.55, 0.9, 0.99}) {
            double accuracy = 0;
            for (const double z : zs)
                accuracy += ItemBank::pCorrect(skill, z) / double(zs.size());
            QVERIFY2(std::fabs(ItemBank::skillFor(accuracy, zs) - skill) < 1e-9, qPrintable(QString::number(skill)));
        }
        // One task answered right half the time: its own ability, a = √ρ·z.
        QVERIFY(std::fabs(ItemBank::skillFor(0.5, {1.0}) - ItemBank::normalCdf(std::sqrt(ItemBank::kShared))) < 1e-9);
        QCOMPARE(ItemBank::skillFor(0.0, zs), 0.0);
        QCOMPARE(ItemBank::skillFor(1.0, zs), 1.0);
        QCOMPARE(ItemBank::skillFor(0.7, {}), 0.7);
    }

    void aHardTaskIsHardForEveryModel()
    {
        for (const double skill : {0.2, 0.5, 0.9}) {
            const double easy = ItemBank::pCorrect(skill, -1.5);
            const double typical = ItemBank::pCorrect(skill, 0);
            const double hard = ItemBank::pCorrect(skill, 1.5);
            QVERIFY(easy > typical && typical > hard);
        }
        // The weakest model on an easy task beats the strongest on a hard one.
        QVERIFY(ItemBank::pCorrect(0.3, -2.5) > ItemBank::pCorrect(0.9, 2.5));
    }

    void difficultyIsTheTasksOwnElseDrawnFromItsId()
    {
        QCOMPARE(ItemBank::difficulty(task("t1", "math", 1.25)), 1.25);
        QCOMPARE(ItemBank::difficulty(task("t1", "math")), ItemBank::drawn("t1"));
        QCOMPARE(ItemBank::drawn("t1"), ItemBank::drawn("t1"));
        QVERIFY(ItemBank::drawn("t1") != ItemBank::drawn("t2"));
        // Drawn difficulties are standard normal: over the 408 bundled tasks.
        double sum = 0, squares = 0;
        for (const auto& t : m_tasks->tasks()) {
            sum += ItemBank::difficulty(t);
            squares += ItemBank::difficulty(t) * ItemBank::difficulty(t);
        }
        const double n = double(m_tasks->tasks().size());
        QVERIFY(std::fabs(sum / n) < 0.15);
        QVERIFY(std::fabs(squares / n - 1) < 0.2);
    }

    // Issue 30: the three bundled math tasks the cascade found hardest, 10 to
    // 40 % right in the full set, scored 87 % evaluated alone, because each
    // domain's abilities were fitted over the tasks selected. A task's chance
    // is its own: every call on the three hardest by difficulty gets the same
    // reply whichever set holds them (on main, tiny-1b's reply to math-075
    // under seed 1 differed between the subset and the full set).
    void aTasksChanceIsTheSameWhateverSetHoldsIt()
    {
        auto math = TaskSet::load(CONCLAVE_RESOURCES "/tasksets/math.jsonl");
        QVERIFY(math.tasks);
        std::vector<const Task*> hardest;
        for (const auto& t : math.tasks->tasks())
            hardest.push_back(&t);
        std::sort(hardest.begin(), hardest.end(),
                  [](const Task* a, const Task* b) { return ItemBank::difficulty(*a) > ItemBank::difficulty(*b); });
        hardest.resize(3);
        std::vector<std::string> ids;
        std::string lines; // the three in a file of their own
        for (const Task* t : hardest) {
            ids.push_back(t->id);
            lines += nlohmann::json{{"id", t->id}, {"domain", t->domain}, {"prompt", t->prompt}, {"answer", t->answer}}
                         .dump() +
                     "\n";
        }
        QCOMPARE(ids, (std::vector<std::string>{"math-075", "math-062", "math-078"}));
        auto own = TaskSet::fromJsonLines(lines).tasks.value();
        auto ownThenBundled = own;
        ownThenBundled.merge(*m_tasks);
        const std::vector<std::pair<const char*, std::shared_ptr<const TaskSet>>> sets{
            {"all 408 bundled tasks", m_tasks},
            {"math.jsonl", std::make_shared<const TaskSet>(*math.tasks)},
            {"a subset of the three", std::make_shared<const TaskSet>(math.tasks->subset(hardest))},
            {"a file of the three", std::make_shared<const TaskSet>(own)},
            {"that file merged ahead of the bundled sets", std::make_shared<const TaskSet>(ownThenBundled)},
        };

        const auto catalog = LocalModelCatalog::load(CONCLAVE_RESOURCES "/models/local-models.json");
        QVERIFY(catalog.catalog);
        auto resolved = LocalResponder::resolve(catalog.catalog->models(), {});
        const auto profiles = std::make_shared<const LocalResponder::Profiles>(resolved.begin(), resolved.end());
        std::map<std::string, int> right; // per task, over the models and seeds
        for (const Task* t : hardest) {
            for (const char* model : {"local/tiny-1b", "local/generalist-7b", "local/math-13b", "local/frontier-70b"}) {
                for (uint64_t seed = 1; seed <= 50; ++seed) {
                    std::string first;
                    for (const auto& [name, set] : sets) {
                        LocalResponder responder(profiles, m_gate, set, seed);
                        responder.prepareFor(t->prompt);
                        const auto text = responder.respond(ask(model, t->prompt)).reply.text;
                        if (first.empty())
                            first = text;
                        QVERIFY2(text == first, qPrintable(QString::fromStdString(
                                                    t->id + ", " + model + ", seed " + std::to_string(seed) + ", " +
                                                    name + ":\n" + text + "\nin all 408:\n" + first)));
                    }
                    right[t->id] += ReplyParser::parse(first).answer == ReplyParser::normalizeAnswer(t->answer);
                }
            }
        }
        // Of 200 (4 models × 50 seeds), in every set: hard for every model.
        QCOMPARE(right, (std::map<std::string, int>{{"math-075", 5}, {"math-062", 25}, {"math-078", 29}}));
    }

    void wrongAnswersAreTheSameForEveryModel()
    {
        const auto& bank = m_tasks->items();
        const WrongAnswers choice(*m_tasks->byId("facts-001"), bank);
        QCOMPARE(choice.all(), (std::vector<std::string>{"marseille", "nice", "lyon"}));
        QCOMPARE(QString::fromStdString(choice.attractive()), QStringLiteral("lyon"));
        const WrongAnswers number(*m_tasks->byId("math-001"), bank); // 783
        QCOMPARE(number.all(), (std::vector<std::string>{"784", "782", "861", "78", "793", "773"}));
        QCOMPARE(QString::fromStdString(number.attractive()), QStringLiteral("78"));
        // Never the attractive one from other(), whatever the draw.
        for (const double u : {0.0, 0.2, 0.4, 0.6, 0.8, 0.999})
            QVERIFY(number.other(u) != number.attractive());
        // A slip within the tolerance would be right: there is none.
        Task tolerant{.id = "t", .domain = "math", .prompt = "p", .answer = "100", .tolerance = 5};
        QCOMPARE(WrongAnswers(tolerant, bank).all(), (std::vector<std::string>{"110", "10", "90"}));
        // A free-text task's wrong answers are its domain's other answers.
        const WrongAnswers text(*m_tasks->byId("code-003"), bank); // "ncl"
        QVERIFY(!text.all().empty());
        QVERIFY(std::find(text.all().begin(), text.all().end(), "ncl") == text.all().end());
        for (const auto& answer : text.all())
            QVERIFY(std::find(bank.answers("code").begin(), bank.answers("code").end(), answer) !=
                    bank.answers("code").end());
    }

    void errorAgreementSetsHowOftenTheAttractiveAnswerIsGiven()
    {
        const Task& t = *m_tasks->byId("facts-001");
        const WrongAnswers wrong(t, m_tasks->items());
        for (const double agreement : {0.0, 1.0}) {
            std::map<std::string, ResolvedProfile> profiles{{"m", withSkill(0.05, agreement)}};
            int wrongs = 0, attractive = 0;
            for (uint64_t seed = 1; seed <= 200; ++seed) {
                LocalResponder responder(profiles, m_gate, m_tasks, seed);
                responder.prepareFor(t.prompt);
                const auto answer = ReplyParser::parse(responder.respond(ask("m", t.prompt)).reply.text).answer;
                if (answer == "paris")
                    continue;
                ++wrongs;
                attractive += answer == wrong.attractive() ? 1 : 0;
            }
            QVERIFY(wrongs > 150);
            QCOMPARE(attractive, agreement == 1.0 ? wrongs : 0);
        }
        // The default: stronger models' errors agree more.
        QCOMPARE(withSkill(0.5).agreement(), 0.57 + 0.3 * 0.5);
        QVERIFY(withSkill(0.9).agreement() > withSkill(0.3).agreement());
        QCOMPARE(withSkill(0.3, 0.4).agreement(), 0.4);
    }

    void aFreeArithmeticPromptIsAnsweredLikeATask()
    {
        std::map<std::string, ResolvedProfile> profiles{{"right", withSkill(1)}, {"wrong", withSkill(0, 1.0)}};
        LocalResponder responder(profiles, m_gate, m_tasks, 7);
        const std::string prompt = "Calculate 17 + 25.";
        responder.prepareFor(prompt);
        const auto right = responder.respond(ask("right", prompt)).reply.text;
        QCOMPARE(ReplyParser::parse(right).answer, std::string("42"));
        QVERIFY(!right.starts_with("(simulated reply)"));
        const auto wrong = ReplyParser::parse(responder.respond(ask("wrong", prompt)).reply.text).answer;
        const Task computed{.id = "x", .domain = "math", .prompt = prompt, .answer = "42"};
        const auto slips = WrongAnswers(computed, m_tasks->items()).all();
        QVERIFY2(std::find(slips.begin(), slips.end(), wrong) != slips.end(), wrong.c_str());
    }

    void otherFreePromptsGetALabelledSentence()
    {
        std::map<std::string, ResolvedProfile> profiles{{"m", withSkill(0.5)}};
        LocalResponder responder(profiles, m_gate, m_tasks, 7);
        const std::string prompt = "Should we rewrite the billing service?";
        responder.prepareFor(prompt);
        const auto text = responder.respond(ask("m", prompt)).reply.text;
        QVERIFY(text.starts_with("(simulated reply) On \"Should we rewrite the billing service?\": "));
        const auto answer = ReplyParser::parse(text).answer;
        const auto& sentences = LocalResponder::freeAnswers();
        QVERIFY(std::find(sentences.begin(), sentences.end(), answer) != sentences.end());
        QVERIFY(answer.find(' ') != std::string::npos); // a sentence, not a code word
    }

    void aJudgeSeesTheSameTruthAsTheDesign()
    {
        // A perfect judge grades a free prompt's answer against its hidden sentence.
        std::map<std::string, ResolvedProfile> profiles{{"judge", withSkill(1)}, {"m", withSkill(1)}};
        const std::string question = "Should we rewrite the billing service?";
        LocalResponder design(profiles, m_gate, m_tasks, 3);
        design.prepareFor(question);
        const auto best = ReplyParser::parse(design.respond(ask("m", question)).reply.text).answer;
        for (const auto& sentence : LocalResponder::freeAnswers()) {
            const JudgeCase judged{question, "", sentence};
            const auto input = PromptBuilder::judgeInput(judged);
            LocalResponder judge(profiles, m_gate, m_tasks, 3);
            judge.prepareFor(input);
            const auto verdict =
                ReplyParser::parse(judge.respond(judging(ask("judge", input), judged)).reply.text).answer;
            QCOMPARE(verdict, std::string(sentence == best ? "correct" : "incorrect"));
        }
        // And a computed question against its computed truth.
        const JudgeCase computed{"Calculate 17 + 25.", "", "42"};
        const auto input = PromptBuilder::judgeInput(computed);
        LocalResponder judge(profiles, m_gate, m_tasks, 3);
        judge.prepareFor(input);
        QCOMPARE(ReplyParser::parse(judge.respond(judging(ask("judge", input), computed)).reply.text).answer,
                 std::string("correct"));
    }

    void peersGivingTheAttractiveAnswerDrawAWrongModelToIt()
    {
        const Task& t = *m_tasks->byId("facts-001");
        const WrongAnswers wrong(t, m_tasks->items());
        std::map<std::string, ResolvedProfile> profiles{{"m", withSkill(0.0, 0.0)}};
        const auto prompt = t.prompt + "\n\nSo far:\n" +
                            PromptBuilder::transcriptLine("a", 1, wrong.attractive(), 0.8) + "\n" +
                            PromptBuilder::transcriptLine("b", 1, wrong.attractive(), 0.8) + "\n";
        int attractive = 0;
        for (uint64_t seed = 1; seed <= 200; ++seed) {
            LocalResponder responder(profiles, m_gate, m_tasks, seed);
            responder.prepareFor(t.prompt);
            auto request = ask("m", prompt);
            request.runInput = t.prompt;
            request.purpose = CallPurpose::MemberTurn;
            request.inputs.task = t.prompt;
            request.inputs.transcript = {{"a", wrong.attractive(), 0.8, {}, 1}, {"b", wrong.attractive(), 0.8, {}, 1}};
            const auto answer = ReplyParser::parse(responder.respond(request).reply.text).answer;
            attractive += answer == wrong.attractive() ? 1 : 0;
        }
        // q = 0 alone; with every peer on it, q = 0 + 1 · 0.5 = 0.5.
        QVERIFY2(attractive > 70 && attractive < 130, qPrintable(QString::number(attractive)));
    }

    void theAuditOfTheBundledModels()
    {
        // `conclave bench sim`'s figures, exactly: a change to the simulator
        // that moves them is seen here.
        const auto catalog = LocalModelCatalog::load(CONCLAVE_RESOURCES "/models/local-models.json");
        QVERIFY(catalog.catalog);
        auto resolved = LocalResponder::resolve(catalog.catalog->models(), {});
        const auto profiles = std::make_shared<const LocalResponder::Profiles>(resolved.begin(), resolved.end());
        const std::vector<std::string> midSize{"local/code-13b", "local/facts-7b", "local/generalist-7b",
                                               "local/math-13b", "local/writer-7b"};
        const auto r = SimulatorAudit::run(profiles, m_gate, m_tasks, {1, 2, 3}, midSize);
        QCOMPARE(r.calls, int64_t(9936));
        QCOMPARE(r.bothWrong, int64_t(2088));
        QCOMPARE(r.agreeing, int64_t(1226));
        QCOMPARE(QString::number(r.meanCorrelation, 'f', 4), QStringLiteral("0.2952"));
        QCOMPARE(r.pairs, int64_t(28));
        QCOMPARE(r.cells.size(), size_t(40));
        QCOMPARE(QString::number(r.meanAbsGap, 'f', 4), QStringLiteral("0.0357"));
        QCOMPARE(QString::number(r.maxAbsGap, 'f', 4), QStringLiteral("-0.0947"));
        QCOMPARE(QString::number(r.meanAbsFromCurve, 'f', 4), QStringLiteral("0.0177"));
        // The targets.
        QVERIFY(r.agreement >= 0.5 && r.agreement <= 0.7);
        QVERIFY(r.meanCorrelation >= 0.25 && r.meanCorrelation <= 0.6);
        QVERIFY(r.meanAbsGap <= 0.05);
        QCOMPARE(r.bestSingle.models, std::vector<std::string>{"local/generalist-7b"});
        QCOMPARE(QString::number(r.bestSingle.accuracy, 'f', 4), QStringLiteral("0.5768"));
        QCOMPARE(r.threeWay.size(), size_t(10));
        QCOMPARE(QString::number(r.allVoters.accuracy, 'f', 4), QStringLiteral("0.5891"));
        // Stated confidence, pooled over the models: the built-in default's AUROC (target 0.6-0.8).
        std::vector<double> right, wrong;
        for (const auto& c : r.confidences) {
            right.insert(right.end(), c.right.begin(), c.right.end());
            wrong.insert(wrong.end(), c.wrong.begin(), c.wrong.end());
        }
        QCOMPARE(r.confidences.size(), size_t(8));
        QCOMPARE(right.size() + wrong.size(), size_t(9792));
        QCOMPARE(QString::number(*Auroc::of(right, wrong), 'f', 4), QStringLiteral("0.7017"));
    }

    void sameSeedSameAnswers()
    {
        std::map<std::string, ResolvedProfile> profiles{{"m", withSkill(0.5)}};
        for (const auto& t : m_tasks->tasks()) {
            LocalResponder a(profiles, m_gate, m_tasks, 11), b(profiles, m_gate, m_tasks, 11);
            a.prepareFor(t.prompt);
            b.prepareFor(t.prompt);
            QCOMPARE(a.respond(ask("m", t.prompt)).reply.text, b.respond(ask("m", t.prompt)).reply.text);
        }
    }
};

QTEST_GUILESS_MAIN(TestSimulator)
#include "tst_simulator.moc"
