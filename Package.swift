// swift-tools-version:6.0
//
// CSEKit: client-side encryption (JOSE/JWE) and field validation of payment customer input, for Linux.
//
// Layers (see docs/ARCHITECTURE.md):
//   C targets (COpenSSL, CGMP, CCSEShims, CMontgomeryIFMA; CCurl, CICURegex and CSQLiteLoader open their libraries
//   on first use)
//     -> CSECore (errors, base64, JSON)  -> CSECrypto (RSA-OAEP engines, AES, HMAC, keys)
//     -> CSEJOSE (JWE compact)           -> CSEValidation (validators, masks, IBAN, brands, IIN, currencies)
//     -> CSEPayments (products, requests, sealing), CSEGateways (APS, Paysafe, Mastercard request rules),
//        CSEWallets (Apple Pay and Google Pay tokens: verify and decrypt)
//     -> CSEHTTP (transport, SessionData; the platform clients build on it) -> CSEClientAPI (Worldline Client API
//        session), CSEServerAPI (merchant-server calls), CSEWalletsHTTP (Google root keys)
//     -> CSEKit (umbrella) -> CSECLI / cse, cse-bench
import Foundation
import PackageDescription

// `cse` links the Swift runtime statically (see the target below), except when
// CSEKIT_DYNAMIC_STDLIB is set: sanitizer builds need the shared libraries, because
// ThreadSanitizer's libdispatch interceptors forward to the real `dispatch_apply` found in
// libdispatch.so, and with a static libdispatch they call a null pointer (`.ci/run` sets the
// variable for its ThreadSanitizer step).
let linksStaticStdlib = ProcessInfo.processInfo.environment["CSEKIT_DYNAMIC_STDLIB"] == nil

// How `cse` is linked, for a one-shot process's memory (issue #16's 16 MB; Benchmarks/README.md,
// "One-shot memory after round five"): most of its peak RSS is pages of the executable mapped at
// start-up, and the kernel maps a file's pages around each one touched (64 KB windows), so what
// counts is how many windows start-up touches, not how much code runs.
// - lld (shipped with the toolchain; gold, swiftc's default here, cannot pack relocations);
// - `-z pack-relative-relocs`: DT_RELR, 7.5 KB of relative relocations instead of 0.85 MB of
//   `.rela.dyn` that the loader reads at every start (glibc >= 2.36);
// - `--no-export-dynamic`: the static-stdlib link exports the program's symbols (8,000: 0.7 MB of
//   dynamic symbol table, strings and hash that the loader searches while binding the shared
//   libraries); nothing resolves a symbol of `cse` dynamically;
// - `--icf=all`: identical functions folded (130 KB of code);
// - `--symbol-ordering-file`: the functions that start-up and the common commands run, in the
//   order they first run, at the start of `.text` (Sources/cse/startup-order.txt, made by
//   Scripts/startup-order.sh; a name that no longer exists is skipped, so a stale list only costs
//   memory, never correctness). The library's modules are not built with `-function-sections`
//   (an unsafe flag would bar CSEKit's library products from versioned dependents), so a listed
//   function brings its whole source file's code along.
let startupLinkerFlags = [
    "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic", "-Xlinker",
    "--icf=all", "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/cse/startup-order.txt", "-Xlinker",
    "--no-warn-symbol-ordering",
]

