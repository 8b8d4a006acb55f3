"""The Mastercard Gateway emulator of server_api_emulator.py."""


import base64
import hmac
import json
import re

import emulator
from server_api_common import COUNTER, MINOR_UNITS, app, args

SESSIONS = {}

# ---------------------------------------------------------------------------------------------
# Mastercard Gateway: HTTP Basic merchant.<id>:<password> (RFC 7617), sessions kept in memory.

def mastercard_error(status, cause, explanation, field=None):
    error = {"cause": cause, "explanation": explanation}
    if field:
        error.update(field=field, validationType="INVALID")
    return emulator.Response.json({"error": error, "result": "ERROR"}, status)


def mastercard_check(request, version, merchant):
    expected = "Basic " + base64.b64encode(f"merchant.{args().merchant_id}:{args().api_password}".encode()).decode()
    if not hmac.compare_digest(request.header("Authorization") or "", expected) or merchant != args().merchant_id:
        return mastercard_error(401, "INVALID_REQUEST", "Invalid credentials.")
    if int(version) < 39:
        return mastercard_error(400, "INVALID_REQUEST", "Unsupported API version", "apiVersion")
    return None


def merge(target, source):
    for key, value in source.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            merge(target[key], value)
        else:
            target[key] = value


def mastercard_routes():
    base = r"/api/rest/version/(?P<version>\d+)/merchant/(?P<merchant>[^/]+)/session"

    @app.route("POST", base)
    def create(request, match):
        refused = mastercard_check(request, match.group("version"), match.group("merchant"))
        if refused:
            return refused
        if args().mode == "busy":
            return mastercard_error(500, "SERVER_BUSY", "Try again later")
        body = request.json() if request.body else {}
        COUNTER[0] += 1
        session_id = f"SESSION{COUNTER[0]:025d}"
        limit = body.get("session", {}).get("authenticationLimit", 5)
        SESSIONS[session_id] = {}
        return emulator.Response.json({"merchant": args().merchant_id, "result": "SUCCESS", "session": {
            "aes256Key": "abcdef12345", "authenticationLimit": limit, "id": session_id, "updateStatus": "NO_UPDATE",
            "version": "abcdef0123"}}, 201)

    @app.route("PUT", base + r"/(?P<id>[^/]+)")
    def update(request, match):
        refused = mastercard_check(request, match.group("version"), match.group("merchant"))
        if refused:
            return refused
        session_id = match.group("id")
        if session_id not in SESSIONS:
            return mastercard_error(400, "INVALID_REQUEST", "Session not found", "session.id")
        merge(SESSIONS[session_id], request.json())
        return emulator.Response.json(dict(SESSIONS[session_id], merchant=args().merchant_id, session={
            "id": session_id, "updateStatus": "SUCCESS", "version": "1468375202"}), 200)

    @app.route("GET", base + r"/(?P<id>[^/]+)")
    def retrieve(request, match):
        refused = mastercard_check(request, match.group("version"), match.group("merchant"))
        if refused:
            return refused
        session_id = match.group("id")
        if session_id not in SESSIONS:
            return mastercard_error(400, "INVALID_REQUEST", "Session not found", "session.id")
        return emulator.Response.json(dict(SESSIONS[session_id], merchant=args().merchant_id, session={
            "id": session_id, "updateStatus": "SUCCESS" if SESSIONS[session_id] else "NO_UPDATE", "version": "1"}), 200)


# Mastercard transactions (research notes §3.2-3.4). PUT …/order/{o}/transaction/{t} with PAY or
# AUTHORIZE: the emulator checks the body with its own rules (order.amount a decimal string in
# major units with exactly the currency's ISO 4217 exponent, sourceOfFunds.type CARD, a session
# that holds a card or a wallet token that is JSON text with walletProvider and API >= 47) and keeps
# the answer per (order, transaction): an identical repeat gets the first answer and moves no money
# again; the same ids with another body are an INVALID_REQUEST. GET of the transaction or the order
# answers what was stored. MODES (transactions): decline (FAILURE DECLINED), pending (PENDING
# SUBMITTED), unknown-result (result UNKNOWN), txn-busy (ERROR SERVER_BUSY, processing nothing).
TRANSACTIONS = {}
ORDERS = {}


