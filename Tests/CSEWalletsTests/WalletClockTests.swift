import CSECore
import CSEWallets
import Testing

@Suite("Wallets: the injected clock and the stable refusal codes")
struct WalletClockTests {
    @Test("A fixed clock answers its instant; the system clock is after 2026-01-01")
    func clocks() {
        #expect(WalletClock.fixed(unixMilliseconds: 1_630_522_986_000).unixMilliseconds() == 1_630_522_986_000)
        #expect(WalletClock.system.unixMilliseconds() > 1_767_225_600_000)
    }

    @Test("The refusal codes are the ten the CLI prints")
    func codes() {
        let codes: [CSEError.Code] = [
            .walletMalformed, .walletUnsupportedVersion, .walletSignatureInvalid, .walletUntrustedCertificate,
            .walletSigningTimeOutOfWindow, .walletKeyExpired, .walletMessageExpired, .walletNoMatchingKey,
            .walletDecryptionFailed, .walletReplayed,
        ]
        #expect(
            codes.map(\.rawValue) == [
                "wallet.malformed", "wallet.unsupportedVersion", "wallet.signatureInvalid", "wallet.untrustedCertificate",
                "wallet.signingTimeOutOfWindow", "wallet.keyExpired", "wallet.messageExpired", "wallet.noMatchingKey",
                "wallet.decryptionFailed", "wallet.replayed",
            ])
    }
}
