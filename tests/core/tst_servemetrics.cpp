// ServeMetrics: the exact Prometheus text for a few requests and runs.
#include <QtTest>

#include "conclave/serve/ServeMetrics.h"

using namespace conclave;

class TestServeMetrics : public QObject {
    Q_OBJECT

private slots:
    void writesTheTextFormat()
    {
        ServeMetrics m;
        m.request("triage", 200);
        m.request("triage", 200);
        m.request("", 401);
        m.request("a\"b", 429);
        m.inFlight(3);
        m.inFlight(-1);
        m.queued(1);
        m.run("triage", 0.3, 100, 20, 0.002);
        m.run("triage", 7, 50, 5, 0.001);
        m.firstToken("triage", 0.004);
        const std::string text = m.text();
        const auto has = [&](const std::string& line) {
            if (text.find(line + "\n") == std::string::npos)
                qWarning("missing: %s\nin:\n%s", line.c_str(), text.c_str());
            return text.find(line + "\n") != std::string::npos;
        };
        QVERIFY(text.rfind("# HELP conclave_requests_total Requests answered, by team and HTTP status.\n"
                           "# TYPE conclave_requests_total counter\n"
                           "conclave_requests_total{team=\"\",code=\"401\"} 1\n"
                           "conclave_requests_total{team=\"a\\\"b\",code=\"429\"} 1\n"
                           "conclave_requests_total{team=\"triage\",code=\"200\"} 2\n",
                           0) == 0);
        QVERIFY(has("conclave_requests_in_flight 2"));
        QVERIFY(has("conclave_queue_length 1"));
        QVERIFY(has("# TYPE conclave_run_seconds histogram"));
        QVERIFY(has("conclave_run_seconds_bucket{team=\"triage\",le=\"0.25\"} 0"));
        QVERIFY(has("conclave_run_seconds_bucket{team=\"triage\",le=\"0.5\"} 1"));
        QVERIFY(has("conclave_run_seconds_bucket{team=\"triage\",le=\"5\"} 1"));
        QVERIFY(has("conclave_run_seconds_bucket{team=\"triage\",le=\"10\"} 2"));
        QVERIFY(has("conclave_run_seconds_bucket{team=\"triage\",le=\"+Inf\"} 2"));
        QVERIFY(has("conclave_run_seconds_sum{team=\"triage\"} 7.3"));
        QVERIFY(has("conclave_run_seconds_count{team=\"triage\"} 2"));
        QVERIFY(has("conclave_ttft_seconds_bucket{team=\"triage\",le=\"0.005\"} 1"));
        QVERIFY(has("conclave_ttft_seconds_count{team=\"triage\"} 1"));
        QVERIFY(has("conclave_tokens_total{team=\"triage\",direction=\"in\"} 150"));
        QVERIFY(has("conclave_tokens_total{team=\"triage\",direction=\"out\"} 25"));
        QVERIFY(has("conclave_cost_usd_total{team=\"triage\"} 0.003"));
        // Each family's HELP and TYPE, then: 3 request series, in flight, queued,
        // 2 histograms of 14 buckets + Inf + sum + count, 2 token series, 1 cost.
        QCOMPARE(int(std::count(text.begin(), text.end(), '\n')), 7 * 2 + 3 + 1 + 1 + 2 * 17 + 2 + 1);
    }
};

QTEST_GUILESS_MAIN(TestServeMetrics)
#include "tst_servemetrics.moc"