def mastercard_transaction_routes():
    base = r"/api/rest/version/(?P<version>\d+)/merchant/(?P<merchant>[^/]+)/order/(?P<order>[^/]+)"

    def invalid(explanation, field):
        return mastercard_error(400, "INVALID_REQUEST", explanation, field)

    def check_authentication(body, order):
        # PAY/AUTHORIZE with authentication.transactionId: an AUTHENTICATION of this order, payable.
        if "authentication" not in body:
            return None
        auth_id = body["authentication"].get("transactionId") if isinstance(body["authentication"], dict) else None
        state = AUTHENTICATIONS.get((CURRENT_ORDER[0], auth_id))
        if state is None:
            return invalid("No authentication transaction with this id on the order", "authentication.transactionId")
        payable = (state["status"] in ("AUTHENTICATION_SUCCESSFUL", "AUTHENTICATION_ATTEMPTED")
                   or (state["status"] in ("AUTHENTICATION_UNAVAILABLE", "AUTHENTICATION_NOT_SUPPORTED")
                       and state["recommendation"] == "PROCEED"))
        if not payable:
            return invalid("The authentication does not allow a payment", "authentication.transactionId")
        if state.get("amount") is not None and (state["amount"], state["currency"]) != (order.get("amount"), order.get("currency")):
            return invalid("The amount is not the authenticated amount", "order.amount")
        return None

    def check_body(body, version):
        if body.get("apiOperation") not in ("PAY", "AUTHORIZE"):
            return invalid("Unsupported apiOperation", "apiOperation")
        order = body.get("order", {})
        currency = order.get("currency")
        amount = order.get("amount")
        if currency not in MINOR_UNITS:
            return invalid("Invalid currency", "order.currency")
        exponent = MINOR_UNITS[currency]
        pattern = r"\d+" if exponent == 0 else r"\d+\.\d{%d}" % exponent
        if not isinstance(amount, str) or not re.fullmatch(pattern, amount):
            return invalid("Invalid amount for the currency", "order.amount")
        funds = body.get("sourceOfFunds", {})
        if funds.get("type") != "CARD":
            return invalid("Invalid source of funds", "sourceOfFunds.type")
        provided_card = funds.get("provided", {}).get("card", {})
        sources = ["session" in body, "number" in provided_card, "paymentToken" in provided_card.get("devicePayment", {}),
                   "token" in funds]
        if sources.count(True) != 1:  # exactly one funding source: a session, device data, a wallet token, a token
            return invalid("Exactly one source of funds", "sourceOfFunds")
        refused = check_agreement(body, version) or check_authentication(body, order)
        if refused:
            return refused
        if "token" in funds:
            stored = TOKENS.get(funds["token"])
            if stored is None:
                return invalid("Token not found", "sourceOfFunds.token")
            return stored["number"]
        if "session" in body:
            card = SESSIONS.get(body["session"].get("id"), {}).get("sourceOfFunds", {}).get("provided", {}).get("card", {})
            if not card.get("number"):
                return invalid("Session has no card", "session.id")
            return card["number"]
        card = funds.get("provided", {}).get("card", {})
        if "number" in card:  # merchant-decrypted device data (research notes §3.2, route 3)
            expiry = card.get("expiry", {})
            device = card.get("devicePayment")
            if (order.get("walletProvider") not in ("APPLE_PAY", "GOOGLE_PAY") or not re.fullmatch(r"\d{12,19}", str(card["number"]))
                    or not re.fullmatch(r"(0[1-9]|1[0-2])", str(expiry.get("month"))) or not re.fullmatch(r"\d\d", str(expiry.get("year")))
                    or (device is not None and (device.get("cryptogramFormat") not in ("3DSECURE", "EMV")
                                                or not device.get("onlinePaymentCryptogram")))):
                return invalid("Invalid device payment data", "sourceOfFunds.provided.card")
            if int(version) < 47:
                return invalid("Wallet payments need version 47", "apiVersion")
            return card["number"]
        token = card.get("devicePayment", {}).get("paymentToken")
        if order.get("walletProvider") not in ("APPLE_PAY", "GOOGLE_PAY") or not isinstance(token, str):
            return invalid("Missing wallet data", "order.walletProvider")
        if int(version) < 47:
            return invalid("Wallet payments need version 47", "apiVersion")
        try:
            json.loads(token)
        except ValueError:
            return invalid("The payment token is not JSON", "sourceOfFunds.provided.card.devicePayment.paymentToken")
        return "5204730000001003"

    @app.route("POST", r"/acs/(?P<order>[^/]+)/(?P<txn>[^/]+)")
    def acs(request, match):
        return acs_complete(request, (match.group("order"), match.group("txn")))

    @app.route("PUT", base + r"/transaction/(?P<txn>[^/]+)")
    def transaction(request, match):
        refused = mastercard_check(request, match.group("version"), match.group("merchant"))
        if refused:
            return refused
        body = request.json()
        canonical = json.dumps(body, sort_keys=True)
        key = (match.group("order"), match.group("txn"))
        if body.get("apiOperation") in AUTHENTICATION_OPERATIONS:
            return authentication(request, body, key, canonical, match.group("version"))
        with app.lock:
            known = TRANSACTIONS.get(key)
        if known:
            if known[0] != canonical:
                return invalid("Transaction ID already used with different content", "transaction.id")
            return emulator.Response(known[1], known[2], [("Content-Type", "application/json")])
        mode = args().mode
        if body.get("apiOperation") in LIFECYCLE_OPERATIONS:
            return lifecycle(body, key, canonical, mode)
        if mode == "echo-errors":  # an explanation that repeats the card data it received
            card = body.get("sourceOfFunds", {}).get("provided", {}).get("card", {})
            return mastercard_error(400, "INVALID_REQUEST", "Invalid card " + json.dumps(card), "sourceOfFunds.provided.card")
        CURRENT_ORDER[0] = key[0]
        checked = check_body(body, match.group("version"))
        if isinstance(checked, emulator.Response):
            return checked
        if mode == "txn-busy":
            return mastercard_error(500, "SERVER_BUSY", "Try again later")
        result, code = {"decline": ("FAILURE", "DECLINED"), "pending": ("PENDING", "SUBMITTED"),
                        "unknown-result": ("UNKNOWN", "UNKNOWN")}.get(mode, ("SUCCESS", "APPROVED"))
        paying = body["apiOperation"] == "PAY"
        approved = result == "SUCCESS"
        amount = body["order"]["amount"]
        order = {"id": key[0], "amount": float(amount), "currency": body["order"]["currency"],
                 "status": ("CAPTURED" if paying else "AUTHORIZED") if approved else "FAILED",
                 "totalAuthorizedAmount": float(amount) if approved else 0,
                 "totalCapturedAmount": float(amount) if approved and paying else 0}
        answer = {"merchant": args().merchant_id, "result": result, "response": {"gatewayCode": code},
                  "order": order,
                  "transaction": {"id": key[1], "type": "PAYMENT" if paying else "AUTHORIZATION", "amount": float(amount),
                                  "currency": body["order"]["currency"], "authorizationCode": "123456" if approved else None},
                  "sourceOfFunds": {"type": "CARD", "provided": {"card": {"number": checked, "brand": "MASTERCARD"}}}}
        if "token" in body["sourceOfFunds"]:
            answer["sourceOfFunds"]["token"] = body["sourceOfFunds"]["token"]
        for member in ("authentication", "agreement"):
            if member in body:
                answer[member] = body[member]
        if "source" in body.get("transaction", {}):
            answer["transaction"]["source"] = body["transaction"]["source"]
        encoded = json.dumps(answer).encode("utf-8")
        with app.lock:
            TRANSACTIONS[key] = (canonical, 201, encoded)
            ORDERS.setdefault(key[0], {"order": order, "transactions": []})["transactions"].append(answer["transaction"])
            ORDERS[key[0]]["order"] = order
            if approved:  # the ledger of CAPTURE, REFUND and VOID, in minor units
                authorized = to_minor(amount, MINOR_UNITS[body["order"]["currency"]])
                ORDERS[key[0]]["ledger"] = {"authorized": authorized, "captured": authorized if paying else 0,
                                            "refunded": 0, "voided": False, "sale": paying,
                                            "exponent": MINOR_UNITS[body["order"]["currency"]]}
        return emulator.Response(201, encoded, [("Content-Type", "application/json")])

    @app.route("GET", base + r"/transaction/(?P<txn>[^/]+)")
    def retrieve_transaction(request, match):
        refused = mastercard_check(request, match.group("version"), match.group("merchant"))
        if refused:
            return refused
        known = TRANSACTIONS.get((match.group("order"), match.group("txn")))
        if not known:
            return invalid("Transaction not found", "transaction.id")
        return emulator.Response(200, known[2], [("Content-Type", "application/json")])

    @app.route("GET", base)
    def retrieve_order(request, match):
        refused = mastercard_check(request, match.group("version"), match.group("merchant"))
        if refused:
            return refused
        known = ORDERS.get(match.group("order"))
        if not known:
            return invalid("Order not found", "order.id")
        return emulator.Response.json(dict(known["order"], merchant=args().merchant_id, result="SUCCESS",
                                           transaction=known["transactions"]))




