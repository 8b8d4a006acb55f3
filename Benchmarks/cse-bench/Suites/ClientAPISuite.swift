import CSEClientAPI
import CSECore
import CSECrypto
@_spi(CustomTransport) import CSEHTTP
import CSEJOSE
import CSEPayments
import Dispatch

/// The Client API session's hot paths, with an in-memory transport (no network): sealing through
/// a session whose key is cached (against the offline `seal-card/rsa2048`), and a product-cache hit.
enum ClientAPISuite {
    static var definitions: [Definition] {
        [
            Definition("client-encrypt-cached/rsa2048") { fixtures in encryptCached(fixtures.keys(bits: 2048)) },
            Definition("client-product-cache-hit") { _ in productCacheHit() },
        ]
    }

    /// Answers the public key and product 1 from memory.
    struct MemoryTransport: HTTPTransport {
        let keyJSON: [UInt8]
        let productJSON: [UInt8]
        func perform(_ request: HTTPRequest, timeout: Duration, maxResponseBytes: Int) async throws(CSEError) -> HTTPResponse {
            let body = request.url.path.hasSuffix("/crypto/publickey") ? keyJSON : productJSON
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: body)
        }
    }

    static func session(_ keys: BenchmarkKeys?) -> ClientAPISession {
        let keyJSON =
            keys.map { #"{"keyId":"\#(Fixtures.keyID)","publicKey":"\#(Base64.encode($0.publicKey.derRepresentation))"}"# } ?? "{}"
        // The built-in card product under the platform id 1.
        let product = (BuiltinProducts.embeddedJSON(id: "card") ?? "").replacingFirst(#""id": "card""#, with: #""id": 1"#)
        let transport = MemoryTransport(keyJSON: Array(keyJSON.utf8), productJSON: Array(product.utf8))
        let data = mustSucceed { () throws(CSEError) in
            try SessionData(
                clientSessionID: Fixtures.clientSessionID, customerID: "bench", clientAPIURL: "https://client.example.com",
                assetURL: "https://assets.example.com")
        }
        var configuration = ClientAPIConfiguration()
        configuration.sealing = SealingOptions(allowInvalidRequest: false)
        return mustSucceed { () throws(CSEError) in
            try ClientAPISession(sessionData: data, configuration: configuration, transport: transport)
        }
    }

    /// Runs `body` in one task and waits for it.
    static func blocking(_ body: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await body()
            done.signal()
        }
        done.wait()
    }

    /// Runs `iterations` of `operation` in one task and returns the nanoseconds the loop took,
    /// measured inside the task: the hop into the task and the wake-up of the waiting thread
    /// are scheduler latency, not part of the call a caller already in an async context makes.
    static func timedInTask(_ iterations: Int, _ operation: @escaping @Sendable () async -> Void) -> UInt64 {
        let box = Box<UInt64>(0)
        blocking {
            let start = nowNanoseconds()
            for _ in 0..<iterations { await operation() }
            box.value = nowNanoseconds() - start
        }
        return box.value
    }

    static func encryptCached(_ keys: BenchmarkKeys) -> Benchmark {
        let session = session(keys)
        let request = CardRequestSuite.request()
        // Setup: fetch the key once, and prove the sealed payload decrypts to the card.
        let box = Box<String?>(nil)
        blocking { box.value = try? await session.encrypt(request).encryptedCustomerInput }
        let decryptor = mustSucceed { () throws(CSEError) in try JWEDecryptor(privateKey: keys.privateKey, expectedKeyID: Fixtures.keyID) }
        guard let jwe = box.value,
            let plaintext = try? decryptor.decrypt(jwe).plaintext.unsafeCopyToArray(),
            String(decoding: plaintext, as: UTF8.self).contains(#""value":"4567350000427977""#)
        else { fatalError("client-encrypt-cached setup: the sealed payload does not carry the card") }
        return Benchmark.selfTimed("client-encrypt-cached/rsa2048") { iterations in
            timedInTask(iterations) { blackHole(mustSucceedAsync(try? await session.encrypt(request))) }
        }
    }

    static func productCacheHit() -> Benchmark {
        let session = session(nil)
        let context = mustSucceed { () throws(CSEError) in try PaymentContext(amount: 1000, currencyCode: "EUR", countryCode: "NL") }
        let box = Box<String?>(nil)
        blocking { box.value = try? await session.paymentProduct(id: "1", for: context).id }
        guard box.value == "1" else { fatalError("client-product-cache-hit setup: product 1 did not load") }
        return Benchmark.selfTimed("client-product-cache-hit") { iterations in
            timedInTask(iterations) { blackHole(mustSucceedAsync(try? await session.paymentProduct(id: "1", for: context))) }
        }
    }

    /// A value a task writes and the thread waiting on the semaphore reads afterwards (the
    /// semaphore orders the two accesses).
    final class Box<Value>: @unchecked Sendable {
        var value: Value
        init(_ value: Value) { self.value = value }
    }
}

/// A result setup has proven to be there; `nil` means the benchmark measures something else.
@inline(__always)
func mustSucceedAsync<T>(_ value: T?) -> T {
    guard let value else { fatalError("benchmark operation failed") }
    return value
}

extension String {
    /// The string with the first occurrence of `target` replaced (no Foundation).
    func replacingFirst(_ target: String, with replacement: String) -> String {
        let scalars = Array(unicodeScalars), pattern = Array(target.unicodeScalars)
        guard !pattern.isEmpty, scalars.count >= pattern.count else { return self }
        for start in 0...(scalars.count - pattern.count) where Array(scalars[start..<start + pattern.count]) == pattern {
            return String(String.UnicodeScalarView(scalars[..<start])) + replacement
                + String(String.UnicodeScalarView(scalars[(start + pattern.count)...]))
        }
        return self
    }
}
