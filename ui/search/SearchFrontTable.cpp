#include "search/SearchFrontTable.h"

#include "conclave/experiment/ReportText.h"
#include "conclave/util/MoneyText.h"

#include <QHeaderView>

#include <cmath>

namespace conclave::ui {

namespace {

using Json = nlohmann::ordered_json;

QString qstr(const std::string& text)
{
    return QString::fromStdString(text);
}

double number(const Json& j, const char* key)
{
    return j.contains(key) && j[key].is_number() ? j[key].get<double>() : std::nan("");
}

QString ciOf(const Json& j, const char* key)
{
    if (!j.contains(key) || !j[key].is_array() || j[key].size() != 2)
        return QStringLiteral("–");
    return qstr(ReportText::ciText({j[key][0].get<double>(), j[key][1].get<double>()}));
}

} // namespace

SearchFrontTable::SearchFrontTable(QWidget* parent) : QTableWidget(0, ColumnCount, parent)
{
    setObjectName("searchFrontTable");
    setHorizontalHeaderLabels({tr("#"), tr("Design"), tr("Accuracy"), tr("95% CI"), tr("Δ vs base"), tr("Δ 95% CI"),
                               tr("Cost/trial"), tr("× cost"), tr("p95 wall"), tr("Val→test")});
    verticalHeader()->hide();
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setWordWrap(false);
    // Sized once per fill (fitColumns), not per item: ResizeToContents measures every row on every change.
    horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    horizontalHeader()->setSectionResizeMode(DesignColumn, QHeaderView::Stretch);
    horizontalHeaderItem(DeltaColumn)
        ->setToolTip(tr("Paired accuracy difference against the first base as drawn, "
                        "on the test tasks"));
    horizontalHeaderItem(DropColumn)
        ->setToolTip(tr("Test accuracy minus validation accuracy: how much of the "
                        "validation score held on tasks the search never saw"));
}

QString SearchFrontTable::parametersText(const Json& design)
{
    QStringList parts;
    for (const auto& [path, value] : design["parameters"].items())
        parts << QStringLiteral("%1=%2").arg(qstr(path),
                                             qstr(value.is_string() ? value.get<std::string>() : value.dump()));
    return parts.isEmpty() ? tr("the base as drawn") : parts.join(QStringLiteral(", "));
}

void SearchFrontTable::fitColumns()
{
    for (int c = 0; c < ColumnCount; ++c) {
        if (c != DesignColumn)
            resizeColumnToContents(c);
    }
}

void SearchFrontTable::setReport(const Json& report)
{
    clearContents();
    setRowCount(0);
    m_front = 0;
    const auto put = [this](int row, int column, const QString& text, bool right = true) {
        auto* item = new QTableWidgetItem(text);
        if (right)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        setItem(row, column, item);
        return item;
    };
    const auto figures = [&](int row, const Json& t, const Json* design) {
        put(row, AccuracyColumn, qstr(ReportText::percent(number(t, "accuracy"))));
        put(row, CiColumn, ciOf(t, "accuracy_ci"));
        put(row, DeltaColumn,
            t.contains("delta_accuracy") ? qstr(ReportText::signedPoints(number(t, "delta_accuracy"))) : tr("base"));
        put(row, DeltaCiColumn, ciOf(t, "delta_ci"));
        put(row, CostColumn, qstr(moneyText(number(t, "cost_usd"))));
        const double ratio = number(t, "cost_ratio");
        put(row, CostRatioColumn, std::isfinite(ratio) ? qstr(ReportText::ratio(ratio)) : QStringLiteral("–"));
        put(row, WallColumn, qstr(ReportText::duration(number(t, "p95_wall_ms"))));
        put(row, DropColumn,
            design && design->contains("validation_to_test")
                ? qstr(ReportText::signedPoints((*design)["validation_to_test"].get<double>()))
                : QStringLiteral("–"));
    };
    if (!report.is_object()) {
        fitColumns();
        return;
    }
    for (const auto& b : report.value("baselines", Json::array())) {
        const int row = rowCount();
        insertRow(row);
        put(row, IdColumn, b["kind"] == "reference" ? tr("ref") : tr("base"), false)->setData(kFrontRole, -1);
        put(row, DesignColumn, qstr(b["name"].get<std::string>()), false);
        figures(row, b["test"], nullptr);
    }
    const auto& front = report.value("front", Json::array());
    for (size_t i = 0; i < front.size(); ++i) {
        const auto& d = front[i];
        const int row = rowCount();
        insertRow(row);
        put(row, IdColumn, QStringLiteral("#%1").arg(d["candidate"].get<int>()), false)->setData(kFrontRole, int(i));
        auto* what = put(row, DesignColumn, parametersText(d), false);
        what->setToolTip(qstr(d["name"].get<std::string>()));
        if (d.contains("test")) {
            figures(row, d["test"], &d);
        } else if (d.contains("search")) { // stopped before validation: the search part's point estimates
            const auto& s = d["search"];
            put(row, AccuracyColumn, qstr(ReportText::percent(number(s, "accuracy"))));
            put(row, CostColumn, qstr(moneyText(number(s, "cost"))));
            put(row, WallColumn, qstr(ReportText::duration(number(s, "p95_wall"))));
            for (const int c : {CiColumn, DeltaColumn, DeltaCiColumn, CostRatioColumn, DropColumn})
                put(row, c, QStringLiteral("–"));
        }
        ++m_front;
    }
    fitColumns();
    if (m_front > 0)
        selectRow(rowOfFront(0));
}

void SearchFrontTable::setLiveFront(const std::vector<DesignSearch::FrontPoint>& front, const std::string& base)
{
    // "BASE [a=1, b=2]" (SearchSpace::variant's name) as "a=1, b=2".
    const auto changed = [&](const std::string& name) {
        const std::string prefix = base + " [";
        if (name == base)
            return tr("the base as drawn");
        if (name.starts_with(prefix) && name.ends_with("]"))
            return qstr(name.substr(prefix.size(), name.size() - prefix.size() - 1));
        return qstr(name);
    };
    setUpdatesEnabled(false);
    clearContents();
    setRowCount(int(front.size()));
    m_front = 0;
    for (int r = 0; r < int(front.size()); ++r) {
        const auto& f = front[size_t(r)];
        const QStringList cells{QStringLiteral("#%1").arg(f.candidate),
                                changed(f.name),
                                qstr(ReportText::percent(f.figures[Objective::Accuracy])),
                                qstr(ReportText::ciText(f.accuracyCi)),
                                QStringLiteral("–"),
                                QStringLiteral("–"),
                                qstr(moneyText(f.figures[Objective::Cost])),
                                QStringLiteral("–"),
                                qstr(ReportText::duration(f.figures[Objective::P95Wall])),
                                QStringLiteral("–")};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c != IdColumn && c != DesignColumn)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (c == IdColumn)
                item->setData(kFrontRole, -1);
            if (c == DesignColumn)
                item->setToolTip(qstr(f.name));
            setItem(r, c, item);
        }
    }
    fitColumns();
    setUpdatesEnabled(true);
}

int SearchFrontTable::selectedFront() const
{
    const auto rows = selectionModel() ? selectionModel()->selectedRows() : QModelIndexList{};
    if (rows.isEmpty())
        return -1;
    const auto* id = item(rows.front().row(), IdColumn);
    return id ? id->data(kFrontRole).toInt() : -1;
}

int SearchFrontTable::rowOfFront(int index) const
{
    for (int r = 0; r < rowCount(); ++r) {
        const auto* id = item(r, IdColumn);
        if (id && id->data(kFrontRole).toInt() == index && index >= 0)
            return r;
    }
    return -1;
}

} // namespace conclave::ui