# CAPTURE, REFUND and VOID (payment-lifecycle research notes §2.2, emulator rules §6.2): each a new
# transaction id on the order, checked with the emulator's own rules. CAPTURE and REFUND need
# transaction.amount (a decimal string with the currency's exponent) and transaction.currency (the
# order's), and never a sourceOfFunds; capture <= authorised - captured, never on a sale (PAY) or a
# voided order; refund <= captured - refunded. VOID needs transaction.targetTransactionId naming the
# order's AUTHORIZATION, no amount, and nothing captured yet; the order is then CANCELLED. Every
# refusal is ERROR INVALID_REQUEST (the gateway's one cause for a request it will not take), and
# processes nothing. The answers are kept per (order, transaction) like PAY's, so an identical
# repeat replays the first one. MODES (lifecycle): capture-declined (FAILURE DECLINED, nothing
# moves), txn-busy (ERROR SERVER_BUSY, nothing processed).
LIFECYCLE_OPERATIONS = ("CAPTURE", "REFUND", "VOID")


def to_minor(text, exponent):
    return int(text.replace(".", "")) if exponent else int(text)


def to_major(minor, exponent):
    if exponent == 0:
        return float(minor)
    return float(f"{minor // 10 ** exponent}.{minor % 10 ** exponent:0{exponent}d}")


