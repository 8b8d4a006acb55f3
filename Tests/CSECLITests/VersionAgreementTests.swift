import CSECore
import CSEPayments
import Foundation
import Testing
import TestSupport

/// One version number in one place (`CSEKitVersion.current`): everything that shows a version
/// must show that one.
@Suite("Version: one number, everywhere it is shown")
struct VersionAgreementTests {
    @Test("the version is MAJOR.MINOR.PATCH")
    func semanticVersion() {
        let parts = CSEKitVersion.current.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        #expect(parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
    }

    @Test("cse --version prints it")
    func commandLine() throws {
        let result = try CommandRunner.run(["--version"])
        #expect(result.status == 0)
        #expect(result.out == CSEKitVersion.current + "\n")
    }

    @Test("the client meta info reports it as sdkIdentifier CSEKit/v<version>")
    func clientMetaInfo() {
        #expect(ClientMetaInfo.sdkVersion == CSEKitVersion.current)
        #expect(ClientMetaInfo.current().sdkIdentifier == "CSEKit/v\(CSEKitVersion.current)")
    }

    @Test("the newest release heading of CHANGELOG.md names it")
    func changelog() throws {
        let text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let releases = text.split(separator: "\n").filter { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
        let newest = try #require(releases.first)
        #expect(newest.hasPrefix("## [\(CSEKitVersion.current)] - "), "newest release heading: \(newest)")
    }

    @Test("the Debian package takes its version from the built binary, not from a second literal")
    func debianPackage() throws {
        let script = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("Scripts/package-deb.sh"), encoding: .utf8)
        #expect(script.contains("--version"))
        #expect(!script.contains(CSEKitVersion.current))
    }
}
