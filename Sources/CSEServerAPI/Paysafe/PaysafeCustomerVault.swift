public import CSECore
import CSECrypto
@_spi(CustomTransport) import CSEHTTP

extension CSEError.Code {
    /// Paysafe knows no customer with this id or merchant customer id (HTTP 404; issue #35).
    public static let paysafeCustomerNotFound = Self("paysafe.customerNotFound")
    /// Paysafe already holds a customer with this merchant customer id (HTTP 409 on create): read
    /// it with ``PaysafePaymentClient/customer(merchantCustomerID:)`` (issue #35).
    public static let paysafeCustomerExists = Self("paysafe.customerExists")
    /// The customer has no saved card (multi-use payment handle) with this id (HTTP 404; issue #35).
    public static let paysafeSavedCardNotFound = Self("paysafe.savedCardNotFound")
}

/// A Paysafe customer of the Payments API's Customer Vault (`Customer`; lifecycle research notes
/// §4.3), with the saved cards when they were asked for.
public struct PaysafeCustomer: Sendable, CustomStringConvertible {
    /// The customer's id: what the saved-card calls take.
    public let id: String
    /// `merchantCustomerId`: the merchant's own id of the customer.
    public let merchantCustomerID: String?
    /// `status`, for example `ACTIVE`.
    public let status: String?
    /// `paymentHandles`: the saved cards (multi-use handles), when read with them.
    public let savedCards: [PaysafePaymentHandle]

    /// Decodes a customer.
    /// - Throws: ``CSEError/Code/serverAPIInvalidResponse`` naming the member when `id` is
    ///   missing, or a member has the wrong JSON type.
    init(response: JSONObject) throws(CSEError) {
        let reader = ServerResponseReader(platform: "paysafe")
        id = try reader.nonEmptyString(response, "id")
        merchantCustomerID = try reader.optionalString(response, "merchantCustomerId")
        status = try reader.optionalString(response, "status")
        savedCards = try PaysafeCustomer.handles(response, reader: reader)
    }

    /// The `paymentHandles` of `object`.
    static func handles(_ object: JSONObject, reader: ServerResponseReader) throws(CSEError) -> [PaysafePaymentHandle] {
        var handles: [PaysafePaymentHandle] = []
        for (index, entry) in (try reader.optionalArray(object, "paymentHandles") ?? []).enumerated() {
            let name = "paymentHandles[\(index)]"
            handles.append(try PaysafePaymentHandle(response: try reader.object(entry, member: name), reader: reader.under(name)))
        }
        return handles
    }

    /// `{"id","merchantCustomerId","status","paymentHandles":[…]}` (the cards masked, their tokens whole).
    package var json: JSONValue {
        var members: [(String, JSONValue)] = [("id", .string(id))]
        if let merchantCustomerID { members.append(("merchantCustomerId", .string(merchantCustomerID))) }
        if let status { members.append(("status", .string(status))) }
        members.append(("paymentHandles", .array(savedCards.map(\.json))))
        return .object(JSONObject(members))
    }

    /// Id, merchant id and the number of saved cards.
    public var description: String {
        "PaysafeCustomer(id: \(id), merchantCustomerId: \(merchantCustomerID ?? "-"), savedCards: \(savedCards.count))"
    }
}

/// A card saved for a customer: the multi-use handle, and whether this request saved it or the
/// customer had it saved already (Paysafe answers with the card's existing handle).
public struct PaysafeSavedCard: Sendable, CustomStringConvertible {
    /// The saved card: a `MULTI_USE` handle with a permanent token.
    public let handle: PaysafePaymentHandle
    /// `false` when the customer already had this card saved: the handle carries the merchant
    /// reference it was first saved with, not this request's.
    public let isNew: Bool

    /// The handle's JSON with `"newCard"`.
    package var json: JSONValue {
        var object = handle.json.objectValue ?? JSONObject()
        object["newCard"] = .bool(isNew)
        return .object(object)
    }