def lifecycle(body, key, canonical, mode):
    def invalid(explanation, field):
        return mastercard_error(400, "INVALID_REQUEST", explanation, field)

    operation = body["apiOperation"]
    transaction = body.get("transaction")
    if not isinstance(transaction, dict):
        return invalid("Missing transaction", "transaction")
    if "sourceOfFunds" in body or "session" in body:
        return invalid("You must not provide a source of funds", "sourceOfFunds")
    with app.lock:
        known = ORDERS.get(key[0])
        ledger = known.get("ledger") if known else None
        if ledger is None:
            return invalid("Order not found", "order.id")
        exponent = ledger["exponent"]
        currency = known["order"]["currency"]
        amount = None
        if operation == "VOID":
            if "amount" in transaction or "currency" in transaction:
                return invalid("A void takes no amount", "transaction.amount")
            target = transaction.get("targetTransactionId")
            kinds = {t["id"]: t.get("type") for t in known["transactions"]}
            if not isinstance(target, str) or target not in kinds:
                return invalid("Target transaction not found", "transaction.targetTransactionId")
            if kinds[target] != "AUTHORIZATION" or ledger["voided"] or ledger["captured"] > 0:
                return invalid("The transaction cannot be voided", "transaction.targetTransactionId")
        else:
            text = transaction.get("amount")
            pattern = r"\d+" if exponent == 0 else r"\d+\.\d{%d}" % exponent
            if not isinstance(text, str) or not re.fullmatch(pattern, text):
                return invalid("Invalid amount for the currency", "transaction.amount")
            if transaction.get("currency") != currency:
                return invalid("The currency is not the order's", "transaction.currency")
            amount = to_minor(text, exponent)
            if amount == 0:
                return invalid("The amount must be greater than zero", "transaction.amount")
            if operation == "CAPTURE":
                if ledger["voided"] or ledger["sale"]:
                    return invalid("The order cannot be captured", "apiOperation")
                if amount > ledger["authorized"] - ledger["captured"]:
                    return invalid("Requested capture amount exceeds outstanding authorized amount", "transaction.amount")
            else:
                if ledger["captured"] == 0:
                    return invalid("Nothing captured to refund", "apiOperation")
                if amount > ledger["captured"] - ledger["refunded"]:
                    return invalid("Requested refund amount exceeds outstanding captured amount", "transaction.amount")
        if mode == "txn-busy":
            return mastercard_error(500, "SERVER_BUSY", "Try again later")
        approved = mode != "capture-declined"
        if approved:
            if operation == "CAPTURE":
                ledger["captured"] += amount
            elif operation == "REFUND":
                ledger["refunded"] += amount
            else:
                ledger["voided"] = True
        if ledger["voided"]:
            status = "CANCELLED"
        elif ledger["refunded"]:
            status = "REFUNDED" if ledger["refunded"] == ledger["captured"] else "PARTIALLY_REFUNDED"
        elif ledger["captured"]:
            status = "CAPTURED" if ledger["captured"] == ledger["authorized"] else "PARTIALLY_CAPTURED"
        else:
            status = "AUTHORIZED"
        order = dict(known["order"], status=status, totalAuthorizedAmount=to_major(ledger["authorized"], exponent),
                     totalCapturedAmount=to_major(ledger["captured"], exponent),
                     totalRefundedAmount=to_major(ledger["refunded"], exponent))
        record = {"id": key[1], "type": "VOID_AUTHORIZATION" if operation == "VOID" else operation, "currency": currency,
                  "amount": to_major(ledger["authorized"] if amount is None else amount, exponent)}
        if operation == "VOID":
            record["targetTransactionId"] = transaction["targetTransactionId"]
        if "reference" in transaction:
            record["reference"] = transaction["reference"]
        answer = {"merchant": args().merchant_id, "result": "SUCCESS" if approved else "FAILURE",
                  "response": {"gatewayCode": "APPROVED" if approved else "DECLINED"}, "order": order, "transaction": record}
        encoded = json.dumps(answer).encode("utf-8")
        TRANSACTIONS[key] = (canonical, 201, encoded)
        known["transactions"].append(record)
        known["order"] = order
    return emulator.Response(201, encoded, [("Content-Type", "application/json")])



