#!/usr/bin/env python3
"""A loopback HTTP/1.1 test server framework for CSEKit's network tests (Python 3 stdlib only).

Run directly, it serves the generic routes below; route modules (client_api_emulator.py, the
server emulators) import it, register routes on an `Emulator` and call `main()`:

    import emulator
    app = emulator.Emulator("client-api")

    @app.route("GET", r"/client/v1/(?P<customer>[^/]+)/crypto/publickey")
    def public_key(request, match):
        return emulator.Response.json({"keyId": "k1", "publicKey": "..."})

    if __name__ == "__main__":
        app.main()

Binding and lifetime. The server binds 127.0.0.1 on an ephemeral port (never another address),
prints `PORT <n>` on stdout when it accepts connections, and exits when its standard input
reaches end of file, so it dies with the test process that started it. Options: --cert PEM and
--key PEM serve TLS (the handshake runs on the connection's own thread); --port N picks a port.

Control. One JSON object per line on stdin, one JSON reply per line on stdout:
    {"cmd": "enqueue", "fault": {...}}      queue a fault (FIFO) -> {"ok": true}
    {"cmd": "requests"}                      the request log -> {"ok": true, "requests": [...]}
    {"cmd": "stats"}                         {"ok": true, "connections": n, "tlsFailures": n,
                                              "peakRequestsInService": n}
    {"cmd": "reset"}                         clear faults and log
    {"cmd": "await-held", "count": n,        wait (at most "timeout" s, default 30) until n requests
     "timeout": s}                           are held by "hold" -> {"ok": true, "held": n}, or
                                             {"ok": false} when the time passed
    {"cmd": "release"}                       let every held request answer (and any later one, until
                                             a "hold" fault is queued again)
    {"cmd": "stop"}                          reply, then exit
The same operations over HTTP, for manual use: POST /__control/faults (body: a fault),
GET /__control/requests, GET /__control/stats, POST /__control/reset. Control requests are not
logged and never consume faults.

Request log entries (recorded when a request arrives, before any fault or delay):
    {"method", "path", "query" (raw, or null), "headers": [[name, value], ...], "bodyBase64",
     "receivedAt" (seconds since the server started)}

Faults. Each request that is not a control request takes the first queued fault whose "path"
(a prefix, optional) matches it. Members:
    "delayMs": N        wait N ms first (then apply the rest, or route normally if nothing else)
    "status": S         answer S with "body" (text), "bodyBase64" or "json" (any JSON value),
                        and "headers" ({name: value} or [[name, value], ...])
    "retryAfter": V     add a Retry-After: V header
    "action":
        "drop"          close the connection without any response
        "truncate"      send a 200 whose Content-Length is 100 bytes more than the body, then close
        "malformed"     send a 200 application/json body that is not JSON
        "oversized"     send a 200 body of "bytes" bytes ("chunked": true streams it without a
                        Content-Length, in 16 KiB chunks)
        "garbage"       send bytes that are not an HTTP response, then close
        "hold"          process the request (as "afterRoute"), then send nothing until the
                        "release" command (or "holdSeconds", default 120): a test can end the
                        client while the platform holds the processed request (issue #36)
    "times": N          apply to the next N matching requests (default 1)
    "afterRoute": true  route the request first (so it is processed: a payment is created), then
                        apply "delayMs" and "action" to the answer: the outcome the client loses
"503 then success" is {"status": 503} followed by the normal route.

Generic routes (the bare emulator): any method on /echo[/...] answers 200 with a JSON echo of the
request; GET /bytes/N answers N bytes of "a"; GET /status/N answers status N; anything else 404.
"""

import argparse
import base64
import json
import re
import socket
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_REQUEST_BODY = 16 << 20


