import CSECore
import CSECrypto
import CSEPayments
import Foundation
import Testing

/// Issue #13 F13: a DER key file lost the real error. `RSAKeyMaterial` read DER as a public key,
/// then on any failure as a private key, so an EC SubjectPublicKeyInfo, an even modulus, a negative
/// or non-minimal INTEGER and BIT STRING unused bits all reported the private reader's
/// `der.unexpectedTag (expected=0x02, found=0x30)`, while the PEM forms reported the right code.
/// A PEM with a non-key label said "expected a PRIVATE KEY".
@Suite("DER key files report the same error as their PEM form (F13)")
struct DERKeyErrorParityTests {
    static func tlv(_ tag: UInt8, _ value: [UInt8]) -> [UInt8] {
        var out = [tag]
        switch value.count {
        case ..<0x80: out.append(UInt8(value.count))
        case ..<0x100: out += [0x81, UInt8(value.count)]
        default: out += [0x82, UInt8(value.count >> 8), UInt8(value.count & 0xFF)]
        }
        return out + value
    }

    static func pem(_ label: String, _ der: [UInt8]) -> [UInt8] {
        let body = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return Array("-----BEGIN \(label)-----\n\(body)\n-----END \(label)-----\n".utf8)
    }

    static let rsaAlgorithm = tlv(0x30, tlv(0x06, [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]) + [0x05, 0x00])
    static let modulus: [UInt8] = GeneratedKeys.rsa2048.publicKey.modulus
    static let exponent: [UInt8] = [0x01, 0x00, 0x01]

    static func pkcs1(modulusContent: [UInt8], exponentContent: [UInt8] = exponent) -> [UInt8] {
        tlv(0x30, tlv(0x02, modulusContent) + tlv(0x02, exponentContent))
    }

    static func spki(_ pkcs1: [UInt8], unusedBits: UInt8 = 0) -> [UInt8] {
        tlv(0x30, rsaAlgorithm + tlv(0x03, [unusedBits] + pkcs1))
    }

    /// (name, DER, PEM label, expected code).
    static let cases: [(String, [UInt8], String, CSEError.Code)] = {
        var even = [0x00] + modulus
        even[even.count - 1] &= 0xFE
        let ecAlgorithm = tlv(
            0x30,
            tlv(0x06, [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01])
                + tlv(0x06, [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]))
        let ecPoint = [UInt8](repeating: 0x11, count: 65)
        let ecSPKI = tlv(0x30, ecAlgorithm + tlv(0x03, [0x00, 0x04] + ecPoint.dropFirst()))
        return [
            ("EC SubjectPublicKeyInfo", ecSPKI, "PUBLIC KEY", .keyUnsupportedType),
            ("even modulus (SPKI)", spki(pkcs1(modulusContent: even)), "PUBLIC KEY", .keyMalformed),
            ("even modulus (PKCS#1)", pkcs1(modulusContent: even), "RSA PUBLIC KEY", .keyMalformed),
            ("negative INTEGER", pkcs1(modulusContent: modulus), "RSA PUBLIC KEY", .derMalformed),
            ("non-minimal INTEGER", pkcs1(modulusContent: [0x00, 0x00] + modulus), "RSA PUBLIC KEY", .derMalformed),
            ("BIT STRING unused bits", spki(pkcs1(modulusContent: [0x00] + modulus), unusedBits: 3), "PUBLIC KEY", .derMalformed),
        ]
    }()

