@testable import CSEHTTP
import Foundation
import Testing
import TestSupport

/// The transport sets `CURLOPT_PROTOCOLS_STR`, which libcurl 7.85.0 introduced: an older libcurl
/// is refused when the transport is made, and the Debian package depends on 7.85 or later.
@Suite("CurlTransport needs libcurl 7.85 or later, and the .deb says so")
struct LibcurlVersionTests {
    @Test("7.85.0 and later are supported; 7.84.x and earlier are not")
    func versionFloor() {
        for supported: UInt32 in [0x07_55_00, 0x07_55_01, 0x07_58_01, 0x08_00_00, 0x08_0B_01] {
            #expect(CurlTransport.isSupported(libcurlVersion: supported), "\(CurlTransport.versionText(supported))")
        }
        for unsupported: UInt32 in [0x07_54_00, 0x07_54_FF, 0x07_44_00, 0x06_FF_FF] {
            #expect(!CurlTransport.isSupported(libcurlVersion: unsupported), "\(CurlTransport.versionText(unsupported))")
        }
        #expect(CurlTransport.versionText(0x07_55_00) == CurlTransport.minimumLibcurlVersion)
        #expect(CurlTransport.versionText(0x07_58_01) == "7.88.1")
    }

    @Test("Scripts/package-deb.sh depends on libcurl4 at the transport's minimum version")
    func debianDependency() throws {
        let script = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("Scripts/package-deb.sh"), encoding: .utf8)
        let floor = CurlTransport.minimumLibcurlVersion.split(separator: ".").prefix(2).joined(separator: ".")
        #expect(script.contains("libcurl4 (>= \(floor))"))
        #expect(script.components(separatedBy: "libcurl4 (>=").count == 2, "exactly one libcurl4 dependency")
    }
}
