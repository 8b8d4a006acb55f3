import Foundation

/// A Python emulator (`Tests/Emulators/<script>`, built on `emulator.py`) running on
/// 127.0.0.1 for one test: started by `init`, controlled over its standard input, stopped by
/// ``stop()`` (or `deinit`). The emulator also exits by itself when this process dies (its
/// standard input closes). Every wait is bounded.
///
/// ```swift
/// let server = try LoopbackEmulator()
/// defer { server.stop() }
/// try server.enqueue(.status(503))           // the next request gets a 503
/// let url = try HTTPURL(server.baseURL + "/echo")
/// let log = try server.requests()           // what the server received
/// ```
public final class LoopbackEmulator: @unchecked Sendable {
    /// A failure to start or talk to the emulator (a test-harness failure, not a product error).
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with the emulator's stderr when there is some.
        public let description: String
    }

    /// A request as the emulator received it.
    public struct RecordedRequest: Sendable {
        /// The method.
        public let method: String
        /// The path, still percent-encoded.
        public let path: String
        /// The raw query, or `nil` when the target had no `?`.
        public let query: String?
        /// The header fields in arrival order.
        public let headers: [(name: String, value: String)]
        /// The body bytes.
        public let body: [UInt8]
        /// Seconds since the emulator started, when the request arrived.
        public let receivedAt: Double

        /// The first value of `name` (any case).
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// The body as UTF-8 text.
        public var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    /// One entry of the emulator's fault queue (see the `emulator.py` docstring for the members).
    public struct Fault: Sendable {
        fileprivate var members: [(String, String)]  // name, JSON text

        fileprivate init(_ members: [(String, String)]) { self.members = members }

        /// Answer `status` with a text body and extra headers.
        public static func status(_ status: Int, body: String = "", headers: [(String, String)] = []) -> Fault {
            Fault([("status", String(status)), ("body", jsonString(body)), ("headers", jsonPairs(headers))])
        }

        /// Answer `status` with a JSON body (`json` must be JSON text) and extra headers.
        public static func json(_ status: Int, _ json: String, headers: [(String, String)] = []) -> Fault {
            Fault([("status", String(status)), ("json", json), ("headers", jsonPairs(headers))])
        }

        /// Wait, then let the route answer.
        public static func delay(milliseconds: Int) -> Fault { Fault([("delayMs", String(milliseconds))]) }
        /// Close the connection without a response.
        public static let drop = Fault([("action", jsonString("drop"))])
        /// A 200 whose `Content-Length` promises 100 bytes more than are sent.
        public static let truncatedBody = Fault([("action", jsonString("truncate"))])
        /// A 200 `application/json` body that is not JSON.
        public static let malformedBody = Fault([("action", jsonString("malformed"))])
        /// Bytes that are not an HTTP response.
        public static let garbage = Fault([("action", jsonString("garbage"))])
        /// Process the request, then answer nothing until ``LoopbackEmulator/release()``: the
        /// platform holds a processed request (issue #36's crash tests).
        public static let hold = Fault([("action", jsonString("hold"))])

        /// A 200 body of `bytes` bytes, with a `Content-Length` or chunked without one.
        public static func oversizedBody(bytes: Int, chunked: Bool) -> Fault {
            Fault([("action", jsonString("oversized")), ("bytes", String(bytes)), ("chunked", chunked ? "true" : "false")])
        }

        /// The same fault after a delay.
        public func delayed(milliseconds: Int) -> Fault { with("delayMs", String(milliseconds)) }
        /// The same fault with a `Retry-After` header.
        public func retryAfter(_ value: String) -> Fault { with("retryAfter", Self.jsonString(value)) }
        /// The same fault for the next `count` matching requests.
        public func times(_ count: Int) -> Fault { with("times", String(count)) }
        /// The same fault applied to the route's answer: the request is processed first (a payment
        /// is created), then the delay or action loses its answer.
        public func afterRoute() -> Fault { with("afterRoute", "true") }
        /// The same fault only for paths starting with `prefix`.
        public func onPath(_ prefix: String) -> Fault { with("path", Self.jsonString(prefix)) }

        private func with(_ name: String, _ json: String) -> Fault {
            Fault(members.filter { $0.0 != name } + [(name, json)])
        }

        fileprivate var json: String {
            "{" + members.map { Self.jsonString($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
        }

        fileprivate static func jsonString(_ text: String) -> String {
            let data = try! JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])
            return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
        }

        private static func jsonPairs(_ pairs: [(String, String)]) -> String {
            "[" + pairs.map { "[" + jsonString($0.0) + "," + jsonString($0.1) + "]" }.joined(separator: ",") + "]"
        }
    }

    /// The interpreter (Debian's, which the CI installs).
    public static let python = "/usr/bin/python3"
    /// The emulator scripts' directory.
    public static let directory = TestPaths.packageRoot.appendingPathComponent("Tests/Emulators").path

    /// The port on 127.0.0.1.
    public let port: Int
    /// Whether the emulator serves TLS.
    public let usesTLS: Bool

    private let process: Process
    private let input: FileHandle
    private let lines = LineBuffer()
    private let errors = LineBuffer()
    private let controlLock = NSLock()
    private var stopped = false

    /// Starts `Tests/Emulators/<script>` with `arguments`; with `tls`, serves that certificate.
    /// Waits at most `startupTimeout` seconds for the `PORT` line.
    public init(
        script: String = "emulator.py", arguments: [String] = [], tls: TestCA.ServerCertificate? = nil, startupTimeout: Double = 30
    ) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        var all = ["-u", Self.directory + "/" + script] + arguments
        if let tls { all += ["--cert", tls.certificatePath, "--key", tls.keyPath] }
        process.arguments = all
        process.currentDirectoryURL = URL(fileURLWithPath: Self.directory)
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        self.process = process
        self.input = stdin.fileHandleForWriting
        self.usesTLS = tls != nil
        lines.drain(stdout.fileHandleForReading)
        errors.drain(stderr.fileHandleForReading)
        guard let first = lines.next(timeout: startupTimeout), first.hasPrefix("PORT "), let port = Int(first.dropFirst(5)) else {
            Self.terminate(process, input: stdin.fileHandleForWriting)
            throw Failure(description: "the emulator \(script) did not report its port; stderr: \(errors.all())")
        }
        self.port = port
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT`, or `https://127.0.0.1:PORT` with TLS.
    public var baseURL: String { (usesTLS ? "https" : "http") + "://127.0.0.1:\(port)" }

    /// `https://localhost:PORT` (the certificate's DNS name) or `http://localhost:PORT`.
    public var localhostURL: String { (usesTLS ? "https" : "http") + "://localhost:\(port)" }

    /// Queues a fault for the next matching request.
    public func enqueue(_ fault: Fault) throws {
        _ = try control("{\"cmd\":\"enqueue\",\"fault\":\(fault.json)}")
    }

    /// Every non-control request received so far, in order.
    public func requests() throws -> [RecordedRequest] {
        let reply = try control("{\"cmd\":\"requests\"}")
        guard let entries = reply["requests"] as? [[String: Any]] else { throw Failure(description: "bad requests reply") }
        return entries.map { entry in
            let pairs = (entry["headers"] as? [[String]] ?? []).map { (name: $0[0], value: $0[1]) }
            return RecordedRequest(
                method: entry["method"] as? String ?? "", path: entry["path"] as? String ?? "", query: entry["query"] as? String,
                headers: pairs, body: Array(Data(base64Encoded: entry["bodyBase64"] as? String ?? "") ?? Data()),
                receivedAt: entry["receivedAt"] as? Double ?? 0)
        }
    }

    /// Connections accepted and TLS handshakes that failed on the server side.
    public func stats() throws -> (connections: Int, tlsFailures: Int) {
        let reply = try control("{\"cmd\":\"stats\"}")
        return (reply["connections"] as? Int ?? -1, reply["tlsFailures"] as? Int ?? -1)
    }

    /// The most requests the emulator served at once, each counted from its arrival to the end of
    /// its delay fault (before any byte of the answer is written, so a request whose answer the
    /// client has seen is never still counted).
    public func peakRequestsInService() throws -> Int {
        let reply = try control("{\"cmd\":\"stats\"}")
        return reply["peakRequestsInService"] as? Int ?? -1
    }

    /// Waits until `count` requests are held by ``Fault/hold`` (at most 15 s, then throws).
    public func awaitHeld(_ count: Int = 1) throws {
        _ = try control("{\"cmd\":\"await-held\",\"count\":\(count),\"timeout\":15}")
    }

    /// Lets every held request answer (and any later one, until a ``Fault/hold`` is queued again).
    public func release() throws { _ = try control("{\"cmd\":\"release\"}") }

    /// Clears the fault queue and the request log.
    public func reset() throws { _ = try control("{\"cmd\":\"reset\"}") }

    /// The emulator's standard error so far (for failure messages).
    public var standardError: String { errors.all() }

    /// Stops the emulator: closes its standard input, waits up to 5 s, then terminates it.
    public func stop() {
        controlLock.lock()
        defer { controlLock.unlock() }
        guard !stopped else { return }
        stopped = true
        Self.terminate(process, input: input)
    }

    private static func terminate(_ process: Process, input: FileHandle) {
        try? input.close()
        for _ in 0..<500 where process.isRunning { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            for _ in 0..<200 where process.isRunning { usleep(10_000) }
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    private func control(_ line: String) throws -> [String: Any] {
        controlLock.lock()
        defer { controlLock.unlock() }
        guard !stopped else { throw Failure(description: "the emulator is stopped") }
        do {
            try input.write(contentsOf: Data((line + "\n").utf8))
        } catch {
            throw Failure(description: "the emulator's input is closed; stderr: \(errors.all())")
        }
        guard let reply = lines.next(timeout: 20),
            let object = try? JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any], object["ok"] as? Bool == true
        else { throw Failure(description: "the emulator did not answer \(line); stderr: \(errors.all())") }
        return object
    }
}

/// Lines read from a pipe by a background thread, handed out with a bounded wait.
private final class LineBuffer: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [String] = []
    private var everything: [String] = []
    private var partial = Data()
    private var closed = false

    func drain(_ handle: FileHandle) {
        let thread = Thread { [self] in
            while true {
                let data = handle.availableData
                condition.lock()
                if data.isEmpty {
                    closed = true
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                partial.append(data)
                while let newline = partial.firstIndex(of: 0x0A) {
                    let line = String(decoding: partial[partial.startIndex..<newline], as: UTF8.self)
                    partial.removeSubrange(partial.startIndex...newline)
                    pending.append(line)
                    everything.append(line)
                }
                condition.broadcast()
                condition.unlock()
            }
        }
        thread.start()
    }

    /// The next line, or `nil` after `timeout` seconds or at end of file.
    func next(timeout: Double) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty && !closed {
            if !condition.wait(until: deadline) { break }
        }
        return pending.isEmpty ? nil : pending.removeFirst()
    }

    func all() -> String {
        condition.lock()
        defer { condition.unlock() }
        return (everything + [String(decoding: partial, as: UTF8.self)]).joined(separator: "\n")
    }
}
