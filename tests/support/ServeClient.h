#pragma once

// A client of `conclave serve` for tests, byte for byte: requests written by
// hand, replies read back (chunks joined), SSE events split, OpenAI error
// bodies built for comparison. Include <QtTest> first.

#include "support/RawHttpClient.h"

#include "conclave/serve/ServeError.h"

#include <cctype>
#include <chrono>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace testsupport::serveclient {

using namespace std::chrono_literals;
using conclave::ServeError;

struct Reply {
    int status = 0;
    std::map<std::string, std::string> headers; // names in lower case
    std::string body;                           // chunks joined
};

inline std::string lower(std::string s)
{
    for (auto& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

inline Reply parseReply(const std::string& raw)
{
    Reply r;
    const auto headEnd = raw.find("\r\n\r\n");
    if (raw.size() < 12 || headEnd == std::string::npos)
        return r;
    r.status = std::stoi(raw.substr(9, 3));
    std::istringstream head(raw.substr(0, headEnd));
    std::string line;
    std::getline(head, line);
    while (std::getline(head, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        const auto colon = line.find(':');
        if (colon != std::string::npos)
            r.headers[lower(line.substr(0, colon))] = line.substr(colon + 2);
    }
    std::string rest = raw.substr(headEnd + 4);
    if (r.headers["transfer-encoding"] == "chunked") {
        size_t at = 0;
        while (at < rest.size()) {
            const auto eol = rest.find("\r\n", at);
            if (eol == std::string::npos)
                break;
            const size_t n = std::stoul(rest.substr(at, eol - at), nullptr, 16);
            if (n == 0)
                break;
            r.body += rest.substr(eol + 2, n);
            at = eol + 2 + n + 2;
        }
    } else {
        r.body = rest;
    }
    return r;
}

// The data of each SSE event, in order (comments left out).
inline std::vector<std::string> events(const std::string& body)
{
    std::vector<std::string> out;
    size_t at = 0;
    while (at < body.size()) {
        auto end = body.find("\n\n", at);
        if (end == std::string::npos)
            end = body.size();
        const auto event = body.substr(at, end - at);
        if (event.rfind("data: ", 0) == 0)
            out.push_back(event.substr(6));
        at = end + 2;
    }
    return out;
}

inline std::string request(const std::string& method, const std::string& path, const std::string& body,
                    const std::string& key = {}, const std::string& extraHeaders = {})
{
    std::string r = method + " " + path + " HTTP/1.1\r\nHost: test\r\nConnection: close\r\n";
    if (!key.empty())
        r += "Authorization: Bearer " + key + "\r\n";
    r += extraHeaders;
    if (!body.empty() || method == "POST")
        r += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
    return r + "\r\n" + body;
}

inline Reply call(uint16_t port, const std::string& method, const std::string& path, const std::string& body = {},
           const std::string& key = {})
{
    testsupport::RawHttpClient client(port);
    if (!client.send(request(method, path, body, key)))
        return {};
    return parseReply(client.readToClose(20s));
}

inline std::string chat(const std::string& model, const std::string& text, const std::string& extra = {})
{
    return R"({"model": ")" + model + R"(", "messages": [{"role": "user", "content": ")" + text + "\"}]" + extra + "}";
}

inline std::string errorBody(const std::string& message, const std::string& type, const std::string& param,
                      const std::string& code)
{
    ServeError e;
    e.message = message;
    e.type = type;
    e.param = param;
    e.code = code;
    return e.body();
}

// Waits (at most 10 s) for `done`.
template <class F>
inline bool eventually(F done)
{
    for (int i = 0; i < 1000; ++i) {
        if (done())
            return true;
        std::this_thread::sleep_for(10ms);
    }
    return done();
}


} // namespace testsupport::serveclient
