#pragma once

#include "conclave/model/Node.h"

#include <QString>

namespace conclave::ui {

// A keyword router's routes as editable text, one route per line:
// "label: keyword, other keyword, /regex/". A comma inside /…/ belongs to the regex.
class RouteTableText {
public:
    static QString format(const RouteTable& routes);
    static RouteTable parse(const QString& text);
};

} // namespace conclave::ui
