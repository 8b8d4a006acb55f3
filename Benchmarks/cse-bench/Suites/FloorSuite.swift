import COpenSSL
import CSECLI
import CSECore
import CSECrypto
import CSEJOSE
import Glibc

/// The floors of issue #37: what the hardware and OpenSSL need at least, measured in the same run
/// as the rows they bound.
///
/// - `floor/p256-ecdh`, `floor/p256-ecdsa-verify`, `floor/p256-ecdh+ecdsa-verify`: one P-256 ECDH
///   (`EVP_PKEY_derive` on a context set up once with its peer, as `openssl speed ecdhp256`) and
///   one ECDSA P-256 verification of a 32-byte digest (`EVP_PKEY_verify` on a context set up
///   once, as `openssl speed ecdsap256`). An Apple Pay EC_v1 token needs one of each at least
///   (the ephemeral key agreement and the leaf's signature), a Google Pay ECv2 token whose
///   intermediate key is remembered too (the agreement and the message signature).
/// - `encrypt-lines/rsa2048` (and `/openSSL`, the engine of a CPU without AVX-512 IFMA): the work
///   of `cse encrypt --lines` per line, through the CLI's own `BatchRunner` on one worker, reading
///   a file of card-payload lines and writing `{"jwe":"…"}` lines to `/dev/null`. Everything but
///   the process start; the reference is `raw-oaep/rsa2048`.
enum FloorSuite {
    static var definitions: [Definition] {
        [
            Definition("floor/p256-ecdh") { _ in
                let floor = P256Floor()
                return Benchmark("floor/p256-ecdh") { iterations in repeatSinking(iterations) { floor.agree() } }
            },
            Definition("floor/p256-ecdsa-verify") { _ in
                let floor = P256Floor()
                return Benchmark("floor/p256-ecdsa-verify") { iterations in repeatSinking(iterations) { floor.verify() } }
            },
            Definition("floor/p256-ecdh+ecdsa-verify") { _ in
                let floor = P256Floor()
                return Benchmark("floor/p256-ecdh+ecdsa-verify") { iterations in
                    repeatSinking(iterations) { floor.agree() + (floor.verify() ? 1 : 0) }
                }
            },
            Definition("encrypt-lines/rsa2048") { encryptLines($0.keys(bits: 2048), engine: nil) },
            Definition("encrypt-lines/rsa2048/openSSL") { encryptLines($0.keys(bits: 2048), engine: .openSSL) },
        ]
    }

    /// `cse encrypt --lines` in process: `iterations` lines per sample through `BatchRunner`.
    static func encryptLines(_ keys: BenchmarkKeys, engine: RSAEngine?) -> Benchmark {
        var encryptor = mustSucceed { () throws(CSEError) in try JWEEncryptor(publicKey: keys.publicKey, keyID: Fixtures.keyID) }
        if let engine { encryptor.rsaEngine = engine }
        let name = "encrypt-lines/rsa2048" + (engine.map { "/\($0)" } ?? "")
        let line = PayloadSuite.payloadBytes() + [0x0A]
        let input = LineFile(line: line)
        // Setup proves the lines are real JWEs of the payload: three lines, each decrypted.
        let check = LineFile(line: [])
        input.fill(lines: 3)
        run(encryptor, input: input.descriptor, output: check.descriptor)
        let written = check.contents().split(separator: 0x0A)
        let decryptor = mustSucceed { () throws(CSEError) in try JWEDecryptor(privateKey: keys.privateKey) }
        guard written.count == 3 else { fatalError("\(name) setup: \(written.count) output lines for 3") }
        for output in written {
            guard let jwe = (try? JSONValue.parse(Array(output)))?.objectValue?["jwe"]?.stringValue,
                mustSucceed({ () throws(CSEError) in try decryptor.decrypt(jwe) }).plaintext.unsafeCopyToArray() == Array(line.dropLast())
            else { fatalError("\(name) setup: an output line is not the payload's JWE") }
        }
        let devNull = open("/dev/null", O_WRONLY)
        guard devNull >= 0 else { fatalError("\(name): /dev/null") }
        return Benchmark.selfTimed(name) { iterations in
            input.fill(lines: iterations)
            let start = nowNanoseconds()
            run(encryptor, input: input.descriptor, output: devNull)
            return nowNanoseconds() - start
        }
    }

