#include "conclave/store/ProcessIdentity.h"

#include <fstream>
#include <sstream>
#include <unistd.h>

namespace conclave {

namespace {

// Field 22 of /proc/PID/stat, counted after the command name (which may hold spaces).
int64_t startTimeOf(int64_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(in, line))
        return -1;
    const auto close = line.rfind(')');
    if (close == std::string::npos)
        return -1;
    std::istringstream rest(line.substr(close + 2));
    std::string field;
    for (int i = 3; i <= 22; ++i) {
        if (!(rest >> field))
            return -1;
        if (i == 3 && field == "Z") // a zombie: dead, only not yet reaped
            return -1;
    }
    try {
        return std::stoll(field);
    } catch (...) {
        return -1;
    }
}

std::string hostName()
{
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0)
        return {};
    return name;
}

} // namespace

ProcessIdentity ProcessIdentity::current()
{
    ProcessIdentity self;
    self.host = hostName();
    self.pid = int64_t(getpid());
    self.startTime = startTimeOf(self.pid);
    return self;
}

bool ProcessIdentity::alive() const
{
    if (host != hostName())
        return true;
    const auto start = startTimeOf(pid);
    return start >= 0 && start == startTime;
}

} // namespace conclave
