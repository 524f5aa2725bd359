#pragma once

#include <QTreeWidget>

namespace conclave::ui {

// The six node kinds and the example teams as templates. Drag an entry onto
// the canvas, or double-click (or press Enter) to add it at the view's centre.
// Entries are "kind:expert" or "template:/path/to/x.team.json".
class Palette : public QTreeWidget {
    Q_OBJECT

public:
    explicit Palette(QWidget* parent = nullptr);

    // Lists the *.team.json files of `folder` as templates.
    void setTemplateFolder(const QString& folder);
    static QString entryOf(const QTreeWidgetItem* item);

signals:
    void entryActivated(const QString& entry);

protected:
    QMimeData* mimeData(const QList<QTreeWidgetItem*>& items) const override;
    QStringList mimeTypes() const override;

private:
    QTreeWidgetItem* m_templates;
};

} // namespace conclave::ui
