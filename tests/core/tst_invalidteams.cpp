// Every file in tests/data/invalid is a broken team with the exact problems it
// must produce next to it (NAME.expected). Loader problems come first, then the
// validator's when the file loaded. Files too large to commit are written here.
#include "conclave/io/TeamFile.h"
#include "conclave/validate/Validator.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <string>
#include <vector>

namespace {

QString invalidDir()
{
    return QStringLiteral(CONCLAVE_TEST_DATA "/invalid");
}

// "x.team.json" and "x.json" both expect "x.expected".
QString expectedNameFor(const QString& teamFile)
{
    QString base = teamFile;
    if (base.endsWith(QLatin1String(".team.json")))
        base.chop(10);
    else if (base.endsWith(QLatin1String(".json")))
        base.chop(5);
    return base + QLatin1String(".expected");
}

QStringList teamFiles()
{
    return QDir(invalidDir()).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
}

QStringList readLines(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {QStringLiteral("<cannot read %1>").arg(path)};
    QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    return lines;
}

// What `conclave validate` does: load, and validate when a team came back.
std::vector<conclave::Problem> problemsOf(const QString& path)
{
    auto result = conclave::loadTeamFile(std::filesystem::path(path.toStdString()));
    auto problems = std::move(result.problems);
    if (result.team) {
        const auto more = conclave::validate(*result.team);
        problems.insert(problems.end(), more.begin(), more.end());
    }
    return problems;
}

QStringList formatted(const std::vector<conclave::Problem>& problems, const QString& fileName)
{
    QStringList lines;
    const std::string source = fileName.toStdString();
    for (const auto& problem : problems)
        lines << QString::fromStdString(conclave::formatProblem(problem, source));
    return lines;
}

// QCOMPARE on lists of different lengths prints only the lengths; print both lists.
void showDifference(const QStringList& actual, const QStringList& expected)
{
    if (actual == expected)
        return;
    const QString indent = QStringLiteral("\n    ");
    qWarning().noquote() << QStringLiteral("actual:") + indent + actual.join(indent) + QStringLiteral("\n  expected:") +
                                indent + expected.join(indent);
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// A tiny valid team; DESCRIPTION is replaced by the generated text.
constexpr const char* kTeamWithDescription = R"({
  "conclave": 1,
  "name": "A ten-megabyte description",
  "description": "DESCRIPTION",
  "backends": { "local": { "kind": "local-moe" } },
  "defaults": { "backend": "local" },
  "nodes": [
    { "id": "in", "kind": "input" },
    { "id": "solver", "kind": "expert", "model": "local/generalist-7b", "prompt": "{{input}}" },
    { "id": "out", "kind": "output" }
  ],
  "edges": [
    { "from": "in", "to": "solver" },
    { "from": "solver", "to": "out" }
  ]
}
)";

constexpr qsizetype kOneMegabyte = 1024 * 1024;
constexpr qsizetype kTenMegabytes = 10 * kOneMegabyte;

} // namespace

class TestInvalidTeams : public QObject {
    Q_OBJECT

private slots:
    void folderHasEveryCase();
    void invalidFile_data();
    void invalidFile();
    void tenMegabyteString();
    void hundredThousandNestedArrays();
    void unterminatedHugeStringGivesAShortMessage();

private:
    // Writes a generated file into a temporary folder and compares its
    // problems with tests/data/invalid/generated/EXPECTED.
    void checkGenerated(const QString& fileName, const QByteArray& bytes, const QString& expectedName);
};

void TestInvalidTeams::folderHasEveryCase()
{
    const QStringList teams = teamFiles();
    QVERIFY2(teams.size() >= 34, qPrintable(QStringLiteral("only %1 invalid team files").arg(teams.size())));

    QStringList expectedFromTeams;
    for (const QString& team : teams)
        expectedFromTeams << expectedNameFor(team);
    expectedFromTeams.sort();
    // Every team file has its .expected, and no .expected is left without a team file.
    const QStringList expectedFiles =
        QDir(invalidDir()).entryList({QStringLiteral("*.expected")}, QDir::Files, QDir::Name);
    QCOMPARE(expectedFiles, expectedFromTeams);
}

void TestInvalidTeams::invalidFile_data()
{
    QTest::addColumn<QString>("fileName");
    for (const QString& name : teamFiles())
        QTest::newRow(qPrintable(name)) << name;
}

void TestInvalidTeams::invalidFile()
{
    QFETCH(QString, fileName);
    const auto problems = problemsOf(invalidDir() + QLatin1Char('/') + fileName);
    const QStringList actual = formatted(problems, fileName);
    const QStringList expected = readLines(invalidDir() + QLatin1Char('/') + expectedNameFor(fileName));
    showDifference(actual, expected);
    QCOMPARE(actual, expected);
    QVERIFY2(conclave::hasErrors(problems), "an invalid file must give at least one error");
}

void TestInvalidTeams::checkGenerated(const QString& fileName, const QByteArray& bytes, const QString& expectedName)
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(fileName);
    QVERIFY(writeFile(path, bytes));
    const auto problems = problemsOf(path);
    const QStringList actual = formatted(problems, fileName);
    const QStringList expected = readLines(invalidDir() + QLatin1String("/generated/") + expectedName);
    showDifference(actual, expected);
    QCOMPARE(actual, expected);
    QVERIFY(conclave::hasErrors(problems));
}

void TestInvalidTeams::tenMegabyteString()
{
    QByteArray text(kTeamWithDescription);
    text.replace("DESCRIPTION", QByteArray(kTenMegabytes, 'x'));
    checkGenerated(QStringLiteral("huge-string.team.json"), text, QStringLiteral("huge-string.expected"));
}

void TestInvalidTeams::hundredThousandNestedArrays()
{
    constexpr qsizetype kDepth = 100000;
    const QByteArray text = QByteArray(kDepth, '[') + QByteArray(kDepth, ']');
    checkGenerated(QStringLiteral("deep-nesting.json"), text, QStringLiteral("deep-nesting.expected"));
}

// A syntax error quotes what the parser last read; that quote must be cut, or
// one missing '"' turns the rest of a large file into the message.
void TestInvalidTeams::unterminatedHugeStringGivesAShortMessage()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fileName = QStringLiteral("unterminated.team.json");
    const QByteArray text = QByteArray(R"({"conclave": 1, "name": ")") + QByteArray(kOneMegabyte, 'x');
    QVERIFY(writeFile(dir.filePath(fileName), text));
    const QStringList lines = formatted(problemsOf(dir.filePath(fileName)), fileName);
    QCOMPARE(lines.size(), 1);
    QVERIFY2(lines.front().startsWith(QStringLiteral("unterminated.team.json:1:")),
             qPrintable(lines.front().left(200)));
    QVERIFY2(lines.front().contains(QStringLiteral("missing closing quote")), qPrintable(lines.front().left(200)));
    QVERIFY2(lines.front().size() <= 300,
             qPrintable(QStringLiteral("the message is %1 characters long").arg(lines.front().size())));
}

QTEST_GUILESS_MAIN(TestInvalidTeams)
#include "tst_invalidteams.moc"
