// A model profile's fields of how models behave together (difficulty_weight,
// confidence, synthesis, load_slope) and of where a calibration's numbers
// came from (fitted, calibrated_from), and the local-moe load fields
// (max_concurrency, background_inflight): read, written back in canonical
// order, the team version they need, and their type and range errors, each
// with its exact message and JSON pointer.
#include <QtTest>

#include "support/ValidatorTestKit.h"

using namespace validatortest;

namespace {

const std::string kModel = "/backends/local/models/m";

json teamWith(const json& profile, const json& backendFields = json::object())
{
    json local{{"kind", "local-moe"}, {"models", {{"m", profile}}}};
    local.update(backendFields);
    return json{{"conclave", 3},
                {"name", "t"},
                {"backends", {{"local", local}}},
                {"nodes", json::array({{{"id", "in"}, {"kind", "input"}}, {{"id", "out"}, {"kind", "output"}}})},
                {"edges", json::array({{{"from", "in"}, {"to", "out"}}})}};
}

QStringList problemsOf(const json& team)
{
    const auto loaded = teamFromJson(team);
    auto problems = render(loaded.problems);
    if (loaded.team)
        problems << render(validate(*loaded.team));
    return problems;
}

ModelProfile fullProfile()
{
    ModelProfile p;
    p.errorAgreement = 0.4;
    p.difficultyWeight = 0.55;
    p.confidence = ConfidenceProfile{{0.9, 0.05, {0.5, 0.875, 1}}, {0.75, 0.125, {}}};
    p.synthesis = SynthesisProfile{{0.05, 0.625, 0.9}, 0.25};
    p.loadSlope = 0.125;
    p.retryRepeat = 0.75;
    p.conformity = 0.375;
    p.repeatAgreement = 0.625;
    p.trials = std::map<std::string, int64_t>{{"math", 40}};
    p.fitted = std::vector<std::string>{"skills", "difficulty_weight"};
    p.calibratedFrom = std::vector<CalibrationSource>{{"exp-a", 120}, {"exp-b", 0}};
    return p;
}

} // namespace

class TestModelProfileJoint : public QObject {
    Q_OBJECT

private slots:
    void writesInCanonicalOrderAndReadsBackEqual()
    {
        const auto profile = fullProfile();
        const auto written = profileToJson(profile);
        QCOMPARE(QString::fromStdString(written.dump()),
                 QStringLiteral("{\"error_agreement\":0.4,\"difficulty_weight\":0.55,"
                                "\"confidence\":{\"right\":{\"mean\":0.9,\"sd\":0.05,\"quantiles\":[0.5,0.875,1]},"
                                "\"wrong\":{\"mean\":0.75,\"sd\":0.125}},"
                                "\"synthesis\":{\"p_right_given_right\":[0.05,0.625,0.9],\"self_answer\":0.25},"
                                "\"load_slope\":0.125,\"retry_repeat\":0.75,\"conformity\":0.375,\"repeat_agreement\":0.625,\"trials\":{\"math\":40},"
                                "\"fitted\":[\"skills\",\"difficulty_weight\"],"
                                "\"calibrated_from\":[{\"experiment\":\"exp-a\",\"answers\":120},"
                                "{\"experiment\":\"exp-b\",\"answers\":0}]}"));
        std::vector<Problem> problems;
        const auto back = profileFromJson(json::parse(written.dump()), "/models/m", problems);
        QCOMPARE(render(problems), QStringList());
        QVERIFY(back);
        QVERIFY(*back == profile);
        QVERIFY(back->extra.is_null());
    }

