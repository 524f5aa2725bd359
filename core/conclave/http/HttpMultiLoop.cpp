#include "conclave/http/HttpMultiLoop.h"

#include "conclave/Version.h"
#include "conclave/http/CurlGlobal.h"
#include "conclave/util/ThreadName.h"

#include <curl/curl.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <unordered_map>

namespace conclave {

namespace {

using Clock = std::chrono::steady_clock;

// How often the loop looks for stalls and rate-limited starts when nothing wakes it.
constexpr long kTickMs = 20;
// Socket events taken from the kernel per wait.
constexpr int kEventsPerWait = 256;

bool retryableCurlCode(CURLcode code)
{
    switch (code) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_SSL_CONNECT_ERROR:
        return true;
    default:
        return false;
    }
}

std::string lower(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

} // namespace

struct Transfer {
    HttpMultiLoop::TransferId id = 0;
    HttpRequest request;
    HttpHandlers handlers;
    HttpResponse response;
    CURL* easy = nullptr;
    curl_slist* headerList = nullptr;
    bool admitted = false;
    bool gotBytes = false;
    Clock::time_point started;  // handed to the multi handle
    Clock::time_point lastByte;
    char errorBuffer[CURL_ERROR_SIZE] = {};
};

// The loop waits on the kernel's epoll for exactly the sockets libcurl asks
// about (libcurl's socket interface), so a wake costs what happened, not what
// is open: with a thousand streams, a poll() over every socket per token
// would cost the client more than the server it measures.
struct HttpMultiLoop::Impl {
    CURLM* multi = nullptr;
    std::thread thread;
    int epoll = -1;
    int wake = -1;  // an eventfd: submit(), cancel() and the destructor write it

    // Loop thread only: libcurl's one timer, as a deadline.
    std::optional<Clock::time_point> curlTimer;
    Clock::time_point lastStallCheck;

    std::mutex mutex;  // guards the four below
    std::vector<std::unique_ptr<Transfer>> incoming;
    std::vector<TransferId> cancels;
    TransferId next = 1;
    bool stop = false;

    // Loop thread only (and the destructor, after the thread has ended).
    std::deque<std::unique_ptr<Transfer>> pending;
    std::unordered_map<TransferId, std::unique_ptr<Transfer>> active;

    void run();
    void admit(Clock::time_point now, std::optional<Clock::time_point>& nextStart);
    bool startTransfer(Transfer& t);
    void cancelOne(TransferId id);
    bool collectFinished();
    void checkStalls(Clock::time_point now);
    void finish(std::unique_ptr<Transfer> t);
    void detach(Transfer& t);
    void wakeUp() const;
    long waitMs(Clock::time_point now, const std::optional<Clock::time_point>& nextStart, bool startNow) const;

    static int onSocket(CURL* easy, curl_socket_t socket, int what, void* user, void* socketData);
    static int onTimer(CURLM* multi, long timeoutMs, void* user);

