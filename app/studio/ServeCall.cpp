#include "studio/ServeCall.h"

#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace conclave::studio {

namespace {

void post(uint16_t port, const std::string& body)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const std::string request = "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                                "Content-Type: application/json\r\nContent-Length: " +
                                std::to_string(body.size()) + "\r\n\r\n" + body;
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
        ::send(fd, request.data(), request.size(), MSG_NOSIGNAL) == ssize_t(request.size())) {
        char buffer[4096];
        while (::recv(fd, buffer, sizeof buffer, 0) > 0) {
        }
    }
    ::close(fd);
}

} // namespace

ServeCall::ServeCall(uint16_t port, const std::string& model, const std::string& input)
{
    const nlohmann::json body{{"model", model}, {"messages", {{{"role", "user"}, {"content", input}}}}};
    m_thread = std::thread([port, text = body.dump()] { post(port, text); });
}

ServeCall::~ServeCall()
{
    if (m_thread.joinable())
        m_thread.join();
}

} // namespace conclave::studio
