// swift-tools-version:6.0
//
// CSEKit's examples: small programs that depend on the CSEKit library by path, so CI compiles and
// runs them against the code they document (`Examples/run.sh`). One package with one executable
// per example, so CSEKit is compiled once for all of them.
//
//   five-lines          the README's "library in five lines", runnable
//   receiving-service   the merchant side: decrypt a sealed payload and check it
//   client-api-flow     the Client API flow: session, key, products, IIN, seal (against the emulator)
//   iban-check          IBAN checks on the validation product alone (no OpenSSL, libcurl or ICU)
//   wallet-payment      decrypt an Apple Pay token and pay with its card, in process (the
//                       CSEWallets and CSEServerAPI products; against the server emulator)
import Foundation
import PackageDescription

// A path dependency's identity is its directory name, which is whatever the clone is called.
let csekit = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "CSEKitExamples",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "five-lines",
            dependencies: [.product(name: "CSEKit", package: csekit)],
            path: "Sources/FiveLines"),
        .executableTarget(
            name: "receiving-service",
            dependencies: [.product(name: "CSEKit", package: csekit)],
            path: "Sources/ReceivingService"),
        .executableTarget(
            name: "client-api-flow",
            dependencies: [.product(name: "CSEKit", package: csekit)],
            path: "Sources/ClientAPIFlow"),
        .executableTarget(
            name: "iban-check",
            dependencies: [.product(name: "CSEValidation", package: csekit)],
            path: "Sources/IBANCheck"),
        .executableTarget(
            name: "wallet-payment",
            dependencies: [.product(name: "CSEWallets", package: csekit), .product(name: "CSEServerAPI", package: csekit)],
            path: "Sources/WalletPayment"),
    ]
)
