// ProfileGate: the gate's score of models, each by the profile of the first
// source that names it; 0.5 for a model none names, for a domain a profile
// lacks, and for every model without a gate. A two-domain gate with no
// weights weighs every prompt 0.5 / 0.5, so the expected scores are exact.
#include <QtTest>

#include "conclave/local/ProfileGate.h"

#include <memory>
#include <string>
#include <vector>

using namespace conclave;

namespace {

std::shared_ptr<const Gate> evenGate()
{
    auto loaded = Gate::fromJsonText(R"({"buckets": 16, "domains": ["math", "writing"], "weights": {}})");
    if (!loaded.gate)
        qFatal("the test gate does not load");
    return std::make_shared<const Gate>(std::move(*loaded.gate));
}

std::shared_ptr<const ProfileGate::Profiles>
profiles(const std::map<std::string, std::map<std::string, double>>& skills)
{
    auto out = std::make_shared<ProfileGate::Profiles>();
    for (const auto& entry : skills) {
        ResolvedProfile p;
        for (const auto& skill : entry.second)
            p.skills.emplace(skill.first, skill.second);
        out->emplace(entry.first, std::move(p));
    }
    return out;
}

} // namespace

class TestProfileGate : public QObject {
    Q_OBJECT

private slots:
    void scores_data()
    {
        QTest::addColumn<QStringList>("models");
        QTest::addColumn<QList<double>>("expected");
        // first: A (math .9, writing .3), C (math 1, no writing); second: A (math .1, writing .1), B (.2, .8).
        QTest::newRow("the first source that names a model") << QStringList{"A"} << QList<double>{0.6};
        QTest::newRow("a model only the second names") << QStringList{"B"} << QList<double>{0.5};
        QTest::newRow("a domain the profile lacks: 0.5") << QStringList{"C"} << QList<double>{0.75};
        QTest::newRow("a model none names: 0.5") << QStringList{"Z"} << QList<double>{0.5};
        QTest::newRow("in the order asked") << QStringList{"Z", "C", "A", "A"} << QList<double>{0.5, 0.75, 0.6, 0.6};
        QTest::newRow("none") << QStringList{} << QList<double>{};
    }

    void scores()
    {
        QFETCH(QStringList, models);
        QFETCH(QList<double>, expected);
        const ProfileGate gate(
            evenGate(),
            {profiles({{"A", {{"math", 0.9}, {"writing", 0.3}}}, {"C", {{"math", 1.0}}}}), nullptr,
             profiles({{"A", {{"math", 0.1}, {"writing", 0.1}}}, {"B", {{"math", 0.2}, {"writing", 0.8}}}})});
        std::vector<std::string> names;
        for (const auto& m : models)
            names.push_back(m.toStdString());
        const auto scores = gate.scores("any prompt", names);
        QCOMPARE(QList<double>(scores.begin(), scores.end()), expected);
    }

    void withoutAGateEveryModelIsEven()
    {
        const ProfileGate gate(nullptr, {profiles({{"A", {{"math", 0.9}, {"writing", 0.9}}}})});
        QCOMPARE(gate.scores("Calculate 2 + 2.", {"A", "Z"}), (std::vector<double>{0.5, 0.5}));
    }
};

QTEST_GUILESS_MAIN(TestProfileGate)
#include "tst_profilegate.moc"
