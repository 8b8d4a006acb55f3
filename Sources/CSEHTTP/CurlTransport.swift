package import CSECore
internal import CCurl
internal import COpenSSL
internal import Synchronization
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// The default ``HTTPTransport``: libcurl (the Debian `libcurl4-openssl-dev` build, OpenSSL TLS).
///
/// Each attempt gets its own libcurl easy handle, owned by one `final class`, and runs on a
/// transfer thread (never a Swift concurrency pool thread: the transfer blocks in `poll`). At most
/// ``maximumConcurrentTransfers`` transfer threads run in the process; further attempts wait their
/// turn, and a thread that finishes one takes the next. The handle is driven through a multi
/// handle so that task cancellation wakes the wait at once (`curl_multi_wakeup`); the progress
/// callback also aborts a transfer in flight.
///
/// Every attempt: HTTP/1.1 only; `http` and `https` only; TLS 1.2 or later with peer and host name
/// verification on; no redirects followed (a 3xx is returned); no proxy, whatever the environment
/// says (`http_proxy`, `HTTPS_PROXY`, `ALL_PROXY` are ignored); no cookies, netrc, alt-svc or HSTS
/// state; no compression negotiated; `timeout` for the whole attempt (connect included); the body
/// limit enforced from `Content-Length` and again while streaming; response header block at most
/// ``maximumHeaderBytes``; `CURLOPT_NOSIGNAL`; no TLS key log, whatever `SSLKEYLOGFILE` says; a
/// server certificate must name its host in subjectAltName (no common-name fallback). The path is sent as given (`CURLOPT_PATH_AS_IS`):
/// ``HTTPURL`` has already refused dot segments. See docs/CLIENT-API.md, "Transport".
package struct CurlTransport: HTTPTransport {
    /// The largest response header block accepted, in bytes.
    package static let maximumHeaderBytes = 64 * 1024

    /// Where TLS trust comes from.
    package let trust: TLSTrust

    /// The gate this transport's attempts pass: ``sharedGate`` unless a test gave its own.
    let gate: TransferGate

    /// A transport trusting `trust`.
    /// - Throws: `http.tls` when a CA file cannot be read or holds no PEM certificate;
    ///   `http.transport` when libcurl (`libcurl.so.4`, opened on the first transport of the
    ///   process, with `curl_global_init`) cannot be loaded or initialised.
    package init(trust: TLSTrust = .system) throws(CSEError) {
        try self.init(trust: trust, gate: Self.sharedGate)
    }

    /// A transport whose attempts pass `gate` instead of the process-wide one (tests).
    package init(trust: TLSTrust = .system, gate: TransferGate) throws(CSEError) {
        let loaded = CCurl_load()
        guard loaded == CURLE_OK else {
            var context = ["curlCode": String(loaded.rawValue), "library": String(cString: CCurl_library_name())]
            if let reason = CCurl_load_error() { context["reason"] = String(cString: reason) }
            throw CSEError(.httpTransport, "libcurl could not be loaded or initialised", context: context)
        }
        let version = CCurl_version_number()
        guard Self.isSupported(libcurlVersion: version) else {
            throw CSEError(
                .httpTransport, "libcurl is older than \(Self.minimumLibcurlVersion), the first with CURLOPT_PROTOCOLS_STR",
                context: ["library": String(cString: CCurl_library_name()), "version": Self.versionText(version)])
        }
        if let path = trust.caFilePath { try Self.checkCAFile(path) }
        self.trust = trust
        self.gate = gate
    }

    /// The oldest libcurl the transport runs on: 7.85.0 added `CURLOPT_PROTOCOLS_STR` and
    /// `CURLOPT_REDIR_PROTOCOLS_STR`, which limit every attempt to http and https. The .deb
    /// depends on `libcurl4 (>= 7.85)` (Scripts/package-deb.sh).
    package static let minimumLibcurlVersion = "7.85.0"

    /// Whether a `curl_version_info` version number (0xXXYYZZ) is at least ``minimumLibcurlVersion``.
    package static func isSupported(libcurlVersion: UInt32) -> Bool {
        libcurlVersion >= 0x07_55_00
    }

    /// "7.88.1" for 0x075801.
    package static func versionText(_ number: UInt32) -> String {
        "\(number >> 16).\((number >> 8) & 0xFF).\(number & 0xFF)"
    }

    /// Performs one attempt (see the type's documentation for the rules).
    package func perform(_ request: HTTPRequest, timeout: Duration, maxResponseBytes: Int) async throws(CSEError) -> HTTPResponse {
        try request.headers.validate()
        for name in ["Content-Length", "Transfer-Encoding"] where request.headers[name] != nil {
            throw CSEError(.httpInvalidHeader, "the transport sets \(name) itself", context: ["header": name])
        }
        guard timeout > .zero, maxResponseBytes > 0 else {
            throw CSEError(.httpInvalidConfiguration, "the attempt timeout and the body limit must be positive")
        }
        guard !Task.isCancelled else { throw CurlAttempt.cancelledError(request) }
        let transfer = CurlTransfer(
            request: request, expiry: ContinuousClock.now + timeout, maxResponseBytes: maxResponseBytes, trust: trust,
            queueTimeoutError: queueTimeoutError(request))
        let id = gate.makeID()
        let result: Result<HTTPResponse, CSEError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let job = TransferGate.Job(
                    id: id, run: { continuation.resume(returning: transfer.run()) },
                    withdrawn: { reason in
                        continuation.resume(
                            returning: .failure(reason == .timedOut ? transfer.queueTimeoutError : CurlAttempt.cancelledError(request)))
                    })
                do throws(CSEError) {
                    if try gate.submit(job) { transfer.startQueueTimer(gate: gate, id: id) }
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        } onCancel: {
            transfer.cancel()
            gate.withdraw(id, .cancelled)
        }
        transfer.stopQueueTimer()
        return try result.get()
    }

    /// The most attempts in flight at once in the process, over every transport: each holds one
    /// transfer thread and one connection while it runs. Further attempts wait in arrival order
    /// (never fail) for a free thread; the wait counts against their timeout (`http.timeout` when
    /// it runs out first) and ends at once on task cancellation (`http.cancelled`).
    package static let maximumConcurrentTransfers = 32

    /// The gate every attempt of the process passes.
    static let sharedGate = TransferGate(limit: maximumConcurrentTransfers)

    private func queueTimeoutError(_ request: HTTPRequest) -> CSEError {
        CSEError(
            .httpTimeout, "the attempt timed out waiting for a transfer slot",
            context: [
                "method": request.method.rawValue, "host": request.url.host, "path": request.url.path,
                "maximumConcurrentTransfers": String(gate.limit),
            ])
    }

    /// Reads at most 16 MiB of `path` and checks it holds a PEM certificate.
    private static func checkCAFile(_ path: String) throws(CSEError) {
        let failure = CSEError(.httpTLS, "the CA file cannot be read or holds no PEM certificate", context: ["caFile": path])
        guard let file = fopen(path, "rb") else { throw failure }
        defer { fclose(file) }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while contents.count < 16 << 20 {
            let read = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if read <= 0 { break }
            contents += chunk[..<read]
        }
        let marker = Array("-----BEGIN CERTIFICATE-----".utf8)
        guard contents.count >= marker.count,
            (0...(contents.count - marker.count)).contains(where: { contents[$0..<($0 + marker.count)].elementsEqual(marker) })
        else { throw failure }
    }
}