let package = Package(
    name: "CSEKit",
    products: [
        // The umbrella: every layer through one `import CSEKit`.
        .library(name: "CSEKit", targets: ["CSEKit"]),
        // One product per layer group, as swift-nio offers one per module beside its umbrella
        // (issue #23, point 1): depend on what you use. Each lists the modules a user imports
        // (CSECore holds `CSEError`); their C targets come along. Validation needs no C library
        // headers at all (ICU is opened on first use and declared by CICURegex itself).
        .library(name: "CSEValidation", targets: ["CSECore", "CSEValidation"]),
        // Needs OpenSSL and GMP (libssl-dev, libgmp-dev).
        .library(name: "CSEPayments", targets: ["CSECore", "CSECrypto", "CSEJOSE", "CSEValidation", "CSEPayments"]),
        // Adds the transport (libcurl, opened on first use).
        .library(
            name: "CSEClientAPI",
            targets: ["CSECore", "CSECrypto", "CSEJOSE", "CSEValidation", "CSEPayments", "CSEHTTP", "CSEClientAPI"]),
        // The merchant-server calls: no client-side session (SessionData lives in CSEHTTP), the
        // wallet card from CSEWallets, the Worldline wallet-token request from CSEPayments.
        .library(
            name: "CSEServerAPI",
            targets: [
                "CSECore", "CSECrypto", "CSEJOSE", "CSEValidation", "CSEPayments", "CSEGateways", "CSEWallets", "CSEHTTP", "CSEServerAPI",
            ]),
        // Apple Pay and Google Pay tokens, verified and decrypted offline: no HTTP, so no libcurl
        // headers (OpenSSL only).
        .library(name: "CSEWallets", targets: ["CSECore", "CSECrypto", "CSEWallets"]),
        // The payment journal (issue #36): SQLite (libsqlite3-dev) and CSECore only.
        .library(name: "CSEJournal", targets: ["CSECore", "CSEJournal"]),
        // Google Pay's root signing keys fetched over HTTPS and cached: adds the transport.
        .library(name: "CSEWalletsHTTP", targets: ["CSECore", "CSECrypto", "CSEWallets", "CSEHTTP", "CSEWalletsHTTP"]),
        .executable(name: "cse", targets: ["cse"]),
        .executable(name: "cse-bench", targets: ["cse-bench"]),
    ],
    targets: [
        // MARK: C layer. Never products; Swift modules `internal import` them.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CGMP",
            pkgConfig: "gmp",
            providers: [.apt(["libgmp-dev"])]
        ),
        // SQLite's header (Debian libsqlite3-dev): the payment journal's types and constants (issue
        // #36). No pkg-config and no `link`: the library is opened on first use by CSQLiteLoader.
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(name: "CCSEShims", dependencies: ["COpenSSL", "CGMP"]),
        // libcurl (Debian libcurl4-openssl-dev headers), opened with dlopen on the first transport.
        .target(name: "CCurl"),
        // ICU's regex C API, opened with dlopen on first use (the regex fallback; no link-time dependency).
        .target(name: "CICURegex"),
        // libsqlite3 (the payment journal's store), opened with dlopen when a journal is first opened.
        .target(name: "CSQLiteLoader"),
        // The AVX-512 IFMA kernel for RSA e = 65537 (one C file, no dependencies).
        .target(name: "CMontgomeryIFMA"),

        // MARK: Swift library modules, one job each.
        .target(name: "CSECore"),
        .target(name: "CSECrypto", dependencies: ["CSECore", "COpenSSL", "CGMP", "CCSEShims", "CMontgomeryIFMA"]),
        .target(name: "CSEJOSE", dependencies: ["CSECore", "CSECrypto"]),
        .target(name: "CSEValidation", dependencies: ["CSECore", "CICURegex"]),
        .target(name: "CSEPayments", dependencies: ["CSECore", "CSECrypto", "CSEJOSE", "CSEValidation"]),
        .target(name: "CSEGateways", dependencies: ["CSECore", "CSECrypto", "CSEValidation"]),
        // Apple Pay and Google Pay payment tokens: verify and decrypt on the merchant's server (no network I/O).
        .target(name: "CSEWallets", dependencies: ["CSECore", "CSECrypto", "COpenSSL", "CCSEShims"]),

        // The durable record of money-moving calls (issue #36): the SQLite store of CSECore's
        // PaymentJournal protocol. libsqlite3 is opened on first use (CSQLiteLoader), so `cse`
        // links none of it and a command that never journals never maps it.
        .target(name: "CSEJournal", dependencies: ["CSECore", "CSQLite", "CSQLiteLoader"]),

        // MARK: Platform clients (the only modules that do network I/O).
        // OpenSSL directly for the TLS hook and the retry jitter's RAND_bytes; nothing of CSECrypto.
        .target(name: "CSEHTTP", dependencies: ["CSECore", "CCurl", "COpenSSL"]),
        // Google Pay's root signing keys fetched over HTTPS and cached (so that CSEWallets never links the transport).
        .target(name: "CSEWalletsHTTP", dependencies: ["CSECore", "CSEWallets", "CSEHTTP"]),
        // The Worldline Client API session (issue #14): models, product/IIN rules, caches (SessionData is in CSEHTTP).
        .target(name: "CSEClientAPI", dependencies: ["CSECore", "CSECrypto", "CSEJOSE", "CSEValidation", "CSEPayments", "CSEHTTP"]),
        // The merchant-server calls of Worldline, APS, Mastercard and Paysafe (on CSEHTTP, which
        // also holds SessionData; wallet cards from CSEWallets; every module it imports, declared).
        .target(
            name: "CSEServerAPI",
            dependencies: ["CSECore", "CSECrypto", "CSEValidation", "CSEPayments", "CSEGateways", "CSEWallets", "CSEHTTP"]),
        // The TEST-ONLY demo key pair: for `cse demo` and the tests, never part of the CSEKit library.
        .target(name: "CSEDemoKeys", dependencies: ["CSECore", "CSECrypto", "CSEPayments"]),
        .target(
            name: "CSEKit",
            dependencies: [
                "CSECore", "CSECrypto", "CSEJOSE", "CSEValidation", "CSEPayments", "CSEGateways", "CSEWallets", "CSEHTTP", "CSEClientAPI",
                "CSEServerAPI", "CSEWalletsHTTP",
            ]),

        // MARK: Tools.
        .target(name: "CSECLI", dependencies: ["CSEKit", "CSEJournal", "CSEDemoKeys", "CCSEShims"]),
        // The Swift runtime is linked statically into `cse`: a one-shot process then skips the
        // dynamic loader's symbol binding of the Swift libraries (Benchmarks/README.md,
        // "Start-up"). Foundation is not linked at all: no module of the library imports it (the
        // regex fallback calls ICU's C API, loaded on first use by CICURegex).
        .executableTarget(
            name: "cse", dependencies: ["CSECLI"], exclude: ["startup-order.txt"],
            linkerSettings: linksStaticStdlib ? [.unsafeFlags(["-static-stdlib"] + startupLinkerFlags)] : []),
        .executableTarget(
            name: "cse-bench",
            dependencies: [
                "CSEKit", "CSECore", "CSECrypto", "CSEJOSE", "CSEValidation", "CSEPayments", "CSEHTTP", "CSEClientAPI", "CSEWallets",
                "CSECLI", "CSEServerAPI", "CSEJournal", "COpenSSL", "CCSEShims",
            ],
            path: "Benchmarks/cse-bench"
        ),

        // MARK: Tests.
        .target(name: "TestSupport", dependencies: ["CSECore", "CSEDemoKeys"], path: "Tests/TestSupport"),
        .testTarget(name: "CSECoreTests", dependencies: ["CSECore", "TestSupport"]),
        .testTarget(name: "CSECryptoTests", dependencies: ["CSECrypto", "CSECore", "CSEPayments", "TestSupport"]),
        .testTarget(name: "CSEJOSETests", dependencies: ["CSEJOSE", "CSECrypto", "CSECore", "TestSupport"]),
        .testTarget(name: "CSEValidationTests", dependencies: ["CSEValidation", "CSECore", "TestSupport"]),
        .testTarget(name: "CSEJournalTests", dependencies: ["CSEJournal", "CSECore", "TestSupport"]),
        // Each test target depends on the module it tests and what its tests need, never on the
        // CSEKit umbrella (issue #31, point 2): a lower layer's test cannot use a higher one unnoticed.
        .testTarget(
            name: "CSEPaymentsTests", dependencies: ["CSEPayments", "CSECore", "CSECrypto", "CSEJOSE", "CSEValidation", "TestSupport"],
            exclude: ["Golden"]),
        .testTarget(name: "CSEGatewaysTests", dependencies: ["CSEGateways", "CSECore", "CSECrypto", "CSEValidation", "TestSupport"]),
        .testTarget(
            name: "CSEServerAPITests",
            dependencies: [
                "CSEServerAPI", "CSECore", "CSECrypto", "CSEValidation", "CSEPayments", "CSEGateways", "CSEWallets", "CSEHTTP",
                "TestSupport",
            ]),
        .testTarget(name: "CSECLITests", dependencies: ["CSECLI", "CSEKit", "TestSupport"]),
        .testTarget(name: "CSEHTTPTests", dependencies: ["CSEHTTP", "CSECore", "CSECrypto", "TestSupport"]),
        .testTarget(
            name: "CSEClientAPITests",
            dependencies: ["CSEClientAPI", "CSECore", "CSECrypto", "CSEJOSE", "CSEValidation", "CSEPayments", "CSEHTTP", "TestSupport"]),
        .testTarget(
            name: "CSEWalletsTests", dependencies: ["CSEWallets", "CSEWalletsHTTP", "CSEHTTP", "CSECore", "CSECrypto", "TestSupport"]),
    ]
)

// Standard settings for every Swift target.
let cTargets: Set = ["CCSEShims", "CMontgomeryIFMA", "CICURegex", "CCurl"]
for target in package.targets where target.type != .system && !cTargets.contains(target.name) {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
