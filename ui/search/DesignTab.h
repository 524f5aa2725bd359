#pragma once

#include <QString>
#include <QWidget>

#include <set>
#include <string>

class QLabel;
class QPushButton;

namespace conclave::ui {

class CanvasView;
class TeamDocument;
class TeamScene;

// A design a search found, as a tab beside the canvas: its team file loaded
// the way File > Open loads one (TeamDocument::load) into a document of its
// own and drawn read-only on a canvas, under a line saying what the search
// changed and measured (simulated). Open in Editor makes it the studio's
// open team (File > Open's path, asking to save unsaved edits first);
// Compare runs it against the open team in an experiment.
class DesignTab : public QWidget {
    Q_OBJECT

public:
    explicit DesignTab(std::set<std::string> localModels, QWidget* parent = nullptr);

    // Loads `file`; its loader's messages (empty when it loaded). `summary` is the line above the canvas.
    QString load(const QString& file, const QString& summary);
    const QString& file() const { return m_file; }
    TeamDocument* document() const { return m_document; }
    CanvasView* canvas() const { return m_view; }
    QLabel* summary() const { return m_summary; }
    QPushButton* openButton() const { return m_open; }
    QPushButton* compareButton() const { return m_compare; }

signals:
    void openInEditor(const QString& file);
    void compareRequested(const QString& file);

protected:
    void showEvent(QShowEvent* event) override;

private:
    TeamDocument* m_document;
    TeamScene* m_scene;
    CanvasView* m_view;
    QLabel* m_summary;
    QPushButton* m_open;
    QPushButton* m_compare;
    QString m_file;
    bool m_fitted = false;
};

} // namespace conclave::ui