    static size_t onWrite(char* data, size_t size, size_t count, void* user);
    static size_t onHeader(char* data, size_t size, size_t count, void* user);
};

HttpMultiLoop::HttpMultiLoop() : m_impl(std::make_unique<Impl>())
{
    CurlGlobal::ensure();
    m_impl->multi = curl_multi_init();
    if (!m_impl->multi)
        throw std::runtime_error("libcurl could not make a multi handle");
    m_impl->epoll = ::epoll_create1(EPOLL_CLOEXEC);
    m_impl->wake = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.fd = m_impl->wake;
    if (m_impl->epoll < 0 || m_impl->wake < 0 || ::epoll_ctl(m_impl->epoll, EPOLL_CTL_ADD, m_impl->wake, &event) != 0)
        throw std::runtime_error("the HTTP loop could not make its epoll set");
    curl_multi_setopt(m_impl->multi, CURLMOPT_SOCKETFUNCTION, &Impl::onSocket);
    curl_multi_setopt(m_impl->multi, CURLMOPT_SOCKETDATA, m_impl.get());
    curl_multi_setopt(m_impl->multi, CURLMOPT_TIMERFUNCTION, &Impl::onTimer);
    curl_multi_setopt(m_impl->multi, CURLMOPT_TIMERDATA, m_impl.get());
    m_impl->thread = std::thread([impl = m_impl.get()] {
        nameThisThread("conclave-curl");
        impl->run();
    });
}

HttpMultiLoop::~HttpMultiLoop()
{
    {
        std::lock_guard lock(m_impl->mutex);
        m_impl->stop = true;
    }
    m_impl->wakeUp();
    m_impl->thread.join();
    // Whatever is left ends as cancelled, on this thread.
    std::vector<std::unique_ptr<Transfer>> left;
    {
        std::lock_guard lock(m_impl->mutex);
        left = std::move(m_impl->incoming);
    }
    for (auto& t : m_impl->pending)
        left.push_back(std::move(t));
    for (auto& [id, t] : m_impl->active)
        left.push_back(std::move(t));
    m_impl->pending.clear();
    m_impl->active.clear();
    for (auto& t : left) {
        t->response.cancelled = true;
        m_impl->finish(std::move(t));
    }
    curl_multi_cleanup(m_impl->multi);
    ::close(m_impl->wake);
    ::close(m_impl->epoll);
}

HttpMultiLoop::TransferId HttpMultiLoop::submit(HttpRequest request, HttpHandlers handlers)
{
    auto t = std::make_unique<Transfer>();
    t->request = std::move(request);
    t->handlers = std::move(handlers);
    TransferId id = 0;
    {
        std::lock_guard lock(m_impl->mutex);
        id = m_impl->next++;
        t->id = id;
        m_impl->incoming.push_back(std::move(t));
    }
    m_impl->wakeUp();
    return id;
}

void HttpMultiLoop::cancel(TransferId id)
{
    {
        std::lock_guard lock(m_impl->mutex);
        m_impl->cancels.push_back(id);
    }
    m_impl->wakeUp();
}

void HttpMultiLoop::Impl::wakeUp() const
{
    const uint64_t one = 1;
    [[maybe_unused]] const auto written = ::write(wake, &one, sizeof one); // a full counter is awake already
}

int HttpMultiLoop::Impl::onSocket(CURL*, curl_socket_t socket, int what, void* user, void*)
{
    auto& impl = *static_cast<Impl*>(user);
    if (what == CURL_POLL_REMOVE) {
        ::epoll_ctl(impl.epoll, EPOLL_CTL_DEL, socket, nullptr); // gone already when libcurl closed it first
        return 0;
    }
    epoll_event event{};
    event.events = ((what & CURL_POLL_IN) ? EPOLLIN : 0u) | ((what & CURL_POLL_OUT) ? EPOLLOUT : 0u);
    event.data.fd = socket;
    if (::epoll_ctl(impl.epoll, EPOLL_CTL_MOD, socket, &event) != 0)
        ::epoll_ctl(impl.epoll, EPOLL_CTL_ADD, socket, &event);
    return 0;
}

int HttpMultiLoop::Impl::onTimer(CURLM*, long timeoutMs, void* user)
{
    auto& impl = *static_cast<Impl*>(user);
    if (timeoutMs < 0)
        impl.curlTimer.reset();
    else
        impl.curlTimer = Clock::now() + std::chrono::milliseconds(timeoutMs);
    return 0;
}

long HttpMultiLoop::Impl::waitMs(Clock::time_point now, const std::optional<Clock::time_point>& nextStart,
                                 bool startNow) const
{
    if (startNow)
        return 0;
    long ms = kTickMs;
    const auto until = [now](Clock::time_point at) {
        return long(std::max<int64_t>(0, std::chrono::ceil<std::chrono::milliseconds>(at - now).count()));
    };
    if (curlTimer)
        ms = std::min(ms, until(*curlTimer));
    if (nextStart)
        ms = std::min(ms, until(*nextStart));
    return ms;
}

void HttpMultiLoop::Impl::run()
{
    std::vector<epoll_event> events(kEventsPerWait);
    bool startNow = false;
    while (true) {
        std::vector<std::unique_ptr<Transfer>> arrived;
        std::vector<TransferId> cancelled;
        {
            std::lock_guard lock(mutex);
            if (stop)
                return;
            arrived.swap(incoming);
            cancelled.swap(cancels);
        }
        for (auto& t : arrived)
            pending.push_back(std::move(t));
        for (const auto id : cancelled)
            cancelOne(id);

        std::optional<Clock::time_point> nextStart;
        admit(Clock::now(), nextStart);

        const int ready = ::epoll_wait(epoll, events.data(), kEventsPerWait, int(waitMs(Clock::now(), nextStart, startNow)));
        int running = 0;
        for (int i = 0; i < ready; ++i) {
            const int fd = events[size_t(i)].data.fd;
            if (fd == wake) {
                uint64_t count = 0;
                [[maybe_unused]] const auto read = ::read(wake, &count, sizeof count);
                continue;
            }
            const auto e = events[size_t(i)].events;
            const int flags = ((e & EPOLLIN) ? CURL_CSELECT_IN : 0) | ((e & EPOLLOUT) ? CURL_CSELECT_OUT : 0) |
                              ((e & (EPOLLERR | EPOLLHUP)) ? CURL_CSELECT_ERR : 0);
            curl_multi_socket_action(multi, fd, flags, &running);
        }
        const auto now = Clock::now();
        if (curlTimer && *curlTimer <= now) {
            curlTimer.reset();
            curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running);
        }
        const bool freedSlots = collectFinished();
        if (now - lastStallCheck >= std::chrono::milliseconds(kTickMs)) {
            lastStallCheck = now;
            checkStalls(Clock::now());
        }
        startNow = freedSlots && !pending.empty();
    }
}