class Request:
    """One received request."""

    def __init__(self, method, target, headers, body):
        self.method = method
        path, _, query = target.partition("?")
        self.path = path
        self.query = query if "?" in target else None
        self.headers = headers  # [(name, value)] in order
        self.body = body

    def header(self, name):
        """The first value of header `name` (any case), or None."""
        for key, value in self.headers:
            if key.lower() == name.lower():
                return value
        return None

    def query_items(self):
        """The query as an ordered list of decoded (name, value) pairs."""
        from urllib.parse import parse_qsl

        return parse_qsl(self.query or "", keep_blank_values=True, strict_parsing=False)

    def json(self):
        return json.loads(self.body.decode("utf-8"))

    def log_entry(self, started):
        return {
            "method": self.method,
            "path": self.path,
            "query": self.query,
            "headers": [[k, v] for k, v in self.headers],
            "bodyBase64": base64.b64encode(self.body).decode("ascii"),
            "receivedAt": round(time.monotonic() - started, 6),
        }


class Response:
    """A response a route returns."""

    def __init__(self, status=200, body=b"", headers=None):
        self.status = status
        self.body = body if isinstance(body, bytes) else body.encode("utf-8")
        self.headers = list(headers.items()) if isinstance(headers, dict) else list(headers or [])

    @staticmethod
    def json(value, status=200, headers=None):
        extra = list(headers.items()) if isinstance(headers, dict) else list(headers or [])
        return Response(status, json.dumps(value).encode("utf-8"), [("Content-Type", "application/json")] + extra)

    @staticmethod
    def text(text, status=200, headers=None):
        extra = list(headers.items()) if isinstance(headers, dict) else list(headers or [])
        return Response(status, text.encode("utf-8"), [("Content-Type", "text/plain; charset=utf-8")] + extra)


class Emulator:
    """Routes, a fault queue, a request log, and the server loop."""

    def __init__(self, name="emulator"):
        self.name = name
        self.routes = []
        self.faults = []
        self.log = []
        self.connections = 0
        self.requests_in_service = 0
        self.peak_requests_in_service = 0
        self.tls_failures = 0
        self.lock = threading.Lock()
        # Requests a "hold" fault keeps unanswered, and the event that releases them.
        self.held = 0
        self.held_changed = threading.Condition(self.lock)
        self.released = threading.Event()
        self.started = time.monotonic()
        self.argparser = argparse.ArgumentParser(description=f"CSEKit loopback emulator: {name}")
        self.argparser.add_argument("--cert", help="server certificate chain (PEM); serve TLS")
        self.argparser.add_argument("--key", help="server private key (PEM)")
        self.argparser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: ephemeral)")
        self.args = None

    # Routes

    def route(self, method, pattern):
        """Registers `handler(request, match) -> Response` for `method` and a full-match regex."""
        compiled = re.compile(pattern)

        def register(handler):
            self.routes.append((method.upper(), compiled, handler))
            return handler

        return register

    def dispatch(self, request):
        path_matched = False
        for method, pattern, handler in self.routes:
            match = pattern.fullmatch(request.path)
            if match is None:
                continue
            path_matched = True
            if method in (request.method, "*"):
                return handler(request, match)
        if path_matched:
            return Response.json({"error": "method not allowed"}, 405)
        return Response.json({"error": "no route", "path": request.path}, 404)

    # Control

    def control(self, command):
        cmd = command.get("cmd")
        with self.lock:
            if cmd == "enqueue":
                fault = dict(command.get("fault") or {})
                fault.setdefault("times", 1)
                if fault.get("action") == "hold":
                    self.released.clear()
                self.faults.append(fault)
                return {"ok": True}
            if cmd == "requests":
                return {"ok": True, "requests": list(self.log)}
            if cmd == "stats":
                return {
                    "ok": True,
                    "connections": self.connections,
                    "tlsFailures": self.tls_failures,
                    "peakRequestsInService": self.peak_requests_in_service,
                }
            if cmd == "reset":
                self.faults.clear()
                self.log.clear()
                return {"ok": True}
            if cmd == "await-held":
                count = int(command.get("count", 1))
                reached = self.held_changed.wait_for(lambda: self.held >= count, float(command.get("timeout", 30)))
                return {"ok": reached, "held": self.held}
            if cmd == "release":
                self.released.set()
                return {"ok": True}
            if cmd == "stop":
                return {"ok": True}
        return {"ok": False, "error": f"unknown command {cmd!r}"}

    def take_fault(self, path):
        with self.lock:
            for index, fault in enumerate(self.faults):
                if path.startswith(fault.get("path", "")):
                    fault["times"] -= 1
                    if fault["times"] <= 0:
                        del self.faults[index]
                    return dict(fault)
        return None

    # Serving

    def main(self, argv=None):
        self.args = self.argparser.parse_args(argv)
        context = None
        if self.args.cert:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(self.args.cert, self.args.key)
        server = _Server(("127.0.0.1", self.args.port), _handler_class(self, context))
        server.daemon_threads = True
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        thread.start()
        print(f"PORT {server.server_address[1]}", flush=True)
        try:
            for line in sys.stdin:
                line = line.strip()
                if not line:
                    continue
                try:
                    reply = self.control(json.loads(line))
                except (ValueError, TypeError) as error:
                    reply = {"ok": False, "error": str(error)}
                print(json.dumps(reply), flush=True)
                if json.loads(line).get("cmd") == "stop":
                    break
        finally:
            server.shutdown()
            server.server_close()


