#pragma once

#include "conclave/experiment/FidelityReport.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace conclave::ui {

class FidelityChart;
class FidelityTableModel;

// A FidelityReport (`conclave fidelity`) as a view: a header that says it is
// the simulator, calibrated on how many tasks and answers and predicted on
// how many held-out ones (holdout, seed), with the report's limitation
// set apart in the warning colour when there is one; the summary lines (the
// within count, Kendall's tau-b, the calibration's uncertainty) beside the
// notes (designs not predicted and why, defaults the calibration kept); then
// the chart of predicted against measured accuracy, and below it the table
// with the CLI's columns and texts. Every text is core's (FidelityReport); the view
// computes nothing.
class FidelityView : public QWidget {
    Q_OBJECT

public:
    explicit FidelityView(QWidget* parent = nullptr);

    void setReport(FidelityReport report);
    const FidelityReport* report() const { return m_report ? &*m_report : nullptr; }

    QLabel* title() const { return m_title; }
    QLabel* limitation() const { return m_limitation; }
    QLabel* summary() const { return m_summary; }
    QLabel* notes() const { return m_notes; }
    FidelityChart* chart() const { return m_chart; }
    FidelityTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void styleLimitation();
    void fitTable();

    std::optional<FidelityReport> m_report;
    QLabel* m_title;
    QLabel* m_limitation;
    QLabel* m_summary;
    QLabel* m_notes;
    FidelityChart* m_chart;
    FidelityTableModel* m_model;
    QTableView* m_table;
};

} // namespace conclave::ui