void HttpMultiLoop::Impl::admit(Clock::time_point now, std::optional<Clock::time_point>& nextStart)
{
    // An endpoint that refused one transfer refuses the ones queued behind it
    // in this pass too, so they are not asked: a long queue stays cheap.
    std::vector<const EndpointLimits*> refused;
    for (auto it = pending.begin(); it != pending.end();) {
        auto& t = **it;
        if (t.request.limits) {
            if (std::find(refused.begin(), refused.end(), t.request.limits.get()) != refused.end()) {
                ++it;
                continue;
            }
            const auto admission = t.request.limits->tryAdmit(now);
            if (!admission.admitted) {
                refused.push_back(t.request.limits.get());
                if (admission.retryAt && (!nextStart || *admission.retryAt < *nextStart))
                    nextStart = admission.retryAt;
                ++it;
                continue;
            }
            t.admitted = true;
        }
        t.response.admitted = now;
        t.response.inflight = t.request.limits ? t.request.limits->inFlight() : int64_t(active.size()) + 1;
        auto owned = std::move(*it);
        it = pending.erase(it);
        if (startTransfer(*owned)) {
            const auto id = owned->id;
            active.emplace(id, std::move(owned));
        } else {
            finish(std::move(owned));
        }
    }
}

bool HttpMultiLoop::Impl::startTransfer(Transfer& t)
{
    t.easy = curl_easy_init();
    if (!t.easy) {
        t.response.transportError = "libcurl could not make a handle";
        return false;
    }
    CURL* e = t.easy;
    curl_easy_setopt(e, CURLOPT_URL, t.request.url.c_str());
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, long(std::max<int64_t>(1, t.request.connectTimeoutMs)));
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 2L);
    if (!t.request.caFile.empty())
        curl_easy_setopt(e, CURLOPT_CAINFO, t.request.caFile.c_str());
    curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
    // Over HTTP/2 (negotiated by TLS's ALPN, so only for https), share a
    // connection rather than open another. Never for plain http: there libcurl
    // would hold every request back until the first response's headers say
    // whether its connection multiplexes, which a server that sends its
    // headers with the first token, or ends each stream by closing, delays
    // for a whole reply — one request in flight instead of max_concurrency.
    if (t.request.url.starts_with("https://"))
        curl_easy_setopt(e, CURLOPT_PIPEWAIT, 1L);
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(e, CURLOPT_USERAGENT, (std::string("conclave/") + kVersion).c_str());
    for (const auto& h : t.request.headers)
        t.headerList = curl_slist_append(t.headerList, h.c_str());
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, t.headerList);
    if (t.request.post) {
        curl_easy_setopt(e, CURLOPT_POST, 1L);
        curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(t.request.body.size()));
        curl_easy_setopt(e, CURLOPT_POSTFIELDS, t.request.body.data());
    }
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &Impl::onWrite);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &Impl::onHeader);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t.errorBuffer);
    curl_easy_setopt(e, CURLOPT_PRIVATE, &t);
    t.started = Clock::now();
    if (curl_multi_add_handle(multi, e) != CURLM_OK) {
        t.response.transportError = "libcurl could not start the transfer";
        return false;
    }
    return true;
}

size_t HttpMultiLoop::Impl::onHeader(char* data, size_t size, size_t count, void* user)
{
    auto& t = *static_cast<Transfer*>(user);
    const size_t n = size * count;
    t.gotBytes = true;
    t.lastByte = Clock::now();
    std::string_view line(data, n);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
        line.remove_suffix(1);
    if (line.starts_with("HTTP/")) {
        t.response.headers.clear();  // a new response (after a 100 Continue)
        return n;
    }
    const auto colon = line.find(':');
    if (colon == std::string_view::npos)
        return n;
    auto value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
        value.remove_prefix(1);
    t.response.headers[lower(line.substr(0, colon))] = std::string(value);
    return n;
}

