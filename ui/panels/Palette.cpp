#include "panels/Palette.h"

#include "editor/CanvasView.h"
#include "editor/KindStyle.h"

#include "conclave/io/TeamFile.h"

#include <QDir>
#include <QHeaderView>
#include <QMimeData>

namespace conclave::ui {

namespace {
constexpr int kEntryRole = Qt::UserRole + 1;

QString kindHint(NodeKind kind)
{
    switch (kind) {
    case NodeKind::Input:
        return QObject::tr("The run's input text");
    case NodeKind::Router:
        return QObject::tr("Picks which outgoing edges fire");
    case NodeKind::Expert:
        return QObject::tr("One model call");
    case NodeKind::Coordinator:
        return QObject::tr("Runs a meeting among member experts");
    case NodeKind::Aggregator:
        return QObject::tr("Combines its inputs: vote, pick, synthesize");
    case NodeKind::Output:
        return QObject::tr("The final answer");
    }
    return {};
}
} // namespace

Palette::Palette(QWidget* parent) : QTreeWidget(parent), m_templates(new QTreeWidgetItem)
{
    setHeaderHidden(true);
    setRootIsDecorated(false);
    setDragEnabled(true);
    setDragDropMode(QAbstractItemView::DragOnly);
    setIconSize(QSize(22, 22));
    setIndentation(8);
    auto* kinds = new QTreeWidgetItem(this, {tr("Nodes")});
    kinds->setFlags(Qt::ItemIsEnabled);
    for (const NodeKind kind : allValues<NodeKind>()) {
        auto* item = new QTreeWidgetItem(kinds, {KindStyle::title(kind)});
        item->setIcon(0, KindStyle::icon(kind));
        item->setData(0, kEntryRole, QStringLiteral("kind:") + QString::fromUtf8(toString(kind)));
        item->setToolTip(0, kindHint(kind) + tr(" — drag onto the canvas or double-click"));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
    }
    m_templates->setText(0, tr("Templates"));
    m_templates->setFlags(Qt::ItemIsEnabled);
    addTopLevelItem(m_templates);
    expandAll();
    for (auto* top : {kinds, m_templates}) {
        QFont font = top->font(0);
        font.setBold(true);
        top->setFont(0, font);
    }
    connect(this, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        const QString entry = entryOf(item);
        if (!entry.isEmpty())
            emit entryActivated(entry);
    });
}

void Palette::setTemplateFolder(const QString& folder)
{
    qDeleteAll(m_templates->takeChildren());
    const QDir dir(folder);
    for (const QString& file : dir.entryList({QStringLiteral("*.team.json")}, QDir::Files, QDir::Name)) {
        const QString path = dir.filePath(file);
        const auto loaded = loadTeamFile(path.toStdString());
        if (!loaded.team)
            continue;
        auto* item = new QTreeWidgetItem(m_templates, {QString::fromStdString(loaded.team->name)});
        item->setData(0, kEntryRole, QStringLiteral("template:") + path);
        item->setToolTip(0, QString::fromStdString(loaded.team->description.value_or(file.toStdString())));
        item->setIcon(0, KindStyle::icon(NodeKind::Coordinator));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
    }
    m_templates->setExpanded(true);
}

QString Palette::entryOf(const QTreeWidgetItem* item)
{
    return item ? item->data(0, kEntryRole).toString() : QString();
}

QStringList Palette::mimeTypes() const
{
    return {QString::fromLatin1(CanvasView::kPaletteMime)};
}

QMimeData* Palette::mimeData(const QList<QTreeWidgetItem*>& items) const
{
    if (items.isEmpty() || entryOf(items.first()).isEmpty())
        return nullptr;
    auto* mime = new QMimeData;
    mime->setData(CanvasView::kPaletteMime, entryOf(items.first()).toUtf8());
    return mime;
}

} // namespace conclave::ui
