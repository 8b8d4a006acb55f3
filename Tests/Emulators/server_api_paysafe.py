"""The Paysafe emulator of server_api_emulator.py."""


import base64
import hmac
import json
import re
import time

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


def paysafe_take(api, account, body, extra, check=None):
    """Takes the payment; `check(extra)`, after the duplicate check and under the lock, may refuse it."""
    reference = body["merchantRefNum"]
    with app.lock:
        used = any(p["merchantRefNum"] == reference and p["_api"] == (api, account) for p in PAYSAFE_PAYMENTS)
        if used and body.get("dupCheck", True):
            return emulator.Response.json({"error": {"code": "5031", "message": "The merchantRefNum has already been used"}}, 409)
        refusal = check(extra) if check else None
        if refusal:
            return refusal
        COUNTER[0] += 1
        number = COUNTER[0]
    mode = args().mode
    status = {"decline": "FAILED", "pending": "PROCESSING"}.get(mode, "COMPLETED")
    payment = dict(extra, id=f"a1b2c3d4-0000-4000-8000-{number:012d}", merchantRefNum=reference, amount=body["amount"],
                   status=status, settleWithAuth=body.get("settleWithAuth", False), _api=(api, account))
    with app.lock:
        PAYSAFE_PAYMENTS.append(payment)
        if status == "COMPLETED" and payment["settleWithAuth"]:
            # A sale settles with the authorisation: its settlement is what a refund targets.
            settlement = paysafe_new_operation("settlement", payment, reference, body["amount"], "COMPLETED")
            settlement["availableToRefund"] = body["amount"]
            payment["settlements"] = [{"id": settlement["id"]}]
    shown = paysafe_shown(payment)
    if status == "FAILED":
        shown["error"] = {"code": "3009", "message": "Your request has been declined by the issuing bank."}
        return emulator.Response.json(shown, 402)
    return emulator.Response.json(shown, 201)


def paysafe_shown(entry):
    """An entry as Paysafe shows it: without the emulator's own bookkeeping (members starting with _)."""
    return {k: v for k, v in entry.items() if not k.startswith("_")}


# Settlements, refunds and void authorisations (lifecycle research notes §4.2, §6.4), on both APIs:
# POST /paymenthub/v1/payments/{id}/settlements | /settlements/{id}/refunds | /payments/{id}/voidauths,
# and the same under /cardpayments/v1/accounts/{account}/ with auths for payments. Each operation
# has its own id and merchantRefNum; a merchantRefNum used before for the same kind on the same API
# is a 409 (5031, as for payments). The amount rules, checked here whatever the client sent:
# settle ≤ authorised − settled − voided (an authorisation only: settleWithAuth false, COMPLETED);
# refund ≤ the settlement's availableToRefund; void ≤ what is left, and only while nothing is
# settled; PUT {"status":"CANCELLED"} on a settlement or refund only while PENDING. The error codes
# are this emulator's choice (Paysafe's are not documented for these cases): 5269 unknown id (404),
# 3406 amount over what is left (400), 3203 the state allows no such operation (400).
# MODES: decline-operations (402, the operation FAILED with an error). --settlement-status
# PENDING (default) or COMPLETED for new settlements and refunds; voids are COMPLETED.
PAYSAFE_OPERATIONS = []


def paysafe_error(status, code, message):
    return emulator.Response.json({"error": {"code": code, "message": message}}, status)


def paysafe_new_operation(kind, target, reference, amount, status):
    """Records an operation on `target` (a payment, or a settlement for a refund); the caller holds app.lock."""
    COUNTER[0] += 1
    prefix = {"settlement": "5e771e00", "refund": "7ef0bd00", "void": "701da000"}[kind]
    operation = {"id": f"{prefix}-0000-4000-8000-{COUNTER[0]:012d}", "merchantRefNum": reference, "amount": amount,
                 "currencyCode": target.get("currencyCode", "EUR"), "status": status, "txnTime": "2026-12-05T21:00:00Z",
                 "_kind": kind, "_target": target["id"], "_api": target["_api"]}
    PAYSAFE_OPERATIONS.append(operation)
    return operation


def paysafe_live(kind, target_id):
    return [o for o in PAYSAFE_OPERATIONS if o["_kind"] == kind and o["_target"] == target_id and o["status"] != "CANCELLED"]


