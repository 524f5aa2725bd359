#pragma once

#include "conclave/analysis/RunAnalysis.h"

#include "timeline/ThemedChartView.h"

#include <QWidget>

class QChart;
class QChartView;
class QGridLayout;
class QLabel;

namespace conclave::ui {

// What a run amounted to: wall time, critical path, parallelism (busy ÷ wall),
// tokens and cost, with two bar charts — per-agent wall vs busy time, and
// tokens and cost per agent. The figures come from RunAnalysis only.
class RunSummaryView : public QWidget {
    Q_OBJECT

public:
    explicit RunSummaryView(QWidget* parent = nullptr);

    void setRun(const StoredRun& run);
    const RunAnalysis& analysis() const { return m_analysis; }
    // The value shown for a figure: "wall", "critical", "parallelism", "tokens", "cost", "status".
    QString figure(const QString& name) const;
    QChart* timeChart() const;
    QChart* tokensChart() const;
    QChartView* timeChartView() const { return m_timeView; }
    QChartView* tokensChartView() const { return m_tokensView; }

private:
    QLabel* addFigure(QGridLayout* grid, int column, const QString& name, const QString& title);
    void fillTimeChart(const std::vector<const AgentStats*>& agents, const QStringList& names);
    void fillTokensChart(const std::vector<const AgentStats*>& agents, const QStringList& names);

    RunAnalysis m_analysis;
    QLabel* m_serialised;
    ThemedChartView* m_timeView;
    ThemedChartView* m_tokensView;
};

} // namespace conclave::ui
