import CSECore
import Foundation
import Testing
import TestSupport

/// Issue #36 through `cse`: a money-moving command journals by default under `XDG_STATE_HOME`,
/// `--journal FILE` chooses the file, `--no-journal` turns it off, and a journal that cannot be
/// used stops the command before anything is sent.
@Suite("cse: every money-moving command journals by default; --journal and --no-journal; an unsafe journal sends nothing")
struct JournalOptionCLITests {
    static let payment = HardeningRoundFourCLITests.worldlinePayment
    static let encrypted = HardeningRoundFourCLITests.encrypted

    static func worldline() throws -> (LoopbackEmulator, [String]) {
        let server = try ServerCommandTests.emulator("worldline", ["--secret-api-key", ServerCommandTests.worldlineSecret])
        let common = [
            "--credentials", try ServerCommandTests.file(HardeningRoundFourCLITests.worldlineCredentials), "--endpoint", server.baseURL,
        ]
        return (server, common)
    }

    /// The rows of a journal file, read with Python's own sqlite3 module (an operator's view).
    static func rows(_ path: String) throws -> [String] {
        try JWCryptoOracle.run(
            [
                "-c",
                "import sqlite3,sys\nfor r in sqlite3.connect(sys.argv[1]).execute('SELECT platform, operation, amount, currency, "
                    + "merchant_reference, idempotence_key, state FROM entry ORDER BY id'): print('|'.join(map(str, r)))",
                path,
            ], input: "")
    }

    @Test("By default the journal is ${XDG_STATE_HOME}/cse/journal.sqlite, 0600 in a 0700 directory, holding the payment as succeeded")
    func defaultJournal() throws {
        let (server, common) = try Self.worldline()
        defer { server.stop() }
        let state = try CommandRunner.temporaryDirectory()
        let result = try CommandRunner.run(
            Self.payment + common, stdin: Array(Self.encrypted.utf8), environment: ["XDG_STATE_HOME": state])
        #expect(result.status == 0, "\(result.err)")
        let path = state + "/cse/journal.sqlite"
        let file = try FileManager.default.attributesOfItem(atPath: path)
        let directory = try FileManager.default.attributesOfItem(atPath: state + "/cse")
        #expect((file[.posixPermissions] as? Int) == 0o600 && (directory[.posixPermissions] as? Int) == 0o700)
        #expect(try Self.rows(path) == ["worldline|createPayment|2345|EUR|order-h|hidden-1|succeeded"])
    }

    @Test("--journal FILE records there; --no-journal records nothing; both together are a usage error")
    func choosingTheJournal() throws {
        let (server, common) = try Self.worldline()
        defer { server.stop() }
        let directory = try CommandRunner.temporaryDirectory()
        chmod(directory, 0o700)
        let chosen = directory + "/shop.sqlite"
        let state = try CommandRunner.temporaryDirectory()
        let result = try CommandRunner.run(
            Self.payment + common + ["--journal", chosen], stdin: Array(Self.encrypted.utf8), environment: ["XDG_STATE_HOME": state])
        #expect(result.status == 0, "\(result.err)")
        #expect(try Self.rows(chosen).count == 1 && !FileManager.default.fileExists(atPath: state + "/cse/journal.sqlite"))
        let off = try CommandRunner.run(
            Self.payment + common + ["--no-journal"], stdin: Array(Self.encrypted.utf8), environment: ["XDG_STATE_HOME": state])
        #expect(off.status == 0 && !FileManager.default.fileExists(atPath: state + "/cse/journal.sqlite"), "\(off.err)")
        let both = try CommandRunner.run(Self.payment + common + ["--journal", chosen, "--no-journal"], input: Self.encrypted)
        #expect(both.status == 64, "\(both.err)")
    }

    @Test("A symbolic link as the journal: exit 1 with journal.unsafeFile, and the platform received nothing")
    func unsafeJournal() throws {
        let (server, common) = try Self.worldline()
        defer { server.stop() }
        let directory = try CommandRunner.temporaryDirectory()
        chmod(directory, 0o700)
        let target = directory + "/real.sqlite"
        FileManager.default.createFile(atPath: target, contents: nil, attributes: [.posixPermissions: 0o600])
        symlink(target, directory + "/link.sqlite")
        let result = try CommandRunner.run(Self.payment + common + ["--journal", directory + "/link.sqlite"], input: Self.encrypted)
        #expect(result.status == 1 && result.err.hasPrefix("Error: journal.unsafeFile"), "\(result.err)")
        #expect(try server.requests().isEmpty)
    }

    @Test("An unknown outcome names its journal entry on stderr, and the entry is recorded unknown with the key")
    func unknownNamesTheEntry() throws {
        let (server, common) = try Self.worldline()
        defer { server.stop() }
        try server.enqueue(LoopbackEmulator.Fault.drop.afterRoute().times(3).onPath("/v2/1234/payments"))
        let directory = try CommandRunner.temporaryDirectory()
        chmod(directory, 0o700)
        let journal = directory + "/j.sqlite"
        let result = try CommandRunner.run(Self.payment + common + ["--journal", journal], input: Self.encrypted)
        #expect(result.status == 75 && result.err.contains("cse: journal entry 1 records this call"), "\(result.err)")
        #expect(try Self.rows(journal) == ["worldline|createPayment|2345|EUR|order-h|hidden-1|unknown"])
        ServerCommandTests.checkCanaries(result)
    }
}
