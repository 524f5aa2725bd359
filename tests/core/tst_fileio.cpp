#include "conclave/io/FileIo.h"
#include "conclave/io/TeamFile.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using namespace conclave;

class TestFileIo : public QObject {
    Q_OBJECT

private slots:
    void writesAtomicallyAndKeepsMode()
    {
        QTemporaryDir dir;
        const auto path = dir.filePath("t.json").toStdString();
        QVERIFY(!writeFileAtomically(path, "one"));
        ::chmod(path.c_str(), 0600);
        QVERIFY(!writeFileAtomically(path, "two"));
        const auto read = readFileText(path, 100);
        QVERIFY(read.text);
        QCOMPARE(QString::fromStdString(*read.text), QString("two"));
        struct stat st {};
        QCOMPARE(::stat(path.c_str(), &st), 0);
        QCOMPARE(int(st.st_mode & 0777), 0600);
        // No temporary files are left behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), qsizetype(1));
    }

    void failedWriteLeavesTheOldFile()
    {
        QTemporaryDir dir;
        const auto path = dir.filePath("t.json").toStdString();
        QVERIFY(!writeFileAtomically(path, "keep me"));
        const auto missingDir = dir.filePath("no/such/dir/t.json").toStdString();
        const auto error = writeFileAtomically(missingDir, "x");
        QVERIFY(error);
        QVERIFY(error->starts_with("cannot create a temporary file in "));
        QCOMPARE(QString::fromStdString(*readFileText(path, 100).text), QString("keep me"));
    }

    void readErrors()
    {
        QTemporaryDir dir;
        QCOMPARE(QString::fromStdString(readFileText(dir.filePath("none").toStdString(), 10).error),
                 QString("no such file"));
        QCOMPARE(QString::fromStdString(readFileText(dir.path().toStdString(), 10).error),
                 QString("is a directory, not a file"));
        const auto big = dir.filePath("big").toStdString();
        QVERIFY(!writeFileAtomically(big, std::string(100, 'x')));
        QCOMPARE(QString::fromStdString(readFileText(big, 10).error),
                 QString("the file is larger than the limit of 10 bytes"));
    }

    void loadTeamFileReportsFileProblems()
    {
        QTemporaryDir dir;
        const auto result = loadTeamFile(dir.filePath("missing.team.json").toStdString());
        QVERIFY(!result.team);
        QCOMPARE(result.problems.size(), size_t(1));
        QCOMPARE(QString::fromStdString(formatProblem(result.problems[0], "missing.team.json")),
                 QString("missing.team.json: no such file"));
    }
};

QTEST_GUILESS_MAIN(TestFileIo)
#include "tst_fileio.moc"
