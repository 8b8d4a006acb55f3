// `cse-bench --journal [N]`: what the payment journal costs (issue #36), not a ratio benchmark.
//
// 1. Added latency per call: N Paysafe payments through `PaysafePaymentClient` against the
//    loopback emulator (Tests/Emulators/server_api_emulator.py, which answers at once), half with
//    an `SQLiteJournal` in the client's configuration and half without, alternating call by call
//    in the same run; p50 and p99 of each and their difference. The journal's part is one fsync'd
//    intent (WAL, synchronous = FULL) before the request and one outcome transaction after.
// 2. Entries per second of 8 concurrent writers: 8 threads, each with its own connection to one
//    journal file, recording an intent and its outcome in a loop for 5 seconds.
// Run it from the package root (it starts the emulator from Tests/Emulators).
import CSECore
import CSEHTTP
import CSEJournal
import CSEServerAPI
import CSEValidation
import Foundation

enum JournalLatency {
    /// The `p`-th percentile (0…100) of `samples`, nearest rank.
    static func percentile(_ samples: [Double], _ p: Double) -> Double {
        let sorted = samples.sorted()
        return sorted[min(sorted.count - 1, max(0, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1))]
    }

    /// A fresh 0700 directory.
    static func directory() -> String {
        let path = NSTemporaryDirectory() + "cse-bench-journal-\(getpid())-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }

    static func run(calls: Int) async throws {
        let key = Data("bench:bench-password".utf8).base64EncodedString()
        let emulator = Process()
        emulator.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        emulator.arguments = ["-u", "Tests/Emulators/server_api_emulator.py", "--platform", "paysafe", "--payments-key", key]
        let input = Pipe(), output = Pipe()
        emulator.standardInput = input
        emulator.standardOutput = output
        emulator.standardError = FileHandle.nullDevice
        try emulator.run()
        defer {
            try? input.fileHandleForWriting.close()
            emulator.terminate()
        }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw BenchFailure("the emulator did not start") }
            line += chunk
        }
        guard let text = String(data: line, encoding: .utf8), text.hasPrefix("PORT "),
            let port = Int(text.dropFirst(5).prefix { $0.isNumber })
        else { throw BenchFailure("the emulator did not report its port") }

        let place = directory()
        let journal = try SQLiteJournal(path: place + "/journal.sqlite")
        let credentials = try PaysafeCredentials(document: try CredentialsDocument(bytes: Array(#"{"apiKey":"\#(key)"}"#.utf8)))
        let environment = try ServerEnvironment(origin: "http://127.0.0.1:\(port)")
        var journaled = HTTPClientConfiguration()
        journaled.journal = journal
        let plain = try PaysafePaymentClient(credentials: credentials, environment: environment)
        let recording = try PaysafePaymentClient(credentials: credentials, environment: environment, configuration: journaled)
        guard let euro = Currency(code: "EUR") else { throw BenchFailure("no EUR") }
        func pay(_ client: PaysafePaymentClient, _ reference: String) async throws -> Double {
            let request = try PaysafePaymentRequest(
                merchantReference: reference, amount: 100, currency: euro, source: .paymentHandle("SCp7iW4xTkmN3Bq"))
            let started = ContinuousClock.now
            let outcome = try await client.pay(request)
            let elapsed = ContinuousClock.now - started
            guard case .succeeded = outcome else { throw BenchFailure("a benchmark payment did not succeed") }
            return Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
        }
        for index in 0..<20 {
            _ = try await pay(plain, "warm-p-\(index)")
            _ = try await pay(recording, "warm-j-\(index)")
        }
        var without: [Double] = []
        var with: [Double] = []
        for index in 0..<calls {
            if index.isMultiple(of: 2) {
                without.append(try await pay(plain, "p-\(index)"))
                with.append(try await pay(recording, "j-\(index)"))
            } else {
                with.append(try await pay(recording, "j-\(index)"))
                without.append(try await pay(plain, "p-\(index)"))
            }
        }
        func row(_ name: String, _ samples: [Double]) -> String {
            String(
                format: "%-22@ p50 %8.1f µs   p99 %8.1f µs   (%d calls)", name as NSString, percentile(samples, 50),
                percentile(samples, 99), samples.count)
        }
        print(row("without journal", without))
        print(row("with journal", with))
        print(
            String(
                format: "journal adds            p50 %8.1f µs   p99 %8.1f µs", percentile(with, 50) - percentile(without, 50),
                percentile(with, 99) - percentile(without, 99)))

        // Eight writers, one file.
        let shared = directory() + "/writers.sqlite"
        _ = try SQLiteJournal(path: shared)
        let counts = WriterCounts()
        let deadline = ContinuousClock.now + .seconds(5)
        let started = ContinuousClock.now
        let threads = (0..<8).map { writer in
            Thread {
                do {
                    let mine = try SQLiteJournal(path: shared)
                    var count = 0
                    while ContinuousClock.now < deadline {
                        let id = try mine.recordIntent(
                            JournalIntent(
                                platform: "paysafe", operation: "payment", amount: 100, currency: "EUR",
                                merchantReference: "w\(writer)-\(count)"))
                        try mine.recordOutcome(id, JournalOutcome(state: .succeeded, platformIDs: ["paymentId": "p\(count)"]))
                        count += 1
                    }
                    counts.add(count)
                } catch {
                    counts.fail("\(error)")
                }
            }
        }
        threads.forEach { $0.start() }
        counts.wait(for: 8)
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        if let failure = counts.failure { throw BenchFailure("a writer failed: \(failure)") }
        let stored = try SQLiteJournal(path: shared).entries(matching: JournalFilter()).count
        print(
            String(
                format: "8 concurrent writers    %8.0f entries/s (intent + outcome each; %d entries in %.1f s, %d stored)",
                Double(counts.total) / seconds, counts.total, seconds, stored))
    }
}

/// Why the journal benchmark stopped.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The writers' totals, guarded by a condition.
final class WriterCounts: @unchecked Sendable {
    private let condition = NSCondition()
    private var finished = 0
    private(set) var total = 0
    private(set) var failure: String?

    func add(_ count: Int) {
        condition.lock()
        total += count
        finished += 1
        condition.broadcast()
        condition.unlock()
    }

    func fail(_ reason: String) {
        condition.lock()
        failure = reason
        finished += 1
        condition.broadcast()
        condition.unlock()
    }

    func wait(for count: Int) {
        condition.lock()
        while finished < count { condition.wait() }
        condition.unlock()
    }
}