/// One attempt from the caller's side: made when `perform` is called, run on a transfer thread
/// when the gate admits it. The libcurl handles are created only then (a waiting attempt holds
/// none) with the time left until `expiry`, so the wait counts against the attempt's timeout.
final class CurlTransfer: Sendable {
    private struct State {
        var attempt: CurlAttempt?
        var cancelled = false
        var queueTimer: Task<Void, Never>?
    }

    private let request: HTTPRequest
    private let expiry: ContinuousClock.Instant
    private let maxResponseBytes: Int
    private let trust: TLSTrust
    /// The error of an attempt whose timeout passed before it could start.
    let queueTimeoutError: CSEError
    private let state = ThreadLock(State())

    init(request: HTTPRequest, expiry: ContinuousClock.Instant, maxResponseBytes: Int, trust: TLSTrust, queueTimeoutError: CSEError) {
        self.request = request
        self.expiry = expiry
        self.maxResponseBytes = maxResponseBytes
        self.trust = trust
        self.queueTimeoutError = queueTimeoutError
    }

    /// On the transfer thread: the whole attempt, with the time left.
    func run() -> Result<HTTPResponse, CSEError> {
        let remaining = expiry - ContinuousClock.now
        guard remaining > .zero else { return .failure(queueTimeoutError) }
        let attempt: CurlAttempt
        do {
            attempt = try CurlAttempt(request: request, timeout: remaining, maxResponseBytes: maxResponseBytes, trust: trust)
        } catch {
            return .failure(error)
        }
        let cancelled = state.withLock { state in
            if !state.cancelled { state.attempt = attempt }
            return state.cancelled
        }
        guard !cancelled else { return .failure(CurlAttempt.cancelledError(request)) }
        let result = attempt.run()
        state.withLock { $0.attempt = nil }  // the handles are freed on this thread, now
        return result
    }

