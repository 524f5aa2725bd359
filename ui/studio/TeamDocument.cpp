#include "studio/TeamDocument.h"

#include "conclave/io/TeamFile.h"
#include "conclave/validate/Validator.h"

#include <QFileInfo>

namespace conclave::ui {

TeamDocument::TeamDocument(QObject* parent) : QObject(parent) {}

QString TeamDocument::load(const QString& path)
{
    auto result = loadTeamFile(path.toStdString());
    if (!result.team) {
        QString message;
        const auto name = QFileInfo(path).fileName().toStdString();
        for (const auto& problem : result.problems) {
            if (problem.isError())
                message += QString::fromStdString(formatProblem(problem, name)) + '\n';
        }
        return message.trimmed();
    }
    m_team = std::move(*result.team);
    m_filePath = path;
    m_problems = std::move(result.problems);
    auto more = validate(m_team);
    m_problems.insert(m_problems.end(), more.begin(), more.end());
    emit teamReset();
    return {};
}

} // namespace conclave::ui
