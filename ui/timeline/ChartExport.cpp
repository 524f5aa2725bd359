#include "timeline/ChartExport.h"

#include <QFileInfo>
#include <QPainter>
#include <QPixmap>
#include <QSvgGenerator>
#include <QWidget>

namespace conclave::ui {

namespace {

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

} // namespace

bool ChartExport::toPng(QWidget& widget, const QString& path, QString* error)
{
    if (!widget.grab().save(path, "PNG"))
        return fail(error, QStringLiteral("%1: cannot write the PNG").arg(path));
    return true;
}

bool ChartExport::toSvg(QWidget& widget, const QString& path, QString* error)
{
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(widget.size());
    generator.setViewBox(QRect(QPoint(0, 0), widget.size()));
    generator.setTitle(widget.windowTitle().isEmpty() ? QStringLiteral("Conclave chart") : widget.windowTitle());
    generator.setDescription(QStringLiteral("Exported by Conclave Studio"));
    QPainter painter;
    if (!painter.begin(&generator))
        return fail(error, QStringLiteral("%1: cannot write the SVG").arg(path));
    widget.render(&painter);
    painter.end();
    if (!QFileInfo(path).exists() || QFileInfo(path).size() == 0)
        return fail(error, QStringLiteral("%1: cannot write the SVG").arg(path));
    return true;
}

bool ChartExport::save(QWidget& widget, const QString& path, QString* error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QStringLiteral("png"))
        return toPng(widget, path, error);
    if (suffix == QStringLiteral("svg"))
        return toSvg(widget, path, error);
    return fail(error, QStringLiteral("%1: unknown image format (use .png or .svg)").arg(path));
}

} // namespace conclave::ui