size_t HttpMultiLoop::Impl::onWrite(char* data, size_t size, size_t count, void* user)
{
    auto& t = *static_cast<Transfer*>(user);
    const size_t n = size * count;
    t.gotBytes = true;
    t.lastByte = Clock::now();
    curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &t.response.status);
    if (t.handlers.onData && !t.handlers.onData(t.response, std::string_view(data, n))) {
        t.response.aborted = true;
        return 0;  // not n: libcurl stops the transfer
    }
    return n;
}

bool HttpMultiLoop::Impl::collectFinished()
{
    bool any = false;
    int left = 0;
    while (CURLMsg* msg = curl_multi_info_read(multi, &left)) {
        if (msg->msg != CURLMSG_DONE)
            continue;
        Transfer* raw = nullptr;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &raw);
        const CURLcode code = msg->data.result;
        const auto it = active.find(raw->id);
        if (it == active.end())
            continue;
        auto t = std::move(it->second);
        active.erase(it);
        if (code != CURLE_OK) {
            t->response.curlCode = int(code);
            t->response.transportError = t->errorBuffer[0] ? t->errorBuffer : curl_easy_strerror(code);
            t->response.retryableTransport = retryableCurlCode(code);
        }
        finish(std::move(t));
        any = true;
    }
    return any;
}

void HttpMultiLoop::Impl::checkStalls(Clock::time_point now)
{
    std::vector<TransferId> stalled;
    for (const auto& [id, t] : active) {
        if (t->request.stallMs > 0 && t->gotBytes && now - t->lastByte > std::chrono::milliseconds(t->request.stallMs))
            stalled.push_back(id);
    }
    for (const auto id : stalled) {
        auto t = std::move(active.at(id));
        active.erase(id);
        t->response.stalled = true;
        t->response.retryableTransport = true;
        t->response.transportError =
            "the server sent nothing for " + std::to_string(t->request.stallMs) + " ms (stalled)";
        finish(std::move(t));
    }
}

void HttpMultiLoop::Impl::cancelOne(TransferId id)
{
    std::unique_ptr<Transfer> t;
    if (const auto it = active.find(id); it != active.end()) {
        t = std::move(it->second);
        active.erase(it);
    } else {
        const auto p = std::find_if(pending.begin(), pending.end(), [id](const auto& q) { return q->id == id; });
        if (p == pending.end())
            return;  // finished already
        t = std::move(*p);
        pending.erase(p);
    }
    t->response.cancelled = true;
    finish(std::move(t));
}

void HttpMultiLoop::Impl::detach(Transfer& t)
{
    t.response.ended = Clock::now();
    if (t.easy) {
        curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &t.response.status);
        // The request went out at libcurl's pretransfer moment, on a connection
        // ready for it (a request's few kilobytes leave in one write). Asked
        // of libcurl, not seen from a callback: its progress callback only
        // runs when the socket wakes the transfer again, with the answer.
        // libcurl times both from its own start, which may be a "now" it
        // cached before the handle was added; the span from pretransfer to
        // the end does not depend on it, so the moment is counted back from
        // the end (never before the transfer was added).
        curl_off_t pretransferUs = 0;
        curl_off_t totalUs = 0;
        if (curl_easy_getinfo(t.easy, CURLINFO_PRETRANSFER_TIME_T, &pretransferUs) == CURLE_OK && pretransferUs > 0 &&
            curl_easy_getinfo(t.easy, CURLINFO_TOTAL_TIME_T, &totalUs) == CURLE_OK && totalUs >= pretransferUs)
            t.response.requestSent =
                std::max(t.started, t.response.ended - std::chrono::microseconds(totalUs - pretransferUs));
        curl_multi_remove_handle(multi, t.easy);
        curl_easy_cleanup(t.easy);
        t.easy = nullptr;
    }
    if (t.headerList) {
        curl_slist_free_all(t.headerList);
        t.headerList = nullptr;
    }
    if (t.admitted) {
        t.request.limits->release();
        t.admitted = false;
    }
}

void HttpMultiLoop::Impl::finish(std::unique_ptr<Transfer> t)
{
    detach(*t);
    auto done = std::move(t->handlers.onDone);
    auto response = std::move(t->response);
    t.reset();  // the handlers (and what they hold) go before the callback returns
    if (done)
        done(std::move(response));
}

} // namespace conclave