    /// The handle, and whether it is new; never the token.
    public var description: String { "PaysafeSavedCard(\(handle), new: \(isNew))" }
}

/// A single-use customer token (`POST /v1/customers/{id}/singleusecustomertokens`; lifecycle
/// research notes §4.3): what the app's SDK takes to show the customer's saved cards.
public struct PaysafeCustomerToken: Sendable, CustomStringConvertible {
    /// The token's id.
    public let id: String?
    /// `singleUseCustomerToken`, for the SDK.
    public let singleUseCustomerToken: String
    /// `timeToLiveSeconds`.
    public let timeToLiveSeconds: Int?
    /// `customerId`.
    public let customerID: String?
    /// The saved cards Paysafe lists with the token (masked; without their tokens).
    public let savedCards: [PaysafePaymentHandle]

    /// Decodes a token.
    /// - Throws: ``CSEError/Code/serverAPIInvalidResponse`` naming the member when
    ///   `singleUseCustomerToken` is missing, or a member has the wrong JSON type.
    init(response: JSONObject) throws(CSEError) {
        let reader = ServerResponseReader(platform: "paysafe")
        singleUseCustomerToken = try reader.nonEmptyString(response, "singleUseCustomerToken")
        id = try reader.optionalString(response, "id")
        timeToLiveSeconds = try reader.optionalInt(response, "timeToLiveSeconds")
        customerID = try reader.optionalString(response, "customerId")
        savedCards = try PaysafeCustomer.handles(response, reader: reader)
    }

    /// `{"id","singleUseCustomerToken","timeToLiveSeconds","customerId","paymentHandles":[…]}`.
    package var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let id { members.append(("id", .string(id))) }
        members.append(("singleUseCustomerToken", .string(singleUseCustomerToken)))
        if let timeToLiveSeconds { members.append(("timeToLiveSeconds", .number(String(timeToLiveSeconds)))) }
        if let customerID { members.append(("customerId", .string(customerID))) }
        members.append(("paymentHandles", .array(savedCards.map(\.json))))
        return .object(JSONObject(members))
    }

    /// Id and lifetime; never the token.
    public var description: String {
        "PaysafeCustomerToken(id: \(id ?? "-"), customerId: \(customerID ?? "-"), timeToLiveSeconds: \(timeToLiveSeconds.map(String.init) ?? "-"))"
    }
}

/// A request to save a card for a customer: the single-use handle of a payment the payer made
/// becomes a multi-use handle (`POST /v1/customers/{id}/paymenthandles` with
/// `paymentHandleTokenFrom`; lifecycle research notes §4.3).
public struct PaysafeSaveCardRequest: Sendable, CustomStringConvertible {
    /// The customer's id.
    public let customerID: String
    /// The merchant's reference of this saved card, unique per customer: a repeat with it is a
    /// duplicate (409), and a lost answer is settled by finding the customer's card with it.
    public let merchantReference: String
    /// The single-use `paymentHandleToken` of a completed payment.
    public let paymentHandleToken: String

    /// Checks and creates a request.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` naming the argument: a customer id
    ///   that is not 1–64 letters, digits, `-`, `_` or `.`, a reference that is not 1–255
    ///   printable ASCII characters, a token that is not 1–100 identifier characters.
    public init(customerID: String, merchantReference: String, paymentHandleToken: String) throws(CSEError) {
        try PaysafeOperationRequest.checkIdentifier(customerID, argument: "customerId")
        try PaysafePaymentRequest.checkReference(merchantReference)
        try PaysafePaymentRequest.checkToken(paymentHandleToken)
        self.customerID = customerID
        self.merchantReference = merchantReference
        self.paymentHandleToken = paymentHandleToken
    }

    /// Customer and reference; never the token.
    public var description: String { "PaysafeSaveCardRequest(customerId: \(customerID), merchantRefNum: \(merchantReference))" }
}

