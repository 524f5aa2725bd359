#pragma once

#include "conclave/local/TaskSet.h"

#include <QWidget>

#include <filesystem>
#include <optional>

class QComboBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace conclave::ui {

// The task set of an evaluation and the subset of it to run: a bundled set
// by name or a JSONL/CSV file, previewed (its size, its domains with their
// counts, its first tasks), then a domain and a sample size.
//
// Promises: a set is loaded with core's TaskSet (the same rules and errors as
// `conclave eval --taskset`); a file that does not load keeps the previous
// set and shows the file's first problem; selectedCount() is how many tasks
// the domain and the sample leave, as ExperimentSetup will select them.
class TaskSetPicker : public QWidget {
    Q_OBJECT

public:
    static constexpr int kPreviewRows = 5;

    explicit TaskSetPicker(std::filesystem::path resourcesDir, QWidget* parent = nullptr);

    // A bundled set's name, or a file's path; false (and error()) when it does not load.
    bool select(const QString& nameOrFile);
    // What EvalRequest::taskset takes: the bundled name, or the file path.
    QString taskset() const { return m_taskset; }
    const TaskSet* tasks() const { return m_tasks ? &*m_tasks : nullptr; }
    QString domain() const;               // empty: every domain
    std::optional<size_t> sample() const; // unset: every task of the domain
    int64_t selectedCount() const;
    // Whether the domain and sample rows show (a design search splits the whole set: it hides them).
    void setSubsetShown(bool shown);
    const QString& error() const { return m_error; }

    QComboBox* setBox() const { return m_set; }
    QComboBox* domainBox() const { return m_domain; }
    QSpinBox* sampleBox() const { return m_sample; }
    QLabel* summary() const { return m_summary; }
    QTableWidget* preview() const { return m_preview; }

signals:
    void changed();

private:
    void chooseFile();
    void onSetActivated(int index);
    void showTasks();
    int64_t domainCount() const;

    std::filesystem::path m_resourcesDir;
    std::optional<TaskSet> m_tasks;
    QString m_taskset;
    QString m_error;
    QComboBox* m_set;
    QPushButton* m_file;
    QLabel* m_summary;
    QTableWidget* m_preview;
    QComboBox* m_domain;
    QSpinBox* m_sample;
    QFormLayout* m_form;
};

} // namespace conclave::ui
