// Exports of a stored run: chrome (one X event per span, µs), OTLP/JSON with
// GenAI attributes, CSV (a header and one row per span), json.
#include <QtTest>

#include "support/QtStrings.h"

#include "conclave/export/RunExport.h"

#include <nlohmann/json.hpp>

#include <sstream>

using namespace conclave;
using json = nlohmann::json;

namespace {

// input -> two experts -> output; a retry on one of them; one span still open.
StoredRun sampleRun()
{
    StoredRun run;
    run.summary.id = RunId("0123456789ab");
    run.summary.teamName = "Sample, \"quoted\"";
    run.summary.status = RunStatus::Ok;
    run.summary.startedAtMs = 1'700'000'000'000;
    run.summary.wallUs = 5000;
    const auto span = [&](SpanId id, SpanId parent, const char* node, SpanKind kind, int64_t start, int64_t end) {
        Span s;
        s.id = id;
        s.parent = parent;
        s.node = NodeId(node);
        s.kind = kind;
        s.name = kind == SpanKind::Attempt ? "attempt " + std::to_string(id) : node;
        s.startUs = start;
        s.endUs = end;
        s.status = end < 0 ? Status::Running : Status::Ok;
        if (kind == SpanKind::Attempt) {
            s.attempt = 1;
            s.model = "local/tiny-1b";
            s.tokensIn = 100 + int64_t(id);
            s.tokensOut = 20;
            s.costUsd = 0.001;
            s.ttftUs = 300;
        }
        run.spans.push_back(s);
    };
    span(1, 0, "in", SpanKind::Node, 10, 20);
    span(2, 0, "a", SpanKind::Node, 30, 2030);
    span(3, 2, "a", SpanKind::Attempt, 40, 2020);
    span(4, 0, "b", SpanKind::Node, 30, 4030);
    span(5, 4, "b", SpanKind::Attempt, 40, 1000);
    run.spans.back().status = Status::Failed;
    run.spans.back().error = "boom, \"really\"";
    span(6, 4, "b", SpanKind::Attempt, 1100, 4000);
    span(7, 0, "out", SpanKind::Node, 4040, -1);
    return run;
}

} // namespace

class TestRunExport : public QObject {
    Q_OBJECT

private slots:
    void formatNames()
    {
        QVERIFY(exportFormatFromString("chrome") == ExportFormat::Chrome);
        QVERIFY(exportFormatFromString("otlp") == ExportFormat::Otlp);
        QVERIFY(exportFormatFromString("csv") == ExportFormat::Csv);
        QVERIFY(exportFormatFromString("json") == ExportFormat::Json);
        QVERIFY(!exportFormatFromString("xml"));
    }

    void chrome()
    {
        const auto run = sampleRun();
        const auto j = json::parse(exportRun(run, ExportFormat::Chrome));
        const auto& events = j.at("traceEvents");
        std::map<int, std::string> threads;
        int x = 0;
        for (const auto& e : events) {
            if (e.at("ph") == "M" && e.at("name") == "thread_name")
                threads[e.at("tid").get<int>()] = e.at("args").at("name").get<std::string>();
        }
        QCOMPARE(threads.size(), size_t(4)); // in, a, b, out
        for (const auto& e : events) {
            if (e.at("ph") != "X")
                continue;
            const auto id = e.at("args").at("span_id").get<SpanId>();
            const auto& s = run.spans.at(id - 1);
            QCOMPARE(e.at("ts").get<int64_t>(), s.startUs);
            QCOMPARE(e.at("dur").get<int64_t>(), s.endUs >= 0 ? s.endUs - s.startUs : run.summary.wallUs - s.startUs);
            QCOMPARE(q(threads.at(e.at("tid").get<int>())), q(s.node.str()));
            QCOMPARE(e.at("pid").get<int>(), 1);
            ++x;
        }
        QCOMPARE(x, int(run.spans.size()));
    }