def paysafe_operation(request, api, account, kind, target_id):
    refused = paysafe_refused(request, payments=True)
    if refused:
        return refused
    body = request.json()
    amount, reference = body.get("amount"), body.get("merchantRefNum")
    bad = paysafe_field_errors(body, [
        ("amount", lambda b: isinstance(amount, int) and not isinstance(amount, bool) and amount >= 1),
        ("merchantRefNum", lambda b: isinstance(reference, str) and reference != "")])
    if bad:
        return bad
    with app.lock:
        if kind == "refund":
            targets = [o for o in PAYSAFE_OPERATIONS if o["_kind"] == "settlement" and o["id"] == target_id and o["_api"] == (api, account)]
        else:
            targets = [p for p in PAYSAFE_PAYMENTS if p["id"] == target_id and p["_api"] == (api, account)]
        if not targets:
            return paysafe_error(404, "5269", "The ID(s) specified in the URL do not correspond to the values in the system.")
        target = targets[0]
        used = any(o["merchantRefNum"] == reference and o["_kind"] == kind and o["_api"] == (api, account) for o in PAYSAFE_OPERATIONS)
        if used and body.get("dupCheck", True):
            return paysafe_error(409, "5031", "The merchantRefNum has already been used")
        if kind == "refund":
            if target["status"] == "CANCELLED":
                return paysafe_error(400, "3203", "The settlement was cancelled.")
            if amount > target["availableToRefund"]:
                return paysafe_error(400, "3406", "The amount exceeds the amount available to refund.")
        else:
            if target["status"] != "COMPLETED" or target.get("settleWithAuth"):
                return paysafe_error(400, "3203", "The authorization is settled, voided or not completed.")
            settled = sum(o["amount"] for o in paysafe_live("settlement", target_id))
            voided = sum(o["amount"] for o in paysafe_live("void", target_id))
            if kind == "void" and settled:
                return paysafe_error(400, "3203", "The authorization is already settled.")
            if amount > target["amount"] - settled - voided:
                return paysafe_error(400, "3406", "The amount exceeds the remaining authorization amount.")
        declined = args().mode == "decline-operations"
        status = "FAILED" if declined else ("COMPLETED" if kind == "void" else args().settlement_status)
        operation = paysafe_new_operation(kind, target, reference, amount, status)
        if not declined:
            if kind == "settlement":
                operation["availableToRefund"] = amount
            if kind == "refund":
                target["availableToRefund"] -= amount
    shown = paysafe_shown(operation)
    if declined:
        shown["error"] = {"code": "3022", "message": "The card has been declined due to insufficient funds."}
        return emulator.Response.json(shown, 402)
    return emulator.Response.json(shown, 201)


def paysafe_operation_routes():
    kinds = {"settlements": "settlement", "refunds": "refund", "voidauths": "void"}
    lists = {"settlement": "settlements", "refund": "refunds", "void": "voidAuths"}
    hub, card = r"/paymenthub/v1", r"/cardpayments/v1/accounts/(?P<account>\d+)"

    def api_of(match):
        account = match.groupdict().get("account")
        return ("card", account) if account else ("hub", None)

    for root in (hub, card):
        payments = "payments" if root == hub else "auths"

        @app.route("POST", root + rf"/{payments}/(?P<id>[^/]+)/(?P<kind>settlements|voidauths)")
        def on_payment(request, match):
            return paysafe_operation(request, *api_of(match), kinds[match.group("kind")], match.group("id"))

        @app.route("POST", root + r"/settlements/(?P<id>[^/]+)/refunds")
        def on_settlement(request, match):
            return paysafe_operation(request, *api_of(match), "refund", match.group("id"))

        @app.route("GET", root + r"/(?P<kind>settlements|refunds|voidauths)")
        def lookup(request, match):
            refused = paysafe_refused(request, payments=True)
            if refused:
                return refused
            kind, api = kinds[match.group("kind")], api_of(match)
            reference = dict(request.query_items()).get("merchantRefNum")
            with app.lock:
                found = [paysafe_shown(o) for o in PAYSAFE_OPERATIONS
                         if o["_kind"] == kind and o["_api"] == api and o["merchantRefNum"] == reference]
            return emulator.Response.json({lists[kind]: found})

        @app.route("PUT", root + r"/(?P<kind>settlements|refunds)/(?P<id>[^/]+)")
        def cancel(request, match):
            refused = paysafe_refused(request, payments=True)
            if refused:
                return refused
            kind, api = kinds[match.group("kind")], api_of(match)
            if request.json().get("status") != "CANCELLED":
                return paysafe_field_errors({}, [("status", lambda b: False)])
            with app.lock:
                found = [o for o in PAYSAFE_OPERATIONS if o["_kind"] == kind and o["_api"] == api and o["id"] == match.group("id")]
                if not found:
                    return paysafe_error(404, "5269", "The ID(s) specified in the URL do not correspond to the values in the system.")
                operation = found[0]
                if operation["status"] != "PENDING" or (kind == "settlement" and paysafe_live("refund", operation["id"])):
                    return paysafe_error(400, "3203", "Only a pending (not yet batched), unrefunded operation can be cancelled.")
                operation["status"] = "CANCELLED"
                if kind == "refund":
                    for settlement in PAYSAFE_OPERATIONS:
                        if settlement["_kind"] == "settlement" and settlement["id"] == operation["_target"]:
                            settlement["availableToRefund"] += operation["amount"]
            return emulator.Response.json(paysafe_shown(operation))


