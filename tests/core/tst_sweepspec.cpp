// SweepSpec: the `--vary` grammar. Lists typed as the team file holds them,
// ranges with hi included within step/1000 and values rounded to the step's
// decimals, the grid in flag order, names' suffixes, and exact errors.
#include <QtTest>

#include "conclave/experiment/SweepSpec.h"

#include <nlohmann/json.hpp>

using namespace conclave;
using nlohmann::json;

Q_DECLARE_METATYPE(std::string)
Q_DECLARE_METATYPE(std::vector<std::string>)

namespace {

// "text:json" per value, e.g. "0.1:0.1" or "x:\"x\"".
QStringList shown(const SweepAxis& axis)
{
    QStringList out;
    for (const auto& v : axis.values)
        out << QString::fromStdString(v.text + ":" + v.value.dump());
    return out;
}

} // namespace

class TestSweepSpec : public QObject {
    Q_OBJECT

private slots:
    void values_data()
    {
        QTest::addColumn<std::string>("flag");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QStringList>("values");
        QTest::newRow("typed list") << std::string("e.params.temperature=0.2, 1,true,false,local/math-13b")
                                    << "e.params.temperature"
                                    << QStringList{"0.2:0.2", "1:1", "true:true", "false:false",
                                                   "local/math-13b:\"local/math-13b\""};
        QTest::newRow("a list keeps what is typed")
            << std::string("x.y=0.50,-3,1e-3") << "x.y" << QStringList{"0.50:0.5", "-3:-3", "1e-3:0.001"};
        QTest::newRow("range 0.1:0.5:0.1") << std::string("cascade.threshold=0.1:0.5:0.1") << "cascade.threshold"
                                           << QStringList{"0.1:0.1", "0.2:0.2", "0.3:0.3", "0.4:0.4", "0.5:0.5"};
        QTest::newRow("integer range") << std::string("triage.top_k=1:3:1") << "triage.top_k"
                                       << QStringList{"1:1", "2:2", "3:3"};
        QTest::newRow("hi within step/1000 is in")
            << std::string("a.b=0:0.29995:0.1") << "a.b" << QStringList{"0.0:0.0", "0.1:0.1", "0.2:0.2", "0.3:0.3"};
        QTest::newRow("hi beyond step/1000 is out")
            << std::string("a.b=0:0.2998:0.1") << "a.b" << QStringList{"0.0:0.0", "0.1:0.1", "0.2:0.2"};
        QTest::newRow("rounded to the step's decimals")
            << std::string("a.b=0:1:0.25") << "a.b"
            << QStringList{"0.00:0.0", "0.25:0.25", "0.50:0.5", "0.75:0.75", "1.00:1.0"};
        QTest::newRow("negative, no -0") << std::string("a.b=-0.3:0.1:0.1") << "a.b"
                                         << QStringList{"-0.3:-0.3", "-0.2:-0.2", "-0.1:-0.1", "0.0:0.0", "0.1:0.1"};
        QTest::newRow("a one-value range") << std::string("a.b=2:2:1") << "a.b" << QStringList{"2:2"};
        QTest::newRow("dotted node id, spaces trimmed")
            << std::string(" stage.1.params.top_p = 0.9 ") << "stage.1.params.top_p" << QStringList{"0.9:0.9"};
        QTest::newRow("colons in a list value are text")
            << std::string("e.model=llama3:8b,qwen:7b") << "e.model"
            << QStringList{"llama3:8b:\"llama3:8b\"", "qwen:7b:\"qwen:7b\""};
    }
    void values()
    {
        QFETCH(std::string, flag);
        QFETCH(QString, path);
        QFETCH(QStringList, values);
        std::string error;
        const auto axis = SweepSpec::parseAxis(flag, error);
        QVERIFY2(axis, error.c_str());
        QCOMPARE(QString::fromStdString(axis->path), path);
        QCOMPARE(QString::fromStdString(axis->flag), QString::fromStdString(flag));
        QCOMPARE(shown(*axis), values);
    }

    void rangeValuesAreExactDecimals()
    {
        std::string error;
        const auto axis = SweepSpec::parseAxis("e.t=0.1:0.5:0.1", error);
        QVERIFY(axis);
        const std::vector<double> expected{0.1, 0.2, 0.3, 0.4, 0.5};
        QCOMPARE(axis->values.size(), expected.size());
        for (size_t i = 0; i < expected.size(); ++i)
            QCOMPARE(axis->values[i].value.get<double>(), expected[i]); // 0.3, not 0.30000000000000004
        QVERIFY(axis->values[0].value.is_number_float());
        const auto ints = SweepSpec::parseAxis("e.k=1:2:1", error);
        QVERIFY(ints && ints->values[0].value.is_number_integer());
    }

