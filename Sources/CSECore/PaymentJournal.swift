/// A durable record of the calls that move money (issue #36): before a request leaves, the call
/// records its intent; after the answer, its outcome and the platform's ids. A process that dies
/// between the two leaves an `open` entry whose keys settle it with the platform's own lookup.
///
/// `SQLiteJournal` (module CSEJournal) is the default store; a money-moving client uses the journal
/// of its `HTTPClientConfiguration`. Integrators may keep the record elsewhere (rows in
/// their order database) by conforming to this protocol; an implementation must make
/// ``recordIntent(_:)`` durable before it returns (the request leaves right after), and must be
/// safe to call from several threads and processes at once.
///
/// An entry never holds card data, a CVV, a wallet cryptogram, a token, a credential, a phrase or
/// a session id: ``JournalIntent`` has no member for any of them.
public protocol PaymentJournal: Sendable {
    /// Records that a request is about to leave, durably, and returns the new entry's id.
    /// - Throws: `journal.*` when the intent cannot be recorded; the caller then sends nothing.
    func recordIntent(_ intent: JournalIntent) throws(CSEError) -> JournalEntryID

    /// Records what became of the request of entry `id`: its outcome, and the platform's ids
    /// learned from the answer (merged into those the intent had).
    /// - Throws: `journal.*`, or `journal.unknownEntry` for an id the journal does not hold.
    func recordOutcome(_ id: JournalEntryID, _ outcome: JournalOutcome) throws(CSEError)

    /// The entries that match `filter`, oldest first.
    /// - Throws: `journal.*`.
    func entries(matching filter: JournalFilter) throws(CSEError) -> [JournalEntry]
}

/// The id of a journal entry: positive, increasing in the order intents were recorded.
public struct JournalEntryID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The number.
    public let rawValue: Int64

    /// An id.
    public init(_ rawValue: Int64) { self.rawValue = rawValue }

    /// Orders ids by number.
    public static func < (lhs: JournalEntryID, rhs: JournalEntryID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The number.
    public var description: String { String(rawValue) }
}

/// Where an entry stands.
public enum JournalState: String, Sendable, CaseIterable {
    /// The intent is recorded; no outcome yet (the request is in flight, or the process died).
    case open
    /// The platform accepted the operation.
    case succeeded
    /// The platform refused it, or it was provably not processed.
    case refused
    /// Processed, not decided yet: the payer must act or the platform decides later.
    case pending
    /// The request may have been processed; its outcome was not read.
    case unknown
    /// The request provably never left (the connection was refused before anything was sent).
    case notSent

    /// Whether the entry still needs settling: `open`, `pending` or `unknown`.
    public var isOpen: Bool { self == .open || self == .pending || self == .unknown }
}

/// What a call is about to do: the facts that identify it on the platform. No card data, no
/// secret: only amounts, references and the ids that make the call idempotent.
public struct JournalIntent: Sendable, Hashable {
    /// The platform: `worldline`, `aps`, `mastercard` or `paysafe`.
    public var platform: String
    /// The operation, for example `createPayment`, `capture`, `refund`, `void`.
    public var operation: String
    /// The amount in minor units, when the operation has one.
    public var amount: Int64?
    /// The ISO 4217 code, when the operation has an amount.
    public var currency: String?
    /// The merchant's reference of the order or operation.
    public var merchantReference: String?
    /// The idempotence key every attempt carries (Worldline).
    public var idempotenceKey: String?
    /// The ids that make the call idempotent or find it again, by name (`orderId`,
    /// `transactionId`, `paymentId`, `fortId`, `maintenanceReference`, …).
    public var platformIDs: [String: String]

    /// An intent.
    public init(
        platform: String, operation: String, amount: Int64? = nil, currency: String? = nil, merchantReference: String? = nil,
        idempotenceKey: String? = nil, platformIDs: [String: String] = [:]
    ) {
        self.platform = platform
        self.operation = operation
        self.amount = amount
        self.currency = currency
        self.merchantReference = merchantReference
        self.idempotenceKey = idempotenceKey
        self.platformIDs = platformIDs
    }
}

/// What became of a call.
public struct JournalOutcome: Sendable, Hashable {
    /// The state the entry moves to (never `open`).
    public var state: JournalState
    /// The stable code of a refusal or of an unknown outcome's cause (`server.referenceInUse`).
    public var code: String?
    /// What a pending payment waits for: the action's type (`redirect`, `html`,
    /// `mobile-challenge`), never its URL or page (they may carry the payer's session).
    public var action: String?
    /// Ids the answer named (the platform's payment id, a capture id), merged into the entry's.
    public var platformIDs: [String: String]

    /// An outcome.
    public init(state: JournalState, code: String? = nil, action: String? = nil, platformIDs: [String: String] = [:]) {
        self.state = state
        self.code = code
        self.action = action
        self.platformIDs = platformIDs
    }
}

/// One recorded call.
public struct JournalEntry: Sendable, Hashable {
    /// The entry's id.
    public let id: JournalEntryID
    /// What was about to be done.
    public let intent: JournalIntent
    /// Where it stands.
    public let state: JournalState
    /// The code of a refusal or unknown outcome.
    public let code: String?
    /// The action's type a pending entry waits for (``JournalOutcome/action``).
    public let action: String?
    /// The ids known so far: the intent's and the answer's.
    public let platformIDs: [String: String]
    /// When the intent was recorded, milliseconds since the Unix epoch.
    public let createdAt: Int64
    /// When the entry last changed, milliseconds since the Unix epoch.
    public let updatedAt: Int64

    /// An entry as a journal read it back.
    public init(
        id: JournalEntryID, intent: JournalIntent, state: JournalState, code: String? = nil, action: String? = nil,
        platformIDs: [String: String], createdAt: Int64, updatedAt: Int64
    ) {
        self.id = id
        self.intent = intent
        self.state = state
        self.code = code
        self.action = action
        self.platformIDs = platformIDs
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// Which entries ``PaymentJournal/entries(matching:)`` returns.
public struct JournalFilter: Sendable, Hashable {
    /// Only `open`, `pending` and `unknown` entries.
    public var openOnly: Bool
    /// Only this platform's entries.
    public var platform: String?
    /// Only entries recorded at or after this time, milliseconds since the Unix epoch.
    public var since: Int64?

    /// A filter; every entry by default.
    public init(openOnly: Bool = false, platform: String? = nil, since: Int64? = nil) {
        self.openOnly = openOnly
        self.platform = platform
        self.since = since
    }
}
