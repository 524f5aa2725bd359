#pragma once

// Runs the built `conclave` executable for a test and collects what it said.
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace testsupport {

struct CliResult {
    int exitCode = -1;  // -1: it did not start, did not finish in time, or crashed
    QString out;
    QString err;
};

inline CliResult runConclave(const QStringList& args,
                             const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment())
{
    QProcess process;
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(CONCLAVE_BIN_DIR "/conclave"), args);
    CliResult r;
    if (!process.waitForStarted(10000) || !process.waitForFinished(120000)) {
        process.kill();
        process.waitForFinished();
        return r;
    }
    if (process.exitStatus() == QProcess::NormalExit)
        r.exitCode = process.exitCode();
    r.out = QString::fromUtf8(process.readAllStandardOutput());
    r.err = QString::fromUtf8(process.readAllStandardError());
    return r;
}

// The line of `out` that starts with `prefix` ("" when none does).
inline QString lineStarting(const QString& out, const QString& prefix)
{
    for (const auto& line : out.split('\n'))
        if (line.startsWith(prefix))
            return line;
    return {};
}

// The experiment id `eval` printed ("experiment e-…: …"); "" when it printed none.
inline QString experimentId(const QString& out)
{
    const auto start = out.indexOf("experiment e-");
    return start < 0 ? QString() : out.mid(start + 11, 14);
}

} // namespace testsupport
