// KeyLimits: a sliding minute of requests, requests at once, and a day's
// budget that starts from what the store says was spent and that reserves a
// run's bound until its real cost settles.
#include <QtTest>

#include "conclave/serve/KeyLimits.h"

using namespace conclave;
using namespace std::chrono_literals;

namespace {

const KeyLimits::Clock::time_point kNoon = KeyLimits::Clock::time_point(std::chrono::hours(24 * 20000 + 12));

ApiKey key(std::optional<int> rpm, std::optional<int> concurrency, std::optional<double> budget)
{
    ApiKey k;
    k.name = "alice";
    k.rpm = rpm;
    k.concurrency = concurrency;
    k.budgetUsdPerDay = budget;
    return k;
}

} // namespace

class TestKeyLimits : public QObject {
    Q_OBJECT

private slots:
    void countsASlidingMinute()
    {
        KeyLimits limits({});
        const auto k = key(2, std::nullopt, std::nullopt);
        QVERIFY(std::holds_alternative<KeyLimits::Ticket>(limits.admit(k, 0, kNoon)));
        QVERIFY(std::holds_alternative<KeyLimits::Ticket>(limits.admit(k, 0, kNoon + 20s)));
        const auto refused = limits.admit(k, 0, kNoon + 30s);
        const auto& e = std::get<ServeError>(refused);
        QCOMPARE(e.status, 429);
        QCOMPARE(e.code, std::string("rate_limit_exceeded"));
        QCOMPARE(*e.retryAfterS, 30);
        QCOMPARE(e.message, std::string("the key \"alice\" may make 2 requests a minute; retry in 30 s"));
        // The first left the window a minute after it came.
        QVERIFY(std::holds_alternative<KeyLimits::Ticket>(limits.admit(k, 0, kNoon + 60s)));
        QVERIFY(std::holds_alternative<ServeError>(limits.admit(k, 0, kNoon + 61s)));
    }

    void countsRequestsAtOnce()
    {
        KeyLimits limits({});
        const auto k = key(std::nullopt, 1, std::nullopt);
        const auto first = std::get<KeyLimits::Ticket>(limits.admit(k, 0, kNoon));
        const auto refused = std::get<ServeError>(limits.admit(k, 0, kNoon));
        QCOMPARE(refused.message, std::string("the key \"alice\" may have 1 requests in flight at once"));
        QCOMPARE(*refused.retryAfterS, 1);
        limits.release(first, 0);
        QVERIFY(std::holds_alternative<KeyLimits::Ticket>(limits.admit(k, 0, kNoon)));
    }

    void keepsADailyBudget()
    {
        std::vector<int64_t> asked;
        KeyLimits limits([&](const std::string& name, int64_t dayStartMs) -> std::optional<double> {
            asked.push_back(dayStartMs);
            return name == "alice" ? 0.25 : 0.0; // spent before this process started
        });
        const auto k = key(std::nullopt, std::nullopt, 1.0);
        // Reserved: 0.25 spent + 0.5 held.
        const auto a = std::get<KeyLimits::Ticket>(limits.admit(k, 0.5, kNoon));
        QCOMPARE(a.reservedUsd, 0.5);
        const auto refused = std::get<ServeError>(limits.admit(k, 0.5, kNoon + 1s));
        QCOMPARE(refused.status, 429);
        QCOMPARE(refused.code, std::string("insufficient_quota"));
        QCOMPARE(refused.type, std::string("insufficient_quota"));
        QCOMPARE(refused.message, std::string("the key \"alice\" has a budget of $1.00 a day (UTC); spent $0.25"
                                              "00, held by runs in flight $0.5000, this request may cost up to $0.5000"));
        QVERIFY(!refused.retryAfterS);
        // The run cost less than its bound: 0.25 + 0.1 spent, nothing held.
        limits.release(a, 0.1);
        QVERIFY(std::holds_alternative<KeyLimits::Ticket>(limits.admit(k, 0.6, kNoon + 2s)));
        QVERIFY(std::holds_alternative<ServeError>(limits.admit(k, 0.06, kNoon + 3s)));
        QCOMPARE(asked, (std::vector<int64_t>{int64_t(20000) * 86'400'000}));
        // A new UTC day reads the store again.
        QVERIFY(std::holds_alternative<KeyLimits::Ticket>(limits.admit(k, 0.6, kNoon + 12h)));
        QCOMPARE(asked.size(), size_t(2));
        QCOMPARE(asked.back(), int64_t(20001) * 86'400'000);
    }

    void refusesWhenTheStoreCannotSay()
    {
        KeyLimits limits([](const std::string&, int64_t) -> std::optional<double> { return std::nullopt; });
        const auto e = std::get<ServeError>(limits.admit(key(std::nullopt, std::nullopt, 1.0), 0, kNoon));
        QCOMPARE(e.status, 503);
        QCOMPARE(e.message, std::string("the key's spend today cannot be read from the run store"));
        // A key without a budget never asks.
        QVERIFY(std::holds_alternative<KeyLimits::Ticket>(limits.admit(key(5, 5, std::nullopt), 0, kNoon)));
    }
};

QTEST_GUILESS_MAIN(TestKeyLimits)
#include "tst_keylimits.moc"