    // Inline, each of them needs format version 3; without them a team stays at 1.
    void teamNeedsVersion3_data()
    {
        QTest::addColumn<QString>("profile");
        QTest::addColumn<QString>("backend");
        QTest::addColumn<int>("version");
        QTest::newRow("none") << "{\"failure_rate\": 0}" << "{}" << 1;
        QTest::newRow("difficulty_weight") << "{\"difficulty_weight\": 0}" << "{}" << 3;
        QTest::newRow("confidence") << "{\"confidence\": {\"right\": {\"mean\": 0.8, \"sd\": 0.1}, "
                                       "\"wrong\": {\"mean\": 0.7, \"sd\": 0.1}}}"
                                    << "{}" << 3;
        QTest::newRow("synthesis") << "{\"synthesis\": {\"p_right_given_right\": [0.1], \"self_answer\": 0}}"
                                   << "{}" << 3;
        QTest::newRow("load_slope") << "{\"load_slope\": 0}" << "{}" << 3;
        QTest::newRow("retry_repeat") << "{\"retry_repeat\": 1}" << "{}" << 3;
        QTest::newRow("conformity") << "{\"conformity\": 0}" << "{}" << 3;
        QTest::newRow("repeat_agreement") << "{\"repeat_agreement\": 0}" << "{}" << 3;
        QTest::newRow("fitted") << "{\"fitted\": []}" << "{}" << 3;
        QTest::newRow("calibrated_from") << "{\"calibrated_from\": []}" << "{}" << 3;
        QTest::newRow("max_concurrency") << "{}" << "{\"max_concurrency\": 2}" << 3;
        QTest::newRow("background_inflight") << "{}" << "{\"background_inflight\": 0}" << 3;
    }

    void teamNeedsVersion3()
    {
        QFETCH(QString, profile);
        QFETCH(QString, backend);
        QFETCH(int, version);
        const auto loaded =
            teamFromJson(teamWith(json::parse(profile.toStdString()), json::parse(backend.toStdString())));
        QVERIFY(loaded.team);
        QCOMPARE(formatVersionNeeded(*loaded.team), int64_t(version));
        const auto written = teamToJson(*loaded.team);
        QCOMPARE(written["conclave"].get<int>(), version);
        const auto again = teamFromJsonText(teamToJsonText(*loaded.team));
        QVERIFY(again.team);
        QVERIFY(*again.team == *loaded.team);
    }

    void localLoadFieldsRoundTrip()
    {
        const auto loaded = teamFromJson(teamWith(json::object(), {{"max_concurrency", 3}, {"background_inflight", 5}}));
        QVERIFY(loaded.team);
        const auto& b = loaded.team->backends.at(BackendName("local"));
        QCOMPARE(b.maxConcurrency, std::optional<int64_t>(3));
        QCOMPARE(b.backgroundInflight, std::optional<int64_t>(5));
        QCOMPARE(QString::fromStdString(teamToJson(*loaded.team)["backends"]["local"].dump()),
                 QStringLiteral("{\"kind\":\"local-moe\",\"models\":{\"m\":{}},\"max_concurrency\":3,"
                                "\"background_inflight\":5}"));
    }