/// The Customer Vault of the Payments API, with the server-to-server key (issue #35; lifecycle
/// research notes §4.3): customers, cards saved as multi-use payment handles, and single-use
/// customer tokens for the app's list of saved cards. A saved card pays with
/// ``PaysafePaymentRequest/Source/paymentHandle(_:)`` and a ``PaysafeStoredCredential``.
extension PaysafePaymentClient {
    /// Creates a customer: `POST /paymenthub/v1/customers` with `{"merchantCustomerId"}`.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for a merchant customer id that is
    ///   not 1–100 printable ASCII characters; ``CSEError/Code/paysafeCustomerExists`` for a 409;
    ///   ``CSEError/Code/paysafeAPIError`` for another refusal; a transport error (a lost answer
    ///   is settled with ``customer(merchantCustomerID:)``).
    public func createCustomer(merchantCustomerID: String) async throws(CSEError) -> PaysafeCustomer {
        try Self.checkMerchantCustomerID(merchantCustomerID)
        let response = try await connection.send(
            .post, path: Self.customers, body: .object(JSONObject([("merchantCustomerId", .string(merchantCustomerID))])))
        guard response.isSuccess else {
            let error = PaysafeTokenClient.error(of: response, redactor: connection.redactor)
            guard response.status == 409 else { throw error }
            throw CSEError(
                .paysafeCustomerExists, "Paysafe already holds a customer with this merchant customer id",
                context: ["merchantCustomerId": SafeText.identifier(merchantCustomerID, limit: 100)], underlying: error)
        }
        return try PaysafeCustomer(response: try ServerResponse.object(response, platform: "paysafe"))
    }

    /// The customer with a merchant customer id, with the saved cards: `GET
    /// /paymenthub/v1/customers?merchantCustomerId=…&fields=paymentHandles`.
    /// - Throws: ``CSEError/Code/paysafeCustomerNotFound`` for a 404; the errors of ``createCustomer(merchantCustomerID:)``.
    public func customer(merchantCustomerID: String) async throws(CSEError) -> PaysafeCustomer {
        try Self.checkMerchantCustomerID(merchantCustomerID)
        return try await readCustomer(path: Self.customers, query: [("merchantCustomerId", merchantCustomerID)])
    }

    /// The customer with an id, with the saved cards: `GET /paymenthub/v1/customers/{id}?fields=paymentHandles`.
    /// This is how a lost answer to ``saveCard(_:)`` is settled: the card saved with the request's
    /// merchant reference is among the customer's cards, or nothing was saved.
    /// - Throws: ``CSEError/Code/paysafeCustomerNotFound`` for a 404; Paysafe's and the transport's errors.
    public func customer(id: String) async throws(CSEError) -> PaysafeCustomer {
        try PaysafeOperationRequest.checkIdentifier(id, argument: "customerId")
        return try await readCustomer(path: Self.customers + [id], query: [])
    }

    /// Deletes a customer and its saved cards: `DELETE /paymenthub/v1/customers/{id}`.
    /// - Throws: ``CSEError/Code/paysafeCustomerNotFound`` for a 404; Paysafe's and the transport's errors.
    public func deleteCustomer(id: String) async throws(CSEError) {
        try PaysafeOperationRequest.checkIdentifier(id, argument: "customerId")
        try await delete(Self.customers + [id], notFound: .paysafeCustomerNotFound, id: id)
    }