    @Test("each flawed DER public key reports its own code, the same as its PEM form", arguments: 0..<6)
    func derMatchesPEM(index: Int) throws {
        let (name, der, label, expected) = Self.cases[index]
        #expect(Self.modulus.first! >= 0x80, "a 2048-bit modulus has its top bit set")
        var derError: CSEError?
        var pemError: CSEError?
        do { _ = try RSAKeyMaterial(contents: der) } catch { derError = error }
        do { _ = try RSAKeyMaterial(contents: Self.pem(label, der)) } catch { pemError = error }
        #expect(derError?.code == expected, "\(name): DER gave \(derError?.code.rawValue ?? "no error")")
        #expect(pemError?.code == expected, "\(name): PEM gave \(pemError?.code.rawValue ?? "no error")")
        #expect(derError?.reason == pemError?.reason, "\(name): DER and PEM name the same rule")
        #expect(derError?.reason.contains("unexpected ASN.1 tag") == false, "\(name): not re-read as another structure")
    }

    /// The PKCS#8 DER of the test key and the PKCS#1 `RSAPrivateKey` inside its OCTET STRING.
    static func privateDER() throws -> (pkcs8: [UInt8], pkcs1: [UInt8]) {
        let pkcs8 = try GeneratedKeys.rsa2048.derRepresentation.unsafeCopyToArray()
        // SEQUENCE { INTEGER 0, AlgorithmIdentifier, OCTET STRING { RSAPrivateKey } }
        func skipHeader(_ bytes: ArraySlice<UInt8>) -> (length: Int, header: Int) {
            let first = Int(bytes[bytes.startIndex + 1])
            guard first >= 0x80 else { return (first, 2) }
            let octets = first & 0x7F
            var length = 0
            for k in 0..<octets { length = length << 8 | Int(bytes[bytes.startIndex + 2 + k]) }
            return (length, 2 + octets)
        }
        var rest = pkcs8[...]
        rest = rest.dropFirst(skipHeader(rest).header)  // outer SEQUENCE
        for _ in 0..<2 { let h = skipHeader(rest); rest = rest.dropFirst(h.header + h.length) }  // version, algorithm
        let octet = skipHeader(rest)
        let pkcs1 = Array(rest.dropFirst(octet.header).prefix(octet.length))
        return (pkcs8, pkcs1)
    }

    @Test("well-formed DER keys of every structure still load: SPKI, PKCS#1 public, PKCS#8, PKCS#1 private")
    func wellFormedStillLoad() throws {
        let key = GeneratedKeys.rsa2048
        #expect(try RSAKeyMaterial(contents: key.publicKey.derRepresentation).privateKey == nil)
        #expect(try RSAKeyMaterial(contents: key.publicKey.pkcs1DERRepresentation).publicKey.modulus == key.publicKey.modulus)
        let (pkcs8, pkcs1) = try Self.privateDER()
        #expect(pkcs1.first == 0x30)
        for der in [pkcs8, pkcs1] {
            let material = try RSAKeyMaterial(contents: der)
            #expect(material.privateKey != nil)
            #expect(material.publicKey.modulus == key.publicKey.modulus)
        }
    }

    @Test("a flawed DER private key reports the private reader's error")
    func flawedPrivate() throws {
        var (_, pkcs1) = try Self.privateDER()
        // 30 82 LL LL | 02 01 00 (version) | 02 82 01 01 00 <256 bytes> (modulus): the modulus's
        // leading zero octet becomes 0x80, a negative INTEGER.
        #expect(Array(pkcs1[4..<12]) == [0x02, 0x01, 0x00, 0x02, 0x82, 0x01, 0x01, 0x00])
        pkcs1[11] = 0x80
        #expect(throws: CSEError(.derMalformed, "")) { try RSAKeyMaterial(contents: pkcs1) }
    }

    @Test("a PEM block with a non-key label names every accepted label, not only PRIVATE KEY")
    func nonKeyLabel() throws {
        do {
            _ = try RSAKeyMaterial(contents: Self.pem("CERTIFICATE", [0x30, 0x00]))
            Issue.record("a CERTIFICATE block was accepted")
        } catch {
            #expect(error.code == .pemUnexpectedLabel)
            #expect(error.reason.contains("PUBLIC KEY"))
            #expect(error.reason.contains("PRIVATE KEY"))
            #expect(error.context["label"] == "CERTIFICATE")
        }
    }
}
