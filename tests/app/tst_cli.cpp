// Drives the built `conclave` executable end to end: exact output lines, exit
// codes, and what happens to the files it is given.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>

#include <sys/stat.h>

namespace {

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

const QString kBinary = QStringLiteral(CONCLAVE_BIN_DIR "/conclave");

Run conclave(const QStringList& args)
{
    QProcess process;
    // The CLI must find its resources (the local model catalog) on its own.
    auto env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("CONCLAVE_RESOURCES"));
    process.setProcessEnvironment(env);
    process.start(kBinary, args);
    Run run;
    if (!process.waitForStarted(10000) || !process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        run.err = QStringLiteral("conclave did not run or did not finish");
        return run;
    }
    if (process.exitStatus() == QProcess::NormalExit)
        run.exitCode = process.exitCode();
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

// Lines as a program prints them: each one ends with a newline.
QString lines(const QStringList& list)
{
    QString text;
    for (const auto& line : list)
        text += line + QLatin1Char('\n');
    return text;
}

QStringList withFile(const QStringList& list, const QString& file)
{
    QStringList out;
    for (const auto& line : list)
        out << QString(line).replace(QStringLiteral("FILE"), file);
    return out;
}

QByteArray readBytes(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

bool writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

unsigned modeOf(const QString& path)
{
    struct stat st {};
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
        return 0;
    return st.st_mode & 07777;
}

QStringList examplePaths()
{
    const QDir dir(QStringLiteral(CONCLAVE_RESOURCES "/examples"));
    QStringList out;
    for (const auto& name : dir.entryList({QStringLiteral("*.team.json")}, QDir::Files, QDir::Name))
        out << dir.filePath(name);
    return out;
}

// The same team, not in canonical form: compact, keys sorted, no final newline.
QByteArray nonCanonical(const QByteArray& canonical)
{
    return QByteArray::fromStdString(nlohmann::json::parse(canonical.toStdString()).dump());
}

const char* kMinimal = R"({
  "conclave": 1,
  "name": "Minimal",
  "backends": { "local": { "kind": "local-moe" } },
  "nodes": [
    { "id": "in", "kind": "input" },
    { "id": "e", "kind": "expert", "model": "local/generalist-7b", "prompt": "{{input}}" },
    { "id": "out", "kind": "output" }
  ],
  "edges": [ { "from": "in", "to": "e" }, { "from": "e", "to": "out" } ]
})";

// minimal() with one change.
QByteArray minimalWith(const std::function<void(nlohmann::json&)>& change)
{
    auto doc = nlohmann::json::parse(kMinimal);
    change(doc);
    return QByteArray::fromStdString(doc.dump(2));
}

const QString kMissingKind =
    QStringLiteral("FILE: /nodes/0/kind: missing; expected input, router, expert, coordinator, aggregator or output");
const QString kTruncated = QStringLiteral(
    "FILE:3:1: syntax error while parsing object key - unexpected end of input; expected string literal");

} // namespace

class TestCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init() { m_dir = std::make_unique<QTemporaryDir>(); }
    void cleanup() { m_dir.reset(); }

    void validateExamples();
    void validateFile_data();
    void validateFile();
    void validateSeveralFiles();
    void validateMissingFile();
    void validateDirectory();

    void fmtCheckCanonical();
    void fmtCheckNonCanonical();
    void fmtCheckSeveralFiles();
    void fmtRewrites_data();
    void fmtRewrites();
    void fmtLeavesCanonicalFilesAlone();
    void fmtKeepsSymlinks();
    void fmtInvalidFile_data();
    void fmtInvalidFile();
    void fmtFormatsTeamsWithValidationErrors();
    void fmtMissingFile();

    void version();
    void help_data();
    void help();
    void usageErrors_data();
    void usageErrors();

private:
    QString tempFile(const QString& name, const QByteArray& bytes);

    QStringList m_examples;
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestCli::initTestCase()
{
    QVERIFY2(QFileInfo(kBinary).isExecutable(), qPrintable(kBinary));
    m_examples = examplePaths();
    QVERIFY(m_examples.size() >= 6);
}

