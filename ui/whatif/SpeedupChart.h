#pragma once

#include "conclave/whatif/SpeedupProfile.h"

#include <QStringList>
#include <QWidget>

class QChart;
class QLabel;

namespace conclave::ui {

class ThemedChartView;

// A run's speed-up profile (core's SpeedupProfile) as a horizontal bar chart:
// the agents ranked by the wall each saves when it alone is 50 % faster, the
// best at the top (the first kMaxBars of them), and under it each backend's
// max_concurrency doubled. Every figure is labelled a projection.
class SpeedupChart : public QWidget {
    Q_OBJECT

public:
    static constexpr int kMaxBars = 12;

    explicit SpeedupChart(QWidget* parent = nullptr);

    void setProfile(const SpeedupProfile& profile);
    // Why there is no profile (it is shown in place of the chart).
    void setMessage(const QString& message);

    QChart* chart() const;
    ThemedChartView* chartView() const { return m_view; }
    // The agents drawn, best first (top to bottom), and each one's saving at 50 % in µs.
    const QStringList& agents() const { return m_agents; }
    const QList<qint64>& savedUs() const { return m_saved; }
    // The profile's headline and its backends' lines, as shown under the chart.
    QString notes() const;

private:
    ThemedChartView* m_view;
    QLabel* m_notes;
    QStringList m_agents;
    QList<qint64> m_saved;
};

} // namespace conclave::ui
