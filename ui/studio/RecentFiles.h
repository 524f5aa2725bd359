#pragma once

#include <QObject>
#include <QStringList>

class QMenu;

namespace conclave::ui {

// The most recently opened team files, newest first, kept in QSettings.
class RecentFiles : public QObject {
    Q_OBJECT

public:
    static constexpr int kMax = 10;

    explicit RecentFiles(QObject* parent = nullptr);

    QStringList files() const;
    void add(const QString& path);
    void remove(const QString& path);
    void clear();
    // Keeps `menu` listing the files; choosing one emits openRequested.
    void attach(QMenu* menu);

signals:
    void openRequested(const QString& path);
    void changed();

private:
    void fill(QMenu* menu);
    void store(const QStringList& files);
};

} // namespace conclave::ui