// A file in the temporary folder of the current test (a fresh one for every test and row).
QString TestCli::tempFile(const QString& name, const QByteArray& bytes)
{
    if (!m_dir || !m_dir->isValid())
        return {};
    const QString path = m_dir->filePath(name);
    if (!writeBytes(path, bytes))
        return {};
    return path;
}

void TestCli::validateExamples()
{
    const auto run = conclave(QStringList{QStringLiteral("validate")} + m_examples);
    QStringList expected;
    for (const auto& path : m_examples)
        expected << path + QStringLiteral(": valid (0 warnings)");
    QCOMPARE(run.out, lines(expected));
    QCOMPARE(run.err, QString());
    QCOMPARE(run.exitCode, 0);
}

void TestCli::validateFile_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QStringList>("expected");

    QTest::newRow("valid") << QByteArray(kMinimal) << 0 << QStringList{"FILE: valid (0 warnings)"};
    // A broadcast (all) router's edges need no route label.
    QTest::newRow("broadcast router without route labels")
        << readBytes(QStringLiteral(CONCLAVE_TEST_DATA "/teams/broadcast.team.json")) << 0
        << QStringList{"FILE: valid (0 warnings)"};
    const auto keywordRouter = minimalWith([](auto& t) {
        t["nodes"].push_back({{"id", "r"}, {"kind", "router"}, {"strategy", "keyword"}, {"routes", {{"e", {"x"}}}}});
        t["edges"][0]["to"] = "r";
        t["edges"].push_back({{"from", "r"}, {"to", "e"}});
    });
    QTest::newRow("keyword router without a route label")
        << keywordRouter << 2
        << QStringList{"FILE: /edges/2/when: an edge from router \"r\" needs a route label (when)",
                       "FILE: /nodes/3/routes/e: route \"e\" matches no edge label of \"r\"",
                       "FILE: invalid (2 errors)"};
    QTest::newRow("one warning") << minimalWith([](auto& t) { t["colour"] = "red"; }) << 0
                                 << QStringList{"FILE: /colour: warning: unknown key for a team; it is kept as is",
                                                "FILE: valid (1 warning)"};
    QTest::newRow("two warnings") << minimalWith([](auto& t) {
        t["name"] = "";
        t["colour"] = "red";
    }) << 0
                                  << QStringList{"FILE: /name: warning: the team has no name",
                                                 "FILE: /colour: warning: unknown key for a team; it is kept as is",
                                                 "FILE: valid (2 warnings)"};
    QTest::newRow("one error") << minimalWith([](auto& t) {
        t["nodes"][1]["backend"] = "nope";
    }) << 2 << QStringList{"FILE: /nodes/1/backend: unknown backend \"nope\"", "FILE: invalid (1 error)"};
    QTest::newRow("two errors") << minimalWith([](auto& t) {
        t["nodes"][1].erase("model");
        t["nodes"][1]["retries"] = 11;
    }) << 2
                                << QStringList{"FILE: /nodes/1/retries: expected an integer from 0 to 10, got 11",
                                               "FILE: /nodes/1/model: an expert needs a model",
                                               "FILE: invalid (2 errors)"};
    QTest::newRow("an error and a warning")
        << minimalWith([](auto& t) {
               t["nodes"][1]["backend"] = "nope";
               t["nodes"][1]["colour"] = "red";
           })
        << 2
        << QStringList{"FILE: /nodes/1/backend: unknown backend \"nope\"",
                       "FILE: /nodes/1/colour: warning: unknown key for an expert node; it is kept as is",
                       "FILE: invalid (1 error, 1 warning)"};
    // The shipped model catalog is found and used without being told where it is.
    QTest::newRow("unknown local model")
        << minimalWith([](auto& t) { t["nodes"][1]["model"] = "local/nope"; }) << 2
        << QStringList{"FILE: /nodes/1/model: unknown local model \"local/nope\"; the local-moe backend has "
                       "local/code-13b, local/facts-7b, local/frontier-70b, local/generalist-7b, local/math-13b, "
                       "local/reasoner-34b, local/tiny-1b, local/writer-7b",
                       "FILE: invalid (1 error)"};
    QTest::newRow("cycle") << minimalWith([](auto& t) {
        t["nodes"][1]["prompt"] = "{{input}}";
        t["edges"].push_back({{"from", "e"}, {"to", "e"}});
    }) << 2 << QStringList{"FILE: /edges/2: cycle: e -> e", "FILE: invalid (1 error)"};
    QTest::newRow("syntax error") << QByteArray("{\n  \"conclave\": 1,\n") << 2
                                  << QStringList{kTruncated, "FILE: invalid (1 error)"};
    QTest::newRow("empty file") << QByteArray() << 2
                                << QStringList{"FILE:1:1: the file is empty; expected a JSON object",
                                               "FILE: invalid (1 error)"};
    QTest::newRow("shape error") << QByteArray(R"({"conclave": 1, "name": "x", "nodes": [{"id": "a"}]})") << 2
                                 << QStringList{kMissingKind, "FILE: invalid (1 error)"};
    QTest::newRow("newer format") << minimalWith([](auto& t) { t["conclave"] = 4; }) << 2
                                  << QStringList{"FILE: /conclave: format version 4 is newer than this Conclave "
                                                 "understands (3); upgrade Conclave to open this team",
                                                 "FILE: invalid (1 error)"};
}