# Credential on file (payment-lifecycle research notes §2.3, emulator rules §6.2; the
# credential-on-file fields of docs/COMPATIBILITY.md). A PAY or AUTHORIZE that carries `agreement`
# or `transaction.source` is checked with the emulator's own rules: API version 74 or later;
# `agreement` {id (1-100 characters), type RECURRING|INSTALLMENT|UNSCHEDULED|OTHER}; `transaction.source`
# INTERNET (the payer is there: the first payment of an agreement, its card TO_BE_STORED from a
# session or STORED as a token) or MERCHANT (merchant-initiated: only with a token, the card STORED,
# an agreement, and no 3-D Secure authentication). Anything else is INVALID_REQUEST.
AGREEMENT_TYPES = ("RECURRING", "INSTALLMENT", "UNSCHEDULED", "OTHER")


def check_agreement(body, version):
    def invalid(explanation, field):
        return mastercard_error(400, "INVALID_REQUEST", explanation, field)

    agreement = body.get("agreement")
    source = body.get("transaction", {}).get("source")
    funds = body.get("sourceOfFunds", {})
    stored = funds.get("provided", {}).get("card", {}).get("storedOnFile")
    if agreement is None and source is None and stored is None:
        return None
    if int(version) < 74:
        return invalid("Credential-on-file fields need version 74", "apiVersion")
    if not isinstance(agreement, dict) or not isinstance(agreement.get("id"), str) or not 1 <= len(agreement["id"]) <= 100:
        return invalid("Missing agreement id", "agreement.id")
    if agreement.get("type") not in AGREEMENT_TYPES:
        return invalid("Invalid agreement type", "agreement.type")
    if source == "MERCHANT":
        if "token" not in funds or stored != "STORED":
            return invalid("A merchant-initiated payment uses stored payment details", "sourceOfFunds.provided.card.storedOnFile")
        if "authentication" in body:
            return invalid("A merchant-initiated payment is not authenticated", "authentication.transactionId")
        return None
    if source != "INTERNET":
        return invalid("Invalid transaction source", "transaction.source")
    if stored != ("STORED" if "token" in funds else "TO_BE_STORED"):
        return invalid("Invalid stored-on-file value", "sourceOfFunds.provided.card.storedOnFile")
    return None


# The token vault (research notes §2.3, emulator rules §6.2): POST …/token with exactly
# {session{id}, sourceOfFunds{type CARD}} stores the session's card under a new 16-digit token
# (first 6 and last 4 digits of the card, Preserve-6.4 style), 201; the same card again answers the
# token it already has, 200 (a unique-card repository). PUT …/token/{id} stores or replaces the
# card under a merchant-supplied id (201 new, 200 replaced). GET answers the token, DELETE removes
# it; an unknown id is INVALID_REQUEST on the field `token`. The card number is only ever answered
# masked. MODES (tokens): token-refused (result FAILURE, gatewayCode DECLINED, nothing stored),
# txn-busy (ERROR SERVER_BUSY, nothing stored).
TOKENS = {}


def token_answer(token):
    stored = TOKENS[token]
    number = stored["number"]
    return {"result": "SUCCESS", "token": token, "status": "VALID", "repositoryId": "REPOSITORY01", "verificationStrategy": "NONE",
            "sourceOfFunds": {"type": "CARD", "provided": {"card": {
                "brand": stored["brand"], "number": number[:6] + "x" * (len(number) - 10) + number[-4:], "expiry": stored["expiry"],
                "scheme": stored["brand"]}}}}


