#!/usr/bin/env python3
"""A scriptable OpenAI-compatible server for Conclave's HTTP backend tests.

Listens on 127.0.0.1 at a random port and prints "PORT <n>" on stdout once it
accepts connections. Standard library only.

A request is scripted by its model name: "fake:key=value;key=value;...".
  chunks=N        stream N content chunks "t0 ", "t1 ", ... (default 3)
  text=A|B|C      stream these chunks instead
  first=MS        wait before the first chunk (after the headers)
  gap=MS          wait between chunks
  crlf=1          end lines with CRLF
  ping=1          send ": keep-alive" comments between chunks
  bytewise=1      write the stream a few bytes at a time (lines split across reads)
  usage=0         leave out the usage chunk (default: one, with empty choices)
  status=CODE     answer with this HTTP status and an error body ...
  times=N         ... for the first N requests of this model name (default: all)
  message=TEXT    the error message (default "scripted failure")
  etype=TEXT      the error type; code=TEXT the error code
  flat=1          the flat error shape {"object":"error","message":...}
  retry_after=S   a Retry-After header (seconds); retry_after_ms=MS a retry-after-ms header
  malformed=K     after K chunks, a chunk that is not JSON
  stream_error=K  after K chunks, an error object inside the 200 stream
  stall=K         after K chunks, stop sending for stall_ms (default 5000), then finish
  hold=K          after K chunks, send nothing until POST /_release (or 60 s), then finish
  close=K         after K chunks, drop the connection (no final chunk, no [DONE])
  accept=MS       wait before reading the request (a slow server)
  echo_key=1      on failure, put the Authorization header into the message
With "stream": false in the request, the answer is one JSON completion.

GET /v1/models lists models (but not under /nolist); GET /_stats answers {"requests", "in_flight",
"max_in_flight", "dropped" (answers the client hung up on), "by_model"}; POST /_reset zeroes the counters and forgets requests still running; POST /_release lets every request
that arrived before it go on past its hold. A request leaves "in_flight" just before the last byte
of its answer is written, so a client that has read a whole answer is never still counted. With
--key KEY, requests without "Authorization: Bearer KEY" get a 401. With
--tls CERT KEYFILE, it speaks HTTPS.
"""

import argparse
import json
import socket
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
STATS = {"requests": 0, "in_flight": 0, "max_in_flight": 0, "dropped": 0, "by_model": {}}
KEY = None
RELEASED = threading.Condition(LOCK)
RELEASES = [0]  # how many times POST /_release was called
GENERATION = [0]  # how many times POST /_reset was called: a request counts only in the generation it began in


