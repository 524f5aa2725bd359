#include "inspector/EndpointForm.h"

#include <QFormLayout>

namespace conclave::ui {

EndpointForm::EndpointForm(TeamDocument* document, NodeKind kind, QWidget* parent) : NodeForm(document, kind, parent)
{
    addNote(kind == NodeKind::Input
                ? tr("The run's input text. Prompts refer to it as {{input}}. A team has exactly one.")
                : tr("The run's final answer: the result of its one incoming edge."));
}

} // namespace conclave::ui