def mastercard_token_routes():
    base = r"/api/rest/version/(?P<version>\d+)/merchant/(?P<merchant>[^/]+)/token"

    def invalid(explanation, field):
        return mastercard_error(400, "INVALID_REQUEST", explanation, field)

    def card_of(request):
        try:
            body = request.json()
        except ValueError:
            return invalid("The body is not JSON", "body")
        if (not isinstance(body, dict) or set(body) != {"session", "sourceOfFunds"} or body["sourceOfFunds"] != {"type": "CARD"}
                or not isinstance(body["session"], dict) or set(body["session"]) != {"id"}):
            return invalid("Only session.id and sourceOfFunds.type CARD may be given", "sourceOfFunds")
        card = SESSIONS.get(body["session"]["id"], {}).get("sourceOfFunds", {}).get("provided", {}).get("card", {})
        if body["session"]["id"] not in SESSIONS:
            return invalid("Session not found", "session.id")
        if not card.get("number"):
            return invalid("Session has no card", "session.id")
        if args().mode == "txn-busy":
            return mastercard_error(500, "SERVER_BUSY", "Try again later")
        if args().mode == "token-refused":
            return emulator.Response.json({"result": "FAILURE", "response": {"gatewayCode": "DECLINED"}}, 201)
        expiry = card.get("expiry", {})
        number = str(card["number"])
        return {"number": number, "expiry": f"{expiry.get('month', '')}{expiry.get('year', '')}",
                "brand": "VISA" if number.startswith("4") else "MASTERCARD"}

    @app.route("POST", base)
    def create(request, match):
        refused = mastercard_check(request, match.group("version"), match.group("merchant"))
        if refused:
            return refused
        card = card_of(request)
        if isinstance(card, emulator.Response):
            return card
        with app.lock:
            for token, stored in TOKENS.items():
                if stored["number"] == card["number"]:
                    stored.update(card)
                    return emulator.Response.json(token_answer(token), 200)
            COUNTER[0] += 1
            token = card["number"][:6] + f"{COUNTER[0]:06d}"[-6:] + card["number"][-4:]
            TOKENS[token] = card
            return emulator.Response.json(token_answer(token), 201)

    @app.route("PUT", base + r"/(?P<id>[^/]+)")
    def create_or_update(request, match):
        refused = mastercard_check(request, match.group("version"), match.group("merchant"))
        if refused:
            return refused
        card = card_of(request)
        if isinstance(card, emulator.Response):
            return card
        token = match.group("id")
        if not re.fullmatch(r"[A-Za-z0-9._-]{1,40}", token):
            return invalid("Invalid token", "token")
        with app.lock:
            existing = token in TOKENS
            TOKENS[token] = card
            return emulator.Response.json(token_answer(token), 200 if existing else 201)

    @app.route("GET", base + r"/(?P<id>[^/]+)")
    def retrieve(request, match):
        refused = mastercard_check(request, match.group("version"), match.group("merchant"))
        if refused:
            return refused
        if match.group("id") not in TOKENS:
            return invalid("Token not found", "token")
        return emulator.Response.json(token_answer(match.group("id")), 200)

    @app.route("DELETE", base + r"/(?P<id>[^/]+)")
    def delete(request, match):
        refused = mastercard_check(request, match.group("version"), match.group("merchant"))
        if refused:
            return refused
        with app.lock:
            if TOKENS.pop(match.group("id"), None) is None:
                return invalid("Token not found", "token")
        return emulator.Response.json({"result": "SUCCESS"}, 200)



# 3-D Secure, the browser channel (payment-lifecycle research notes §2.1, emulator rules §6.2).
# INITIATE_AUTHENTICATION on (o, t) needs authentication.channel PAYER_BROWSER or PAYER_APP,
# purpose PAYMENT_TRANSACTION, order.currency and a session holding a card; the card decides the
# flow (THREEDS_CARDS; any other card is frictionless). AUTHENTICATE_PAYER on the same (o, t) needs
# that INITIATE (AUTHENTICATION_AVAILABLE), the same session, order.amount in the currency's
# exponent and authentication.redirectResponseUrl; `device` may hold only browser, browserDetails
# and ipAddress. A challenge answers result PENDING, AUTHENTICATION_PENDING and
# authentication.redirect.html, an auto-submitting form to /acs/{o}/{t}; a POST there with
# `outcome=Y` (or N) completes it (the stored transaction becomes SUCCESSFUL or FAILED) and answers
# the page the payer's browser gets: a form POSTing order.id, transaction.id, result and
# response.gatewayRecommendation to redirectResponseUrl, unsigned. A completed challenge cannot be
# completed again (409). RETRIEVE TRANSACTION answers the authentication as it stands. The
# identical call again replays its first answer; the same (o, t, operation) with another body is
# INVALID_REQUEST. Every authentication answer carries the card number in full, so clients must mask
# it. The fault queue applies to every path.
AUTHENTICATION_OPERATIONS = ("INITIATE_AUTHENTICATION", "AUTHENTICATE_PAYER")
THREEDS_CARDS = {
    "5555555555554444": "challenge",
    "4012888888881881": "unavailable",
    "4000000000000002": "do-not-proceed",
    "4000000000000010": "failed",
    "4000000000000028": "attempted",
}
AUTHENTICATIONS = {}
AUTHENTICATION_CALLS = {}
CURRENT_ORDER = [None]