    /// Saves the card of a completed payment for a customer: `POST
    /// /paymenthub/v1/customers/{id}/paymenthandles` with `{"merchantRefNum","paymentHandleTokenFrom"}`.
    ///
    /// The outcome (a saved card can be charged: its creation is decided as a payment is):
    /// - ``PaymentOutcome/succeeded(_:_:)``: the multi-use handle, new, or the customer's existing
    ///   one for the same card (``PaysafeSavedCard/isNew`` false); after a 409 (the reference was
    ///   used before), the customer's card saved with the reference;
    /// - ``PaymentOutcome/unknown(_:_:)``: no answer read after sending, a 5xx, an unreadable 2xx,
    ///   or a 409 whose card is not found; the reconciliation names the merchant reference, and
    ///   ``customer(id:)`` settles it.
    /// - Throws: When nothing was saved: ``CSEError/Code/paysafeHandleNotPayable`` (the handle did
    ///   not complete a payment, expired or is unknown), ``CSEError/Code/paysafeCustomerNotFound``
    ///   (404), ``CSEError/Code/paysafeAPIError``, 401/403, a transport error before sending.
    ///
    /// The save runs inside the client's journal (issue #36): the intent before it is sent, the
    /// outcome and the saved card's id after.
    public func saveCard(_ request: PaysafeSaveCardRequest) async throws(CSEError) -> PaymentOutcome<PaysafeSavedCard> {
        let intent = JournalIntent(
            platform: "paysafe", operation: "saveCard", merchantReference: request.merchantReference,
            platformIDs: ["customerId": request.customerID])
        return try await journaled(connection.http, intent, ids: { ["paymentHandleId": $0.handle.id] }) { () async throws(CSEError) in
            try await saveCardOnce(request)
        }
    }

    /// ``saveCard(_:)`` itself, without the journal.
    private func saveCardOnce(_ request: PaysafeSaveCardRequest) async throws(CSEError) -> PaymentOutcome<PaysafeSavedCard> {
        let keys = PaymentReconciliation(merchantReference: request.merchantReference)
        let redactor = SafeText(secrets: [credentials.apiKey, SecureBytes(request.paymentHandleToken.utf8)])
        let body = JSONValue.object(
            JSONObject([
                ("merchantRefNum", .string(request.merchantReference)), ("paymentHandleTokenFrom", .string(request.paymentHandleToken)),
            ]))
        let response: HTTPResponse
        switch try await connection.postMovingMoney(
            path: Self.customers + [request.customerID, "paymenthandles"], body: body, keys: keys,
            lost: "the card may have been saved; list the customer's saved cards")
        {
        case .success(let answer): response = answer
        case .failure(let error): return .unknown(keys, error)
        }
        if response.status == 409 {
            let conflict = PaysafeTokenClient.error(of: response, redactor: redactor)
            let earlier = try? await customer(id: request.customerID).savedCards.first { $0.merchantReference == request.merchantReference }
            guard let earlier else {
                return .unknown(
                    keys, outcomeUnknownError("the reference was used before, and no saved card with it was found", keys, cause: conflict))
            }
            return .succeeded(PaysafeSavedCard(handle: earlier, isNew: true), keys)
        }
        guard response.isSuccess else {
            let error = PaysafeTokenClient.error(of: response, redactor: redactor)
            if response.status >= 500 {
                return .unknown(
                    keys, outcomeUnknownError("Paysafe answered a server error; the card may have been saved", keys, cause: error))
            }
            if let refusal = Self.handleRefusal(response, error: error, redactor: redactor) { throw refusal }
            if response.status == 404 { throw Self.notFound(.paysafeCustomerNotFound, request.customerID, error) }
            return try notProcessed(error, after: response, keys)
        }
        do throws(CSEError) {
            let handle = try PaysafePaymentHandle(response: try ServerResponse.object(response, platform: "paysafe"))
            guard handle.paymentHandleToken != nil else {
                throw ServerResponseReader(platform: "paysafe").malformed("paymentHandleToken is missing", member: "paymentHandleToken")
            }
            return .succeeded(PaysafeSavedCard(handle: handle, isNew: handle.merchantReference == request.merchantReference), keys)
        } catch {
            return .unknown(keys, outcomeUnknownError("Paysafe's 2xx answer is not a readable saved card", keys, cause: error))
        }
    }