    void problems_data()
    {
        QTest::addColumn<QString>("profile"); // JSON
        QTest::addColumn<QStringList>("expected");
        const auto row = [](const char* name, const char* profile, QStringList expected) {
            QTest::newRow(name) << QString::fromLatin1(profile) << expected;
        };
        const auto at = [](const std::string& rest) { return kModel + rest; };
        row("difficulty_weight 0", "{\"difficulty_weight\": 0}", {});
        row("difficulty_weight 1", "{\"difficulty_weight\": 1}", {});
        row("difficulty_weight 1.5", "{\"difficulty_weight\": 1.5}",
            {err(at("/difficulty_weight"), "expected a number from 0 to 1, got 1.5")});
        row("difficulty_weight text", "{\"difficulty_weight\": \"high\"}",
            {err(at("/difficulty_weight"), "expected a number from 0 to 1, got \"high\"")});
        row("load_slope negative", "{\"load_slope\": -0.5}",
            {err(at("/load_slope"), "expected a non-negative number, got -0.5")});
        row("load_slope 3", "{\"load_slope\": 3}", {});
        row("confidence not an object", "{\"confidence\": 0.8}",
            {err(at("/confidence"), "expected an object, got 0.8")});
        row("confidence without wrong", "{\"confidence\": {\"right\": {\"mean\": 0.8, \"sd\": 0.1}}}",
            {err(at("/confidence/wrong"), "missing; expected an object with mean and sd")});
        row("confidence without sd",
            "{\"confidence\": {\"right\": {\"mean\": 0.8}, \"wrong\": {\"mean\": 0.7, \"sd\": 0.1}}}",
            {err(at("/confidence/right/sd"), "missing; expected a non-negative number")});
        row("confidence unknown key",
            "{\"confidence\": {\"right\": {\"mean\": 0.8, \"sd\": 0.1, \"skew\": 1}, "
            "\"wrong\": {\"mean\": 0.7, \"sd\": 0.1}}}",
            {err(at("/confidence/right/skew"), "unknown key; a confidence draw has only mean, sd and quantiles")});
        row("quantiles fine",
            "{\"confidence\": {\"right\": {\"mean\": 0.8, \"sd\": 0.1, \"quantiles\": [0.4, 0.4, 0.95]}, "
            "\"wrong\": {\"mean\": 0.7, \"sd\": 0.1}}}",
            {});
        row("quantiles one",
            "{\"confidence\": {\"right\": {\"mean\": 0.8, \"sd\": 0.1, \"quantiles\": [0.4]}, "
            "\"wrong\": {\"mean\": 0.7, \"sd\": 0.1}}}",
            {err(at("/confidence/right/quantiles"), "expected an array of at least two numbers from 0 to 1 (the "
                                                    "confidence at shares 0 to 1, evenly spaced), got an array of 1")});
        row("quantiles not an array",
            "{\"confidence\": {\"right\": {\"mean\": 0.8, \"sd\": 0.1}, "
            "\"wrong\": {\"mean\": 0.7, \"sd\": 0.1, \"quantiles\": 0.5}}}",
            {err(at("/confidence/wrong/quantiles"), "expected an array of at least two numbers from 0 to 1 (the "
                                                    "confidence at shares 0 to 1, evenly spaced), got 0.5")});
        row("quantiles text",
            "{\"confidence\": {\"right\": {\"mean\": 0.8, \"sd\": 0.1, \"quantiles\": [0.4, \"high\"]}, "
            "\"wrong\": {\"mean\": 0.7, \"sd\": 0.1}}}",
            {err(at("/confidence/right/quantiles/1"), "expected a number from 0 to 1, got \"high\"")});
        row("quantiles out of range and decreasing",
            "{\"confidence\": {\"right\": {\"mean\": 0.8, \"sd\": 0.1, \"quantiles\": [0.6, 0.5, 1.5]}, "
            "\"wrong\": {\"mean\": 0.7, \"sd\": 0.1}}}",
            {err(at("/confidence/right/quantiles/1"), "expected at least the quantile before it (0.6), got 0.5"),
             err(at("/confidence/right/quantiles/2"), "expected a number from 0 to 1, got 1.5")});
        row("retry_repeat 1.5", "{\"retry_repeat\": 1.5}",
            {err(at("/retry_repeat"), "expected a number from 0 to 1, got 1.5")});
        row("retry_repeat 0.5", "{\"retry_repeat\": 0.5}", {});
        row("conformity -0.1", "{\"conformity\": -0.1}",
            {err(at("/conformity"), "expected a number from 0 to 1, got -0.1")});
        row("conformity 1", "{\"conformity\": 1}", {});
        row("repeat_agreement 2", "{\"repeat_agreement\": 2}",
            {err(at("/repeat_agreement"), "expected a number from 0 to 1, got 2")});
        row("repeat_agreement 0.5", "{\"repeat_agreement\": 0.5}", {});
        row("confidence extra side",
            "{\"confidence\": {\"right\": {\"mean\": 0.8, \"sd\": 0.1}, \"wrong\": {\"mean\": 0.7, \"sd\": 0.1}, "
            "\"unsure\": {}}}",
            {err(at("/confidence/unsure"), "unknown key; confidence has only right and wrong")});
        row("confidence out of range",
            "{\"confidence\": {\"right\": {\"mean\": 1.2, \"sd\": 0.1}, \"wrong\": {\"mean\": 0.7, \"sd\": -0.1}}}",
            {err(at("/confidence/right/mean"), "expected a number from 0 to 1, got 1.2"),
             err(at("/confidence/wrong/sd"), "expected a non-negative number, got -0.1")});
        row("synthesis empty table", "{\"synthesis\": {\"p_right_given_right\": [], \"self_answer\": 0}}",
            {err(at("/synthesis/p_right_given_right"),
                 "expected an array of at least one number from 0 to 1 (p0: the chance when no candidate is "
                 "right), got an empty array")});
        row("synthesis entry text", "{\"synthesis\": {\"p_right_given_right\": [0.1, \"x\"], \"self_answer\": 0}}",
            {err(at("/synthesis/p_right_given_right/1"), "expected a number from 0 to 1, got \"x\"")});
        row("synthesis entry above 1", "{\"synthesis\": {\"p_right_given_right\": [0.1, 1.5], \"self_answer\": 2}}",
            {err(at("/synthesis/p_right_given_right/1"), "expected a number from 0 to 1, got 1.5"),
             err(at("/synthesis/self_answer"), "expected a number from 0 to 1, got 2")});
        row("synthesis without self_answer", "{\"synthesis\": {\"p_right_given_right\": [0.5]}}",
            {err(at("/synthesis/self_answer"), "missing; expected a number from 0 to 1")});
        row("synthesis without table", "{\"synthesis\": {\"self_answer\": 0.5}}",
            {err(at("/synthesis/p_right_given_right"), "missing; expected an array of numbers from 0 to 1")});
        row("synthesis unknown key", "{\"synthesis\": {\"p_right_given_right\": [0.5], \"self_answer\": 0, \"k\": 1}}",
            {err(at("/synthesis/k"), "unknown key; synthesis has only p_right_given_right and self_answer")});
        row("fitted not strings", "{\"fitted\": [\"skills\", 3]}",
            {err(at("/fitted/1"), "expected a string, got 3")});
        row("fitted unknown field", "{\"fitted\": [\"skills\", \"speed\", \"fitted\"]}",
            {err(at("/fitted/1"), "expected the name of a profile field the simulator uses, got \"speed\""),
             err(at("/fitted/2"), "expected the name of a profile field the simulator uses, got \"fitted\"")});
        row("calibrated_from not an array", "{\"calibrated_from\": {\"experiment\": \"e\"}}",
            {err(at("/calibrated_from"), "expected an array of {experiment, answers}, got an object")});
        row("calibrated_from item", "{\"calibrated_from\": [{\"experiment\": \"e\"}, 4]}",
            {err(at("/calibrated_from/0/answers"), "missing; expected a non-negative integer"),
             err(at("/calibrated_from/1"), "expected an object with experiment and answers, got 4")});
        row("calibrated_from values", "{\"calibrated_from\": [{\"experiment\": \"\", \"answers\": -2}]}",
            {err(at("/calibrated_from/0/experiment"), "expected an experiment id, got \"\""),
             err(at("/calibrated_from/0/answers"), "expected a non-negative integer, got -2")});
        row("calibrated_from unknown key",
            "{\"calibrated_from\": [{\"experiment\": \"e\", \"answers\": 1, \"when\": \"today\"}]}",
            {err(at("/calibrated_from/0/when"), "unknown key; a calibration source has only experiment and answers")});
    }