def paysafe_routes():
    paysafe_operation_routes()
    paysafe_vault_routes()
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
        extra = {"paymentType": "CARD", "currencyCode": body["currencyCode"], "paymentHandleToken": body["paymentHandleToken"],
                 "gatewayResponse": {"authCode": "111111"},
                 "card": {"lastDigits": "1111", "cardBin": "411111", "cardExpiry": {"month": 12, "year": 2030}}}
        used = []

        def check(extra):
            handle = paysafe_handle_by_token(body["paymentHandleToken"])
            refusal = paysafe_payable(handle, body)
            if refusal or handle is None:
                return refusal
            extra["card"] = {k: v for k, v in handle["card"].items() if k in ("lastDigits", "cardBin", "cardExpiry", "cardType")}
            if handle.get("authentication"):
                extra["authentication"] = handle["authentication"]
            if handle["usage"] == "SINGLE_USE":
                used.append(handle)
            return None

        if "storedCredential" in body:
            extra["storedCredential"] = body["storedCredential"]
        answer = paysafe_take("hub", None, body, extra, check)
        if used and answer.status in (200, 201):
            with app.lock:
                used[0]["status"] = "COMPLETED"  # a single-use handle pays once
        return answer

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
        found = [paysafe_shown(p) for p in PAYSAFE_PAYMENTS
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




# ---------------------------------------------------------------------------------------------
# Payment handles, 3-D Secure and the customer vault (lifecycle research notes §4.1, §4.3, §6.4).
#
# POST /paymenthub/v1/paymenthandles (the single-use key, as the mobile SDKs send it) with a card
# makes a SINGLE_USE handle that lives 899 seconds (timeToLiveSeconds), or until
# /test/paysafe-handles/{id}/expire ends it. Without `threeDs` it is PAYABLE at once. With
# `threeDs`, the card's last four digits choose the flow: 1091 a challenge (INITIATED, action
# REDIRECT, links[rel redirect_payment] to /3ds/{id} on this emulator), 1018 a failed
# authentication (FAILED, threeDResult N), 1067 authentication unavailable (PAYABLE, threeDResult
# U, eci 7), any other a frictionless authentication (PAYABLE, eci 5, threeDResult Y, 2.2.0).
# GET /3ds/{id}[?result=Y|N] completes the challenge once (Y: PAYABLE with the authentication; N:
# FAILED); a second completion, or one for a handle that is not INITIATED, is a 409 (a replayed
# return changes nothing). GET /paymenthub/v1/paymenthandles/{id} (the payments key) reads it.
# A payment with a handle this emulator made needs it PAYABLE: otherwise 400 with code 5080 (this
# emulator's choice: Paysafe documents none) and a message naming the status; a single-use handle
# is COMPLETED (used) after one payment. A token this emulator never made is taken as PAYABLE
# (the payment tests' fixed handles).
#
# Customers: POST /paymenthub/v1/customers (merchantCustomerId used before → 409, code 7503 here);
# GET /paymenthub/v1/customers?merchantCustomerId= and GET|DELETE /paymenthub/v1/customers/{id}
# (?fields=paymentHandles lists the saved cards); POST /customers/{id}/paymenthandles with
# {merchantRefNum, paymentHandleTokenFrom}: the source must be a single-use handle that completed
# a payment (else 400, code 5080 naming its status), a merchantRefNum used before for the customer
# is a 409 (5031), and the card already saved for the customer answers 200 with its existing
# MULTI_USE handle (its own merchantRefNum and token); otherwise 201 with a new MULTI_USE handle
# and a permanent token. GET|PUT|DELETE /customers/{cid}/paymenthandles/{id} (PUT: card.cardExpiry and
# card.holderName); a deleted handle's token
# pays nothing (400, 5080). POST /customers/{id}/singleusecustomertokens {merchantRefNum,
# paymentType:[CARD]} → a 900-second singleUseCustomerToken with the saved cards.
# Payments with storedCredential: type ADHOC|RECURRING|TOPUP, occurrence INITIAL|SUBSEQUENT
# (else 400, 5068); SUBSEQUENT needs a MULTI_USE handle, and its initialTransactionId, when given,
# must be a payment of this emulator (else 400, 5068). storedCredential is echoed in the payment.
PAYSAFE_HANDLES = []
PAYSAFE_CUSTOMERS = []
HANDLE_TTL = 899
NOT_PAYABLE = "5080"


def paysafe_handle_by_token(token):
    """The handle with `token` (deleted ones too), its expiry applied; the caller holds app.lock."""
    for handle in PAYSAFE_HANDLES:
        if handle["paymentHandleToken"] == token:
            paysafe_expire(handle)
            return handle
    return None


def paysafe_expire(handle, now=None):
    if handle["usage"] == "SINGLE_USE" and handle["status"] in ("INITIATED", "PAYABLE"):
        if (now or time.time()) - handle["_created"] > HANDLE_TTL:
            handle["status"] = "EXPIRED"


def paysafe_payable(handle, body):
    """The refusal of a payment with `handle`, or None; the caller holds app.lock."""
    stored = body.get("storedCredential")
    if stored is not None:
        ok = (isinstance(stored, dict) and stored.get("type", "ADHOC") in ("ADHOC", "RECURRING", "TOPUP")
              and stored.get("occurrence", "INITIAL") in ("INITIAL", "SUBSEQUENT"))
        initial = stored.get("initialTransactionId") if isinstance(stored, dict) else None
        if ok and stored.get("occurrence") == "SUBSEQUENT":
            ok = handle is not None and handle["usage"] == "MULTI_USE"
        if ok and initial is not None:
            ok = any(p["id"] == initial for p in PAYSAFE_PAYMENTS)
        if not ok:
            return emulator.Response.json({"error": {"code": "5068", "message": "Field error(s)", "fieldErrors": [
                {"field": "storedCredential", "error": "invalid"}]}}, 400)
    if handle is None:
        return None
    if handle.get("_deleted"):
        return paysafe_error(400, NOT_PAYABLE, "The payment handle token is not valid: it was deleted.")
    if handle["status"] != "PAYABLE":
        return paysafe_error(400, NOT_PAYABLE, f"The payment handle is not payable: its status is {handle['status']}.")
    if handle["usage"] == "SINGLE_USE" and (body.get("amount") != handle["amount"] or body.get("currencyCode") != handle["currencyCode"]):
        return paysafe_error(400, "5068", "The amount and currency must match the payment handle's.")
    return None


def paysafe_card_view(card):
    number = card["cardNum"]
    return {"cardBin": number[:6], "lastDigits": number[-4:], "cardExpiry": card.get("cardExpiry"), "cardType": "VI",
            "holderName": card.get("holderName", "")}


def paysafe_handle_shown(handle):
    return {k: v for k, v in paysafe_shown(handle).items()}


def paysafe_vault_routes():
    def new_id(prefix):
        COUNTER[0] += 1
        return f"{prefix}-0000-4000-8000-{COUNTER[0]:012d}"

    @app.route("POST", r"/paymenthub/v1/paymenthandles")
    def create_handle(request, match):
        refused = paysafe_refused(request)
        if refused:
            return refused
        body = request.json()
        card = body.get("card") or {}
        number = str(card.get("cardNum", ""))
        bad = paysafe_field_errors(body, [
            ("merchantRefNum", lambda b: isinstance(b.get("merchantRefNum"), str) and b["merchantRefNum"] != ""),
            ("amount", lambda b: isinstance(b.get("amount"), int) and not isinstance(b.get("amount"), bool)),
            ("currencyCode", lambda b: isinstance(b.get("currencyCode"), str) and len(b["currencyCode"]) == 3),
            ("card.cardNum", lambda b: number.isdigit() and luhn(number))])
        if bad:
            return bad
        with app.lock:
            handle_id = new_id("9a0c1e00")
            token = f"SCh{COUNTER[0]}x7Qm"
        handle = {"id": handle_id, "paymentHandleToken": token, "merchantRefNum": body["merchantRefNum"],
                  "amount": body["amount"], "currencyCode": body["currencyCode"], "usage": "SINGLE_USE",
                  "paymentType": "CARD", "transactionType": body.get("transactionType", "PAYMENT"), "status": "PAYABLE",
                  "action": "NONE", "timeToLiveSeconds": HANDLE_TTL, "card": paysafe_card_view(card),
                  "_created": time.time(), "_fingerprint": number}
        if body.get("threeDs") is not None:
            flow = number[-4:]
            if flow == "1091":
                host = request.header("Host") or "127.0.0.1"
                handle.update(status="INITIATED", action="REDIRECT",
                              links=[{"rel": "redirect_payment", "href": f"http://{host}/3ds/{handle_id}"}])
            elif flow == "1018":
                handle.update(status="FAILED", authentication={"eci": 7, "threeDResult": "N", "threeDSecureVersion": "2.2.0",
                                                              "status": "FAILED"})
            elif flow == "1067":
                handle["authentication"] = {"eci": 7, "threeDResult": "U", "threeDSecureVersion": "2.2.0", "status": "COMPLETED"}
            else:
                handle["authentication"] = paysafe_authenticated(handle_id)
        with app.lock:
            PAYSAFE_HANDLES.append(handle)
        return emulator.Response.json(paysafe_shown(handle), 201)

    @app.route("GET", r"/paymenthub/v1/paymenthandles/(?P<id>[^/]+)")
    def get_handle(request, match):
        refused = paysafe_refused(request, payments=True)
        if refused:
            return refused
        with app.lock:
            found = [h for h in PAYSAFE_HANDLES if h["id"] == match.group("id") and h["usage"] == "SINGLE_USE"]
            if not found:
                return paysafe_error(404, "5269", "The ID(s) specified in the URL do not correspond to the values in the system.")
            paysafe_expire(found[0])
            return emulator.Response.json(paysafe_shown(found[0]))

    @app.route("GET", r"/3ds/(?P<id>[^/]+)")
    def challenge(request, match):
        result = dict(request.query_items()).get("result", "Y")
        with app.lock:
            found = [h for h in PAYSAFE_HANDLES if h["id"] == match.group("id")]
            if not found:
                return emulator.Response.text("unknown authentication", 404)
            handle = found[0]
            paysafe_expire(handle)
            if handle["status"] != "INITIATED":
                return emulator.Response.text(f"the authentication is over ({handle['status']})", 409)
            handle["action"] = "NONE"
            handle.pop("links", None)
            if result == "Y":
                handle.update(status="PAYABLE", authentication=paysafe_authenticated(handle["id"]))
            else:
                handle.update(status="FAILED", authentication={"eci": 7, "threeDResult": "N", "threeDSecureVersion": "2.2.0",
                                                              "status": "FAILED"})
        return emulator.Response.text("authentication complete; return to the app", 200)

    @app.route("POST", r"/test/paysafe-handles/(?P<id>[^/]+)/expire")
    def expire(request, match):
        with app.lock:
            for handle in PAYSAFE_HANDLES:
                if handle["id"] == match.group("id"):
                    handle["_created"] -= HANDLE_TTL + 1
                    paysafe_expire(handle)
                    return emulator.Response.json({"status": handle["status"]})
        return emulator.Response.json({"error": "unknown handle"}, 404)

    def customer_view(customer, fields):
        shown = paysafe_shown(customer)
        if "paymentHandles" in fields:
            shown["paymentHandles"] = [paysafe_shown(h) for h in PAYSAFE_HANDLES
                                       if h.get("_customer") == customer["id"] and not h.get("_deleted")]
        return shown

    def find_customer(customer_id):
        found = [c for c in PAYSAFE_CUSTOMERS if c["id"] == customer_id and c["status"] == "ACTIVE"]
        return found[0] if found else None

    def unknown_customer():
        return paysafe_error(404, "5269", "The ID(s) specified in the URL do not correspond to the values in the system.")

    @app.route("POST", r"/paymenthub/v1/customers")
    def create_customer(request, match):
        refused = paysafe_refused(request, payments=True)
        if refused:
            return refused
        body = request.json()
        merchant_id = body.get("merchantCustomerId")
        bad = paysafe_field_errors(body, [("merchantCustomerId", lambda b: isinstance(merchant_id, str) and 0 < len(merchant_id) <= 100)])
        if bad:
            return bad
        with app.lock:
            if any(c["merchantCustomerId"] == merchant_id and c["status"] == "ACTIVE" for c in PAYSAFE_CUSTOMERS):
                return paysafe_error(409, "7503", "A customer with this merchantCustomerId already exists.")
            customer = dict({k: v for k, v in body.items() if k in ("firstName", "lastName", "email", "locale")},
                            id=new_id("c0570000"), merchantCustomerId=merchant_id, status="ACTIVE")
            PAYSAFE_CUSTOMERS.append(customer)
        return emulator.Response.json(paysafe_shown(customer), 201)

    @app.route("GET", r"/paymenthub/v1/customers")
    def customer_by_merchant_id(request, match):
        refused = paysafe_refused(request, payments=True)
        if refused:
            return refused
        query = dict(request.query_items())
        with app.lock:
            found = [c for c in PAYSAFE_CUSTOMERS if c["merchantCustomerId"] == query.get("merchantCustomerId") and c["status"] == "ACTIVE"]
            if not found:
                return unknown_customer()
            return emulator.Response.json(customer_view(found[0], query.get("fields", "").split(",")))

    @app.route("GET", r"/paymenthub/v1/customers/(?P<id>[^/]+)")
    def get_customer(request, match):
        refused = paysafe_refused(request, payments=True)
        if refused:
            return refused
        with app.lock:
            customer = find_customer(match.group("id"))
            if customer is None:
                return unknown_customer()
            return emulator.Response.json(customer_view(customer, dict(request.query_items()).get("fields", "").split(",")))

    @app.route("DELETE", r"/paymenthub/v1/customers/(?P<id>[^/]+)")
    def delete_customer(request, match):
        refused = paysafe_refused(request, payments=True)
        if refused:
            return refused
        with app.lock:
            customer = find_customer(match.group("id"))
            if customer is None:
                return unknown_customer()
            customer["status"] = "DELETED"
            for handle in PAYSAFE_HANDLES:
                if handle.get("_customer") == customer["id"]:
                    handle["_deleted"] = True
        return emulator.Response.json({})

    @app.route("POST", r"/paymenthub/v1/customers/(?P<id>[^/]+)/paymenthandles")
    def save_card(request, match):
        refused = paysafe_refused(request, payments=True)
        if refused:
            return refused
        body = request.json()
        reference, source = body.get("merchantRefNum"), body.get("paymentHandleTokenFrom")
        bad = paysafe_field_errors(body, [
            ("merchantRefNum", lambda b: isinstance(reference, str) and reference != ""),
            ("paymentHandleTokenFrom", lambda b: isinstance(source, str) and source != "")])
        if bad:
            return bad
        with app.lock:
            customer = find_customer(match.group("id"))
            if customer is None:
                return unknown_customer()
            saved = [h for h in PAYSAFE_HANDLES if h.get("_customer") == customer["id"] and not h.get("_deleted")]
            if any(h["merchantRefNum"] == reference for h in saved):
                return paysafe_error(409, "5031", "The merchantRefNum has already been used")
            origin = paysafe_handle_by_token(source)
            if origin is None or origin["usage"] != "SINGLE_USE":
                return paysafe_error(400, NOT_PAYABLE, "The payment handle token is not valid.")
            if origin["status"] != "COMPLETED":
                return paysafe_error(400, NOT_PAYABLE, f"The payment handle has not completed a payment: its status is {origin['status']}.")
            existing = [h for h in saved if h["_fingerprint"] == origin["_fingerprint"]]
            if existing:
                return emulator.Response.json(paysafe_shown(existing[0]), 200)
            handle_id = new_id("3a11dbe0")
            handle = {"id": handle_id, "paymentHandleToken": f"MUh{COUNTER[0]}pK2w", "merchantRefNum": reference,
                      "usage": "MULTI_USE", "paymentType": "CARD", "status": "PAYABLE", "card": dict(origin["card"]),
                      "customerId": customer["id"], "_customer": customer["id"], "_fingerprint": origin["_fingerprint"],
                      "_created": time.time()}
            PAYSAFE_HANDLES.append(handle)
        return emulator.Response.json(paysafe_shown(handle), 201)

    def saved_handle(customer_id, handle_id):
        customer = find_customer(customer_id)
        if customer is None:
            return None
        found = [h for h in PAYSAFE_HANDLES if h.get("_customer") == customer_id and h["id"] == handle_id and not h.get("_deleted")]
        return found[0] if found else None

    @app.route("GET", r"/paymenthub/v1/customers/(?P<cid>[^/]+)/paymenthandles/(?P<id>[^/]+)")
    def get_saved(request, match):
        refused = paysafe_refused(request, payments=True)
        if refused:
            return refused
        with app.lock:
            handle = saved_handle(match.group("cid"), match.group("id"))
            if handle is None:
                return unknown_customer()
            return emulator.Response.json(paysafe_shown(handle))

    @app.route("PUT", r"/paymenthub/v1/customers/(?P<cid>[^/]+)/paymenthandles/(?P<id>[^/]+)")
    def update_saved(request, match):
        """A saved card's expiry (month 1-12, year 2000-2099) and holder name; nothing else changes."""
        refused = paysafe_refused(request, payments=True)
        if refused:
            return refused
        card = request.json().get("card") or {}
        expiry = card.get("cardExpiry")
        bad = paysafe_field_errors(card, [
            ("card.cardExpiry", lambda c: expiry is None or (isinstance(expiry, dict) and expiry.get("month") in range(1, 13)
                                                             and expiry.get("year") in range(2000, 2100))),
            ("card.holderName", lambda c: "holderName" not in c or (isinstance(c["holderName"], str) and c["holderName"] != "")),
            ("card", lambda c: expiry is not None or "holderName" in c)])
        if bad:
            return bad
        with app.lock:
            handle = saved_handle(match.group("cid"), match.group("id"))
            if handle is None:
                return unknown_customer()
            if expiry is not None:
                handle["card"]["cardExpiry"] = {"month": expiry["month"], "year": expiry["year"]}
            if "holderName" in card:
                handle["card"]["holderName"] = card["holderName"]
            return emulator.Response.json(paysafe_shown(handle))

    @app.route("DELETE", r"/paymenthub/v1/customers/(?P<cid>[^/]+)/paymenthandles/(?P<id>[^/]+)")
    def delete_saved(request, match):
        refused = paysafe_refused(request, payments=True)
        if refused:
            return refused
        with app.lock:
            handle = saved_handle(match.group("cid"), match.group("id"))
            if handle is None:
                return unknown_customer()
            handle["_deleted"] = True
        return emulator.Response.json({})

    @app.route("POST", r"/paymenthub/v1/customers/(?P<id>[^/]+)/singleusecustomertokens")
    def customer_token(request, match):
        refused = paysafe_refused(request, payments=True)
        if refused:
            return refused
        body = request.json()
        bad = paysafe_field_errors(body, [
            ("merchantRefNum", lambda b: isinstance(b.get("merchantRefNum"), str) and b["merchantRefNum"] != ""),
            ("paymentType", lambda b: isinstance(b.get("paymentType"), list) and b["paymentType"] != [])])
        if bad:
            return bad
        with app.lock:
            customer = find_customer(match.group("id"))
            if customer is None:
                return unknown_customer()
            token_id = new_id("5c070000")
            handles = [{k: v for k, v in paysafe_shown(h).items() if k != "paymentHandleToken"} for h in PAYSAFE_HANDLES
                       if h.get("_customer") == customer["id"] and not h.get("_deleted")]
        return emulator.Response.json({
            "id": token_id, "merchantRefNum": body["merchantRefNum"], "customerId": customer["id"],
            "paymentType": body["paymentType"], "singleUseCustomerToken": f"SUC{COUNTER[0]}tQ9z", "timeToLiveSeconds": 900,
            "status": "ACTIVE", "paymentHandles": handles}, 201)


def paysafe_authenticated(handle_id):
    return {"id": f"auth-{handle_id}", "eci": 5, "cavv": "AAABBEg0VhI0VniQEjRWAAAAAAA=", "threeDResult": "Y",
            "threeDSecureVersion": "2.2.0", "directoryServerTransactionId": f"ds-{handle_id}", "threeDEnrollment": "Y",
            "status": "COMPLETED"}
