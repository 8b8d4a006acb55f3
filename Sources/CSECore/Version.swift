/// The CSEKit release version: the one place it is written. `cse --version`, the
/// `sdkIdentifier` of the client meta info (`CSEKit/v<version>`), the Debian package
/// (`Scripts/package-deb.sh` asks the built binary) and the newest release heading of
/// `CHANGELOG.md` all derive from it; `VersionAgreementTests` checks that they agree.
package enum CSEKitVersion {
    /// `MAJOR.MINOR.PATCH` (Semantic Versioning 2.0.0).
    package static let current = "0.1.0"
}
