#pragma once

#include <QString>
#include <QStringList>

class QBarCategoryAxis;
class QValueAxis;

namespace conclave::ui {

// The axes every per-agent chart uses, built one way: agent names along the
// bottom (slanted when there are many), amounts from 0 to a tenth above the top.
struct ChartAxes {
    static QBarCategoryAxis* agents(const QStringList& names);
    // `format` is a printf format for the labels; `title` may be empty.
    static QValueAxis* amounts(double top, const QString& format, const QString& title = {});
};

} // namespace conclave::ui
