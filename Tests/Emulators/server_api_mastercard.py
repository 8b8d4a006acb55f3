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
        sources = ["session" in body, "number" in provided_card, "paymentToken" in provided_card.get("devicePayment", {})]
        if sources.count(True) != 1:  # exactly one funding source: a session, device data, or a wallet token
            return invalid("Exactly one source of funds", "sourceOfFunds")
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

    @app.route("PUT", base + r"/transaction/(?P<txn>[^/]+)")
    def transaction(request, match):
        refused = mastercard_check(request, match.group("version"), match.group("merchant"))
        if refused:
            return refused
        body = request.json()
        canonical = json.dumps(body, sort_keys=True)
        key = (match.group("order"), match.group("txn"))
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
        if "authentication" in body:
            answer["authentication"] = body["authentication"]
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
