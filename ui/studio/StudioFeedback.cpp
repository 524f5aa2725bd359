#include "studio/StudioFeedback.h"

namespace conclave::ui {

StudioFeedback::StudioFeedback(QObject* parent) : QObject(parent) {}

void StudioFeedback::showStatus(const QString& message, int timeoutMs)
{
    emit statusMessage(message, timeoutMs);
}

} // namespace conclave::ui
