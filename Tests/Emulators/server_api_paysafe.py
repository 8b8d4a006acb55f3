"""The Paysafe emulator of server_api_emulator.py."""


import base64
import hmac
import json
import re

import emulator
from server_api_common import COUNTER, app, args


# ---------------------------------------------------------------------------------------------
# Paysafe: HTTP Basic (base64 of username:password) with the key of the API called.

def luhn(number):
    total = 0
    for i, ch in enumerate(reversed(number)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def paysafe_refused(request, payments=False):
    key = (args().payments_key or args().api_key) if payments else args().api_key
    auth = request.header("Authorization") or ""
    ok = hmac.compare_digest(auth, "Basic " + key)
    try:
        user, _, password = base64.b64decode(key, validate=True).decode().partition(":")
        ok = ok and bool(user) and bool(password)
    except ValueError:
        ok = False
    if not ok:
        return emulator.Response.json({"error": {"code": "5279", "message": "Invalid credentials"}}, 401)
    return None


# Paysafe payments (research notes §4.3, §4.4), on both APIs, kept apart: POST /paymenthub/v1/payments
# (paymentHandleToken, dupCheck default true) and POST /cardpayments/v1/accounts/{id}/auths
# (card.paymentToken, one this emulator issued). A merchantRefNum used before on the
# same API is a 409 (code 5031 here: Paysafe's own code is not documented); GET …?merchantRefNum=
# lists the payments with it. MODES (payments): decline (402, the payment FAILED with an error),
# pending (status PROCESSING).
PAYSAFE_PAYMENTS = []
PAYSAFE_TOKENS = {}


def paysafe_field_errors(body, required):
    errors = [{"field": name, "error": "invalid"} for name, ok in required if not ok(body)]
    if errors:
        return emulator.Response.json({"error": {"code": "5068", "message": "Field error(s)", "fieldErrors": errors}}, 400)
    return None


def paysafe_take(api, account, body, extra):
    reference = body["merchantRefNum"]
    with app.lock:
        used = any(p["merchantRefNum"] == reference and p["_api"] == (api, account) for p in PAYSAFE_PAYMENTS)
        if used and body.get("dupCheck", True):
            return emulator.Response.json({"error": {"code": "5031", "message": "The merchantRefNum has already been used"}}, 409)
        COUNTER[0] += 1
        number = COUNTER[0]
    mode = args().mode
    status = {"decline": "FAILED", "pending": "PROCESSING"}.get(mode, "COMPLETED")
    payment = dict(extra, id=f"a1b2c3d4-0000-4000-8000-{number:012d}", merchantRefNum=reference, amount=body["amount"],
                   status=status, settleWithAuth=body.get("settleWithAuth", False), _api=(api, account))
    with app.lock:
        PAYSAFE_PAYMENTS.append(payment)
    shown = {k: v for k, v in payment.items() if k != "_api"}
    if status == "FAILED":
        shown["error"] = {"code": "3009", "message": "Your request has been declined by the issuing bank."}
        return emulator.Response.json(shown, 402)
    return emulator.Response.json(shown, 201)


def paysafe_routes():
    is_int = lambda name: lambda b: isinstance(b.get(name), int) and not isinstance(b.get(name), bool) and b[name] >= 0
    present = lambda name: lambda b: isinstance(b.get(name), str) and b[name] != ""

    @app.route("POST", r"/paymenthub/v1/payments")
    def hub_payment(request, match):
        refused = paysafe_refused(request, payments=True)
        if refused:
            return refused
        body = request.json()
        bad = paysafe_field_errors(body, [("amount", is_int("amount")), ("merchantRefNum", present("merchantRefNum")),
                                          ("currencyCode", lambda b: len(b.get("currencyCode", "")) == 3),
                                          ("paymentHandleToken", present("paymentHandleToken"))])
        if bad:
            return bad
        return paysafe_take("hub", None, body, {"paymentType": "CARD", "currencyCode": body["currencyCode"],
                                                "paymentHandleToken": body["paymentHandleToken"],
                                                "gatewayResponse": {"authCode": "111111"},
                                                "card": {"lastDigits": "1111", "cardBin": "411111", "cardExpiry": {"month": 12, "year": 2030}}})

    @app.route("POST", r"/cardpayments/v1/accounts/(?P<account>\d+)/auths")
    def card_auth(request, match):
        refused = paysafe_refused(request, payments=True)
        if refused:
            return refused
        body = request.json()
        token = body.get("card", {}).get("paymentToken")
        bad = paysafe_field_errors(body, [("amount", is_int("amount")), ("merchantRefNum", present("merchantRefNum")),
                                          ("card.paymentToken", lambda b: token in PAYSAFE_TOKENS)])
        if bad:
            return bad
        card = PAYSAFE_TOKENS[token]
        return paysafe_take("card", match.group("account"), body, {"authCode": "222222", "currencyCode": "EUR",
                                                                    "card": {"lastDigits": card["lastDigits"], "type": "VI"}})

    def listing(request, api, account, name):
        refused = paysafe_refused(request, payments=True)
        if refused:
            return refused
        reference = dict(request.query_items()).get("merchantRefNum")
        found = [{k: v for k, v in p.items() if k != "_api"} for p in PAYSAFE_PAYMENTS
                 if p["_api"] == (api, account) and p["merchantRefNum"] == reference]
        return emulator.Response.json({name: found})

    @app.route("GET", r"/paymenthub/v1/payments")
    def hub_lookup(request, match):
        return listing(request, "hub", None, "payments")

    @app.route("GET", r"/cardpayments/v1/accounts/(?P<account>\d+)/auths")
    def card_lookup(request, match):
        return listing(request, "card", match.group("account"), "auths")

    def wallet_token(lastDigits, extra):
        with app.lock:
            COUNTER[0] += 1
            token = f"SCW1allet{COUNTER[0]}"
            PAYSAFE_TOKENS[token] = {"lastDigits": lastDigits}
        return emulator.Response.json(dict(extra, id=f"wtok-{COUNTER[0]}", paymentToken=token, timeToLiveSeconds=899,
                                           isFromMultiUseToken=False), 201)

    @app.route("POST", r"/customervault/v1/applepaysingleusetokens")
    def apple_tokens(request, match):
        """research notes §4.2: the ApplePayPayment shape; paymentData either the encrypted token
        (version, data, signature, header) or only decryptedData."""
        refused = paysafe_refused(request)
        if refused:
            return refused
        envelope = request.json().get("applePayPaymentToken", {})
        data = envelope.get("token", {}).get("paymentData", {})
        if args().mode == "echo-errors":  # an error message that repeats what it received
            return emulator.Response.json({"error": {"code": "5068", "message": "Invalid data: " + json.dumps(data)}}, 400)
        if "decryptedData" in data:
            decrypted = data["decryptedData"]
            ok = set(data) == {"decryptedData"} and re.fullmatch(r"\d{12,19}", str(decrypted.get("applicationPrimaryAccountNumber", "")))
            last = str(decrypted.get("applicationPrimaryAccountNumber", ""))[-4:]
        else:
            ok = all(data.get(k) for k in ("version", "data", "signature")) and isinstance(data.get("header"), dict)
            last = "0492"
        if not ok:
            return emulator.Response.json({"error": {"code": "5068", "message": "Field error(s)", "fieldErrors": [
                {"field": "applePayPaymentToken.token.paymentData", "error": "invalid"}]}}, 400)
        return wallet_token(last, {"applePayPaymentToken": {"token": {"paymentMethod": envelope["token"].get("paymentMethod")}}})

    @app.route("POST", r"/customervault/v1/googlepaysingleusetokens")
    def google_tokens(request, match):
        refused = paysafe_refused(request)
        if refused:
            return refused
        token = request.json().get("googlePayPaymentToken", {})
        if not all(isinstance(token.get(k), str) and token[k] for k in ("signature", "protocolVersion", "signedMessage")):
            return emulator.Response.json({"error": {"code": "5068", "message": "Field error(s)", "fieldErrors": [
                {"field": "googlePayPaymentToken", "error": "invalid"}]}}, 400)
        return wallet_token("3478", {"googlePayPaymentToken": {"paymentMethod": "TOKENIZED_CARD"},
                                     "card": {"cardBin": "489537", "lastDigits": "3478", "cardType": "VI"}})

    @app.route("POST", r"/customervault/v1/singleusetokens")
    def tokens(request, match):
        refused = paysafe_refused(request)
        if refused:
            return refused
        card = request.json().get("card", {})
        number = card.get("cardNum", "")
        if not number.isdigit() or not luhn(number):
            return emulator.Response.json({"error": {"code": "5068", "message": "Field error(s)", "fieldErrors": [
                {"field": "card.cardNum", "error": "invalid card number"}]}}, 400)
        COUNTER[0] += 1
        PAYSAFE_TOKENS[f"SCO0Jpx0ZfBkF{COUNTER[0]}"] = {"lastDigits": number[-4:]}
        return emulator.Response.json({
            "id": f"tok-{COUNTER[0]}", "paymentToken": f"SCO0Jpx0ZfBkF{COUNTER[0]}", "timeToLiveSeconds": 899,
            "card": {"cardBin": number[:6], "lastDigits": number[-4:], "cardExpiry": card.get("cardExpiry"),
                     "holderName": card.get("holderName", ""), "cardType": "VI"}}, 201)