    void errors_data()
    {
        QTest::addColumn<std::vector<std::string>>("flags");
        QTest::addColumn<QString>("error");
        using F = std::vector<std::string>;
        QTest::newRow("no =") << F{"e.t"} << "--vary 'e.t': expected PATH=v1,v2,… or PATH=lo:hi:step";
        QTest::newRow("no path") << F{"=1,2"} << "--vary '=1,2': expected PATH=v1,v2,… or PATH=lo:hi:step";
        QTest::newRow("no values") << F{"e.t= "} << "--vary 'e.t= ': no values after '='";
        QTest::newRow("empty part") << F{"e..t=1"} << "--vary 'e..t=1': the path \"e..t\" has an empty part";
        QTest::newRow("empty value") << F{"e.t=1,,2"} << "--vary 'e.t=1,,2': value 2 of 3 is empty";
        QTest::newRow("one value twice")
            << F{"e.t=0.1,0.10"}
            << "--vary 'e.t=0.1,0.10': \"0.1\" and \"0.10\" are one value; each variant needs its own";
        QTest::newRow("range not numbers")
            << F{"e.t=0:1:x"}
            << "--vary 'e.t=0:1:x': a range is lo:hi:step, three numbers; its step \"x\" is not a number";
        QTest::newRow("zero step") << F{"e.t=0:1:0"} << "--vary 'e.t=0:1:0': the step 0 is not above 0";
        QTest::newRow("negative step") << F{"e.t=0:1:-0.1"} << "--vary 'e.t=0:1:-0.1': the step -0.1 is not above 0";
        QTest::newRow("hi below lo") << F{"e.t=0.5:0.1:0.1"} << "--vary 'e.t=0.5:0.1:0.1': hi 0.1 is below lo 0.5";
        QTest::newRow("lo finer than step") << F{"e.t=0.15:0.5:0.1"}
                                            << "--vary 'e.t=0.15:0.5:0.1': lo 0.15 has more decimals than the step "
                                               "0.1, to which every value is rounded";
        QTest::newRow("huge range") << F{"e.t=0:1e9:1"}
                                    << "--vary 'e.t=0:1e9:1': the range has more than 100,000 values";
        QTest::newRow("one path twice") << F{"e.t=1,2", "e.t=3"}
                                        << "--vary 'e.t=3': e.t is varied by --vary 'e.t=1,2' already";
    }
    void errors()
    {
        QFETCH(std::vector<std::string>, flags);
        QFETCH(QString, error);
        std::string got;
        QVERIFY(!SweepSpec::parse(flags, got));
        QCOMPARE(QString::fromStdString(got), error);
    }

    void gridInFlagOrder()
    {
        std::string error;
        const auto spec = SweepSpec::parse({"e.t=0.1,0.2", "r.top_k=1:3:1"}, error);
        QVERIFY2(spec, error.c_str());
        QCOMPARE(spec->variantCount(), size_t(6));
        QCOMPARE(QString::fromStdString(spec->shape()), QStringLiteral("2 x 3"));
        QStringList names;
        for (const auto& parameters : spec->grid())
            names << QString::fromStdString("d" + SweepSpec::suffix(parameters));
        QCOMPARE(names, (QStringList{"d [e.t=0.1, r.top_k=1]", "d [e.t=0.1, r.top_k=2]", "d [e.t=0.1, r.top_k=3]",
                                     "d [e.t=0.2, r.top_k=1]", "d [e.t=0.2, r.top_k=2]", "d [e.t=0.2, r.top_k=3]"}));
        QCOMPARE(spec->grid()[4][1], (SweepParameter{"r.top_k", json(2), "2"}));
        QCOMPARE(spec->flags(), (std::vector<std::string>{"e.t=0.1,0.2", "r.top_k=1:3:1"}));
    }

    void countsSaturate()
    {
        std::string error;
        const auto spec = SweepSpec::parse({"a.b=1:1000:1", "a.c=1:1000:1"}, error);
        QVERIFY2(spec, error.c_str());
        QCOMPARE(spec->variantCount(), SweepSpec::kMaxVariants + 1);
        QVERIFY(spec->grid().empty());
        QCOMPARE(SweepSpec().variantCount(), size_t(0));
        QCOMPARE(SweepSpec::suffix({}), std::string());
    }
};

QTEST_GUILESS_MAIN(TestSweepSpec)
#include "tst_sweepspec.moc"
