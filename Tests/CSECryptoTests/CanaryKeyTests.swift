import CSECore
@testable import CSECrypto
import CSEPayments
import Foundation
import Testing

/// The key canary: one private key, pushed through every key-import failure path in every
/// format. No error `reason`, `context`, `description`, `debugDescription` or reflection, and no
/// description of the key types, may contain any part of the private key: a 16-character window
/// of its PEM body, its private exponent or primes in base64url or hex. A canary card number
/// placed where the parsers echo input (a PEM label, a JWK `kty`) must not appear either.
@Suite("Canary: private-key material never appears in an error or description")
struct CanaryKeyTests {
    static let key = GeneratedKeys.rsa2048
    static let pan = "4917484589897107"

    struct Secrets {
        let pemBody: [String]
        let pkcs1: [UInt8]
        let windows: [String]
    }

    static let secrets: Secrets = {
        let pem = try! key.pemRepresentation
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
        let pkcs8 = try! key.derRepresentation.unsafeCopyToArray()
        let components = try! RSAKeyStructures.readPrivateKey(pkcs8[...])
        var windows = body.map { String($0.prefix(16)) }
        for part in [
            components.privateExponent, components.prime1, components.prime2, components.exponent1,
            components.exponent2, components.coefficient,
        ] {
            windows.append(String(Base64URL.encode(part).prefix(16)))
            windows.append(String(Base64.encode(part).prefix(16)))
            windows.append(part.prefix(8).map { String(format: "%02x", $0) }.joined())
            windows.append(part.prefix(8).map { String(format: "%02X", $0) }.joined())
        }
        let pkcs1 = RSAKeyStructures.writePKCS1PrivateKey(components).unsafeCopyToArray()
        return Secrets(pemBody: body, pkcs1: pkcs1, windows: windows + [pan])
    }()