void TestCli::validateFile()
{
    QFETCH(QByteArray, content);
    QFETCH(int, exitCode);
    QFETCH(QStringList, expected);
    const QString path = tempFile(QStringLiteral("team.team.json"), content);
    QVERIFY(!path.isEmpty());

    const auto run = conclave({QStringLiteral("validate"), path});
    QCOMPARE(run.out, lines(withFile(expected, path)));
    QCOMPARE(run.err, QString());
    QCOMPARE(run.exitCode, exitCode);
    QCOMPARE(readBytes(path), content);
}

// Every file is reported, in argument order; one bad file makes the exit code 2.
void TestCli::validateSeveralFiles()
{
    const QString bad =
        tempFile(QStringLiteral("bad.team.json"), minimalWith([](auto& t) { t["nodes"][1]["backend"] = "nope"; }));
    const QString warned = tempFile(QStringLiteral("warned.team.json"), minimalWith([](auto& t) { t["x"] = 1; }));
    const QString missing = QFileInfo(bad).dir().filePath(QStringLiteral("missing.team.json"));

    const auto run = conclave({QStringLiteral("validate"), m_examples[0], bad, warned, missing, m_examples[1]});
    QCOMPARE(run.out, lines({
                          m_examples[0] + ": valid (0 warnings)",
                          bad + ": /nodes/1/backend: unknown backend \"nope\"",
                          bad + ": invalid (1 error)",
                          warned + ": /x: warning: unknown key for a team; it is kept as is",
                          warned + ": valid (1 warning)",
                          missing + ": no such file",
                          missing + ": invalid (1 error)",
                          m_examples[1] + ": valid (0 warnings)",
                      }));
    QCOMPARE(run.err, QString());
    QCOMPARE(run.exitCode, 2);

    // Warnings alone never fail a run.
    const auto valid = conclave({QStringLiteral("validate"), warned, m_examples[0]});
    QCOMPARE(valid.exitCode, 0);
}

void TestCli::validateMissingFile()
{
    const QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("missing.team.json"));
    const auto run = conclave({QStringLiteral("validate"), path});
    QCOMPARE(run.out, lines({path + ": no such file", path + ": invalid (1 error)"}));
    QCOMPARE(run.err, QString());
    QCOMPARE(run.exitCode, 2);
    QVERIFY(!QFileInfo::exists(path));
}

void TestCli::validateDirectory()
{
    const QTemporaryDir dir;
    const auto run = conclave({QStringLiteral("validate"), dir.path()});
    QCOMPARE(run.out, lines({dir.path() + ": is a directory, not a file", dir.path() + ": invalid (1 error)"}));
    QCOMPARE(run.exitCode, 2);
}

void TestCli::fmtCheckCanonical()
{
    const auto run = conclave(QStringList{QStringLiteral("fmt"), QStringLiteral("--check")} + m_examples);
    QCOMPARE(run.out, QString());
    QCOMPARE(run.err, QString());
    QCOMPARE(run.exitCode, 0);
}