    /// A customer's saved card: `GET /paymenthub/v1/customers/{customerId}/paymenthandles/{id}`.
    /// - Throws: ``CSEError/Code/paysafeSavedCardNotFound`` for a 404; Paysafe's and the transport's errors.
    public func savedCard(customerID: String, id: String) async throws(CSEError) -> PaysafePaymentHandle {
        try PaysafeOperationRequest.checkIdentifier(customerID, argument: "customerId")
        try PaysafeOperationRequest.checkIdentifier(id, argument: "paymentHandleId")
        let response = try await connection.send(
            .get, path: Self.customers + [customerID, "paymenthandles", id], body: nil, retry: .idempotent)
        guard response.isSuccess else {
            let error = PaysafeTokenClient.error(of: response, redactor: connection.redactor)
            throw response.status == 404 ? Self.notFound(.paysafeSavedCardNotFound, id, error) : error
        }
        return try PaysafePaymentHandle(response: try ServerResponse.object(response, platform: "paysafe"))
    }

    /// Updates a customer's saved card: `PUT /paymenthub/v1/customers/{customerId}/paymenthandles/{id}`
    /// with `{"card":{"cardExpiry":{"month","year"},"holderName"}}`, the members given (a card
    /// reissued with a new expiry keeps its token). A repeat sets the same values, so the transport may repeat it.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for nothing to update, a month outside
    ///   1–12, a year outside 2000–2099 or a holder name that is not 1–160 printable characters;
    ///   ``CSEError/Code/paysafeSavedCardNotFound`` for a 404; Paysafe's and the transport's errors.
    public func updateSavedCard(
        customerID: String, id: String, expiry: (month: Int, year: Int)? = nil, holderName: String? = nil
    ) async throws(CSEError) -> PaysafePaymentHandle {
        try PaysafeOperationRequest.checkIdentifier(customerID, argument: "customerId")
        try PaysafeOperationRequest.checkIdentifier(id, argument: "paymentHandleId")
        var card: [(String, JSONValue)] = []
        if let expiry {
            guard (1...12).contains(expiry.month), (2000...2099).contains(expiry.year) else {
                throw CSEError(
                    .serverAPIInvalidArgument, "the expiry is a month 1-12 of a year 2000-2099", context: ["argument": "cardExpiry"])
            }
            card.append(
                ("cardExpiry", .object(JSONObject([("month", .number(String(expiry.month))), ("year", .number(String(expiry.year)))]))))
        }
        if let holderName {
            guard !holderName.isEmpty, holderName.utf8.count <= 160,
                holderName.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
            else {
                throw CSEError(
                    .serverAPIInvalidArgument, "the holder name is 1 to 160 printable characters", context: ["argument": "holderName"])
            }
            card.append(("holderName", .string(holderName)))
        }
        guard !card.isEmpty else {
            throw CSEError(.serverAPIInvalidArgument, "give the expiry or the holder name to update", context: ["argument": "card"])
        }
        let response = try await connection.send(
            .put, path: Self.customers + [customerID, "paymenthandles", id],
            body: .object(JSONObject([("card", .object(JSONObject(card)))])),
            retry: .idempotent)
        guard response.isSuccess else {
            let error = PaysafeTokenClient.error(of: response, redactor: connection.redactor)
            throw response.status == 404 ? Self.notFound(.paysafeSavedCardNotFound, id, error) : error
        }
        return try PaysafePaymentHandle(response: try ServerResponse.object(response, platform: "paysafe"))
    }

    /// Deletes a customer's saved card: `DELETE /paymenthub/v1/customers/{customerId}/paymenthandles/{id}`.
    /// Its token pays nothing afterwards.
    /// - Throws: ``CSEError/Code/paysafeSavedCardNotFound`` for a 404 (no such card, or deleted
    ///   before); Paysafe's and the transport's errors.
    public func deleteSavedCard(customerID: String, id: String) async throws(CSEError) {
        try PaysafeOperationRequest.checkIdentifier(customerID, argument: "customerId")
        try PaysafeOperationRequest.checkIdentifier(id, argument: "paymentHandleId")
        try await delete(Self.customers + [customerID, "paymenthandles", id], notFound: .paysafeSavedCardNotFound, id: id)
    }

