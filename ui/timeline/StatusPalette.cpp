#include "timeline/StatusPalette.h"

namespace conclave::ui {

QColor StatusPalette::color(Status status)
{
    switch (status) {
    case Status::Queued: return QColor(0x9e, 0x9e, 0x9e);
    case Status::Running: return QColor(0x1e, 0x88, 0xe5);
    case Status::Ok: return QColor(0x43, 0xa0, 0x47);
    case Status::Failed: return QColor(0xe5, 0x39, 0x35);
    case Status::Skipped: return QColor(0xd7, 0xd7, 0xd7);
    case Status::Cancelled: return QColor(0xfb, 0x8c, 0x00);
    case Status::Timeout: return QColor(0x8e, 0x1b, 0x1b);
    case Status::BudgetExhausted: return QColor(0x79, 0x55, 0x48);
    }
    return QColor(Qt::gray);
}

QString StatusPalette::label(Status status)
{
    switch (status) {
    case Status::Queued: return QStringLiteral("queued");
    case Status::Running: return QStringLiteral("running");
    case Status::Ok: return QStringLiteral("done");
    case Status::Failed: return QStringLiteral("failed");
    case Status::Skipped: return QStringLiteral("skipped");
    case Status::Cancelled: return QStringLiteral("cancelled");
    case Status::Timeout: return QStringLiteral("timeout");
    case Status::BudgetExhausted: return QStringLiteral("budget exhausted");
    }
    return {};
}

QColor StatusPalette::criticalPath() { return QColor(0xff, 0xc1, 0x07); }

QColor StatusPalette::playhead() { return QColor(0xd8, 0x1b, 0x60); }

} // namespace conclave::ui
