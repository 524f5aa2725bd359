#pragma once

#include <QToolBar>

#include <cstdint>
#include <optional>
#include <string>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace conclave {
class TaskSet;
}

namespace conclave::ui {

// The run toolbar's inputs: the input text, a task from the task sets (which
// fills the input with its prompt) and the seed ("team seed" keeps the
// team's own). The Run and Stop actions are the window's.
class RunToolBar : public QToolBar {
    Q_OBJECT

public:
    explicit RunToolBar(QWidget* parent = nullptr);

    void setTasks(const TaskSet* tasks);
    std::string input() const;
    void setInput(const QString& text);
    // nullopt: the team's own seed.
    std::optional<uint64_t> seed() const;
    void setSeed(std::optional<uint64_t> seed);
    QComboBox* taskBox() const { return m_tasks; }
    QLineEdit* inputBox() const { return m_input; }

signals:
    void runRequested();

private:
    QLineEdit* m_input;
    QComboBox* m_tasks;
    QSpinBox* m_seed;
};

} // namespace conclave::ui
