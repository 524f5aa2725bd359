#pragma once

#include <QString>

class QWidget;

namespace conclave::ui {

// Saves what a widget shows — a chart view, a timeline, a whole run view — as
// PNG (pixels) or SVG (vectors, through QSvgGenerator). The format follows
// the file's suffix in save(). Errors are returned, never thrown.
class ChartExport {
public:
    static bool toPng(QWidget& widget, const QString& path, QString* error = nullptr);
    static bool toSvg(QWidget& widget, const QString& path, QString* error = nullptr);
    // .png or .svg, by suffix (case-insensitive); anything else is refused.
    static bool save(QWidget& widget, const QString& path, QString* error = nullptr);
};

} // namespace conclave::ui