    static func privateJWK(_ edit: (inout [String: String]) -> Void = { _ in }) -> [UInt8] {
        let pkcs8 = try! key.derRepresentation.unsafeCopyToArray()
        let c = try! RSAKeyStructures.readPrivateKey(pkcs8[...])
        var members = [
            "kty": "RSA", "n": Base64URL.encode(c.modulus), "e": Base64URL.encode(c.publicExponent),
            "d": Base64URL.encode(c.privateExponent), "p": Base64URL.encode(c.prime1),
            "q": Base64URL.encode(c.prime2), "dp": Base64URL.encode(c.exponent1),
            "dq": Base64URL.encode(c.exponent2), "qi": Base64URL.encode(c.coefficient),
        ]
        edit(&members)
        let body = members.sorted { $0.key < $1.key }.map { #""\#($0.key)":"\#($0.value)""# }.joined(separator: ",")
        return Array(("{" + body + "}").utf8)
    }

    /// Every rendering a log line could use.
    static func renderings(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        var out = [String(describing: value), String(reflecting: value), dumped]
        if let error = value as? CSEError {
            out += [error.reason, error.description, error.debugDescription, error.context.description]
        }
        return out
    }

    /// Checks every rendering of `value`; `nil` (no error) is a failure unless `mayAccept`.
    static func check(_ what: String, _ value: Any?, mayAccept: Bool = false) {
        guard let value else {
            if !mayAccept { Issue.record("\(what): no error") }
            return
        }
        for text in renderings(value) {
            for window in secrets.windows where text.contains(window) {
                Issue.record("\(what) leaks key material or the canary: \(window)")
            }
        }
    }

    static func failure(_ body: () throws(CSEError) -> Void) -> CSEError? {
        do throws(CSEError) { try body(); return nil } catch { return error }
    }

    /// Broken forms of the canary key, each with the import that must refuse it.
    static var brokenForms: [(String, [UInt8])] {
        let pem = try! key.pemRepresentation
        var lines = pem.split(separator: "\n").map(String.init)
        let middle = lines.count / 2
        var flipped = secrets.pkcs1
        flipped[flipped.count / 2] ^= 0x01
        var forms: [(String, [UInt8])] = [
            (
                "PEM without a body line",
                Array(lines.enumerated().filter { $0.offset != middle }.map(\.element).joined(separator: "\n").utf8)
            ),
            (
                "PEM with a foreign character",
                Array(pem.replacingOccurrences(of: "\n", with: "\n!", options: [], range: pem.range(of: "\n")).utf8)
            ),
            ("PEM labelled PUBLIC KEY", Array(pem.replacingOccurrences(of: "PRIVATE KEY", with: "PUBLIC KEY").utf8)),
            ("PEM labelled CERTIFICATE", Array(pem.replacingOccurrences(of: "PRIVATE KEY", with: "CERTIFICATE").utf8)),
            ("PEM labelled with the canary", Array(pem.replacingOccurrences(of: "PRIVATE KEY", with: pan).utf8)),
            ("PEM with mismatched END", Array(pem.replacingOccurrences(of: "END PRIVATE KEY", with: "END RSA PRIVATE KEY").utf8)),
            ("PEM with trailing text", Array((pem + "x").utf8)),
            ("PKCS#1 DER truncated", Array(secrets.pkcs1.dropLast(9))),
            ("PKCS#1 DER with a flipped bit", flipped),
            ("PKCS#1 DER with trailing bytes", secrets.pkcs1 + [0]),
            ("PKCS#8 DER truncated", Array(try! key.derRepresentation.unsafeCopyToArray().dropLast(3))),
            ("JWK with d changed", privateJWK { $0["d"] = String($0["d"]!.reversed()) }),
            ("JWK with p missing", privateJWK { $0["p"] = nil }),
            ("JWK with a non-base64url d", privateJWK { $0["d"] = $0["d"]! + "!" }),
            ("JWK with the canary as kty", privateJWK { $0["kty"] = pan }),
            ("JWK with kty EC", privateJWK { $0["kty"] = "EC" }),
            ("JWK with n the private exponent", privateJWK { $0["n"] = $0["d"] }),
            ("Client API response holding the private key", Array(#"{"keyId":"k","publicKey":"\#(Base64.encode(secrets.pkcs1))"}"#.utf8)),
            ("Client API response holding the PEM body", Array(#"{"keyId":"k","publicKey":"\#(secrets.pemBody.joined())x"}"#.utf8)),
        ]
        lines[middle] = String(lines[middle].dropLast(2))
        forms.append(("PEM with a short line", Array(lines.joined(separator: "\n").utf8)))
        return forms
    }

    @Test("every broken form, through every import that applies")
    func brokenKeys() {
        for (what, bytes) in Self.brokenForms {
            let text = String(decoding: bytes, as: UTF8.self)
            Self.check("\(what) as key material", Self.failure { () throws(CSEError) in _ = try RSAKeyMaterial(contents: bytes) })
            Self.check("\(what) as a private PEM", Self.failure { () throws(CSEError) in _ = try RSAPrivateKey(pemRepresentation: text) })
            Self.check("\(what) as a public PEM", Self.failure { () throws(CSEError) in _ = try RSAPublicKey(pemRepresentation: text) })
            Self.check("\(what) as private DER", Self.failure { () throws(CSEError) in _ = try RSAPrivateKey(derRepresentation: bytes) })
            Self.check("\(what) as public DER", Self.failure { () throws(CSEError) in _ = try RSAPublicKey(derRepresentation: bytes) })
            Self.check("\(what) as a private JWK", Self.failure { () throws(CSEError) in _ = try RSAPrivateKey(jwkRepresentation: bytes) })
            // A public JWK reader ignores the private members, so a broken d may still import.
            Self.check(
                "\(what) as a public JWK", Self.failure { () throws(CSEError) in _ = try RSAPublicKey(jwkRepresentation: bytes) },
                mayAccept: true)
            Self.check("\(what) as a key response", Self.failure { () throws(CSEError) in _ = try PublicKeyResponse(json: bytes) })
        }
    }

    @Test("the intact key as the wrong kind: a private key where a public one is expected")
    func wrongKind() {
        let pkcs8 = try! Self.key.derRepresentation.unsafeCopyToArray()
        Self.check("PKCS#8 DER as public DER", Self.failure { () throws(CSEError) in _ = try RSAPublicKey(derRepresentation: pkcs8) })
        Self.check(
            "PKCS#1 DER as public DER", Self.failure { () throws(CSEError) in _ = try RSAPublicKey(derRepresentation: Self.secrets.pkcs1) })
        Self.check(
            "private PEM as public PEM",
            Self.failure { () throws(CSEError) in
                _ = try RSAPublicKey(pemRepresentation: try Self.key.pemRepresentation)
            })
    }

    @Test("descriptions and reflections of keys and key buffers show sizes only")
    func descriptions() throws {
        Self.check("RSAPrivateKey", Self.key)
        Self.check("RSAPublicKey", Self.key.publicKey)
        Self.check("private DER SecureBytes", try Self.key.derRepresentation)
        Self.check("key material", try RSAKeyMaterial(contents: Array(try Self.key.pemRepresentation.utf8)))
        let decrypted = try Self.key.decryptOAEP(
            try Self.key.publicKey.encryptOAEP(Self.secrets.pkcs1.prefix(64).map { $0 }, hash: .sha256), hash: .sha256)
        Self.check("decrypted SecureBytes", decrypted)
    }
}
