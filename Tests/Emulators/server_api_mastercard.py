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