void TestCli::fmtCheckNonCanonical()
{
    const QByteArray bytes = nonCanonical(readBytes(m_examples[0]));
    const QString path = tempFile(QStringLiteral("compact.team.json"), bytes);
    const auto run = conclave({QStringLiteral("fmt"), QStringLiteral("--check"), path});
    QCOMPARE(run.out, lines({path + ": not in canonical form (run conclave fmt " + path + ")"}));
    QCOMPARE(run.err, QString());
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(readBytes(path), bytes);
    QCOMPARE(QDir(QFileInfo(path).path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).size(), 1);
}

// Only the files that are not canonical are named; the exit code is 1.
void TestCli::fmtCheckSeveralFiles()
{
    const QByteArray canonical = readBytes(m_examples[0]);
    const QString good = tempFile(QStringLiteral("good.team.json"), canonical);
    const QString bad = tempFile(QStringLiteral("bad.team.json"), nonCanonical(canonical));
    const auto run = conclave({QStringLiteral("fmt"), QStringLiteral("--check"), good, bad});
    QCOMPARE(run.out, lines({bad + ": not in canonical form (run conclave fmt " + bad + ")"}));
    QCOMPARE(run.err, QString());
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(readBytes(good), canonical);
    QCOMPARE(readBytes(bad), nonCanonical(canonical));
}

void TestCli::fmtRewrites_data()
{
    QTest::addColumn<QString>("example");
    for (const auto& path : m_examples)
        QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
}

void TestCli::fmtRewrites()
{
    QFETCH(QString, example);
    const QByteArray canonical = readBytes(example);
    QVERIFY(!canonical.isEmpty());
    const QTemporaryDir dir;
    const QString path = dir.filePath(QFileInfo(example).fileName());
    QVERIFY(writeBytes(path, nonCanonical(canonical)));
    QVERIFY(::chmod(QFile::encodeName(path).constData(), 0640) == 0);

    const auto run = conclave({QStringLiteral("fmt"), path});
    QCOMPARE(run.out, lines({path + ": formatted"}));
    QCOMPARE(run.err, QString());
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(readBytes(path), canonical);
    QCOMPARE(modeOf(path), 0640u);
    // Written through a temporary file that is renamed over the original, and nothing left behind.
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
             QStringList{QFileInfo(example).fileName()});

    const auto check = conclave({QStringLiteral("fmt"), QStringLiteral("--check"), path});
    QCOMPARE(check.out, QString());
    QCOMPARE(check.err, QString());
    QCOMPARE(check.exitCode, 0);
}

// A file already in canonical form is not touched, and nothing is printed.
void TestCli::fmtLeavesCanonicalFilesAlone()
{
    const QByteArray canonical = readBytes(m_examples[0]);
    const QString path = tempFile(QStringLiteral("canonical.team.json"), canonical);
    QVERIFY(::chmod(QFile::encodeName(path).constData(), 0444) == 0);
    const auto run = conclave({QStringLiteral("fmt"), path});
    QCOMPARE(run.out, QString());
    QCOMPARE(run.err, QString());
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(readBytes(path), canonical);
    QCOMPARE(modeOf(path), 0444u);
}

// fmt on a symbolic link formats the file it points to and keeps the link.
void TestCli::fmtKeepsSymlinks()
{
    const QByteArray canonical = readBytes(m_examples[0]);
    const QTemporaryDir dir;
    const QString target = dir.filePath(QStringLiteral("real.team.json"));
    const QString link = dir.filePath(QStringLiteral("link.team.json"));
    QVERIFY(writeBytes(target, nonCanonical(canonical)));
    QVERIFY(QFile::link(target, link));

    const auto run = conclave({QStringLiteral("fmt"), link});
    QCOMPARE(run.out, lines({link + ": formatted"}));
    QCOMPARE(run.exitCode, 0);
    QVERIFY(QFileInfo(link).isSymLink());
    QCOMPARE(readBytes(target), canonical);
}

void TestCli::fmtInvalidFile_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("shape error") << QByteArray(R"({"conclave": 1, "name": "x", "nodes": [{"id": "a"}]})")
                                 << QStringList{kMissingKind};
    QTest::newRow("syntax error") << QByteArray("{\n  \"conclave\": 1,\n") << QStringList{kTruncated};
    QTest::newRow("two errors") << QByteArray(R"({"conclave": 1, "name": 5, "nodes": [{"id": "a"}]})")
                                << QStringList{"FILE: /name: expected a string, got 5", kMissingKind};
}