def authentication_answer(key, state):
    answer = {"merchant": args().merchant_id, "result": state["result"],
              "order": {"id": key[0], "currency": state["currency"], "status": state["orderStatus"]},
              "transaction": {"id": key[1], "type": "AUTHENTICATION", "authenticationStatus": state["status"]},
              "response": {"gatewayRecommendation": state["recommendation"]},
              "authentication": {"version": state["version"], "channel": state["channel"], "purpose": "PAYMENT_TRANSACTION"},
              "sourceOfFunds": {"type": "CARD", "provided": {"card": {"number": state["number"]}}}}
    if state.get("amount") is not None:
        answer["order"]["amount"] = state["amount"]
    if state.get("html"):
        answer["authentication"]["redirect"] = {"html": state["html"]}
    if state.get("transStatus"):
        answer["authentication"]["3ds2"] = {"transactionStatus": state["transStatus"]}
    return answer


def store_authentication(key, state):
    encoded = json.dumps(authentication_answer(key, state)).encode("utf-8")
    AUTHENTICATIONS[key] = state
    TRANSACTIONS[key] = ("authentication", 201, encoded)
    known = ORDERS.setdefault(key[0], {"order": {"id": key[0], "currency": state["currency"]}, "transactions": []})
    known["order"] = dict(known["order"], status=state["orderStatus"])
    known["transactions"] = [t for t in known["transactions"] if t.get("id") != key[1]]
    known["transactions"].append({"id": key[1], "type": "AUTHENTICATION", "authenticationStatus": state["status"]})
    return encoded


