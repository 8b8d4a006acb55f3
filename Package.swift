// swift-tools-version:6.0
//
// CSEKit: client-side encryption (JOSE/JWE) and field validation of payment customer input, for Linux.
//
// Layers (see docs/ARCHITECTURE.md):
//   C targets (COpenSSL, CGMP, CCSEShims, CMontgomeryIFMA)
//     -> CSECore (errors, base64, JSON)  -> CSECrypto (RSA-OAEP engines, AES, HMAC, keys)
//     -> CSEJOSE (JWE compact)           -> CSEValidation (validators, masks, IBAN, brands, IIN, currencies)
//     -> CSEPayments (products, requests, sealing), CSEGateways (APS, Paysafe, Mastercard request rules)
//     -> CSEKit (umbrella) -> CSECLI / cse, cse-bench
import PackageDescription

let package = Package(
    name: "CSEKit",
    products: [
        .library(name: "CSEKit", targets: ["CSEKit"]),
        .executable(name: "cse", targets: ["cse"]),
        .executable(name: "cse-bench", targets: ["cse-bench"]),
    ],
    targets: [
        // MARK: C layer. Never products; Swift modules `internal import` them.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CGMP",
            pkgConfig: "gmp",
            providers: [.apt(["libgmp-dev"])]
        ),
        .target(name: "CCSEShims", dependencies: ["COpenSSL", "CGMP"]),
        // The AVX-512 IFMA kernel for RSA e = 65537 (one C file, no dependencies).
        .target(name: "CMontgomeryIFMA"),

        // MARK: Swift library modules, one job each.
        .target(name: "CSECore"),
        .target(name: "CSECrypto", dependencies: ["CSECore", "COpenSSL", "CGMP", "CCSEShims", "CMontgomeryIFMA"]),
        .target(name: "CSEJOSE", dependencies: ["CSECore", "CSECrypto"]),
        .target(name: "CSEValidation", dependencies: ["CSECore"]),
        .target(name: "CSEPayments", dependencies: ["CSECore", "CSECrypto", "CSEJOSE", "CSEValidation"]),
        .target(name: "CSEGateways", dependencies: ["CSECore", "CSECrypto", "CSEValidation"]),
        // The TEST-ONLY demo key pair: for `cse demo` and the tests, never part of the CSEKit library.
        .target(name: "CSEDemoKeys", dependencies: ["CSECore", "CSECrypto"]),
        .target(name: "CSEKit", dependencies: ["CSECore", "CSECrypto", "CSEJOSE", "CSEValidation", "CSEPayments", "CSEGateways"]),

        // MARK: Tools.
        .target(name: "CSECLI", dependencies: ["CSEKit", "CSEDemoKeys", "CCSEShims"]),
        .executableTarget(name: "cse", dependencies: ["CSECLI"]),
        .executableTarget(
            name: "cse-bench",
            dependencies: ["CSEKit", "CSECore", "CSECrypto", "CSEJOSE", "CSEValidation", "CSEPayments", "COpenSSL", "CCSEShims"],
            path: "Benchmarks/cse-bench"
        ),

        // MARK: Tests.
        .target(name: "TestSupport", dependencies: ["CSECore", "CSEDemoKeys"], path: "Tests/TestSupport"),
        .testTarget(name: "CSECoreTests", dependencies: ["CSECore", "TestSupport"]),
        .testTarget(name: "CSECryptoTests", dependencies: ["CSECrypto", "CSECore", "TestSupport"]),
        .testTarget(name: "CSEJOSETests", dependencies: ["CSEJOSE", "CSECrypto", "CSECore", "TestSupport"]),
        .testTarget(name: "CSEValidationTests", dependencies: ["CSEValidation", "CSECore", "TestSupport"]),
        .testTarget(name: "CSEPaymentsTests", dependencies: ["CSEPayments", "CSEKit", "TestSupport"], exclude: ["Golden"]),
        .testTarget(name: "CSEGatewaysTests", dependencies: ["CSEGateways", "CSEKit", "TestSupport"]),
        .testTarget(name: "CSECLITests", dependencies: ["CSECLI", "CSEKit", "TestSupport"]),
    ]
)

// Standard settings for every Swift target.
for target in package.targets where target.type != .system && !["CCSEShims", "CMontgomeryIFMA"].contains(target.name) {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
