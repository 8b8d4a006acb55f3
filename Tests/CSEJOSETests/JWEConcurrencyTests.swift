import CSECore
import CSECrypto
import CSEJOSE
import Foundation
import Synchronization
import Testing
import TestSupport

@Suite("JWE: one encryptor and one key shared by many threads", .tags(.concurrency))
struct JWEConcurrencyTests {
    @Test("8 threads × 1,000 encryptions with one encryptor all decrypt to their own plaintext")
    func eightThreads() throws {
        let key = JOSEVectors.key2048
        let encryptor = try JWEEncryptor(publicKey: key.publicKey, keyID: "shared")
        let decryptor = try JWEDecryptor(privateKey: key)
        let failures = Atomic<Int>(0)
        let successes = Atomic<Int>(0)
        let group = DispatchGroup()
        for thread in 0..<8 {
            group.enter()
            Thread {
                for i in 0..<1_000 {
                    let plaintext = "{\"thread\":\(thread),\"i\":\(i)}"
                    do {
                        let token = try encryptor.encrypt(plaintext.utf8)
                        let back = try decryptor.decrypt(token).plaintext.unsafeCopyToArray()
                        if back == Array(plaintext.utf8) {
                            successes.add(1, ordering: .relaxed)
                        } else {
                            failures.add(1, ordering: .relaxed)
                        }
                    } catch {
                        failures.add(1, ordering: .relaxed)
                    }
                }
                group.leave()
            }.start()
        }
        group.wait()
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(successes.load(ordering: .relaxed) == 8_000)
    }
}
