#pragma once

// NodeForm::addEnum, kept apart so NodeForm.h stays short.
#include "inspector/NodeForm.h"

#include <QComboBox>
#include <QFormLayout>
#include <QSignalBlocker>

namespace conclave::ui {

template <class Enum>
QComboBox* NodeForm::addEnum(QFormLayout* target, const QString& label, const QString& key, Accessor<Enum> field)
{
    auto* combo = new QComboBox(this);
    combo->addItem(tr("(not set)"));
    for (const Enum value : allValues<Enum>())
        combo->addItem(QString::fromUtf8(toString(value)));
    target->addRow(label, combo);
    registerField(key, combo);
    connect(combo, &QComboBox::activated, this, [this, field](int index) {
        commit([&](NodeConfig& c) {
            if (index <= 0)
                field(c).reset();
            else
                field(c) = allValues<Enum>()[size_t(index - 1)];
        });
    });
    addLoader([combo, field](const Node& n) {
        NodeConfig copy = n.config;
        const auto& value = field(copy);
        int index = 0;
        if (value) {
            const auto values = allValues<Enum>();
            index = int(std::find(values.begin(), values.end(), *value) - values.begin()) + 1;
        }
        const QSignalBlocker block(combo);
        combo->setCurrentIndex(index);
    });
    return combo;
}

} // namespace conclave::ui