    void problems()
    {
        QFETCH(QString, profile);
        QFETCH(QStringList, expected);
        QCOMPARE(problemsOf(teamWith(json::parse(profile.toStdString()))), expected);
    }

    void loadProblems_data()
    {
        QTest::addColumn<QString>("backend");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("max_concurrency 0") << "{\"max_concurrency\": 0}"
                                           << QStringList{err("/backends/local/max_concurrency",
                                                              "expected a positive integer, got 0")};
        QTest::newRow("max_concurrency 1.5") << "{\"max_concurrency\": 1.5}"
                                             << QStringList{err("/backends/local/max_concurrency",
                                                                "expected a positive integer, got 1.5")};
        QTest::newRow("background_inflight -1") << "{\"background_inflight\": -1}"
                                                << QStringList{err("/backends/local/background_inflight",
                                                                   "expected a non-negative integer, got -1")};
        QTest::newRow("background_inflight text") << "{\"background_inflight\": \"many\"}"
                                                  << QStringList{err("/backends/local/background_inflight",
                                                                     "expected a non-negative integer, got \"many\"")};
        QTest::newRow("both fine") << "{\"max_concurrency\": 1, \"background_inflight\": 0}" << QStringList{};
    }

    void loadProblems()
    {
        QFETCH(QString, backend);
        QFETCH(QStringList, expected);
        QCOMPARE(problemsOf(teamWith(json::object(), json::parse(backend.toStdString()))), expected);
    }
};

QTEST_GUILESS_MAIN(TestModelProfileJoint)
#include "tst_modelprofilejoint.moc"
