import CSECore
import CSECrypto
import Foundation
import TestSupport
import Testing

/// One key shared by 8 threads, each encrypting 1,000 times (alternating engines and hashes); every
/// ciphertext must decrypt. Real threads, not tasks, so the per-thread OpenSSL and GMP scratch
/// contexts are exercised on distinct threads.
@Suite("RSA thread safety", .tags(.concurrency))
struct RSAThreadSafetyTests {
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [(message: [UInt8], hash: DigestAlgorithm, ciphertext: [UInt8])] = []
        private var errors: [String] = []

        func append(_ message: [UInt8], _ hash: DigestAlgorithm, _ ciphertext: [UInt8]) {
            lock.withLock { items.append((message, hash, ciphertext)) }
        }
        func fail(_ text: String) { lock.withLock { errors.append(text) } }
        var snapshot: ([(message: [UInt8], hash: DigestAlgorithm, ciphertext: [UInt8])], [String]) { lock.withLock { (items, errors) } }
    }

    @Test("8 threads × 1,000 encryptions with one key all decrypt")
    func eightThreads() throws {
        let key = GeneratedKeys.rsa2048
        let publicKey = key.publicKey
        let results = Results()
        let threads = 8, perThread = 1_000
        let group = DispatchGroup()
        for t in 0..<threads {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                for i in 0..<perThread {
                    let hash: DigestAlgorithm = i % 2 == 0 ? .sha1 : .sha256
                    let engine: RSAEngine = (i / 2) % 2 == 0 ? .openSSL : .gmp
                    let message = [UInt8(t), UInt8(i & 0xFF), UInt8(i >> 8)] + [UInt8](repeating: UInt8(t), count: 61)
                    do {
                        results.append(message, hash, try publicKey.encryptOAEP(message, hash: hash, engine: engine))
                    } catch {
                        results.fail("thread \(t) encryption \(i): \(error)")
                    }
                }
            }
            thread.start()
        }
        group.wait()
        let (items, errors) = results.snapshot
        #expect(errors.isEmpty, "\(errors.prefix(3))")
        #expect(items.count == threads * perThread)
        #expect(Set(items.map(\.ciphertext)).count == items.count, "ciphertexts repeat")
        // Decrypt on 2 threads; each ciphertext must give back its message.
        let mismatches = Results()
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            for index in stride(from: half, to: items.count, by: 2) {
                let item = items[index]
                if (try? key.decryptOAEP(item.ciphertext, hash: item.hash).unsafeCopyToArray()) != item.message {
                    mismatches.fail("item \(index)")
                }
            }
        }
        #expect(mismatches.snapshot.1.isEmpty, "\(mismatches.snapshot.1.count) ciphertexts did not decrypt")
    }
}
