import CSECore
import CSECrypto
import CSEJOSE
import CSEPayments
import CSEValidation
import Foundation
import Testing

/// The demo key, allowed explicitly, a fixed clock (May 2026) and a fixed meta info.
func demoSealer(nonce: NonceSource = .secureRandom, allowInvalid: Bool = false) throws(CSEError) -> PaymentRequestSealer {
    try PaymentRequestSealer(
        publicKey: DemoKeys.testOnlyPublicKey, keyId: DemoKeys.testOnlyKeyId,
        options: SealingOptions(allowInvalidRequest: allowInvalid, allowDemoKey: true,
                                currentMonth: CalendarMonth(year: 2026, month: 5), nonceSource: nonce,
                                clientMetaInfo: ClientMetaInfo(platformIdentifier: "Linux/6.1.0", deviceType: "x86_64")))
}

/// Decrypts with the demo private key in-process.
let demoDecryptor: JWEDecryptor = {
    try! JWEDecryptor(privateKey: DemoKeys.testOnlyPrivateKey(), expectedKeyId: DemoKeys.testOnlyKeyId)
}()

func openSealed(_ jwe: String) throws -> [UInt8] {
    try demoDecryptor.decrypt(jwe).plaintext.unsafeCopyToArray()
}

/// python3-jwcrypto as an independent oracle (`Tests/Interop/jwcrypto_oracle.py`).
enum JWCryptoOracle {
    static let python = "/usr/bin/python3"
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/jwcrypto_oracle.py").path

    static let available: Bool = {
        guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: script) else {
            return false
        }
        return (try? run(["-c", "import jwcrypto"], input: "")) != nil
    }()

    /// Runs the oracle in `mode` over `lines` and returns its output lines.
    static func batch(_ mode: String, keyPEM: String?, lines: [String]) throws -> [String] {
        var arguments = [script, mode]
        var keyFile: URL?
        if let keyPEM {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("cse-oracle-\(UUID().uuidString).pem")
            try Data(keyPEM.utf8).write(to: url)
            keyFile = url
            arguments += ["--key", url.path]
        }
        defer { if let keyFile { try? FileManager.default.removeItem(at: keyFile) } }
        let output = try run(arguments, input: lines.joined(separator: "\n") + "\n")
        return output.split(separator: "\n").map(String.init)
    }

    struct Failure: Error { let status: Int32 }

    static func run(_ arguments: [String], input: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(status: process.terminationStatus) }
        return String(decoding: data, as: UTF8.self)
    }
}
