import CSECore
import CSEWallets

/// The options `cse wallet decrypt` and `cse wallet verify` share, and their parsing.
enum WalletOptions {
    /// `--now`: an ISO-8601 UTC instant `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`, in milliseconds.
    static func instant(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, range.allSatisfy({ bytes[$0].isASCIIDigit }) else { return nil }
            return range.reduce(0) { $0 * 10 + Int(bytes[$1] - 0x30) }
        }
        guard bytes.count >= 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54 || bytes[10] == 0x74,
            bytes[13] == 0x3A, bytes[16] == 0x3A,
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var millis = 0
        if bytes[index] == 0x2E {
            index += 1
            let start = index
            while index < bytes.count, bytes[index].isASCIIDigit { index += 1 }
            guard index > start else { return nil }
            let digits = bytes[start..<min(index, start + 3)].map { Int($0 - 0x30) }
            millis = (digits + [0, 0, 0]).prefix(3).reduce(0) { $0 * 10 + $1 }
        }
        var offset = 0
        guard index < bytes.count else { return nil }
        if bytes[index] == 0x5A || bytes[index] == 0x7A {
            index += 1
        } else if bytes[index] == 0x2B || bytes[index] == 0x2D {
            guard bytes.count == index + 6, bytes[index + 3] == 0x3A, let hours = number(index + 1..<index + 3),
                let minutes = number(index + 4..<index + 6), hours < 24, minutes < 60
            else { return nil }
            offset = (hours * 60 + minutes) * 60 * (bytes[index] == 0x2B ? 1 : -1)
            index += 6
        }
        // Refuse dates that do not exist (2021-02-30).
        guard index == bytes.count, CivilCalendar.isDate(year: year, month: month, day: day) else { return nil }
        let seconds = CivilCalendar.unixTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return (seconds - Int64(offset)) * 1000 + Int64(millis)
    }

    /// Milliseconds since the epoch as ISO-8601 UTC, `YYYY-MM-DDTHH:MM:SSZ`: the CLI's one
    /// formatter of instants (wallet times, journal entries). Milliseconds are written when not
    /// zero, or always with `alwaysMilliseconds` (`cse journal list`, whose times line up).
    static func isoString(_ milliseconds: Int64, alwaysMilliseconds: Bool = false) -> String {
        var seconds = milliseconds.quotientAndRemainder(dividingBy: 1000).quotient
        if milliseconds < 0, milliseconds % 1000 != 0 { seconds -= 1 }
        let fields = CivilCalendar.fields(unixTime: seconds)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = ((milliseconds % 1000) + 1000) % 1000
        let fraction = millis == 0 && !alwaysMilliseconds ? "" : "." + String(String(millis + 1000).dropFirst())
        return "\(fields.year)-\(two(fields.month))-\(two(fields.day))T"
            + "\(two(fields.hour)):\(two(fields.minute)):\(two(fields.second))\(fraction)Z"
    }

    /// `--signing-window PAST[,FUTURE]` in seconds; FUTURE defaults to 60.
    static func signingWindow(_ text: String) -> ApplePaySigningWindow? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let past = Int64(parts[0]), past >= 0, parts[0].allSatisfy(\.isASCII) else {
            return nil
        }
        guard parts.count == 2 else {
            return ApplePaySigningWindow(pastSeconds: past, futureSeconds: ApplePaySigningWindow.default.futureSeconds)
        }
        guard let future = Int64(parts[1]), future >= 0 else { return nil }
        return ApplePaySigningWindow(pastSeconds: past, futureSeconds: future)
    }

    /// The shared option values, validated.
    struct Common {
        /// `--wallet`, `--apple-root`, `--signing-window`, `--now` and `--lines`, in help order.
        struct Keys: Sendable {
            let wallet: OptionKey<Wallet?>
            let root: OptionKey<String?>
            let window: OptionKey<SigningWindowArgument?>
            let now: OptionKey<InstantArgument?>
            let lines: OptionKey<Bool>

            /// Declares the five options.
            init(_ declare: inout OptionDeclarations) {
                wallet = declare.value(
                    "wallet", "KIND", as: Wallet.self, help: "Force the wallet: apple-pay or google-pay (chosen by the options otherwise).")
                root = declare.value("apple-root", "FILE", help: "Trust this root (PEM) instead of Apple Root CA - G3 (tests).")
                window = declare.value(
                    "signing-window", "PAST[,FUTURE]", as: SigningWindowArgument.self,
                    help: "Accepted signing-time distance in seconds (300,60).")
                now = declare.value(
                    "now", "ISO-8601", as: InstantArgument.self, help: "The clock for every check, e.g. 2021-09-01T19:03:06Z.")
                lines = declare.flag("lines", help: "Batch mode: one token per input line, one output line per input line.")
            }
        }

        let clock: WalletClock
        let window: ApplePaySigningWindow
        let rootPath: String?
        let lines: Bool

        /// Reads and checks the options.
        init(arguments: ParsedArguments<Keys>) throws(UsageError) {
            clock = arguments[\.now].map { .fixed(unixMilliseconds: $0.unixMilliseconds) } ?? .system
            window = arguments[\.window]?.window ?? .default
            rootPath = arguments[\.root]
            lines = arguments[\.lines]
        }

        /// The trusted root: the embedded Apple Root CA - G3, or `--apple-root`.
        func trustedRoot() throws(CSEError) -> ApplePayTrustedRoot {
            guard let rootPath else { return .appleRootCAG3 }
            return try ApplePayTrustedRoot(pemRepresentation: String(decoding: try Files.read(rootPath), as: UTF8.self))
        }
    }

    /// Runs `body` on standard input (one token) or on each line (`--lines`), printing its object.
    static func run(lines: Bool, _ body: @escaping @Sendable ([UInt8]) throws(CSEError) -> [UInt8]) throws(CSEError) -> Int32 {
        if lines {
            let failures = try BatchRunner().run { _, line in
                do throws(CSEError) { return .output(try body(line)) } catch { return .failure(error) }
            }
            return failures == 0 ? ExitCode.success : ExitCode.failure
        }
        let input = try Files.readStandardInput(limit: 1 << 20)
        StandardStreams.write(try body(input) + [0x0A], to: 1)
        return ExitCode.success
    }
}
