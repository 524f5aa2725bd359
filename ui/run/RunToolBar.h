#pragma once

#include <QToolBar>

#include <cstdint>
#include <optional>
#include <string>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace conclave {
class TaskSet;
}

namespace conclave::ui {

// The run toolbar's inputs: the input text, a task from the task sets (which
// fills the input with its prompt), the seed ("team seed" keeps the team's
// own) and the clock: live on the real clock, or "Instant" on the simulated
// one. The Run and Stop actions are the window's.
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
    // Run on the virtual clock: the finished timeline at once, in simulated time.
    bool instant() const;
    void setInstant(bool instant);
    QComboBox* taskBox() const { return m_tasks; }
    QLineEdit* inputBox() const { return m_input; }

signals:
    void runRequested();

private:
    QLineEdit* m_input;
    QComboBox* m_tasks;
    QSpinBox* m_seed;
    QCheckBox* m_instant;
};

} // namespace conclave::ui