    /// From any thread: stops the attempt if it runs, or keeps it from starting.
    func cancel() {
        let attempt = state.withLock { state in
            state.cancelled = true
            return state.attempt
        }
        attempt?.cancel()
    }

    /// Withdraws the job from `gate` when the timeout passes before it starts.
    func startQueueTimer(gate: TransferGate, id: UInt64) {
        let expiry = expiry
        let timer = Task {
            try? await Task.sleep(until: expiry, clock: .continuous)
            gate.withdraw(id, .timedOut)
        }
        state.withLock { $0.queueTimer = timer }
    }

    func stopQueueTimer() {
        state.withLock { $0.queueTimer }?.cancel()
    }
}

/// Runs a closure on a new detached POSIX thread, named ``name`` (in `/proc/<pid>/task/*/comm`,
/// `top -H`, debuggers).
enum DedicatedThread {
    /// The name of every transfer thread (at most 15 bytes).
    static let name = "cse-http"

    private final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    static func start(_ body: @escaping @Sendable () -> Void) throws(CSEError) {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let status = pthread_create(
            &thread, &attributes,
            { raw in
                CCurl_name_current_thread(DedicatedThread.name)
                Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, work)
        guard status == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            throw CSEError(.httpTransport, "no thread could be started for the transfer", context: ["errno": String(status)])
        }
    }
}

/// One attempt: the owner of one libcurl easy handle, the multi handle that drives it, the
/// request header list and a copy of the request body (cleansed in `deinit`). Created and run on one
/// dedicated thread; only ``cancel()`` is called from elsewhere (it touches the atomic flag and
/// the thread-safe `curl_multi_wakeup`).
final class CurlAttempt: @unchecked Sendable {
    private let easy: UnsafeMutableRawPointer
    private let multi: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let requestBody: UnsafeMutableRawBufferPointer
    private let errorContext: [String: String]
    private let maxResponseBytes: Int

    private var body: [UInt8] = []
    private var headers = HTTPHeaders()
    private var headerBytes = 0
    private var overLimit = false
    private let cancelled = Atomic<Bool>(false)

    init(request: HTTPRequest, timeout: Duration, maxResponseBytes: Int, trust: TLSTrust) throws(CSEError) {
        errorContext = ["method": request.method.rawValue, "host": request.url.host, "path": request.url.path]
        self.maxResponseBytes = maxResponseBytes
        guard let easy = CCurl_easy_init() else {
            throw CSEError(.httpTransport, "libcurl could not create a handle", context: errorContext)
        }
        guard let multi = CCurl_multi_init() else {
            CCurl_easy_cleanup(easy)
            throw CSEError(.httpTransport, "libcurl could not create a handle", context: errorContext)
        }
        self.easy = easy
        self.multi = multi
        requestBody = .allocate(byteCount: max(request.body.count, 1), alignment: 1)
        request.body.withUnsafeBytes { requestBody.copyMemory(from: $0) }
        try configure(request, timeout: timeout, trust: trust)
        guard CCurl_multi_add_handle(multi, easy) == CURLM_OK else {
            throw CSEError(.httpTransport, "libcurl could not start the transfer", context: errorContext)
        }
    }

