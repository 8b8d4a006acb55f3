import CSECore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The device and SDK description a merchant sends as `encodedClientMetaInfo` (the Worldline
/// `X-GCS-ClientMetaInfo` value, reference §1.4): standard base64 (with padding) of a JSON object.
///
/// Members, in this fixed order: `platformIdentifier`, `sdkIdentifier`, `sdkCreator`,
/// `screenSize` (only when set), `deviceBrand`, `deviceType`, `appIdentifier`, then
/// ``addedData`` in the given order. Every field can be injected; ``current(appIdentifier:)``
/// gives honest Linux defaults.
public struct ClientMetaInfo: Hashable, Sendable {
    /// One extra member.
    public struct Entry: Hashable, Sendable {
        /// The member name.
        public let key: String
        /// The member value.
        public let value: String
        /// Creates an entry.
        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    /// The CSEKit version reported in ``sdkIdentifier`` (the release version, `cse --version`).
    public static let sdkVersion = CSEKitVersion.current

    /// `<system>/<version>`, for example `Linux/6.1.0`.
    public var platformIdentifier: String
    /// `CSEKit/v<version>`.
    public var sdkIdentifier: String
    /// Who made the SDK; `CSEKit`.
    public var sdkCreator: String
    /// The device maker; `UNKNOWN` by default on Linux, where no portable source exists.
    public var deviceBrand: String
    /// The machine type, for example `x86_64` or `aarch64` (`uname -m`).
    public var deviceType: String
    /// The app's identifier; an empty value is sent as `UNKNOWN`, as the Worldline SDK does.
    public var appIdentifier: String
    /// The screen size, when the caller has one (Worldline wrote width and height with no
    /// separator; pass whatever your server expects). Omitted when `nil`, the default: a Linux
    /// process has no screen in general.
    public var screenSize: String?
    /// Extra members after the standard ones; a key equal to a standard member, or repeated, is
    /// ignored, so added data never overrides them.
    public var addedData: [Entry]

    /// Creates a description; every member is explicit.
    public init(
        platformIdentifier: String, sdkIdentifier: String = "CSEKit/v\(ClientMetaInfo.sdkVersion)",
        sdkCreator: String = "CSEKit", deviceBrand: String = "UNKNOWN", deviceType: String,
        appIdentifier: String = "UNKNOWN", screenSize: String? = nil, addedData: [Entry] = []
    ) {
        self.platformIdentifier = platformIdentifier
        self.sdkIdentifier = sdkIdentifier
        self.sdkCreator = sdkCreator
        self.deviceBrand = deviceBrand
        self.deviceType = deviceType
        self.appIdentifier = appIdentifier
        self.screenSize = screenSize
        self.addedData = addedData
    }

    /// This machine, from `uname(2)`: `platformIdentifier` is the system name and the leading
    /// version of the release (`Linux/6.1.0` for release `6.1.0-18-amd64`), `deviceType` the
    /// machine (`x86_64`); the other members take their defaults.
    /// - Parameter appIdentifier: The app's identifier; `UNKNOWN` when empty.
    public static func current(appIdentifier: String = "UNKNOWN") -> ClientMetaInfo {
        var system = "UNKNOWN", release = "", machine = "UNKNOWN"
        var names = utsname()
        if uname(&names) == 0 {
            system = Self.string(&names.sysname)
            release = Self.string(&names.release)
            machine = Self.string(&names.machine)
        }
        let version = String(release.prefix { $0.isASCII && ($0.isNumber || $0 == ".") })
        return ClientMetaInfo(
            platformIdentifier: version.isEmpty ? system : "\(system)/\(version)", deviceType: machine,
            appIdentifier: appIdentifier)
    }

    private static func string<T>(_ field: inout T) -> String {
        withUnsafeBytes(of: &field) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The JSON object, compact, members in the documented order, written with the package's one
    /// object writer, `JSONObjectWriter` (once per sealer, which keeps the base64 of it).
    package var jsonBytes: [UInt8] {
        var members: [(String, String)] = [
            ("platformIdentifier", platformIdentifier), ("sdkIdentifier", sdkIdentifier), ("sdkCreator", sdkCreator),
        ]
        if let screenSize { members.append(("screenSize", screenSize)) }
        members += [
            ("deviceBrand", deviceBrand), ("deviceType", deviceType),
            ("appIdentifier", appIdentifier.isEmpty ? "UNKNOWN" : appIdentifier),
        ]
        for entry in addedData where !members.contains(where: { $0.0 == entry.key }) {
            members.append((entry.key, entry.value))
        }
        var out = JSONObjectWriter()
        for (key, value) in members { out.string(key, value) }
        return out.finish()
    }

    /// Standard base64 with padding (RFC 4648 §4) of its JSON: the `encodedClientMetaInfo`.
    public var encoded: String { Base64.encode(jsonBytes) }
}