def script_of(model):
    script = {}
    if model.startswith("fake:"):
        for part in model[5:].split(";"):
            if "=" in part:
                k, v = part.split("=", 1)
                script[k.strip()] = v
    return script


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    # ---- plumbing ----
    def send_json(self, status, body, headers=None):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.leave()
        self.wfile.write(data)
        self.wfile.flush()

    def leave(self):
        # Out of "in_flight" before the answer's last byte goes out: once the client has the whole
        # answer (and may send its next request), this one is no longer counted.
        if getattr(self, "counted", False):
            self.counted = False
            with LOCK:
                if self.generation == GENERATION[0]:
                    STATS["in_flight"] -= 1

    def hold(self):
        with LOCK:
            RELEASED.wait_for(lambda: RELEASES[0] > self.releases_seen, timeout=60)

    def chunk(self, data, bytewise):
        if not data:
            return
        pieces = [data[i:i + 3] for i in range(0, len(data), 3)] if bytewise else [data]
        for p in pieces:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(p), p))
            self.wfile.flush()
            if bytewise:
                time.sleep(0.001)

    def read_body(self):
        length = int(self.headers.get("Content-Length", "0"))
        return self.rfile.read(length) if length else b""

    # ---- endpoints ----
    def do_GET(self):
        if self.path == "/_stats":
            with LOCK:
                self.send_json(200, STATS)
        elif self.path.startswith("/nolist"):
            self.send_json(404, {"error": {"message": "no model list here", "type": "invalid_request_error"}})
        elif self.path.endswith("/models"):
            if not self.authorized():
                return
            self.send_json(200, {"object": "list", "data": [{"id": "fake-model", "object": "model"}]})
        else:
            self.send_json(404, {"error": {"message": "no such path " + self.path, "type": "invalid_request_error"}})

    def do_POST(self):
        if self.path == "/_reset":
            self.read_body()
            with LOCK:
                # A request still running from before (a stalled stream's sleeping handler) is forgotten:
                # its end must not take one off the counts of the requests that come after.
                GENERATION[0] += 1
                STATS.update({"requests": 0, "in_flight": 0, "max_in_flight": 0, "dropped": 0, "by_model": {}})
            self.send_json(200, {})
            return
        if self.path == "/_release":
            self.read_body()
            with LOCK:
                RELEASES[0] += 1
                RELEASED.notify_all()
            self.send_json(200, {})
            return
        body = self.read_body()
        with LOCK:
            STATS["requests"] += 1
            STATS["in_flight"] += 1
            STATS["max_in_flight"] = max(STATS["max_in_flight"], STATS["in_flight"])
            self.counted = True
            self.generation = GENERATION[0]
            self.releases_seen = RELEASES[0]
        try:
            self.completion(body)
        except (BrokenPipeError, ConnectionResetError):
            with LOCK:
                if self.generation == GENERATION[0]:
                    STATS["dropped"] += 1
        finally:
            self.leave()

    def authorized(self):
        if KEY is None or self.headers.get("Authorization") == "Bearer " + KEY:
            return True
        got = self.headers.get("Authorization") or "(none)"
        self.send_json(401, {"error": {"message": "Incorrect API key provided: " + got,
                                       "type": "invalid_request_error", "code": "invalid_api_key"}})
        return False

    def completion(self, raw):
        request = json.loads(raw or b"{}")
        model = request.get("model", "")
        s = script_of(model)
        if "accept" in s:
            time.sleep(int(s["accept"]) / 1000)
        with LOCK:
            n = STATS["by_model"].get(model, 0) + 1
            STATS["by_model"][model] = n
        if not self.authorized():
            return
        if "status" in s and ("times" not in s or n <= int(s["times"])):
            return self.fail(s)
        texts = s["text"].split("|") if "text" in s else ["t%d " % i for i in range(int(s.get("chunks", "3")))]
        if not request.get("stream", False):
            return self.send_json(200, {
                "id": "cmpl-1", "object": "chat.completion", "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": "".join(texts)},
                             "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 11, "completion_tokens": len(texts), "total_tokens": 11 + len(texts)}})
        self.stream(request, s, texts)

    def fail(self, s):
        message = s.get("message", "scripted failure")
        if s.get("echo_key") == "1":
            message += " (you sent " + (self.headers.get("Authorization") or "nothing") + ")"
        error = {"message": message, "type": s.get("etype", "server_error"), "code": s.get("code")}
        body = dict(error, object="error") if s.get("flat") == "1" else {"error": error}
        headers = {}
        if "retry_after" in s:
            headers["Retry-After"] = s["retry_after"]
        if "retry_after_ms" in s:
            headers["retry-after-ms"] = s["retry_after_ms"]
        self.send_json(int(s["status"]), body, headers)

    def stream(self, request, s, texts):
        eol = b"\r\n" if s.get("crlf") == "1" else b"\n"
        bytewise = s.get("bytewise") == "1"
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.wfile.flush()

        def event(obj):
            data = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
            self.chunk(b"data: " + data + eol + eol, bytewise)

        def delta(content, finish=None):
            return {"id": "c1", "object": "chat.completion.chunk", "model": request.get("model"),
                    "choices": [{"index": 0, "delta": {"content": content} if content is not None else {},
                                 "finish_reason": finish}]}

        time.sleep(int(s.get("first", "0")) / 1000)
        event(delta(None))  # the role chunk: no content yet
        for i, t in enumerate(texts):
            if i > 0:
                time.sleep(int(s.get("gap", "0")) / 1000)
            if s.get("ping") == "1":
                self.chunk(b": keep-alive" + eol + eol, bytewise)
            if s.get("malformed") == str(i):
                event(b"{\"choices\": [ not json")
            if s.get("stream_error") == str(i):
                event({"error": {"message": "the model crashed mid-stream", "type": "server_error", "code": None}})
                self.chunk(b"data: [DONE]" + eol + eol, bytewise)
                self.leave()
                self.wfile.write(b"0\r\n\r\n")
                return
            if s.get("close") == str(i):
                self.wfile.flush()
                self.connection.shutdown(socket.SHUT_RDWR)
                self.close_connection = True
                return
            if s.get("stall") == str(i):
                time.sleep(int(s.get("stall_ms", "5000")) / 1000)
            if s.get("hold") == str(i):
                self.hold()
            event(delta(t))
        event(delta(None, "stop"))
        if s.get("usage", "1") == "1" and request.get("stream_options", {}).get("include_usage"):
            event({"id": "c1", "object": "chat.completion.chunk", "choices": [],
                   "usage": {"prompt_tokens": 11, "completion_tokens": len(texts),
                             "total_tokens": 11 + len(texts)}})
        self.chunk(b"data: [DONE]" + eol + eol, bytewise)
        self.leave()
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024


def main():
    global KEY
    parser = argparse.ArgumentParser()
    parser.add_argument("--key")
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEYFILE"))
    args = parser.parse_args()
    KEY = args.key
    server = Server(("127.0.0.1", 0), Handler)
    if args.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls[0], args.tls[1])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print("PORT %d" % server.server_address[1], flush=True)
    threading.Thread(target=lambda: (sys.stdin.read(), server.shutdown()), daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
