import Foundation

/// A throwaway certificate authority made with the `openssl` CLI in a temporary directory, for
/// TLS tests against ``LoopbackEmulator``: P-256 keys, valid for two days, a CA certificate with
/// `basicConstraints CA:TRUE`, server certificates with `serverAuth` and the subject alternative
/// names asked for. ``remove()`` deletes the directory.
public final class TestCA: @unchecked Sendable {
    /// A server certificate and its key (PEM files).
    public struct ServerCertificate: Sendable {
        /// The certificate, PEM.
        public let certificatePath: String
        /// The private key, PEM.
        public let keyPath: String
    }

    /// The `openssl` binary.
    public static let openssl = "/usr/bin/openssl"

    /// The temporary directory holding every file.
    public let directory: String
    /// The CA certificate (PEM), to pass as the trusted bundle.
    public let certificatePath: String
    private let keyPath: String

    /// Creates a CA named `commonName`.
    public init(commonName: String = "CSEKit Test CA") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("csekit-ca-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        certificatePath = directory + "/ca.pem"
        keyPath = directory + "/ca.key"
        try Self.openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", keyPath, "-out",
            certificatePath, "-days", "2", "-subj", "/CN=\(commonName)", "-addext", "basicConstraints=critical,CA:TRUE", "-addext",
            "keyUsage=critical,keyCertSign,cRLSign",
        ])
    }

    /// Issues a server certificate with these DNS names and IP addresses as its subject
    /// alternative names (the defaults: `localhost`, `127.0.0.1`, `::1`), plus any `otherNames`
    /// entries written in `openssl x509v3_config` form (`email:…`, `URI:…`). With no name at all
    /// the certificate has no subjectAltName extension. The subject common name is `commonName`,
    /// else the first DNS name, else `name`.
    public func issueServerCertificate(
        name: String = "server", dnsNames: [String] = ["localhost"], ipAddresses: [String] = ["127.0.0.1", "::1"],
        otherNames: [String] = [], commonName: String? = nil
    ) throws -> ServerCertificate {
        let key = directory + "/\(name).key", csr = directory + "/\(name).csr", cert = directory + "/\(name).pem"
        let extensions = directory + "/\(name).ext"
        let names = dnsNames.map { "DNS:\($0)" } + ipAddresses.map { "IP:\($0)" } + otherNames
        try
            ((names.isEmpty ? "" : "subjectAltName=\(names.joined(separator: ","))\n") + "basicConstraints=critical,CA:FALSE\n"
            + "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n").write(
                toFile: extensions, atomically: true, encoding: .utf8)
        try Self.openssl([
            "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", csr, "-subj",
            "/CN=\(commonName ?? dnsNames.first ?? name)",
        ])
        try Self.openssl([
            "x509", "-req", "-in", csr, "-CA", certificatePath, "-CAkey", keyPath, "-CAcreateserial", "-out", cert, "-days", "2",
            "-extfile", extensions,
        ])
        return ServerCertificate(certificatePath: cert, keyPath: key)
    }

    /// Deletes the directory.
    public func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = arguments
        let errorPipe = Pipe()
        process.standardError = errorPipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let errorText = errorPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw LoopbackEmulator.Failure(
                description: "openssl \(arguments.first ?? "") failed: \(String(decoding: errorText, as: UTF8.self))")
        }
    }
}
