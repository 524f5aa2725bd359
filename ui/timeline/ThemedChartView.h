#pragma once

#include <QChartView>

namespace conclave::ui {

// A chart view drawn in the window's theme (ChartStyle): styled again on every
// change of the palette, as when View > Theme switches, and by restyle() after
// its owner has rebuilt the chart's axes.
class ThemedChartView : public QChartView {
    Q_OBJECT

public:
    explicit ThemedChartView(QChart* chart, QWidget* parent = nullptr);

    void restyle();

protected:
    void changeEvent(QEvent* event) override;
};

} // namespace conclave::ui