    void otlp()
    {
        const auto run = sampleRun();
        const auto j = json::parse(exportRun(run, ExportFormat::Otlp));
        const auto& rs = j.at("resourceSpans");
        QCOMPARE(rs.size(), size_t(1));
        const auto& scopeSpans = rs[0].at("scopeSpans");
        QCOMPARE(scopeSpans.size(), size_t(1));
        QCOMPARE(q(scopeSpans[0].at("scope").at("name").get<std::string>()), QString("conclave"));
        const auto& spans = scopeSpans[0].at("spans");
        QCOMPARE(spans.size(), run.spans.size());
        for (size_t i = 0; i < spans.size(); ++i) {
            const auto& o = spans[i];
            const auto& s = run.spans[i];
            QCOMPARE(q(o.at("traceId").get<std::string>()), QString("000000000000000000000123456789ab"));
            QCOMPARE(o.at("spanId").get<std::string>().size(), size_t(16));
            QCOMPARE(o.contains("parentSpanId"), s.parent != 0);
            const auto startNs = std::stoll(o.at("startTimeUnixNano").get<std::string>());
            QCOMPARE(startNs, (run.summary.startedAtMs * 1000 + s.startUs) * 1000);
            std::map<std::string, json> attrs;
            for (const auto& a : o.at("attributes"))
                attrs[a.at("key").get<std::string>()] = a.at("value");
            QCOMPARE(q(attrs.at("gen_ai.agent.name").at("stringValue").get<std::string>()), q(s.node.str()));
            if (s.kind == SpanKind::Attempt) {
                QCOMPARE(q(attrs.at("gen_ai.operation.name").at("stringValue").get<std::string>()), QString("chat"));
                QCOMPARE(q(attrs.at("gen_ai.request.model").at("stringValue").get<std::string>()),
                         QString("local/tiny-1b"));
                QCOMPARE(q(attrs.at("gen_ai.usage.input_tokens").at("intValue").get<std::string>()),
                         QString::number(s.tokensIn));
                QCOMPARE(q(attrs.at("gen_ai.usage.output_tokens").at("intValue").get<std::string>()), QString("20"));
                QCOMPARE(o.at("kind").get<int>(), 3);
            } else {
                QCOMPARE(q(attrs.at("gen_ai.operation.name").at("stringValue").get<std::string>()),
                         QString("invoke_agent"));
                QVERIFY(!attrs.count("gen_ai.usage.input_tokens"));
            }
        }
        QCOMPARE(spans[4].at("status").at("code").get<int>(), 2);
        QCOMPARE(spans[2].at("status").at("code").get<int>(), 1);
    }

    void csv()
    {
        const auto run = sampleRun();
        const auto text = exportRun(run, ExportFormat::Csv);
        QStringList lines = q(text).split("\r\n");
        QCOMPARE(lines.takeLast(), QString());
        QCOMPARE(lines.size(), int(run.spans.size()) + 1);
        QCOMPARE(lines[0], QString("run_id,span_id,parent,node,kind,name,start_us,end_us,duration_us,status,attempt,"
                                   "round,model,tokens_in,tokens_out,cost_usd,ttft_us,error"));
        QCOMPARE(lines[3], QString("0123456789ab,3,2,a,attempt,attempt 3,40,2020,1980,ok,1,0,local/tiny-1b,103,20,"
                                   "0.001,300,"));
        QCOMPARE(lines[5], QString("0123456789ab,5,4,b,attempt,attempt 5,40,1000,960,failed,1,0,local/tiny-1b,105,"
                                   "20,0.001,300,\"boom, \"\"really\"\"\""));
        QCOMPARE(lines[7], QString("0123456789ab,7,0,out,node,out,4040,,,running,0,0,,0,0,0,,"));
    }

    void wholeRunAsJson()
    {
        auto run = sampleRun();
        run.teamJson = "{\"version\": 1, \"name\": \"x\"}";
        run.texts[3] = "streamed";
        const auto j = json::parse(exportRun(run, ExportFormat::Json));
        QCOMPARE(q(j.at("run_id").get<std::string>()), QString("0123456789ab"));
        QCOMPARE(j.at("spans").size(), run.spans.size());
        QCOMPARE(q(j.at("spans")[2].at("text").get<std::string>()), QString("streamed"));
        QCOMPARE(q(j.at("team").at("name").get<std::string>()), QString("x"));
        QCOMPARE(j.at("started_at_ms").get<int64_t>(), run.summary.startedAtMs);
    }

    // A store's team_json is read like any JSON: nested deeper than 256 levels
    // (a damaged or hostile store), it exports as null instead of overflowing
    // the stack when the export is written out.
    void storedTeamJsonNesting_data()
    {
        QTest::addColumn<int>("depth");
        QTest::addColumn<QString>("team");
        QTest::newRow("256 levels") << 256 << QString("256 levels");
        QTest::newRow("257 levels") << 257 << QString("null");
        QTest::newRow("1,000,000 levels") << 1'000'000 << QString("null");
    }
    void storedTeamJsonNesting()
    {
        QFETCH(int, depth);
        QFETCH(QString, team);
        auto run = sampleRun();
        // {"a": {"a": … {"a": 1} …}} : depth objects.
        std::string text;
        for (int i = 0; i < depth; ++i)
            text += "{\"a\":";
        text += "1" + std::string(size_t(depth), '}');
        run.teamJson = text;
        const auto j = json::parse(exportRun(run, ExportFormat::Json));
        int levels = 0;
        const json* at = &j.at("team");
        for (; at->is_object(); at = &at->at("a"))
            ++levels;
        QCOMPARE(levels == 0 ? q(at->dump()) : QString::number(levels) + " levels", team);
    }
};

QTEST_GUILESS_MAIN(TestRunExport)
#include "tst_runexport.moc"