class _Server(ThreadingHTTPServer):
    allow_reuse_address = True
    request_queue_size = 256  # a burst of concurrent connects is queued, not dropped (SYN retry)

    def handle_error(self, request, client_address):
        error = sys.exc_info()[1]
        if not isinstance(error, (ConnectionError, ssl.SSLError, socket.timeout, OSError)):
            super().handle_error(request, client_address)


def _handler_class(app, tls_context):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        timeout = 30
        server_version = "CSEKitEmulator/1"

        def setup(self):
            with app.lock:
                app.connections += 1
            if tls_context is not None:
                self.request.settimeout(self.timeout)
                try:
                    self.request = tls_context.wrap_socket(self.request, server_side=True)
                except (ssl.SSLError, OSError):
                    with app.lock:
                        app.tls_failures += 1
                    raise
            super().setup()

        def log_message(self, format, *args):  # quiet: the request log is the record
            pass

        def handle_one_request(self):
            self.close_connection = True
            try:
                self.raw_requestline = self.rfile.readline(65537)
            except (ConnectionError, socket.timeout, ssl.SSLError):
                return
            if not self.raw_requestline or not self.parse_request():
                return
            try:
                self._serve()
            except (BrokenPipeError, ConnectionResetError, ssl.SSLError, socket.timeout):
                pass

        def _serve(self):
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_REQUEST_BODY:
                self._send(Response.json({"error": "request body too large"}, 413))
                return
            body = self.rfile.read(length) if length else b""
            request = Request(self.command, self.path, list(self.headers.items()), body)
            if request.path.startswith("/__control/"):
                self._send(self._http_control(request))
                return
            with app.lock:
                app.log.append(request.log_entry(app.started))
                app.requests_in_service += 1
                app.peak_requests_in_service = max(app.peak_requests_in_service, app.requests_in_service)
            processed = None
            try:
                fault = app.take_fault(request.path)
                if fault and (fault.get("afterRoute") or fault.get("action") == "hold"):
                    processed = self._route(request)
                if fault and fault.get("delayMs"):
                    time.sleep(fault["delayMs"] / 1000.0)
            finally:
                # Before any byte of the answer: a client cannot see it while it is still counted.
                with app.lock:
                    app.requests_in_service -= 1
            action = fault.get("action") if fault else None
            if action == "hold":
                with app.lock:
                    app.held += 1
                    app.held_changed.notify_all()
                app.released.wait(float(fault.get("holdSeconds", 120)))
                with app.lock:
                    app.held -= 1
                self._send(processed)
                return
            if action == "drop":
                self._drop()
                return
            if action == "garbage":
                self.wfile.write(b"NOT HTTP AT ALL\r\n\r\n")
                self.wfile.flush()
                self._drop()
                return
            if action == "truncate":
                payload = b'{"partial": "body"'
                self._head(200, [("Content-Type", "application/json"), ("Content-Length", str(len(payload) + 100))])
                self.wfile.write(payload)
                self.wfile.flush()
                self._drop()
                return
            if action == "malformed":
                self._send(Response(200, b'{"errorId": "x", "errors": [', [("Content-Type", "application/json")]))
                return
            if action == "oversized":
                self._oversized(int(fault.get("bytes", 2 << 20)), bool(fault.get("chunked")))
                return
            if fault and "status" in fault:
                self._send(self._fault_response(fault))
                return
            response = processed or self._route(request)
            if fault and fault.get("retryAfter") is not None:
                response.headers.append(("Retry-After", str(fault["retryAfter"])))
            self._send(response)

        def _route(self, request):
            try:
                return app.dispatch(request)
            except Exception as error:  # a route bug is a 500 with the reason, not a dead server
                return Response.json({"error": "route failed", "reason": repr(error)}, 500)

        def _fault_response(self, fault):
            headers = fault.get("headers") or []
            headers = list(headers.items()) if isinstance(headers, dict) else [tuple(h) for h in headers]
            if "json" in fault:
                body = json.dumps(fault["json"]).encode("utf-8")
                headers = [("Content-Type", "application/json")] + headers
            elif "bodyBase64" in fault:
                body = base64.b64decode(fault["bodyBase64"])
            else:
                body = str(fault.get("body", "")).encode("utf-8")
            if fault.get("retryAfter") is not None:
                headers.append(("Retry-After", str(fault["retryAfter"])))
            return Response(int(fault["status"]), body, headers)

        def _http_control(self, request):
            name = request.path[len("/__control/"):]
            if name == "faults" and request.method == "POST":
                return Response.json(app.control({"cmd": "enqueue", "fault": request.json()}))
            if name in ("requests", "stats") and request.method == "GET":
                return Response.json(app.control({"cmd": name}))
            if name == "reset" and request.method == "POST":
                return Response.json(app.control({"cmd": "reset"}))
            return Response.json({"ok": False, "error": "unknown control request"}, 404)

        def _head(self, status, headers):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Connection", "close")
            self.end_headers()

        def _send(self, response):
            headers = [(k, v) for k, v in response.headers if k.lower() != "content-length"]
            self._head(response.status, headers + [("Content-Length", str(len(response.body)))])
            if self.command != "HEAD":
                self.wfile.write(response.body)
            self.wfile.flush()

        def _oversized(self, size, chunked):
            chunk = b"a" * 16384
            if chunked:
                self._head(200, [("Content-Type", "application/octet-stream"), ("Transfer-Encoding", "chunked")])
            else:
                self._head(200, [("Content-Type", "application/octet-stream"), ("Content-Length", str(size))])
            sent = 0
            while sent < size:
                piece = chunk[: min(len(chunk), size - sent)]
                if chunked:
                    self.wfile.write(b"%x\r\n" % len(piece) + piece + b"\r\n")
                else:
                    self.wfile.write(piece)
                sent += len(piece)
            if chunked:
                self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()

        def _drop(self):
            try:
                self.wfile.flush()
                self.request.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self.request.close()

    return Handler


def _generic_routes(app):
    @app.route("*", r"/echo(/.*)?")
    def echo(request, match):
        entry = request.log_entry(app.started)
        del entry["receivedAt"]
        return Response.json(entry)

    @app.route("GET", r"/bytes/(?P<count>[0-9]{1,9})")
    def byte_count(request, match):
        return Response(200, b"a" * int(match["count"]), [("Content-Type", "application/octet-stream")])

    @app.route("*", r"/status/(?P<status>[1-5][0-9][0-9])")
    def status(request, match):
        return Response.json({"status": int(match["status"])}, int(match["status"]))


if __name__ == "__main__":
    generic = Emulator("generic")
    _generic_routes(generic)
    generic.main()
