// A model profile's fitted fields (error_agreement, skills_ci, trials) in the
// team format: read, written back unchanged, and their type and range errors,
// each with its exact message and JSON pointer.
#include <QtTest>

#include "support/ValidatorTestKit.h"

using namespace validatortest;

namespace {

const std::string kModel = "/backends/local/models/m";

json teamWithProfile(const json& profile)
{
    return json{{"conclave", 1},
                {"name", "t"},
                {"backends", {{"local", {{"kind", "local-moe"}, {"models", {{"m", profile}}}}}}},
                {"nodes", json::array({{{"id", "in"}, {"kind", "input"}}, {{"id", "out"}, {"kind", "output"}}})},
                {"edges", json::array({{{"from", "in"}, {"to", "out"}}})}};
}

// The reader's problems, then (when it read a team) the validator's.
QStringList problemsOf(const json& profile)
{
    const auto loaded = teamFromJson(teamWithProfile(profile));
    auto problems = render(loaded.problems);
    if (loaded.team)
        problems << render(validate(*loaded.team));
    return problems;
}

} // namespace

class TestModelProfileJson : public QObject {
    Q_OBJECT

private slots:
    void readsTheFittedFields()
    {
        const json profile{{"skills", {{"math", 0.75}}},
                           {"error_agreement", 0.6},
                           {"skills_ci", {{"math", {0.7, 0.8}}}},
                           {"trials", {{"math", 320}}}};
        std::vector<Problem> problems;
        const auto read = profileFromJson(profile, "/models/m", problems);
        QCOMPARE(render(problems), QStringList());
        QVERIFY(read);
        QCOMPARE(read->errorAgreement, std::optional<double>(0.6));
        QVERIFY(read->skillsCi);
        QCOMPARE(read->skillsCi->size(), size_t(1));
        QCOMPARE(read->skillsCi->at("math"), std::pair(0.7, 0.8));
        QVERIFY(read->trials);
        QCOMPARE(read->trials->at("math"), int64_t(320));
        QVERIFY(read->extra.is_null());
    }

    // Written in canonical order after failure_rate, and read back equal.
    void writesThemBackUnchanged()
    {
        ModelProfile profile;
        profile.failureRate = 0.02;
        profile.errorAgreement = 0.55;
        profile.skillsCi = std::map<std::string, std::pair<double, double>>{{"facts", {0.5, 0.625}}, {"math", {0, 1}}};
        profile.trials = std::map<std::string, int64_t>{{"facts", 300}, {"math", 0}};
        const auto written = profileToJson(profile);
        QCOMPARE(QString::fromStdString(written.dump()),
                 QStringLiteral("{\"failure_rate\":0.02,\"error_agreement\":0.55,"
                                "\"skills_ci\":{\"facts\":[0.5,0.625],\"math\":[0,1]},"
                                "\"trials\":{\"facts\":300,\"math\":0}}"));
        std::vector<Problem> problems;
        const auto back = profileFromJson(json::parse(written.dump()), "/models/m", problems);
        QVERIFY(back);
        QVERIFY(*back == profile);
    }

    // The catalog (and a models file) read profiles through the same reader.
    void catalogReadsThem()
    {
        const auto good = LocalModelCatalog::fromJsonText(
            R"({"models": {"m": {"error_agreement": 0.7, "skills_ci": {"math": [0.6, 0.8]}, "trials": {"math": 30}}}})");
        QVERIFY(good.catalog);
        QCOMPARE(good.catalog->models().at("m").errorAgreement, std::optional<double>(0.7));
        QCOMPARE(good.catalog->models().at("m").trials->at("math"), int64_t(30));
        const auto bad = LocalModelCatalog::fromJsonText(R"({"models": {"m": {"trials": {"math": "x"}}}})");
        QVERIFY(!bad.catalog);
        QCOMPARE(render(bad.problems),
                 QStringList{err("/models/m/trials/math", "expected a non-negative integer, got \"x\"")});
    }

    void teamRoundTrip()
    {
        const json profile{
            {"error_agreement", 0.5}, {"skills_ci", {{"code", {0.25, 0.5}}}}, {"trials", {{"code", 40}}}};
        const auto loaded = teamFromJson(teamWithProfile(profile));
        QVERIFY(loaded.team);
        const auto again = teamFromJsonText(teamToJsonText(*loaded.team));
        QVERIFY(again.team);
        QVERIFY(*again.team == *loaded.team);
    }

    void problems_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value"); // JSON
        QTest::addColumn<QStringList>("expected");
        const auto row = [](const char* name, const char* key, const char* value, QStringList expected) {
            QTest::newRow(name) << QString::fromLatin1(key) << QString::fromLatin1(value) << expected;
        };
        const auto at = [](const std::string& rest) { return kModel + rest; };
        row("error_agreement 0", "error_agreement", "0", {});
        row("error_agreement 1", "error_agreement", "1", {});
        row("error_agreement 1.5", "error_agreement", "1.5",
            {err(at("/error_agreement"), "expected a number from 0 to 1, got 1.5")});
        row("error_agreement -0.1", "error_agreement", "-0.1",
            {err(at("/error_agreement"), "expected a number from 0 to 1, got -0.1")});
        row("error_agreement text", "error_agreement", "\"high\"",
            {err(at("/error_agreement"), "expected a number from 0 to 1, got \"high\"")});
        row("skills_ci not an object", "skills_ci", "[0.1, 0.2]",
            {err(at("/skills_ci"), "expected an object, got an array")});
        row("skills_ci one number", "skills_ci", "{\"math\": 0.5}",
            {err(at("/skills_ci/math"), "expected [low, high] (two numbers from 0 to 1), got 0.5")});
        row("skills_ci three numbers", "skills_ci", "{\"math\": [0.1, 0.2, 0.3]}",
            {err(at("/skills_ci/math"), "expected [low, high] (two numbers from 0 to 1), got [0.1,0.2,0.3]")});
        row("skills_ci reversed", "skills_ci", "{\"math\": [0.8, 0.7]}",
            {err(at("/skills_ci/math"), "expected [low, high] with 0 <= low <= high <= 1, got [0.8, 0.7]")});
        row("skills_ci above 1", "skills_ci", "{\"math\": [0.9, 1.25]}",
            {err(at("/skills_ci/math"), "expected [low, high] with 0 <= low <= high <= 1, got [0.9, 1.25]")});
        row("skills_ci a point", "skills_ci", "{\"math\": [0.5, 0.5]}", {});
        row("trials fraction", "trials", "{\"math\": 2.5}",
            {err(at("/trials/math"), "expected a non-negative integer, got 2.5")});
        row("trials negative", "trials", "{\"math\": -3}",
            {err(at("/trials/math"), "expected a non-negative integer, got -3")});
        row("trials text", "trials", "{\"math\": \"many\"}",
            {err(at("/trials/math"), "expected a non-negative integer, got \"many\"")});
        row("trials 0", "trials", "{\"math\": 0}", {});
    }

    void problems()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QStringList, expected);
        const json profile{{key.toStdString(), json::parse(value.toStdString())}};
        QCOMPARE(problemsOf(profile), expected);
    }
};

QTEST_GUILESS_MAIN(TestModelProfileJson)
#include "tst_modelprofilejson.moc"
