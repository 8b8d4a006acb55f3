import CSECore
import CSECrypto
import CSEJOSE
import CSEPayments
import CSEValidation
import Dispatch
import Foundation
import TestSupport
import Testing

/// Many threads, one sealer (one key), one product plan and one IIN table: every sealed payload
/// must decrypt to exactly the request its thread built (no cross-talk between threads), and every
/// nonce must be present and distinct (none lost or repeated). Run it under the thread sanitizer
/// with `swift test --sanitize=thread --filter StressSealingTests` (.ci/run does).
@Suite("Stress: 8 threads seal 20,000 requests with one key, one plan and one IIN table", .tags(.concurrency))
struct StressSealingTests {
    static let threads = 8
    static let sealsPerThread = 2_500

    /// One IIN table shared by every thread.
    static let iinTable: IINTable = try! IINTable(
        csv: """
            low,high,productId,country,cardType,issuer
            40000000,49999999,visa,,Credit,
            41000000,41999999,visa-debit,GB,Debit,Stress Bank
            51000000,55999999,mastercard,,Credit,
            """)

    /// A Luhn-valid 16-digit Visa number unique to (thread, index).
    static func pan(thread: Int, index: Int) -> String {
        var digits = "4" + String(thread) + String(String(index + 1_000_000_000_000).suffix(13))
        var sum = 0
        for (offset, character) in digits.reversed().enumerated() {
            var d = Int(String(character))!
            if offset % 2 == 0 { d *= 2; if d > 9 { d -= 9 } }
            sum += d
        }
        digits += String((10 - sum % 10) % 10)
        return digits
    }

    struct Sealed: Sendable {
        let thread: Int
        let index: Int
        let jwe: String
        let iinProduct: String?
    }

    /// Results merged under a lock: each worker appends once, when it is done.
    final class Collected<Item>: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [Item] = []
        func append(contentsOf items: [Item]) { lock.lock(); storage += items; lock.unlock() }
        var items: [Item] { lock.lock(); defer { lock.unlock() }; return storage }
    }

    @Test("every payload decrypts to its own request; 20,000 distinct nonces; IIN lookups agree")
    func stress() throws {
        let sealer = try demoSealer()
        let product = BuiltinProducts.card
        let sealedItems = Collected<Sealed>(), sealFailures = Collected<String>()
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            var sealed: [Sealed] = []
            var failures: [String] = []
            sealed.reserveCapacity(Self.sealsPerThread)
            for index in 0..<Self.sealsPerThread {
                let pan = Self.pan(thread: thread, index: index)
                do {
                    var request = PaymentRequest(product: product)
                    try request.setValue(pan, forField: "cardNumber")
                    try request.setValue("12/30", forField: "expiryDate")
                    try request.setValue(String(100 + index % 900), forField: "cvv")
                    try request.setValue("T\(thread) N\(index)", forField: "cardholderName")
                    let iin = Self.iinTable.iinDetails(forPartialNumber: pan, allowedProductIDs: ["visa"])
                    let result = try sealer.seal(request, clientSessionID: "t\(thread)-s\(index)")
                    sealed.append(Sealed(thread: thread, index: index, jwe: result.encryptedCustomerInput, iinProduct: iin.productID))
                } catch {
                    failures.append("thread \(thread) seal \(index): \(error)")
                }
            }
            sealedItems.append(contentsOf: sealed)
            sealFailures.append(contentsOf: failures)
        }
        let failures = sealFailures.items
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        let all = sealedItems.items
        #expect(all.count == Self.threads * Self.sealsPerThread)

        // Decrypt on all cores too; each worker checks a stride of the results.
        let openedNonces = Collected<String>(), openProblems = Collected<String>()
        DispatchQueue.concurrentPerform(iterations: Self.threads) { worker in
            var nonces: [String] = []
            var problems: [String] = []
            defer {
                openedNonces.append(contentsOf: nonces)
                openProblems.append(contentsOf: problems)
            }
            for position in stride(from: worker, to: all.count, by: Self.threads) {
                let item = all[position]
                do {
                    let plaintext = try openSealed(item.jwe)
                    let payload = try JSONValue.parse(plaintext)
                    let values =
                        payload["paymentValues"]?.arrayValue?.reduce(into: [String: String]()) { map, entry in
                            if let key = entry["key"]?.stringValue { map[key] = entry["value"]?.stringValue }
                        } ?? [:]
                    let expectedPAN = Self.pan(thread: item.thread, index: item.index)
                    if payload["clientSessionId"]?.stringValue != "t\(item.thread)-s\(item.index)"
                        || values["cardNumber"] != expectedPAN
                        || values["cardholderName"] != "T\(item.thread) N\(item.index)"
                        || values["cvv"] != String(100 + item.index % 900)
                        || payload["paymentProductId"] != .number("1")
                    {  // issue #14: Visa's platform id
                        problems.append("cross-talk in thread \(item.thread) seal \(item.index)")
                    }
                    if item.iinProduct != (item.thread == 1 ? "visa-debit" : "visa") {
                        problems.append("IIN lookup in thread \(item.thread) seal \(item.index)")
                    }
                    if let nonce = payload["nonce"]?.stringValue {
                        nonces.append(nonce)
                    } else {
                        problems.append("no nonce in thread \(item.thread) seal \(item.index)")
                    }
                } catch {
                    problems.append("thread \(item.thread) seal \(item.index) does not open: \(error)")
                }
            }
        }
        let problems = openProblems.items
        #expect(problems.isEmpty, "\(problems.count) problems, first: \(problems.prefix(3))")
        let nonces = openedNonces.items
        #expect(nonces.count == all.count, "lost nonces")
        #expect(Set(nonces).count == nonces.count, "duplicated nonces")
        #expect(nonces.allSatisfy { $0.utf8.count == 32 && $0.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) } })
        #expect(Set(all.map(\.jwe)).count == all.count, "two seals produced the same JWE")
    }
}