    private static func run(_ encryptor: JWEEncryptor, input: Int32, output: Int32) {
        var runner = BatchRunner()
        runner.workers = 1
        runner.input = input
        runner.output = output
        let failures = mustSucceed { () throws(CSEError) in try runner.run { _, line in EncryptLines.process(line, with: encryptor) } }
        guard failures == 0 else { fatalError("encrypt-lines: \(failures) lines failed") }
    }
}

/// An unlinked temporary file holding `n` copies of one line, rewound for reading.
private final class LineFile {
    let descriptor: Int32
    private let line: [UInt8]
    private var lines = -1

    init(line: [UInt8]) {
        var template = Array("/tmp/cse-bench-lines-XXXXXX".utf8CString)
        descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { fatalError("cse-bench: mkstemp") }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.line = line
    }

    /// Makes the file hold exactly `count` lines and rewinds it.
    func fill(lines count: Int) {
        if count != lines {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(count * line.count)
            for _ in 0..<count { bytes.append(contentsOf: line) }
            guard ftruncate(descriptor, 0) == 0,
                bytes.withUnsafeBytes({ pwrite(descriptor, $0.baseAddress, $0.count, 0) }) == bytes.count
            else { fatalError("cse-bench: writing the input lines") }
            lines = count
        }
        lseek(descriptor, 0, SEEK_SET)
    }

    /// The whole file.
    func contents() -> [UInt8] {
        let size = Int(lseek(descriptor, 0, SEEK_END))
        var bytes = [UInt8](repeating: 0, count: size)
        guard bytes.withUnsafeMutableBytes({ pread(descriptor, $0.baseAddress, size, 0) }) == size else {
            fatalError("cse-bench: reading the output lines")
        }
        return bytes
    }
}

/// Two P-256 keys made by OpenSSL, a derive context of one with the other as its peer, and a
/// verify context with a signature of a fixed digest.
final class P256Floor {
    private let ownKey: OpaquePointer
    private let peerKey: OpaquePointer
    private let deriveContext: OpaquePointer
    private let verifyContext: OpaquePointer
    private let digest: [UInt8] = Fixtures.bytes(32, seed: 37)
    private var signature: [UInt8] = []
    private var secret = [UInt8](repeating: 0, count: 32)

    init() {
        ownKey = Self.generate()
        peerKey = Self.generate()
        guard let derive = EVP_PKEY_CTX_new(ownKey, nil), EVP_PKEY_derive_init(derive) == 1,
            EVP_PKEY_derive_set_peer(derive, peerKey) == 1
        else { fatalError("floor: ECDH setup") }
        deriveContext = derive
        guard let sign = EVP_PKEY_CTX_new(peerKey, nil), EVP_PKEY_sign_init(sign) == 1 else { fatalError("floor: sign setup") }
        defer { EVP_PKEY_CTX_free(sign) }
        var length = 80
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_sign(sign, &signature, &length, digest, digest.count) == 1 else { fatalError("floor: sign") }
        self.signature = Array(signature.prefix(length))
        guard let verify = EVP_PKEY_CTX_new(peerKey, nil), EVP_PKEY_verify_init(verify) == 1 else {
            fatalError("floor: verify setup")
        }
        verifyContext = verify
        guard self.verify(), agree() == 32 else { fatalError("floor: the references do not work") }
    }

    deinit {
        EVP_PKEY_CTX_free(deriveContext)
        EVP_PKEY_CTX_free(verifyContext)
        EVP_PKEY_free(ownKey)
        EVP_PKEY_free(peerKey)
    }

    private static func generate() -> OpaquePointer {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { fatalError("floor: EC context") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
            EVP_PKEY_generate(context, &key) == 1, let key
        else { fatalError("floor: P-256 key generation") }
        return key
    }

    /// One ECDH: the length of the shared secret (32).
    func agree() -> Int {
        var length = secret.count
        guard EVP_PKEY_derive(deriveContext, &secret, &length) == 1 else { fatalError("floor: ECDH") }
        return length
    }

    /// One ECDSA verification of the digest's signature.
    func verify() -> Bool {
        EVP_PKEY_verify(verifyContext, signature, signature.count, digest, digest.count) == 1
    }
}
