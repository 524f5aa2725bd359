// ChartExport: a chart and a timeline saved as PNG and SVG; unknown formats refused.
#include <QtTest>

#include "support/KnownRuns.h"

#include "timeline/ChartExport.h"
#include "timeline/RunSummaryView.h"
#include "timeline/TimelineView.h"

#include <QChartView>

using namespace conclave;
using conclave::ui::ChartExport;

class TestChartExport : public QObject {
    Q_OBJECT

private slots:
    void chartToPngAndSvg()
    {
        QTemporaryDir dir;
        conclave::ui::RunSummaryView summary;
        summary.resize(900, 500);
        summary.setRun(known_runs::review());
        summary.show();
        auto& chart = *summary.timeChartView();
        const QString png = dir.filePath("chart.png"), svg = dir.filePath("chart.svg");
        QString error;
        QVERIFY2(ChartExport::save(chart, png, &error), qPrintable(error));
        QVERIFY2(ChartExport::save(chart, svg, &error), qPrintable(error));
        const QImage image(png);
        QCOMPARE(image.size(), chart.size());
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains("Per agent: wall vs busy time")); // the title, as text
        QVERIFY(text.contains("<path") || text.contains("<rect") || text.contains("<polygon"));
    }

    void timelineToSvg()
    {
        QTemporaryDir dir;
        conclave::ui::TimelineView view;
        view.resize(800, 260);
        view.setModel(std::make_shared<const conclave::ui::TimelineModel>(known_runs::review()));
        const QString svg = dir.filePath("timeline.SVG");
        QVERIFY(ChartExport::save(view, svg));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("Expert A"));
        QVERIFY(text.contains("#43a047")); // ok green
    }

    void unknownFormatsAreRefused()
    {
        QTemporaryDir dir;
        QWidget w;
        QString error;
        const QString path = dir.filePath("chart.gif");
        QVERIFY(!ChartExport::save(w, path, &error));
        QCOMPARE(error, path + ": unknown image format (use .png or .svg)");
        QVERIFY(!QFile::exists(path));
    }
};

QTEST_MAIN(TestChartExport)
#include "tst_chartexport.moc"