    /// A single-use customer token for the app's list of saved cards: `POST
    /// /paymenthub/v1/customers/{id}/singleusecustomertokens` with `{"merchantRefNum","paymentType":["CARD"]}`
    /// (the member name of PS-Java's `SingleUseCustomerTokenRequest`; docs/COMPATIBILITY.md).
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for an id or reference that cannot be
    ///   sent; ``CSEError/Code/paysafeCustomerNotFound`` for a 404; Paysafe's and the transport's errors.
    public func createCustomerToken(customerID: String, merchantReference: String) async throws(CSEError) -> PaysafeCustomerToken {
        try PaysafeOperationRequest.checkIdentifier(customerID, argument: "customerId")
        try PaysafePaymentRequest.checkReference(merchantReference)
        let body = JSONValue.object(
            JSONObject([("merchantRefNum", .string(merchantReference)), ("paymentType", .array([.string("CARD")]))]))
        let response = try await connection.send(.post, path: Self.customers + [customerID, "singleusecustomertokens"], body: body)
        guard response.isSuccess else {
            let error = PaysafeTokenClient.error(of: response, redactor: connection.redactor)
            throw response.status == 404 ? Self.notFound(.paysafeCustomerNotFound, customerID, error) : error
        }
        return try PaysafeCustomerToken(response: try ServerResponse.object(response, platform: "paysafe"))
    }

    /// `paymenthub/v1/customers`.
    static let customers = ["paymenthub", "v1", "customers"]

    /// Refuses a merchant customer id that is not 1–100 printable ASCII characters.
    package static func checkMerchantCustomerID(_ id: String) throws(CSEError) {
        guard !id.isEmpty, id.utf8.count <= 100, id.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            throw CSEError(
                .serverAPIInvalidArgument, "the merchant customer id is 1 to 100 printable ASCII characters",
                context: ["argument": "merchantCustomerId"])
        }
    }

    /// `code` ("Paysafe knows no …") naming `id`, caused by Paysafe's error.
    static func notFound(_ code: CSEError.Code, _ id: String, _ error: CSEError) -> CSEError {
        let what = code == .paysafeSavedCardNotFound ? "saved card" : "customer"
        return CSEError(code, "Paysafe knows no \(what) with this id", context: ["id": SafeText.identifier(id)], underlying: error)
    }

    /// A customer read at `path` with `query` and `fields=paymentHandles`.
    private func readCustomer(path: [String], query: [(name: String, value: String)]) async throws(CSEError) -> PaysafeCustomer {
        let response = try await connection.send(
            .get, path: path, query: query + [("fields", "paymentHandles")], body: nil, retry: .idempotent)
        guard response.isSuccess else {
            let error = PaysafeTokenClient.error(of: response, redactor: connection.redactor)
            throw response.status == 404 ? Self.notFound(.paysafeCustomerNotFound, query.first?.value ?? path.last ?? "", error) : error
        }
        return try PaysafeCustomer(response: try ServerResponse.object(response, platform: "paysafe"))
    }

    /// `DELETE path`; a 404 is `notFound`. Not repeated by the transport: a repeat of a deletion that was made answers 404.
    private func delete(_ path: [String], notFound code: CSEError.Code, id: String) async throws(CSEError) {
        let response = try await connection.send(.delete, path: path, body: nil)
        guard response.isSuccess else {
            let error = PaysafeTokenClient.error(of: response, redactor: connection.redactor)
            throw response.status == 404 ? Self.notFound(code, id, error) : error
        }
    }
}
