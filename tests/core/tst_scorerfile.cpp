// ScorerFile: scorer.json written and read back unchanged, and every problem
// a bad file can have, each with its exact place and message.
#include "conclave/routing/ScorerFile.h"

#include <QtTest>

#include <nlohmann/json.hpp>

using namespace conclave;
using json = nlohmann::json;

namespace {

// A scorer over a gate of 4 buckets and domains a, b: the prompt's features
// are indices 0–8 (4 + 3 + 2), the answer's 9–15.
ScorerModel sample()
{
    ScorerModel m;
    m.models = {"local/tiny-1b", "local/frontier-70b"};
    m.answers = {120, 80};
    m.baseRates = {0.4, 0.875};
    m.buckets = 4;
    m.domains = {"a", "b"};
    m.linear = {{0.25, -0.5, {{0, 0.125}, {9, -1.5}, {13, 2.25}}}, {4, 1.75, {{15, 0.5}}}};
    m.experiments = {"e1"};
    m.tasks = {{"math", "math-001"}, {"facts", "facts-002"}};
    m.heldoutTasks = {{"math", "math-003"}};
    m.heldout = {{"local/tiny-1b", 30, 0.5, 0.75, 0.625}, {"local/frontier-70b", 20, 0.25, std::nullopt, 0.5}};
    m.holdout = 0.3;
    m.seed = 7;
    return m;
}

json sampleJson()
{
    return json::parse(ScorerFile::toJsonText(sample()));
}

QString firstProblem(const json& doc)
{
    const auto loaded = ScorerFile::fromJsonText(doc.dump());
    if (loaded.model || loaded.problems.empty())
        return "(loaded)";
    const auto& p = loaded.problems.front();
    return QString::fromStdString(p.pointer + ": " + p.message);
}

} // namespace

class TestScorerFile : public QObject {
    Q_OBJECT

private slots:
    void roundTrip()
    {
        const auto text = ScorerFile::toJsonText(sample());
        const auto loaded = ScorerFile::fromJsonText(text);
        QVERIFY(loaded.problems.empty());
        QVERIFY(loaded.model);
        const auto& m = *loaded.model;
        QCOMPARE(m.models, sample().models);
        QCOMPARE(m.answers, sample().answers);
        QCOMPARE(m.baseRates, sample().baseRates);
        QCOMPARE(m.buckets, 4u);
        QCOMPARE(m.domains, sample().domains);
        QCOMPARE(m.linear.size(), size_t(2));
        QCOMPARE(m.linear[0].c, 0.25);
        QCOMPARE(m.linear[0].bias, -0.5);
        QCOMPARE(m.linear[0].weights, (SparseVector{{0, 0.125}, {9, -1.5}, {13, 2.25}}));
        QCOMPARE(m.linear[1].weights, (SparseVector{{15, 0.5}}));
        QCOMPARE(m.tasks, sample().tasks);
        QCOMPARE(m.heldoutTasks, sample().heldoutTasks);
        QCOMPARE(m.heldout.size(), size_t(2));
        QCOMPARE(m.heldout[0].model, std::string("local/tiny-1b"));
        QCOMPARE(*m.heldout[0].confidenceAuroc, 0.625);
        QVERIFY(!m.heldout[1].auroc);
        QCOMPARE(m.holdout, 0.3);
        QCOMPARE(m.seed, uint64_t(7));
        QCOMPARE(ScorerFile::toJsonText(m), text);
        QCOMPARE(m.dimension(), 16u);
    }

    void header()
    {
        const auto doc = sampleJson();
        QCOMPARE(doc["format"], json(1));
        QCOMPARE(doc["kind"], json("scorer"));
        QCOMPARE(doc["features"]["answer"],
                 json({"length", "number", "choice", "answer_line", "confidence", "agree", "asked"}));
        QCOMPARE(doc["features"]["prompt"]["char_grams"], json({3, 5}));
    }

