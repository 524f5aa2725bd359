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

int StatusPalette::severity(Status status)
{
    switch (status) {
    case Status::Queued: return 0;
    case Status::Skipped: return 1;
    case Status::Ok: return 2;
    case Status::Running: return 3;
    case Status::Cancelled: return 4;
    case Status::BudgetExhausted: return 5;
    case Status::Timeout: return 6;
    case Status::Failed: return 7;
    }
    return 0;
}

QColor StatusPalette::criticalPath() { return QColor(0xff, 0xc1, 0x07); }

QColor StatusPalette::playhead() { return QColor(0xd8, 0x1b, 0x60); }

} // namespace conclave::ui
