#pragma once

#include "conclave/search/DesignSearch.h"

#include <nlohmann/json.hpp>

#include <QTableWidget>

namespace conclave::ui {

// A design search's result as a table, read from its report
// (SearchReport::toJson, what `conclave searches show` prints): the bases as
// drawn (and references) first, then each front design with its parameters
// and its test figures — accuracy and 95 % CI, Δ against the first base with
// its paired CI, cost per trial, × cost, p95 wall, the drop from validation
// to test. A search stopped before its test shows its front on the search
// part instead, the test columns empty, as does a running search's front so far.
class SearchFrontTable : public QTableWidget {
    Q_OBJECT

public:
    enum Column {
        IdColumn,
        DesignColumn,
        AccuracyColumn,
        CiColumn,
        DeltaColumn,
        DeltaCiColumn,
        CostColumn,
        CostRatioColumn,
        WallColumn,
        DropColumn,
        ColumnCount
    };
    static constexpr int kFrontRole = Qt::UserRole; // a front row's index in the report's "front"; -1 for others

    explicit SearchFrontTable(QWidget* parent = nullptr);

    void setReport(const nlohmann::ordered_json& report);
    // While a search runs: its front so far on the search part (point estimates and the accuracy CI), the
    // test columns empty; no row is a front design to open yet.
    // A design is named by what it changed in `base` (the searched team's name), as the result names it.
    void setLiveFront(const std::vector<DesignSearch::FrontPoint>& front, const std::string& base);
    // How many front designs are listed.
    int frontCount() const { return m_front; }
    // The selected front design (its index in the report's "front"), or -1.
    int selectedFront() const;
    // The row of a front design; -1 when not listed.
    int rowOfFront(int index) const;
    // "local/math-13b for math.model, 0.3 for gate.min_weight": what a front design changed.
    static QString parametersText(const nlohmann::ordered_json& design);

private:
    void fitColumns();

    int m_front = 0;
};

} // namespace conclave::ui
