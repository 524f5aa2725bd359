// A synthesize that skipped its model, through the command line: `run --json`
// shows the note on its span, and `runs export --format json` the stored
// run's skipped_model, agreed and note.
#include <QtTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "support/CliProcess.h"

namespace {

// in -> fan -> a (100 ms), b (300 ms), both always right -> syn (synthesize, skip_when_agree) -> out.
constexpr const char* kTeam = R"({
  "conclave": 2,
  "name": "agreement",
  "backends": {"local": {"kind": "local-moe", "seed": 42, "time_scale": 1, "models": {
    "right-100": {"skills": {"math": 1, "code": 1, "facts": 1, "writing": 1, "reasoning": 1},
                  "ttft_ms": {"median": 50, "p95": 50}, "tokens_per_s": {"median": 1000, "p95": 1000},
                  "output_tokens": {"median": 50, "p95": 50}, "price_per_mtok": {"input": 1, "output": 2}},
    "right-300": {"skills": {"math": 1, "code": 1, "facts": 1, "writing": 1, "reasoning": 1},
                  "ttft_ms": {"median": 50, "p95": 50}, "tokens_per_s": {"median": 1000, "p95": 1000},
                  "output_tokens": {"median": 250, "p95": 250}, "price_per_mtok": {"input": 1, "output": 2}}}}},
  "defaults": {"backend": "local", "retries": 0},
  "nodes": [
    {"id": "in", "kind": "input"},
    {"id": "fan", "kind": "router", "strategy": "all"},
    {"id": "a", "kind": "expert", "model": "right-100"},
    {"id": "b", "kind": "expert", "model": "right-300"},
    {"id": "syn", "kind": "aggregator", "strategy": "synthesize", "model": "right-300", "skip_when_agree": true},
    {"id": "out", "kind": "output"}
  ],
  "edges": [
    {"from": "in", "to": "fan"}, {"from": "fan", "to": "a"}, {"from": "fan", "to": "b"},
    {"from": "a", "to": "syn"}, {"from": "b", "to": "syn"}, {"from": "syn", "to": "out"}
  ]
})";

const QString kNote = QStringLiteral("skipped_model: agreement (a, b agree on \"783\", 2 of 2 ok inputs)");

QJsonObject objectOf(const QString& text)
{
    return QJsonDocument::fromJson(text.toUtf8()).object();
}

// The entries of `array` whose "node" is `node`.
QJsonArray entriesOf(const QJsonArray& array, const QString& node)
{
    QJsonArray out;
    for (const auto& v : array) {
        if (v.toObject().value("node").toString() == node)
            out.append(v);
    }
    return out;
}

} // namespace

class TestCliAgreement : public QObject {
    Q_OBJECT

private slots:
    void runAndExportShowTheSkip()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString team = dir.filePath("agreement.team.json");
        QFile file(team);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(kTeam);
        file.close();
        const QString db = dir.filePath("runs.sqlite");

        const auto run = testsupport::runConclave(
            {"run", team, "--input", "Calculate 323 + 460.", "--json", "--clock", "virtual", "--db", db});
        QCOMPARE(run.err, QString());
        QCOMPARE(run.exitCode, 0);
        const auto printed = objectOf(run.out);
        QCOMPARE(printed.value("output").toString().contains("783"), true);
        QCOMPARE(printed.value("wall_ms").toDouble(), 300.0);
        const auto printedSyn = entriesOf(printed.value("spans").toArray(), "syn");
        QCOMPARE(printedSyn.size(), 1); // its node span, no attempt
        QCOMPARE(printedSyn[0].toObject().value("note").toString(), kNote);

        const auto exported = testsupport::runConclave(
            {"runs", "export", printed.value("run_id").toString(), "--format", "json", "--db", db});
        QCOMPARE(exported.err, QString());
        QCOMPARE(exported.exitCode, 0);
        const auto stored = objectOf(exported.out);
        const auto spans = entriesOf(stored.value("spans").toArray(), "syn");
        QCOMPARE(spans.size(), 1);
        const auto span = spans[0].toObject();
        QCOMPARE(span.value("kind").toString(), QString("node"));
        QCOMPARE(span.value("status").toString(), QString("ok"));
        QCOMPARE(span.value("start_ms").toDouble(), 300.0);
        QCOMPARE(span.value("end_ms").toDouble(), 300.0);
        QCOMPARE(span.value("note").toString(), kNote);
        const auto nodes = entriesOf(stored.value("nodes").toArray(), "syn");
        QCOMPARE(nodes.size(), 1);
        const auto syn = nodes[0].toObject();
        QCOMPARE(syn.value("status").toString(), QString("ok"));
        QCOMPARE(syn.value("answer").toString(), QString("783"));
        QCOMPARE(syn.value("skipped_model").toString(), QString("agreement"));
        QCOMPARE(syn.value("agreed").toArray(), (QJsonArray{"a", "b"}));
        QCOMPARE(syn.value("tokens_in").toInt(), 0);
        QCOMPARE(syn.value("cost_usd").toDouble(), 0.0);
        // The output passes the answer on, not the skip.
        const auto out = entriesOf(stored.value("nodes").toArray(), "out")[0].toObject();
        QVERIFY(!out.contains("skipped_model"));
        QVERIFY(!out.contains("agreed"));
    }
};

QTEST_GUILESS_MAIN(TestCliAgreement)
#include "tst_cliagreement.moc"
