#include "panels/ProblemsPanel.h"

#include "document/TeamDocument.h"

#include <QApplication>
#include <QHeaderView>
#include <QStyle>

namespace conclave::ui {

namespace {
constexpr int kNodeRole = Qt::UserRole + 1;
constexpr int kEdgeRole = Qt::UserRole + 2;
} // namespace

ProblemsPanel::ProblemsPanel(TeamDocument* document, QWidget* parent) : QTreeWidget(parent), m_document(document)
{
    setHeaderLabels({tr("Problem"), tr("Node"), tr("Where")});
    setRootIsDecorated(false);
    setAlternatingRowColors(true);
    setUniformRowHeights(true);
    header()->setSectionResizeMode(0, QHeaderView::Stretch);
    header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    header()->setStretchLastSection(false);
    connect(document, &TeamDocument::problemsChanged, this, &ProblemsPanel::refresh);
    const auto activate = [this](QTreeWidgetItem* item) {
        const QString node = item->data(0, kNodeRole).toString();
        if (!node.isEmpty())
            emit nodeActivated(NodeId(node.toStdString()));
        else if (item->data(0, kEdgeRole).isValid())
            emit edgeActivated(item->data(0, kEdgeRole).toULongLong());
    };
    connect(this, &QTreeWidget::itemClicked, this, activate);
    connect(this, &QTreeWidget::itemActivated, this, activate);
    refresh();
}

void ProblemsPanel::refresh()
{
    setUpdatesEnabled(false);
    clear();
    m_errors = 0;
    m_warnings = 0;
    const QIcon errorIcon = style()->standardIcon(QStyle::SP_MessageBoxCritical);
    const QIcon warningIcon = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    QList<QTreeWidgetItem*> errors;
    QList<QTreeWidgetItem*> warnings;
    const auto& edges = m_document->team().edges;
    for (const auto& p : m_document->problems()) {
        QString where = p.line > 0 ? tr("line %1:%2").arg(p.line).arg(p.column) : QString::fromStdString(p.pointer);
        auto* item = new QTreeWidgetItem(
            {QString::fromStdString(p.message), p.node ? QString::fromStdString(p.node->str()) : QString(), where});
        item->setIcon(0, p.isError() ? errorIcon : warningIcon);
        item->setToolTip(0, QString::fromStdString(p.message));
        if (p.node)
            item->setData(0, kNodeRole, QString::fromStdString(p.node->str()));
        else if (p.edge && *p.edge < edges.size())
            item->setData(0, kEdgeRole, qulonglong(*p.edge));
        (p.isError() ? errors : warnings).append(item);
    }
    m_errors = int(errors.size());
    m_warnings = int(warnings.size());
    addTopLevelItems(errors);
    addTopLevelItems(warnings);
    if (errors.isEmpty() && warnings.isEmpty()) {
        auto* ok = new QTreeWidgetItem({tr("No problems")});
        ok->setIcon(0, style()->standardIcon(QStyle::SP_DialogApplyButton));
        ok->setFlags(Qt::ItemIsEnabled);
        addTopLevelItem(ok);
    }
    setUpdatesEnabled(true);
    emit countsChanged(m_errors, m_warnings);
}

} // namespace conclave::ui
