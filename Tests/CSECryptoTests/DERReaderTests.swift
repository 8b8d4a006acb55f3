@testable import CSECrypto
import CSECore
import Testing

/// The strict DER reader (X.690 §10) on hand-made encodings: each violation is refused with one of
/// the three codes a caller can act on, and a reason that names the rule.
@Suite("DER reader")
struct DERReaderTests {
    static func readInteger(_ bytes: [UInt8]) throws(CSEError) -> [UInt8] {
        var reader = DERReader(bytes)
        let value = Array(try reader.readUnsignedInteger())
        try reader.finish()
        return value
    }

    @Test(
        "lengths must be definite, minimal and at most four octets",
        arguments: [
            ([0x04, 0x81, 0x05, 1, 2, 3, 4, 5], "der.malformed", "below 128 uses the long form"),  // long form for 5
            ([0x04, 0x82, 0x00, 0x80] + [UInt8](repeating: 0, count: 128), "der.malformed", "starts with a zero octet"),
            ([0x30, 0x80, 0x00, 0x00], "der.malformed", "indefinite length"),
            ([0x04, 0x85, 1, 0, 0, 0, 0], "der.tooLarge", "longer than four octets"),
            ([0x04, 0x84, 0x7F, 0xFF, 0xFF, 0xFF], "der.truncated", "ends inside"),  // declared but absent
            ([0x04, 0x82, 0x01], "der.truncated", "ends inside"),  // length field cut
            ([0x04], "der.truncated", "ends inside"),
            ([], "der.truncated", "ends inside"),
            ([0x1F, 0x22, 0x00], "der.malformed", "high-tag-number"),
        ] as [([UInt8], String, String)])
    func lengths(bytes: [UInt8], code: String, rule: String) throws {
        let error = try #require(throws: CSEError.self) {
            var reader = DERReader(bytes)
            _ = try reader.readAny()
        }
        #expect(error.code.rawValue == code)
        #expect(error.reason.contains(rule), "\(error.reason)")
    }

    @Test("a 128-byte value uses the two-octet long form and reads back")
    func longForm() throws {
        let value = [UInt8](repeating: 7, count: 128)
        var reader = DERReader([0x04, 0x81, 0x80] + value)
        #expect(Array(try reader.read(tag: DERTag.octetString)) == value)
        try reader.finish()
    }

    @Test(
        "INTEGERs must be minimal and non-negative",
        arguments: [
            ([0x02, 0x00], "no content octets"),
            ([0x02, 0x02, 0x00, 0x01], "redundant leading octet"),
            ([0x02, 0x02, 0xFF, 0x80], "redundant leading octet"),
            ([0x02, 0x01, 0x80], "is negative"),
            ([0x02, 0x02, 0xFF, 0x7F], "is negative"),
            ([0x04, 0x01, 0x01], "unexpected ASN.1 tag"),
            ([0x02, 0x01, 0x01, 0x00], "bytes follow the end"),
        ] as [([UInt8], String)])
    func integerRejects(bytes: [UInt8], rule: String) throws {
        let error = try #require(throws: CSEError.self) { try Self.readInteger(bytes) }
        #expect(error.code == .derMalformed)
        #expect(error.reason.contains(rule), "\(error.reason)")
    }

    @Test(
        "valid INTEGERs give their magnitude without the sign octet",
        arguments: [
            ([0x02, 0x01, 0x00], []),
            ([0x02, 0x01, 0x7F], [0x7F]),
            ([0x02, 0x02, 0x00, 0x80], [0x80]),
            ([0x02, 0x03, 0x01, 0x00, 0x01], [0x01, 0x00, 0x01]),
        ] as [([UInt8], [UInt8])])
    func integers(bytes: [UInt8], magnitude: [UInt8]) throws {
        #expect(try Self.readInteger(bytes) == magnitude)
    }

    @Test("NULL must be empty and a key BIT STRING must have no unused bits")
    func nullAndBitString() throws {
        #expect(throws: CSEError(.derMalformed, "")) {
            var r = DERReader([0x05, 0x01, 0x00]); try r.readNull()
        }
        #expect(throws: CSEError(.derMalformed, "")) {
            var r = DERReader([0x03, 0x00]); _ = try r.readOctetAlignedBitString()
        }
        #expect(throws: CSEError(.derMalformed, "")) {
            var r = DERReader([0x03, 0x02, 0x01, 0xFE]); _ = try r.readOctetAlignedBitString()
        }
        var reader = DERReader([0x03, 0x03, 0x00, 0xAB, 0xCD])
        #expect(Array(try reader.readOctetAlignedBitString()) == [0xAB, 0xCD])
    }

    @Test("nesting deeper than the limit is refused")
    func depth() throws {
        var bytes: [UInt8] = []
        for _ in 0...DERReader.maximumDepth { bytes = [0x30, UInt8(bytes.count)] + bytes }
        var reader = DERReader(bytes)
        #expect(throws: CSEError(.derTooLarge, "")) {
            var current = try reader.readConstructed()
            while true { current = try current.readConstructed() }
        }
        // Exactly at the limit is fine.
        var shallow: [UInt8] = []
        for _ in 0..<DERReader.maximumDepth { shallow = [0x30, UInt8(shallow.count)] + shallow }
        var ok = DERReader(shallow)
        var level = try ok.readConstructed()
        while !level.isAtEnd { level = try level.readConstructed() }
        #expect(level.depth == DERReader.maximumDepth)
    }

    @Test("the writer emits minimal INTEGERs and lengths that the reader accepts")
    func writerRoundTrip() throws {
        for magnitude: [UInt8] in [[], [0x00, 0x00, 0x05], [0x80], Array(repeating: 0xFF, count: 300)] {
            var writer = DERWriter()
            writer.appendUnsignedInteger(magnitude)
            #expect(try Self.readInteger(writer.bytes) == Array(magnitude.drop { $0 == 0 }))
        }
        var writer = DERWriter()
        writer.appendUnsignedInteger([0x80])
        #expect(writer.bytes == [0x02, 0x02, 0x00, 0x80])
    }
}
