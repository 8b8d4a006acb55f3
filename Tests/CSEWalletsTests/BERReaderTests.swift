import CSECore
import Testing

@testable import CSEWallets

/// The bounded BER reader the fast Apple Pay signature check reads CMS with: every malformation is
/// `wallet.malformed`, never a trap.
@Suite("BER reader: indefinite lengths, bounds and typed refusals")
struct BERReaderTests {
    /// The code reading every value of `bytes`, recursively, throws; `nil` when it reads them all.
    func walk(_ bytes: [UInt8]) -> CSEError.Code? {
        func all(_ reader: inout BERReader) throws(CSEError) {
            while !reader.isAtEnd {
                let element = try reader.next()
                if element.isConstructed {
                    var children = try reader.children(of: element)
                    try all(&children)
                }
            }
        }
        do {
            var reader = try BERReader(bytes)
            try all(&reader)
            return nil
        } catch {
            return error.code
        }
    }

    @Test("An indefinite-length SEQUENCE: contents without the end-of-contents octets, the whole encoding with them")
    func indefinite() throws {
        var reader = try BERReader([0x30, 0x80, 0x02, 0x01, 0x05, 0x00, 0x00, 0x05, 0x00])
        let sequence = try reader.next(tag: 0x30)
        #expect(sequence.isIndefinite && !sequence.hasDERLength)
        #expect(Array(sequence.contents) == [0x02, 0x01, 0x05])
        #expect(sequence.encoded.count == 7)
        var children = try reader.children(of: sequence)
        #expect(Array(try children.next(tag: 0x02).contents) == [0x05])
        try children.finish()
        #expect(try reader.next(tag: 0x05).contents.isEmpty)
        try reader.finish()
    }

    @Test("Nested indefinite values inside definite ones, and definite inside indefinite")
    func nested() throws {
        let bytes: [UInt8] = [0x30, 0x80, 0x31, 0x80, 0x04, 0x01, 0xAA, 0x00, 0x00, 0x30, 0x03, 0xA0, 0x80, 0x00, 0x00, 0x00, 0x00]
        #expect(walk(bytes) == .walletMalformed)  // the definite [0x30, 0x03] holds an indefinite value that needs 4 bytes
        let good: [UInt8] = [0x30, 0x80, 0x31, 0x80, 0x04, 0x01, 0xAA, 0x00, 0x00, 0x30, 0x04, 0xA0, 0x80, 0x00, 0x00, 0x00, 0x00]
        #expect(walk(good) == nil)
        var reader = try BERReader(good)
        let outer = try reader.next()
        #expect(outer.encoded.count == good.count)
    }

    @Test("Truncated input, a length beyond the input, and an indefinite value without its end are malformed")
    func truncated() {
        for bytes: [UInt8] in [
            [0x30], [0x30, 0x82, 0x01], [0x04, 0x05, 0x01, 0x02], [0x30, 0x80, 0x02, 0x01, 0x05],
            [0x30, 0x80, 0x00], [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF], [0x30, 0x85, 0x01, 0x00, 0x00, 0x00, 0x00],
        ] {
            #expect(walk(bytes) == .walletMalformed, "\(bytes)")
        }
    }

    @Test("Trailing bytes after a value are refused by finish, and by the CMS reader")
    func trailing() throws {
        var reader = try BERReader([0x05, 0x00, 0xFF])
        _ = try reader.next(tag: 0x05)
        #expect(code { try reader.finish() } == .walletMalformed)
        #expect(code { try CMSSignedData(ber: [0x30, 0x00, 0x00]) } == .walletMalformed)
    }

    @Test("Nesting deeper than the limit, definite or indefinite, is malformed; the limit itself is read")
    func depth() {
        func definite(_ levels: Int) -> [UInt8] {
            (0..<levels).reduce([0x05, 0x00]) { inner, _ in [0x30, UInt8(inner.count)] + inner }
        }
        func indefinite(_ levels: Int) -> [UInt8] {
            Array(repeating: [0x30, 0x80], count: levels).flatMap { $0 } + [0x05, 0x00]
                + Array(repeating: [0x00, 0x00], count: levels).flatMap { $0 }
        }
        #expect(walk(definite(BERReader.maximumDepth)) == nil)
        #expect(walk(definite(BERReader.maximumDepth + 1)) == .walletMalformed)
        #expect(walk(indefinite(BERReader.maximumDepth)) == nil)
        #expect(walk(indefinite(BERReader.maximumDepth + 1)) == .walletMalformed)
        #expect(walk(indefinite(10_000)) == .walletMalformed)
    }

    @Test("The indefinite form on a primitive value, a high tag number and an oversized input are malformed")
    func refusals() {
        #expect(walk([0x04, 0x80, 0x01, 0x00, 0x00]) == .walletMalformed)
        #expect(walk([0x1F, 0x81, 0x01, 0x00]) == .walletMalformed)
        #expect(walk(Array(repeating: 0, count: BERReader.maximumInputSize + 1)) == .walletMalformed)
        #expect(walk([]) == nil)
    }

    @Test("Signing times: UTCTime's century rule, GeneralizedTime, and invalid dates refused")
    func times() throws {
        func time(_ tag: UInt8, _ text: String) throws -> Int64 {
            let bytes = [tag, UInt8(text.utf8.count)] + Array(text.utf8)
            var reader = try BERReader(bytes)
            return try CMSSignedAttributes.seconds(try reader.next())
        }
        #expect(try time(0x17, "250601120000Z") == 1_748_779_200)
        #expect(try time(0x18, "20250601120000Z") == 1_748_779_200)
        #expect(try time(0x17, "500101000000Z") == -631_152_000)
        #expect(try time(0x17, "491231235959Z") == 2_524_607_999)
        #expect(try time(0x17, "240229000000Z") == 1_709_164_800)
        for (tag, text) in [
            (UInt8(0x17), "230229000000Z"), (0x17, "250601120000"), (0x17, "2506011200Z"), (0x17, "251301120000Z"),
            (0x17, "250601240000Z"), (0x17, "250601126000Z"), (0x18, "20250601120000.5Z"), (0x04, "250601120000Z"),
            (0x17, "25060112000+Z"),
        ] {
            #expect(throws: CSEError.self, "\(text)") { try time(tag, text) }
        }
    }
}
