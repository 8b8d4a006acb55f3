import CSECore
import CSECrypto
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite("Content encryption: concurrent use", .tags(.concurrency))
struct ContentEncryptionThreadTests {
    /// One shared key, IV and reference result per algorithm, computed up front on the test's thread.
    private struct Reference: Sendable {
        let enc: ContentEncryptionAlgorithm
        let key: SecureBytes
        let iv: [UInt8]
        let ciphertext: [UInt8]
        let tag: [UInt8]
    }

    @Test("8 threads × 1,000 seal/open on shared keys: every result is exact and every message opens")
    func eightThreads() throws {
        let plaintext = Array(#"{"cardNumber":"4567350000427977","cvv":"123","expiryDate":"1230"}"#.utf8)
        let aad = Array("eyJhbGciOiJSU0EtT0FFUCIsImVuYyI6IkEyNTZDQkMtSFM1MTIifQ".utf8)
        let references = try ContentEncryptionAlgorithm.allSupported.map { enc in
            let key = try SecureRandom.secureBytes(enc.keyByteCount)
            let iv = try SecureRandom.bytes(enc.ivByteCount)
            let sealed = try enc.seal(plaintext: plaintext, key: key, iv: iv, aad: aad)
            return Reference(enc: enc, key: key, iv: iv, ciphertext: sealed.ciphertext, tag: sealed.tag)
        }

        let threadCount = 8, iterations = 1_000
        let failures = Mutex<[String]>([])
        let completed = Atomic<Int>(0)
        let group = DispatchGroup()
        for thread in 0..<threadCount {
            group.enter()
            let worker = Thread {
                defer { group.leave() }
                for iteration in 0..<iterations {
                    let reference = references[(thread + iteration) % references.count]
                    let enc = reference.enc
                    do {
                        // The deterministic seal must give the reference bytes on every thread.
                        let sealed = try enc.seal(plaintext: plaintext, key: reference.key, iv: reference.iv, aad: aad)
                        // A fresh IV: the message sealed here must open here.
                        let iv = try SecureRandom.bytes(enc.ivByteCount)
                        let fresh = try enc.seal(plaintext: plaintext, key: reference.key, iv: iv, aad: aad)
                        let opened = try enc.open(
                            ciphertext: fresh.ciphertext, key: reference.key, iv: iv, aad: aad,
                            tag: fresh.tag)
                        // The reference, sealed on another thread, opens here.
                        let openedReference = try enc.open(
                            ciphertext: reference.ciphertext, key: reference.key,
                            iv: reference.iv, aad: aad, tag: reference.tag)
                        if sealed.ciphertext != reference.ciphertext || sealed.tag != reference.tag
                            || opened.unsafeCopyToArray() != plaintext || openedReference.unsafeCopyToArray() != plaintext
                        {
                            failures.withLock { $0.append("thread \(thread) iteration \(iteration) \(enc): wrong bytes") }
                        }
                    } catch {
                        failures.withLock { $0.append("thread \(thread) iteration \(iteration) \(enc): \(error)") }
                    }
                    completed.add(1, ordering: .relaxed)
                }
            }
            worker.start()
        }
        group.wait()
        let recorded = failures.withLock { $0 }
        #expect(recorded.isEmpty, "\(recorded.count) failures, first: \(recorded.first ?? "")")
        #expect(completed.load(ordering: .relaxed) == threadCount * iterations)
    }
}