    void problems_data()
    {
        QTest::addColumn<QString>("pointer"); // a JSON pointer into the sample, "" for the document
        QTest::addColumn<QString>("value");   // JSON to put there; "-" removes the key
        QTest::addColumn<QString>("expected");
        const auto row = [](const char* name, const char* pointer, const char* value, const char* expected) {
            QTest::newRow(name) << pointer << value << expected;
        };
        row("not an object", "", "[]", ": expected a scorer object (what conclave train-scorer writes), got an array");
        row("no format", "/format", "-", ": missing required field \"format\"");
        row("format not a number", "/format", "\"1\"", "/format: expected a finite number, got \"1\"");
        row("a newer format", "/format", "2", "/format: this Conclave reads scorer files of format 1 to 1, got 2");
        row("no kind", "/kind", "-", ": missing required field \"kind\"");
        row("a router file", "/kind", "\"router\"",
            "/kind: expected \"scorer\" (a file conclave train-scorer writes), got \"router\"");
        row("no features", "/features", "-", ": missing required field \"features\"");
        row("features not an object", "/features", "3", "/features: expected {\"prompt\", \"answer\"}, got 3");
        row("no prompt features", "/features/prompt", "-", "/features: missing required field \"prompt\"");
        row("bad buckets", "/features/prompt/buckets", "0.5",
            "/features/prompt/buckets: expected a whole number from 1 to 1048576");
        row("domains not strings", "/features/prompt/domains", "[1]",
            "/features/prompt/domains: expected an array of strings, got an array");
        row("no answer features", "/features/answer", "-", "/features: missing required field \"answer\"");
        row("other answer features", "/features/answer", "[\"length\"]",
            "/features/answer: expected the answer features "
            "[\"length\",\"number\",\"choice\",\"answer_line\",\"confidence\",\"agree\",\"asked\"] (this "
            "Conclave's), got [\"length\"]: re-train the scorer (conclave train-scorer)");
        row("no models", "/models", "-", ": missing required field \"models\"");
        row("models not an array", "/models", "{}", "/models: expected an array of models, got an object");
        row("no model", "/models", "[]", "/models: expected at least one model, got none");
        row("model not an object", "/models/1", "7", "/models/1: expected a model object, got 7");
        row("no name", "/models/0/name", "-", "/models/0: missing required field \"name\"");
        row("empty name", "/models/0/name", "\"\"", "/models/0/name: expected a model name, got \"\"");
        row("a model twice", "/models/1/name", "\"local/tiny-1b\"",
            "/models/1/name: model \"local/tiny-1b\" is listed twice");
        row("no answers", "/models/0/answers", "-", "/models/0: missing required field \"answers\"");
        row("bad base rate", "/models/0/base_rate", "null", "/models/0/base_rate: expected a finite number, got null");
        row("no c", "/models/1/c", "-", "/models/1: missing required field \"c\"");
        row("bad bias", "/models/1/bias", "\"x\"", "/models/1/bias: expected a finite number, got \"x\"");
        row("no weights", "/models/0/weights", "-", "/models/0: missing required field \"weights\"");
        row("weights not an array", "/models/0/weights", "{}",
            "/models/0/weights: expected an array of [index, value] pairs, got an object");
        row("a weight past the answer's features", "/models/0/weights/2", "[16, 1]",
            "/models/0/weights/2: expected [index, value] with index ascending and below 16, got [16,1]");
        row("weights out of order", "/models/0/weights/1", "[0, 1]",
            "/models/0/weights/1: expected [index, value] with index ascending and below 16, got [0,1]");
        row("trained_on's experiments", "/trained_on/experiments", "\"e1\"",
            "/trained_on/experiments: expected an array of strings, got \"e1\"");
        row("a bad task", "/trained_on/tasks/0", "{\"set\": 1}",
            "/trained_on/tasks/0: expected a task {\"set\", \"id\"}, got an object");
    }

    void problems()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        auto doc = sampleJson();
        if (pointer.isEmpty()) {
            doc = json::parse(value.toStdString());
        } else {
            const json::json_pointer at(pointer.toStdString());
            if (value == "-")
                doc[at.parent_pointer()].erase(at.back());
            else
                doc[at] = json::parse(value.toStdString());
        }
        QCOMPARE(firstProblem(doc), expected);
    }

    void notJson()
    {
        const auto loaded = ScorerFile::fromJsonText("{\"format\": ");
        QVERIFY(!loaded.model);
        QVERIFY(!loaded.problems.empty());
        QVERIFY(loaded.problems.front().line > 0);
    }

    void missingFile()
    {
        const auto loaded = ScorerFile::load("/nonexistent/scorer.json");
        QVERIFY(!loaded.model);
        QCOMPARE(loaded.problems.size(), size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestScorerFile)
#include "tst_scorerfile.moc"