// A file that cannot be read as a team is never rewritten; its errors go to stderr.
void TestCli::fmtInvalidFile()
{
    QFETCH(QByteArray, content);
    QFETCH(QStringList, expected);
    const QString path = tempFile(QStringLiteral("invalid.team.json"), content);
    for (const auto& args : {QStringList{QStringLiteral("fmt"), path},
                             QStringList{QStringLiteral("fmt"), QStringLiteral("--check"), path}}) {
        const auto run = conclave(args);
        QCOMPARE(run.out, QString());
        QCOMPARE(run.err, lines(withFile(expected, path)));
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(readBytes(path), content);
    }
}

// fmt formats what it can read; whether the team is valid is validate's business.
void TestCli::fmtFormatsTeamsWithValidationErrors()
{
    const QByteArray bytes = minimalWith([](auto& t) { t["nodes"][1]["backend"] = "nope"; });
    const QString path = tempFile(QStringLiteral("wrong.team.json"), nonCanonical(bytes));
    const auto run = conclave({QStringLiteral("fmt"), path});
    QCOMPARE(run.out, lines({path + ": formatted"}));
    QCOMPARE(run.err, QString());
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(conclave({QStringLiteral("fmt"), QStringLiteral("--check"), path}).exitCode, 0);
}

void TestCli::fmtMissingFile()
{
    const QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("missing.team.json"));
    const auto run = conclave({QStringLiteral("fmt"), path});
    QCOMPARE(run.out, QString());
    QCOMPARE(run.err, lines({path + ": no such file"}));
    QCOMPARE(run.exitCode, 2);
    QVERIFY(!QFileInfo::exists(path));
}

void TestCli::version()
{
    const auto run = conclave({QStringLiteral("--version")});
    QCOMPARE(run.out, QStringLiteral("conclave 0.1.0\n"));
    QCOMPARE(run.err, QString());
    QCOMPARE(run.exitCode, 0);
}

void TestCli::help_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("mentions");
    QTest::newRow("--help") << QStringList{"--help"} << QStringList{"validate", "fmt"};
    QTest::newRow("-h") << QStringList{"-h"} << QStringList{"validate", "fmt"};
    QTest::newRow("validate --help") << QStringList{"validate", "--help"} << QStringList{"validate", "files"};
    QTest::newRow("fmt --help") << QStringList{"fmt", "--help"} << QStringList{"fmt", "--check"};
}

void TestCli::help()
{
    QFETCH(QStringList, args);
    QFETCH(QStringList, mentions);
    const auto run = conclave(args);
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.err, QString());
    for (const auto& word : mentions)
        QVERIFY2(run.out.contains(word), qPrintable(word + " not in:\n" + run.out));
}

void TestCli::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mention"); // what stderr must name
    const QString example = examplePaths().value(0);
    QTest::newRow("no arguments") << QStringList() << QStringLiteral("subcommand");
    QTest::newRow("unknown subcommand") << QStringList{"frob"} << QStringLiteral("frob");
    QTest::newRow("unknown subcommand with a file") << QStringList{"frob", example} << QStringLiteral("frob");
    QTest::newRow("unknown option") << QStringList{"--bogus", "validate", example} << QStringLiteral("--bogus");
    QTest::newRow("unknown option of validate")
        << QStringList{"validate", example, "--bogus"} << QStringLiteral("--bogus");
    QTest::newRow("--check on validate") << QStringList{"validate", "--check", example} << QStringLiteral("--check");
    QTest::newRow("validate without files") << QStringList{"validate"} << QStringLiteral("files");
    QTest::newRow("fmt without files") << QStringList{"fmt"} << QStringLiteral("files");
    QTest::newRow("fmt --check without files") << QStringList{"fmt", "--check"} << QStringLiteral("files");
}

// Usage errors exit 2, print nothing on stdout (no command ran) and name the mistake on stderr.
void TestCli::usageErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, mention);
    const auto run = conclave(args);
    QCOMPARE(run.exitCode, 2);
    QCOMPARE(run.out, QString());
    QVERIFY2(run.err.contains(mention), qPrintable(mention + " not in:\n" + run.err));
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
