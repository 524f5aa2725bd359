// Every file of tests/fuzz/corpus/TARGET/ and tests/fuzz/regressions/TARGET/
// through the entry of tests/fuzz/fuzz_TARGET.cpp, built here by the ordinary
// compiler: `make test` (and the sanitizer builds) replay every crash the
// fuzzer ever found, without clang or libFuzzer.
#include <QDir>
#include <QFile>
#include <QtTest>

#include "FuzzCheck.h"

#include <cstdint>
#include <map>
#include <string>

// Each fuzz_TARGET.cpp is compiled with LLVMFuzzerTestOneInput renamed to
// conclaveFuzz_TARGET (tests/fuzz/CMakeLists.txt).
extern "C" {
int conclaveFuzz_arithmetic(const uint8_t* data, size_t size);
int conclaveFuzz_modelsfile(const uint8_t* data, size_t size);
int conclaveFuzz_replyparser(const uint8_t* data, size_t size);
int conclaveFuzz_sseparser(const uint8_t* data, size_t size);
int conclaveFuzz_tasksetcsv(const uint8_t* data, size_t size);
int conclaveFuzz_tasksetjsonl(const uint8_t* data, size_t size);
int conclaveFuzz_team(const uint8_t* data, size_t size);
}

namespace {

using Entry = int (*)(const uint8_t*, size_t);

const std::map<QString, Entry>& entries()
{
    static const std::map<QString, Entry> all{
        {"arithmetic", conclaveFuzz_arithmetic}, {"modelsfile", conclaveFuzz_modelsfile},
        {"replyparser", conclaveFuzz_replyparser}, {"sseparser", conclaveFuzz_sseparser},
        {"tasksetcsv", conclaveFuzz_tasksetcsv},   {"tasksetjsonl", conclaveFuzz_tasksetjsonl},
        {"team", conclaveFuzz_team}};
    return all;
}

const QString kFuzzDir = QStringLiteral(CONCLAVE_FUZZ_DIR);

// The target folders under corpus/ or regressions/.
QStringList targetsIn(const QString& kind)
{
    return QDir(kFuzzDir + '/' + kind).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
}

} // namespace

class TestFuzzReplay : public QObject {
    Q_OBJECT

private slots:
    // A folder without an entry would be skipped in silence; a target without
    // seeds would start from nothing.
    void everyFolderHasATargetAndEveryTargetSeeds()
    {
        for (const QString kind : {"corpus", "regressions"}) {
            for (const auto& target : targetsIn(kind))
                QVERIFY2(entries().count(target), qPrintable(kind + '/' + target + " has no fuzz_" + target + ".cpp"));
        }
        for (const auto& [target, entry] : entries()) {
            const auto seeds = QDir(kFuzzDir + "/corpus/" + target).entryList(QDir::Files);
            QVERIFY2(!seeds.isEmpty(), qPrintable("corpus/" + target + " has no seed"));
        }
    }

    void replay_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("path");
        int rows = 0;
        for (const QString kind : {"corpus", "regressions"}) {
            for (const auto& target : targetsIn(kind)) {
                const QDir dir(kFuzzDir + '/' + kind + '/' + target);
                for (const auto& file : dir.entryList(QDir::Files, QDir::Name)) {
                    QTest::addRow("%s/%s/%s", qPrintable(kind), qPrintable(target), qPrintable(file))
                        << target << dir.filePath(file);
                    ++rows;
                }
            }
        }
        QVERIFY(rows >= int(entries().size()));
    }

    void replay()
    {
        QFETCH(QString, target);
        QFETCH(QString, path);
        const auto entry = entries().find(target);
        QVERIFY(entry != entries().end());
        QFile file(path);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
        const QByteArray bytes = file.readAll();
        try {
            QCOMPARE(entry->second(reinterpret_cast<const uint8_t*>(bytes.constData()), size_t(bytes.size())), 0);
        } catch (const conclave::fuzz::BrokenPromise& e) {
            QFAIL(qPrintable(path + ": " + QString::fromUtf8(e.what())));
        } catch (const std::exception& e) {
            QFAIL(qPrintable(path + ": threw " + QString::fromUtf8(e.what())));
        }
    }
};

QTEST_GUILESS_MAIN(TestFuzzReplay)
#include "tst_fuzzreplay.moc"
