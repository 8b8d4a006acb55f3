import CSECore
@testable import CSECrypto
import Testing
import TestSupport

/// RFC 7517 §4.2 (`use`), §4.3 (`key_ops`) and §4.4 (`alg`) declare what a key is for. CSEKit uses
/// an RSA JWK only to wrap a content key with RSA-OAEP (public) or unwrap it (private), so a key
/// that declares anything else is refused at import (issue #24, point 18).
@Suite(
    "JWK: a key declared for another use, operation or algorithm is not an encryption key",
    .enabled(if: RSAVectors.available, "needs ../shared/vectors/jose"))
struct JWKPurposeTests {
    /// The RFC 7516 A.1 private JWK (no `use`, `alg` or `key_ops`) with `extra` members added
    /// (`"name":value` texts); `isPrivate: false` drops the private members.
    static func jwk(isPrivate: Bool, _ extra: String) throws -> [UInt8] {
        let vector = try #require(try JSONValue.parse(try KeyImportTests.sharedBytes("jose/rfc7516-a1-rsa-oaep-a256gcm.json")).objectValue)
        var object = try #require(vector["jwk"]?.objectValue)
        if !isPrivate { for name in ["d", "p", "q", "dp", "dq", "qi"] { object[name] = nil } }
        var text = String(JSONValue.object(object).serialized.dropLast())
        if !extra.isEmpty { text += "," + extra }
        return Array((text + "}").utf8)
    }

    @Test(
        "members that say what the key is for, and allow wrapping with RSA-OAEP, import",
        arguments: [
            "", #""use":"enc""#, #""alg":"RSA-OAEP""#, #""alg":"RSA-OAEP-256""#, #""key_ops":["wrapKey"]"#,
            #""key_ops":["encrypt","wrapKey"]"#, #""use":"enc","alg":"RSA-OAEP-256","key_ops":["wrapKey"]"#,
        ])
    func publicKeyForEncryption(members: String) throws {
        _ = try RSAPublicKey(jwkRepresentation: try Self.jwk(isPrivate: false, members))
    }

    @Test(
        "a public key declared for signing, another algorithm or other operations is refused with jwk.wrongPurpose",
        arguments: [
            #""use":"sig""#, #""use":"ENC""#, #""alg":"RS256""#, #""alg":"RSA1_5""#, #""alg":"PS256""#,
            #""key_ops":["verify"]"#, #""key_ops":["decrypt","unwrapKey"]"#, #""key_ops":[]"#,
            #""use":"enc","alg":"RS256""#,
        ])
    func publicKeyForAnotherPurpose(members: String) throws {
        let error = #expect(throws: CSEError.self) { try RSAPublicKey(jwkRepresentation: try Self.jwk(isPrivate: false, members)) }
        #expect(error?.code == .jwkWrongPurpose, "\(members): \(String(describing: error))")
    }

    @Test(
        "declaring members of the wrong JSON type is jwk.malformed",
        arguments: [#""use":1"#, #""alg":["RSA-OAEP"]"#, #""key_ops":"wrapKey""#, #""key_ops":["wrapKey",2]"#])
    func wrongTypes(members: String) throws {
        let error = #expect(throws: CSEError.self) { try RSAPublicKey(jwkRepresentation: try Self.jwk(isPrivate: false, members)) }
        #expect(error?.code == .jwkMalformed, "\(members)")
    }

    @Test(
        "a private key must allow unwrapping: key_ops decrypt or unwrapKey, use enc, alg RSA-OAEP(-256)",
        arguments: [
            (#""key_ops":["unwrapKey"]"#, true), (#""key_ops":["decrypt"]"#, true), (#""use":"enc","alg":"RSA-OAEP""#, true),
            (#""key_ops":["sign"]"#, false), (#""key_ops":["wrapKey"]"#, false), (#""use":"sig""#, false),
            (#""alg":"RSA1_5""#, false),
        ])
    func privateKeys(members: String, accepted: Bool) throws {
        let jwk = try Self.jwk(isPrivate: true, members)
        if accepted {
            _ = try RSAPrivateKey(jwkRepresentation: jwk)
        } else {
            let error = #expect(throws: CSEError.self) { try RSAPrivateKey(jwkRepresentation: jwk) }
            #expect(error?.code == .jwkWrongPurpose, "\(members)")
        }
    }

    @Test("RFC 7520 §3.3: the cookbook's signing key (use sig) is refused as an encryption key")
    func cookbookSigningKey() throws {
        let text = try KeyImportTests.sharedBytes(KeyImportTests.cookbook + "jwk_3_3.rsa_public_key.json")
        let error = #expect(throws: CSEError.self) { try RSAPublicKey(jwkRepresentation: text) }
        #expect(error?.code == .jwkWrongPurpose)
        // The message names the member, never key material.
        #expect(error?.description.contains("use") == true)
        #expect(error?.description.contains("n4EPtAOCc9") == false)
    }

    @Test("RFC 7520 §5.2: the cookbook's RSA-OAEP key (use enc, alg RSA-OAEP) imports")
    func cookbookEncryptionKey() throws {
        let vector = try #require(try JSONValue.parse(try KeyImportTests.sharedBytes("jose/rfc7520-5_2-rsa-oaep-a256gcm.json")).objectValue)
        let jwk = try #require(vector["jwk"]).serializedBytes
        _ = try RSAPrivateKey(jwkRepresentation: jwk)
        _ = try RSAPublicKey(jwkRepresentation: jwk)
    }
}