    deinit {
        CCurl_multi_remove_handle(multi, easy)
        CCurl_easy_cleanup(easy)
        CCurl_multi_cleanup(multi)
        // Header lines hold the Authorization value: cleansed before libcurl frees them.
        var node = headerList
        while let current = node {
            if let line = current.pointee.data { secureZero(UnsafeMutableRawBufferPointer(start: line, count: strlen(line))) }
            node = current.pointee.next
        }
        CCurl_slist_free_all(headerList)
        // The body may carry card digits (getIINdetails, surcharge): cleansed before it is freed.
        secureZero(requestBody)
        requestBody.deallocate()
    }

    /// Stops the transfer from any thread: the run loop sees the flag when `curl_multi_poll`
    /// wakes, the progress callback when libcurl is inside a transfer step.
    func cancel() {
        cancelled.store(true, ordering: .sequentiallyConsistent)
        CCurl_multi_wakeup(multi)
    }

    static func cancelledError(_ request: HTTPRequest) -> CSEError {
        CSEError(
            .httpCancelled, "the task was cancelled",
            context: ["method": request.method.rawValue, "host": request.url.host, "path": request.url.path])
    }

    // MARK: Options

    private func set(_ option: CURLoption, _ value: Int) throws(CSEError) {
        try check(CCurl_setopt_long(easy, option, value), option)
    }

