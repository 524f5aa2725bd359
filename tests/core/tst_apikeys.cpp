// ApiKeys: the keys file's grammar with an exact error for each mistake, the
// owner-only permission rule, a key from the environment, and lookups.
#include <QTemporaryDir>
#include <QtTest>

#include "conclave/serve/ApiKeys.h"

#include <fstream>
#include <sys/stat.h>

using namespace conclave;

class TestApiKeys : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void readsEveryField()
    {
        const auto loaded = ApiKeys::parse("# production keys\n"
                                           "sk-alice-0123456789 name=alice teams=triage,moa rpm=60 concurrency=4 "
                                           "budget_usd_per_day=2.5\n"
                                           "\n"
                                           "sk-bob-0123456789   # no limits\n",
                                           "keys.txt");
        QCOMPARE(loaded.error, std::string());
        QVERIFY(loaded.keys);
        const auto& keys = loaded.keys->keys();
        QCOMPARE(keys.size(), size_t(2));
        QCOMPARE(keys[0].name, std::string("alice"));
        QCOMPARE(keys[0].teams, (std::set<std::string>{"moa", "triage"}));
        QCOMPARE(*keys[0].rpm, 60);
        QCOMPARE(*keys[0].concurrency, 4);
        QCOMPARE(*keys[0].budgetUsdPerDay, 2.5);
        QVERIFY(keys[0].allows("triage"));
        QVERIFY(!keys[0].allows("debate"));
        QCOMPARE(keys[1].name, std::string("key-4")); // unnamed: its line
        QVERIFY(!keys[1].rpm && !keys[1].concurrency && !keys[1].budgetUsdPerDay);
        QVERIFY(keys[1].allows("anything"));

        QCOMPARE(loaded.keys->find("sk-alice-0123456789")->name, std::string("alice"));
        QCOMPARE(loaded.keys->find("sk-bob-0123456789")->name, std::string("key-4"));
        QVERIFY(!loaded.keys->find("sk-alice-012345678"));   // a prefix
        QVERIFY(!loaded.keys->find("sk-alice-01234567890")); // longer
        QVERIFY(!loaded.keys->find(""));
    }

    void refusesMistakes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");
        QTest::newRow("short") << "abc" << "k:1: a key must be at least 8 characters";
        QTest::newRow("field first") << "name=x sk-0123456789"
                                     << "k:1: a line starts with its key, then name=, teams=, rpm=, concurrency=, "
                                        "budget_usd_per_day=";
        QTest::newRow("unknown") << "\nsk-0123456789 tier=gold"
                                 << "k:2: unknown field \"tier\" (expected name, teams, rpm, concurrency or "
                                    "budget_usd_per_day)";
        QTest::newRow("no value") << "sk-0123456789 rpm" << "k:1: expected FIELD=VALUE, got \"rpm\"";
        QTest::newRow("rpm") << "sk-0123456789 rpm=0" << "k:1: rpm: expected a whole number above 0, got \"0\"";
        QTest::newRow("concurrency") << "sk-0123456789 concurrency=2.5"
                                     << "k:1: concurrency: expected a whole number above 0, got \"2.5\"";
        QTest::newRow("budget") << "sk-0123456789 budget_usd_per_day=-1"
                                << "k:1: budget_usd_per_day: expected a number above 0, got \"-1\"";
        QTest::newRow("same key") << "sk-0123456789 name=a\nsk-0123456789 name=b"
                                  << "k:2: the same key is on an earlier line";
        QTest::newRow("same name") << "sk-0123456789 name=a\nsk-9876543210 name=a"
                                   << "k:2: the name \"a\" is on an earlier line";
        QTest::newRow("empty") << "# nothing\n\n" << "k: no key in the file";
    }
    void refusesMistakes()
    {
        QFETCH(QString, text);
        QFETCH(QString, error);
        const auto loaded = ApiKeys::parse(text.toStdString(), "k");
        QVERIFY(!loaded.keys);
        QCOMPARE(QString::fromStdString(loaded.error), error);
    }

    void refusesAFileOthersMayRead()
    {
        const std::string file = (m_dir.path() + "/keys.txt").toStdString();
        std::ofstream(file) << "sk-0123456789 name=a\n";
        ::chmod(file.c_str(), 0644);
        auto loaded = ApiKeys::loadFile(file);
        QVERIFY(!loaded.keys);
        QCOMPARE(loaded.error,
                 file + ": group or others may read the keys file (mode 0644); run: chmod 600 " + file);
        ::chmod(file.c_str(), 0600);
        loaded = ApiKeys::loadFile(file);
        QCOMPARE(loaded.error, std::string());
        QCOMPARE(loaded.keys->keys().front().name, std::string("a"));
        const std::string missing = (m_dir.path() + "/none.txt").toStdString();
        QCOMPARE(ApiKeys::loadFile(missing).error, missing + ": cannot read the keys file");
    }

    void takesAKeyFromTheEnvironment()
    {
        auto loaded = ApiKeys::fromEnvironment("SERVE_KEY", "sk-env-0123456789");
        QVERIFY(loaded.keys);
        QCOMPARE(loaded.keys->find("sk-env-0123456789")->name, std::string("env:SERVE_KEY"));
        QCOMPARE(ApiKeys::fromEnvironment("SERVE_KEY", nullptr).error,
                 std::string("--api-key-env SERVE_KEY: the variable is not set"));
        QCOMPARE(ApiKeys::fromEnvironment("SERVE_KEY", "").error,
                 std::string("--api-key-env SERVE_KEY: the variable is not set"));
        QCOMPARE(ApiKeys::fromEnvironment("SERVE_KEY", "short").error,
                 std::string("--api-key-env SERVE_KEY: a key must be at least 8 characters"));
    }
};

QTEST_GUILESS_MAIN(TestApiKeys)
#include "tst_apikeys.moc"