def authentication(request, body, key, canonical, version):
    def invalid(explanation, field):
        return mastercard_error(400, "INVALID_REQUEST", explanation, field)

    operation = body["apiOperation"]
    with app.lock:
        replay = AUTHENTICATION_CALLS.get(key + (operation,))
        if replay:
            if replay[0] != canonical:
                return invalid("Transaction ID already used with different content", "transaction.id")
            return emulator.Response(replay[1], replay[2], [("Content-Type", "application/json")])
        if key in TRANSACTIONS and key not in AUTHENTICATIONS:
            return invalid("Transaction ID already used for another operation", "transaction.id")
        session_id = body.get("session", {}).get("id") if isinstance(body.get("session"), dict) else None
        card = SESSIONS.get(session_id, {}).get("sourceOfFunds", {}).get("provided", {}).get("card", {})
        if session_id not in SESSIONS:
            return invalid("Session not found", "session.id")
        if not card.get("number"):
            return invalid("Session has no card", "session.id")
        auth = body.get("authentication", {})
        currency = body.get("order", {}).get("currency")
        if currency not in MINOR_UNITS:
            return invalid("Invalid currency", "order.currency")
        if args().mode == "txn-busy":
            return mastercard_error(500, "SERVER_BUSY", "Try again later")
        number = str(card["number"])
        flow = THREEDS_CARDS.get(number, "frictionless")
        if operation == "INITIATE_AUTHENTICATION":
            if auth.get("channel") not in ("PAYER_BROWSER", "PAYER_APP"):
                return invalid("Invalid channel", "authentication.channel")
            if auth.get("purpose") != "PAYMENT_TRANSACTION":
                return invalid("Invalid purpose", "authentication.purpose")
            if "amount" in body.get("order", {}):
                return invalid("order.amount is not taken by Initiate Authentication", "order.amount")
            state = {"session": session_id, "currency": currency, "number": number, "channel": auth["channel"], "amount": None,
                     "result": "SUCCESS", "orderStatus": "AUTHENTICATION_INITIATED", "version": "3DS2",
                     "status": "AUTHENTICATION_AVAILABLE", "recommendation": "PROCEED",
                     "html": '<div id="threedsMethod"><iframe src="about:blank"></iframe></div>'}
            if flow == "unavailable":
                state.update(status="AUTHENTICATION_UNAVAILABLE", version="NONE", html=None, orderStatus="AUTHENTICATION_UNSUCCESSFUL")
            elif flow == "do-not-proceed":
                state.update(status="AUTHENTICATION_UNAVAILABLE", version="NONE", html=None, recommendation="DO_NOT_PROCEED",
                             orderStatus="AUTHENTICATION_UNSUCCESSFUL")
        else:
            state = AUTHENTICATIONS.get(key)
            if state is None or state["status"] != "AUTHENTICATION_AVAILABLE" or state["recommendation"] != "PROCEED":
                return invalid("Authenticate Payer needs a successful Initiate Authentication on this transaction", "transaction.id")
            if session_id != state["session"] or currency != state["currency"]:
                return invalid("Not the session or currency of the Initiate Authentication", "session.id")
            exponent = MINOR_UNITS[currency]
            amount = body.get("order", {}).get("amount")
            pattern = r"\d+" if exponent == 0 else r"\d+\.\d{%d}" % exponent
            if not isinstance(amount, str) or not re.fullmatch(pattern, amount):
                return invalid("Invalid amount for the currency", "order.amount")
            url = auth.get("redirectResponseUrl")
            if not isinstance(url, str) or not re.fullmatch(r"https?://[^\s]+", url):
                return invalid("Invalid redirect response URL", "authentication.redirectResponseUrl")
            device = body.get("device")
            if device is not None and (not isinstance(device, dict) or not set(device) <= {"browser", "browserDetails", "ipAddress"}):
                return invalid("Invalid device", "device")
            state = dict(state, amount=amount, returnUrl=url, html=None)
            if flow == "challenge":
                acs = f"http://{request.header('Host')}/acs/{key[0]}/{key[1]}"
                state.update(result="PENDING", status="AUTHENTICATION_PENDING", orderStatus="AUTHENTICATION_INITIATED",
                             html=(f'<form id="threedsChallengeRedirectForm" method="POST" action="{acs}">'
                                   '<input type="hidden" name="creq" value="eyJ0aHJlZURTU2VydmVyVHJhbnNJRCI6IjEifQ"/></form>'
                                   '<script>document.getElementById("threedsChallengeRedirectForm").submit();</script>'))
            elif flow == "failed":
                state.update(result="FAILURE", status="AUTHENTICATION_FAILED", recommendation="DO_NOT_PROCEED", transStatus="N",
                             orderStatus="AUTHENTICATION_UNSUCCESSFUL")
            elif flow == "attempted":
                state.update(status="AUTHENTICATION_ATTEMPTED", transStatus="A", orderStatus="AUTHENTICATED")
            else:
                state.update(status="AUTHENTICATION_SUCCESSFUL", transStatus="Y", orderStatus="AUTHENTICATED")
        encoded = store_authentication(key, state)
        AUTHENTICATION_CALLS[key + (operation,)] = (canonical, 201, encoded)
    return emulator.Response(201, encoded, [("Content-Type", "application/json")])


def acs_complete(request, key):
    from html import escape
    from urllib.parse import parse_qs

    fields = parse_qs(request.body.decode("utf-8"))
    outcome = (fields.get("outcome") or ["Y"])[0]
    with app.lock:
        state = AUTHENTICATIONS.get(key)
        if state is None:
            return emulator.Response.text("no such challenge", 404)
        if state["status"] != "AUTHENTICATION_PENDING":
            return emulator.Response.text("the challenge is already completed", 409)
        if outcome == "Y":
            state.update(result="SUCCESS", status="AUTHENTICATION_SUCCESSFUL", transStatus="Y", orderStatus="AUTHENTICATED", html=None)
        else:
            state.update(result="FAILURE", status="AUTHENTICATION_FAILED", transStatus="N", recommendation="DO_NOT_PROCEED",
                         orderStatus="AUTHENTICATION_UNSUCCESSFUL", html=None)
        store_authentication(key, state)
    posted = {"order.id": key[0], "transaction.id": key[1], "result": state["result"],
              "response.gatewayRecommendation": state["recommendation"]}
    inputs = "".join(f'<input type="hidden" name="{escape(k)}" value="{escape(v)}"/>' for k, v in posted.items())
    page = (f'<html><body><form id="return" method="POST" action="{escape(state["returnUrl"])}">{inputs}</form>'
            '<script>document.getElementById("return").submit();</script></body></html>')
    return emulator.Response(200, page.encode("utf-8"), [("Content-Type", "text/html")])