    private func set(_ option: CURLoption, _ value: String?) throws(CSEError) {
        let code: CURLcode
        if let value {
            code = value.withCString { CCurl_setopt_pointer(easy, option, $0) }  // libcurl copies strings
        } else {
            code = CCurl_setopt_pointer(easy, option, nil)
        }
        try check(code, option)
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(CSEError) {
        guard code == CURLE_OK else {
            throw CSEError(
                .httpTransport, "libcurl refused an option",
                context: errorContext.merging(["curlCode": String(code.rawValue), "option": String(option.rawValue)]) { a, _ in a })
        }
    }

    private func configure(_ request: HTTPRequest, timeout: Duration, trust: TLSTrust) throws(CSEError) {
        let userData = Unmanaged.passUnretained(self).toOpaque()
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_URL, request.url.absoluteString)
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_FOLLOWLOCATION, 0)
        try set(CURLOPT_PATH_AS_IS, 1)
        try set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        try set(CURLOPT_PROXY, "")  // "" disables proxies, including those from the environment
        try set(CURLOPT_NOPROXY, "*")
        try set(CURLOPT_FORBID_REUSE, 1)
        try set(CURLOPT_SSL_VERIFYPEER, 1)
        try set(CURLOPT_SSL_VERIFYHOST, 2)
        try set(CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2))
        // No key log whatever SSLKEYLOGFILE says, and a subjectAltName required (Sources/CCurl).
        try check(CCurl_setopt_tls_hardening(easy), CURLOPT_SSL_CTX_FUNCTION)
        if let path = trust.caFilePath {
            try set(CURLOPT_CAINFO, path)
            try set(CURLOPT_CAPATH, nil)  // the bundle replaces the system store, not adds to it
        }
        let milliseconds = max(1, Int(timeout.components.seconds) * 1000 + Int(timeout.components.attoseconds / 1_000_000_000_000_000))
        try set(CURLOPT_TIMEOUT_MS, milliseconds)
        try set(CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
        try set(CURLOPT_MAXFILESIZE_LARGE, maxResponseBytes)

        try check(CCurl_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION, curlWriteBody), CURLOPT_WRITEFUNCTION)
        try check(CCurl_setopt_pointer(easy, CURLOPT_WRITEDATA, userData), CURLOPT_WRITEDATA)
        try check(CCurl_setopt_write_callback(easy, CURLOPT_HEADERFUNCTION, curlWriteHeader), CURLOPT_HEADERFUNCTION)
        try check(CCurl_setopt_pointer(easy, CURLOPT_HEADERDATA, userData), CURLOPT_HEADERDATA)
        try check(CCurl_setopt_xferinfo_callback(easy, curlProgress), CURLOPT_XFERINFOFUNCTION)
        try check(CCurl_setopt_pointer(easy, CURLOPT_XFERINFODATA, userData), CURLOPT_XFERINFODATA)
        try set(CURLOPT_NOPROGRESS, 0)

        // GET and DELETE without a body send no Content-Length; every other request (POST, PUT,
        // and a GET or DELETE that has a body) sends its body with a Content-Length, even 0.
        if request.body.isEmpty && (request.method == .get || request.method == .delete) {
            try set(CURLOPT_HTTPGET, 1)
        } else {
            try set(CURLOPT_POST, 1)
            try check(CCurl_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)), CURLOPT_POSTFIELDSIZE_LARGE)
            try check(CCurl_setopt_pointer(easy, CURLOPT_POSTFIELDS, requestBody.baseAddress), CURLOPT_POSTFIELDS)
        }
        if request.method != .get && request.method != .post { try set(CURLOPT_CUSTOMREQUEST, request.method.rawValue) }
        if request.method == .get && !request.body.isEmpty { try set(CURLOPT_CUSTOMREQUEST, "GET") }

        var lines: [String] = []
        for (name, value) in request.headers {
            lines.append(value.isEmpty ? name + ";" : name + ": " + value)  // "Name;" sends an empty value
        }
        lines.append("Expect:")  // no 100-continue round trip
        if request.method != .get, request.headers["Content-Type"] == nil {
            lines.append("Content-Type:")  // no default application/x-www-form-urlencoded
        }
        for line in lines {
            guard let appended = CCurl_slist_append(headerList, line) else {
                throw CSEError(.httpTransport, "libcurl could not build the header list", context: errorContext)
            }
            headerList = appended
        }
        try check(CCurl_setopt_pointer(easy, CURLOPT_HTTPHEADER, headerList), CURLOPT_HTTPHEADER)
    }

    // MARK: Callbacks (on the transfer thread)

    fileprivate func receiveBody(_ data: UnsafeRawBufferPointer) -> Int {
        guard body.count + data.count <= maxResponseBytes else {
            overLimit = true
            return 0  // CURLE_WRITE_ERROR
        }
        body.append(contentsOf: data)
        return data.count
    }

    fileprivate func receiveHeader(_ data: UnsafeRawBufferPointer) -> Int {
        headerBytes += data.count
        guard headerBytes <= CurlTransport.maximumHeaderBytes else {
            overLimit = true
            return 0
        }
        var line = Array(data)
        while let last = line.last, last == 0x0A || last == 0x0D { line.removeLast() }
        if line.starts(with: Array("HTTP/".utf8)) {
            headers = HTTPHeaders()  // a new response (after 1xx): keep only the final one's fields
            headerBytes = data.count
        } else if let first = line.first, first == 0x20 || first == 0x09 {
            // obs-fold (RFC 9112 §5.2): replace with a space and append to the previous field
            var fields = Array(headers)
            if var previous = fields.popLast() {
                previous.value += " " + String(decoding: line, as: UTF8.self).trimmingSpaces()
                headers = HTTPHeaders()
                for field in fields + [previous] { headers.add(name: field.name, value: field.value) }
            }
        } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            let name = String(decoding: line[..<colon], as: UTF8.self)
            if HTTPHeaders.isToken(name) {
                headers.add(name: name, value: String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingSpaces())
            }
        }
        return data.count
    }

    fileprivate var isCancelled: Bool { cancelled.load(ordering: .sequentiallyConsistent) }

    // MARK: Running (on the dedicated thread)

    func run() -> Result<HTTPResponse, CSEError> {
        var running: Int32 = 1
        while true {
            if isCancelled { return .failure(CSEError(.httpCancelled, "the task was cancelled", context: errorContext)) }
            let performed = CCurl_multi_perform(multi, &running)
            guard performed == CURLM_OK else {
                return .failure(
                    CSEError(.httpTransport, "libcurl failed to drive the transfer", context: curlContext(Int(performed.rawValue))))
            }
            if running == 0 { break }
            let polled = CCurl_multi_poll(multi, nil, 0, 1000, nil)
            guard polled == CURLM_OK else {
                return .failure(
                    CSEError(.httpTransport, "libcurl failed to wait for the transfer", context: curlContext(Int(polled.rawValue))))
            }
        }
        var remaining: Int32 = 0
        var result: CURLcode?
        while let message = CCurl_multi_info_read(multi, &remaining) {
            if message.pointee.msg == CURLMSG_DONE { result = message.pointee.data.result }
        }
        guard let result else {
            return .failure(CSEError(.httpTransport, "libcurl ended the transfer without a result", context: errorContext))
        }
        guard result == CURLE_OK else { return .failure(error(for: result)) }
        var status = 0
        _ = CCurl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        return .success(HTTPResponse(status: status, headers: headers, body: body))
    }

    private func curlContext(_ code: Int) -> [String: String] {
        errorContext.merging(["curlCode": String(code)]) { a, _ in a }
    }

    /// Maps a libcurl result (libcurl-errors(3)) to an `http.*` error. Reasons are fixed strings
    /// plus libcurl's and OpenSSL's static descriptions; libcurl's error buffer (which can quote
    /// server data) is never used.
    private func error(for code: CURLcode) -> CSEError {
        let context = curlContext(Int(code.rawValue))
        let described = String(cString: CCurl_easy_strerror(code))
        switch code {
        case CURLE_ABORTED_BY_CALLBACK where isCancelled:
            return CSEError(.httpCancelled, "the task was cancelled", context: context)
        case CURLE_WRITE_ERROR where overLimit, CURLE_FILESIZE_EXCEEDED:
            return CSEError(
                .httpResponseTooLarge, "the response is larger than the limit",
                context: context.merging(["limit": String(maxResponseBytes)]) { a, _ in a })
        case CURLE_OPERATION_TIMEDOUT:
            return CSEError(.httpTimeout, "the attempt timed out", context: context)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT, CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR:
            return CSEError(.httpConnectionFailed, "the connection failed: \(described)", context: context)
        case CURLE_PARTIAL_FILE:
            return CSEError(.httpConnectionFailed, "the connection closed before the whole body arrived", context: context)
        case CURLE_PEER_FAILED_VERIFICATION:
            var verify = 0
            _ = CCurl_getinfo_long(easy, CURLINFO_SSL_VERIFYRESULT, &verify)
            // libcurl (7.88, OpenSSL backend) checks the host name before it reads OpenSSL's verify
            // result, and starts from 1 (`!X509_V_OK`): 0 or 1 here means the chain verified, or was
            // never consulted because the name check failed first. Both are the name check.
            if verify == 0 || verify == 1 {
                return CSEError(.httpTLS, "the server certificate does not match the host name", context: context)
            }
            if verify == Int(X509_V_ERR_APPLICATION_VERIFICATION) {  // set by the CCurl TLS hook only
                return CSEError(
                    .httpTLS, "the server certificate names no DNS name or IP address in subjectAltName (the common name is not used)",
                    context: context.merging(["x509Error": String(verify)]) { a, _ in a })
            }
            let reason = String(cString: X509_verify_cert_error_string(verify))
            return CSEError(
                .httpTLS, "the server certificate does not verify: \(reason)",
                context: context.merging(["x509Error": String(verify)]) { a, _ in a })
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
            CURLE_SSL_ENGINE_INITFAILED:
            return CSEError(.httpTLS, "TLS failed: \(described)", context: context)
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_UNSUPPORTED_PROTOCOL, CURLE_BAD_CONTENT_ENCODING:
            return CSEError(.httpTransport, "the server's reply is not valid HTTP/1.1: \(described)", context: context)
        default:
            return CSEError(.httpTransport, "the transfer failed: \(described)", context: context)
        }
    }
}

private func attempt(_ userData: UnsafeMutableRawPointer?) -> CurlAttempt {
    Unmanaged<CurlAttempt>.fromOpaque(userData!).takeUnretainedValue()
}

private let curlWriteBody: curl_write_callback = { data, size, count, userData in
    attempt(userData).receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
}

private let curlWriteHeader: curl_write_callback = { data, size, count, userData in
    attempt(userData).receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count))
}

private let curlProgress: curl_xferinfo_callback = { userData, _, _, _, _ in
    attempt(userData).isCancelled ? 1 : 0
}
