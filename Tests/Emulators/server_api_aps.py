"""The Amazon Payment Services emulator of server_api_emulator.py."""


import hashlib
import hmac
import re

import emulator
from server_api_common import COUNTER, app, args


# ---------------------------------------------------------------------------------------------
# APS: SHA phrase signatures (the APS "Signature Calculation" rule, re-implemented here).
# MODES: normal, wrong-response-signature, tampered, unsigned, other-device, failure-NNNNN.

def aps_value(value):
    """A parameter as signed: nested objects (apple_header, apple_paymentMethod) as {k=v, k=v} in
    the order received (research notes §2.2)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}={v}" for k, v in value.items()) + "}"
    return str(value)


def aps_signature(params, phrase):
    text = phrase + "".join(f"{k}={aps_value(params[k])}" for k in sorted(params) if k != "signature") + phrase
    return hashlib.new(args().sha_type, text.encode()).hexdigest()


# APS server-to-server payments (research notes §2.3, §2.5, §2.7): PURCHASE/AUTHORIZATION with a
# token_name, checked against the trusted-channel rules; merchant_reference unique (a repeat is
# 00066 and creates nothing); CHECK_STATUS answers from the stored orders (11036 when unknown).
# MODES (payments): decline (13/03 + 072), on-hold (20064 with 3ds_url), uncertain (15777),
# pending (19065, "Transaction waiting for customer's action"), review (40090, "Transaction in
# review"): the status digits are the code table's, the messages the emulator's choice.
#
# The token vault and 3-D Secure (research notes, lifecycle §3.1, §3.3, §6.3):
# - A token_name the vault does not hold is a temporary token of the SDK's tokenization (any
#   well-formed name); one whose name contains "3DS" stands for a card enrolled in 3-D Secure.
# - A successful payment with remember_me=YES saves the card: its answer's token_name is a new
#   permanent name (32 hex digits) in the vault, ACTIVE, with the masked card, BIN, brand, expiry.
# - A payment with a vault token that is INACTIVE is refused before processing: 00044 (the
#   emulator's choice; "...044-style, undocumented").
# - A 3-D Secure card paid by the payer (eci ECOMMERCE) needs return_url (00037 "Missing return
#   URL"); the answer is 20064 with 3ds_url = http://<host>/3ds/<fort_id>. GET /3ds/<fort_id>
#   ?outcome=success|failure|unavailable|abandon finishes the challenge: success -> 14000/02000,
#   failure -> 13030/03030 "Authentication failed", unavailable -> 13074/03074 "Transaction failed"
#   (the emulator's choice: the ACS could not be reached and APS does not pay unauthenticated),
#   then a 302 to return_url with every response parameter form-encoded in the query, signed over
#   the decoded non-empty values (one empty parameter, merchant_extra, rides along unsigned, the
#   V-APS-6 case); with &method=post an auto-POST form instead; abandon leaves the order on hold
#   (20), as CHECK_STATUS then reports it (with its 3ds_url). A second visit is 410: the challenge
#   is over.
# - Merchant-initiated (eci RECURRING): PURCHASE only, a vault token, and the agreement_id of an
#   agreement set up by an approved payer payment with that token (else 00033 "Parameter value not
#   allowed", the emulator's choice); no 3-D Secure. A payer payment with agreement_id sets the
#   agreement up (recurring_mode, recurring_transactions_count, recurring_expiry_date,
#   recurring_days_between_payments kept with it); a FIXED agreement refuses a payment past its
#   recurring_transactions_count (00033).
APS_ORDERS = {}
APS_TOKENS = {}
APS_AGREEMENTS = {}
RECURRING_MODES = ("UNSCHEDULED", "VARIABLE", "FIXED")


def aps_new_token(card):
    """A permanent token for `card` (random 32 hex digits), saved ACTIVE in the vault."""
    import secrets
    import time
    name = secrets.token_hex(16)
    APS_TOKENS[name] = dict(card, token_status="ACTIVE", creation_date=time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()))
    return name


def aps_card(token_name):
    """The card a token stands for: the vault's, or a temporary token's (3DS in its name: enrolled)."""
    saved = APS_TOKENS.get(token_name)
    if saved is not None:
        return saved
    return {"card_number": "400555******0001", "card_bin": "400555", "card_brand": "VISA", "expiry_date": "2105",
            "card_holder_name": "Test Payer", "three_ds": "3DS" in token_name}


def aps_payment_checks(echoed):
    """The request rules of a PURCHASE/AUTHORIZATION, the emulator's own reading of the docs."""
    reference = echoed.get("merchant_reference", "")
    if echoed.get("digital_wallet") == "APPLE_PAY":
        header = echoed.get("apple_header")
        method = echoed.get("apple_paymentMethod")
        wallet_ok = (isinstance(header, dict) and set(header) == {"apple_transactionId", "apple_ephemeralPublicKey", "apple_publicKeyHash"}
                     and isinstance(method, dict) and set(method) == {"apple_displayName", "apple_network", "apple_type"}
                     and all(echoed.get(k) for k in ("apple_data", "apple_signature", "customer_ip")) and "token_name" not in echoed)
    else:
        wallet_ok = bool(re.fullmatch(r"[A-Za-z0-9.@_-]{1,100}", echoed.get("token_name", ""))) and echoed.get("eci") in (
            "ECOMMERCE", "MOTO", "RECURRING")
    checks = [wallet_ok,
        re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", reference), re.fullmatch(r"\d{1,10}", echoed.get("amount", "")),
        re.fullmatch(r"[A-Z]{3}", echoed.get("currency", "")), echoed.get("language") in ("en", "ar"),
        re.fullmatch(r"[A-Za-z0-9_.+-]+@[A-Za-z0-9_.-]+", echoed.get("customer_email", "")),
        echoed.get("remember_me", "NO") in ("YES", "NO"),
        re.fullmatch(r"https?://[^\s]{1,392}", echoed.get("return_url", "http://x")),
        re.fullmatch(r"[A-Za-z0-9_-]{1,100}", echoed.get("agreement_id", "x")),
        echoed.get("recurring_mode", "FIXED") in RECURRING_MODES,
        re.fullmatch(r"[1-9]\d{0,2}", echoed.get("recurring_transactions_count", "1")),
        re.fullmatch(r"\d{4}-\d{2}-\d{2}", echoed.get("recurring_expiry_date", "2000-01-01")),
        re.fullmatch(r"[1-9]\d{0,2}", echoed.get("recurring_days_between_payments", "1")),
    ]
    recurring_keys = [k for k in echoed if k.startswith("recurring_")]
    if recurring_keys and "agreement_id" not in echoed:
        checks.append(False)
    return all(checks)


def aps_payment(echoed, mode, host=""):
    reference = echoed.get("merchant_reference", "")

    def not_processed(message):
        return dict(echoed, response_code="00" + message, status="00", response_message=MESSAGES[message])

    if not aps_payment_checks(echoed):
        return not_processed("002")
    purchase = echoed["command"] == "PURCHASE"
    token_name = echoed.get("token_name")
    card = aps_card(token_name) if token_name else None
    with app.lock:
        if reference in APS_ORDERS:
            return not_processed("066")
        saved = APS_TOKENS.get(token_name) if token_name else None
        if saved is not None and saved["token_status"] != "ACTIVE":
            return not_processed("044")
        if echoed.get("eci") == "RECURRING":
            agreement = APS_AGREEMENTS.get(echoed.get("agreement_id", ""))
            if not purchase or saved is None:
                return not_processed("034" if not purchase else "044")
            if agreement is None or agreement["token_name"] != token_name:
                return not_processed("033")
            count = agreement.get("recurring_transactions_count")
            if agreement.get("recurring_mode") == "FIXED" and count and agreement["used"] >= int(count):
                return not_processed("033")
        challenge = (card is not None and card.get("three_ds") and echoed.get("eci") == "ECOMMERCE" and mode == "normal")
        if challenge and "return_url" not in echoed:
            return not_processed("037")
        COUNTER[0] += 1
        number = COUNTER[0]
    code = {"decline": ("13" if purchase else "03") + "072", "on-hold": "20064", "uncertain": "15777", "pending": "19065",
            "review": "40090"}.get(mode, "14000" if purchase else "02000")
    if challenge:
        code = "20064"
    response = dict(echoed, fort_id=f"1690{number:013d}", response_code=code, status=code[:2],
                    response_message=MESSAGES[code[2:]],
                    card_number=card["card_number"] if card else "400555******0001",
                    expiry_date=card["expiry_date"] if card else "2105", payment_option=card["card_brand"] if card else "VISA")
    if code == "20064":
        fort_id = response["fort_id"]
        response["3ds_url"] = (f"http://{host}/3ds/{fort_id}" if challenge
                               else "https://sbcheckout.payfort.com/FortAPI/redirectionResponse/threeDs2RedirectURL?token=abc")
    with app.lock:
        if code[2:] == "000":
            aps_approve(response, card)
        APS_ORDERS[reference] = response
    return response


def aps_approve(response, card):
    """Books an approved payment (under app.lock): its authorization code, the card it saves with
    remember_me=YES (the answer's token_name is then the permanent one), the agreement it sets up
    or uses."""
    response["authorization_code"] = "123456"
    if response.get("remember_me") == "YES" and card is not None:
        response["token_name"] = aps_new_token({k: v for k, v in card.items() if k not in ("token_status", "creation_date")})
    agreement_id = response.get("agreement_id")
    if agreement_id and response.get("eci") == "ECOMMERCE" and response.get("token_name") in APS_TOKENS:
        APS_AGREEMENTS.setdefault(agreement_id, dict(
            {k: v for k, v in response.items() if k.startswith("recurring_")}, token_name=response["token_name"], used=0))
    elif agreement_id and response.get("eci") == "RECURRING":
        APS_AGREEMENTS[agreement_id]["used"] += 1


# The ledger of each approved order (research notes, lifecycle §6 and §6.3): authorised,
# captured and refunded amounts in minor units, whether it is voided, and every maintenance
# operation with its own id (`operation_id`, the emulator's), reference and code; the last
# operation is what CHECK_STATUS reports. Maintenance has no idempotence on APS: every accepted
# CAPTURE or REFUND books a new operation, and a REFUND whose maintenance_reference the order has
# seen is refused (07066, the emulator's choice: undocumented).
APS_LEDGERS = {}
MAINTENANCE = {"CAPTURE": ("04", "05"), "REFUND": ("06", "07"), "VOID_AUTHORIZATION": ("08", "09")}
MESSAGES = {"000": "Success", "002": "Invalid parameter format", "013": "Invalid currency", "030": "Authentication failed",
            "033": "Parameter value not allowed", "034": "Operation not allowed", "036": "Order not found",
            "037": "Missing return URL", "042": "Operation amount exceeds the authorized amount", "044": "Token name does not exist",
            "048": "Operation amount exceeds captured amount", "064": "3-D Secure check requested",
            "065": "Transaction waiting for customer's action", "066": "Merchant reference already exists",
            "072": "Transaction has been cancelled by the consumer", "090": "Transaction in review",
            "074": "Transaction failed", "114": "Token already exist", "777": "Processed, but confirmation was not received"}


def aps_ledger(order):
    """The ledger of an order, made when the order is first maintained or queried."""
    ledger = APS_LEDGERS.get(order["merchant_reference"])
    if ledger is None:
        approved = order["response_code"][2:] == "000"
        amount = int(order["amount"]) if approved else 0
        ledger = {"authorized": amount, "captured": amount if order["command"] == "PURCHASE" else 0, "refunded": 0,
                  "voided": False, "operations": [], "last": (order["status"], order["response_code"], order["response_message"])}
        APS_LEDGERS[order["merchant_reference"]] = ledger
    return ledger


def aps_maintenance(echoed):
    """CAPTURE, REFUND, VOID_AUTHORIZATION on a stored order, by the emulator's own rules: capture
    <= authorised - captured (05042), only of an approved AUTHORIZATION not voided (05034);
    refund <= captured - refunded (07048), of a captured order (07034); void only while nothing
    is captured (09034); the order's currency (013); an unknown order or fort_id 036 with the
    failure status of the command."""
    command = echoed["command"]
    success, failure = MAINTENANCE[command]
    reference = echoed.get("merchant_reference", "")
    needs_amount = command != "VOID_AUTHORIZATION"
    checks = [re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", reference), echoed.get("language") in ("en", "ar"),
              re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", echoed.get("maintenance_reference", "x")),
              re.fullmatch(r"\d{1,40}", echoed.get("fort_id", "0"))]
    if needs_amount:
        checks += [re.fullmatch(r"[1-9]\d{0,9}", echoed.get("amount", "")), re.fullmatch(r"[A-Z]{3}", echoed.get("currency", ""))]
    elif "amount" in echoed or "currency" in echoed:
        checks.append(False)
    if not all(checks):
        return dict(echoed, response_code="00002", status="00", response_message="Invalid parameter format")

    def answer(status, message, order=None):
        response = dict(echoed, response_code=status + message, status=status, response_message=MESSAGES[message])
        if order is not None:
            response["fort_id"] = order["fort_id"]
        return response

    with app.lock:
        order = APS_ORDERS.get(reference)
        if order is None or order["response_code"][2:] != "000" or echoed.get("fort_id", order["fort_id"]) != order["fort_id"]:
            return answer(failure, "036")
        ledger = aps_ledger(order)
        amount = int(echoed.get("amount", "0"))
        if needs_amount and echoed["currency"] != order["currency"]:
            message = "013"
        elif command == "CAPTURE":
            if order["command"] != "AUTHORIZATION" or ledger["voided"]:
                message = "034"
            elif amount > ledger["authorized"] - ledger["captured"]:
                message = "042"
            else:
                message = "000"
                ledger["captured"] += amount
        elif command == "REFUND":
            used = {op.get("maintenance_reference") for op in ledger["operations"] if op["command"] == "REFUND"}
            if ledger["captured"] == 0:
                message = "034"
            elif "maintenance_reference" in echoed and echoed["maintenance_reference"] in used:
                message = "066"
            elif amount > ledger["captured"] - ledger["refunded"]:
                message = "048"
            else:
                message = "000"
                ledger["refunded"] += amount
        else:
            if ledger["captured"] > 0 or ledger["voided"]:
                message = "034"
            else:
                message = "000"
                ledger["voided"] = True
        status = success if message == "000" else failure
        response = answer(status, message, order)
        COUNTER[0] += 1
        ledger["operations"].append({"operation_id": f"op-{COUNTER[0]}", "command": command, "amount": echoed.get("amount"),
                                     "maintenance_reference": echoed.get("maintenance_reference"),
                                     "response_code": response["response_code"], "answer": dict(response)})
        ledger["last"] = (status, response["response_code"], response["response_message"])
    return response


def aps_check_status(echoed):
    order = APS_ORDERS.get(echoed.get("merchant_reference"))
    if order is None:
        return dict(echoed, response_code="11036", status="11", response_message="Order not found")
    with app.lock:
        ledger = aps_ledger(order)
        status, code, message = ledger["last"]
        response = dict(echoed, response_code="12000", status="12", response_message="Success", fort_id=order["fort_id"],
                        transaction_status=status, transaction_code=code, transaction_message=message,
                        authorized_amount=str(ledger["authorized"]), captured_amount=str(ledger["captured"]),
                        refunded_amount=str(ledger["refunded"]))
        # An order on hold for 3-D Secure names where the payer finishes it.
        if status == "20" and order.get("3ds_url"):
            response["3ds_url"] = order["3ds_url"]
        return response


def aps_update_token(echoed):
    """UPDATE_TOKEN (research notes, lifecycle §3.3): token_status ACTIVE/INACTIVE, expiry_date
    (YYMM), card_holder_name, new_token_name; 58000 with the token's masked card, BIN, brand,
    creation date and status; an unknown token 59044; a new name already in the vault 59114."""
    name = echoed.get("token_name", "")
    checks = [re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", echoed.get("merchant_reference", "")), echoed.get("language") in ("en", "ar"),
              re.fullmatch(r"[A-Za-z0-9.@_-]{1,100}", name), echoed.get("token_status", "ACTIVE") in ("ACTIVE", "INACTIVE"),
              re.fullmatch(r"[A-Za-z0-9.@_-]{1,100}", echoed.get("new_token_name", "x")),
              re.fullmatch(r"\d{2}(0[1-9]|1[0-2])", echoed.get("expiry_date", "2101")),
              re.fullmatch(r"[^\x00-\x1f]{1,50}", echoed.get("card_holder_name", "x"))]
    if not all(checks):
        return dict(echoed, response_code="00002", status="00", response_message=MESSAGES["002"])
    with app.lock:
        token = APS_TOKENS.get(name)
        if token is None:
            return dict(echoed, response_code="59044", status="59", response_message=MESSAGES["044"])
        new_name = echoed.get("new_token_name")
        if new_name is not None and new_name != name and new_name in APS_TOKENS:
            return dict(echoed, response_code="59114", status="59", response_message=MESSAGES["114"])
        for member, field in (("token_status", "token_status"), ("expiry_date", "expiry_date"), ("card_holder_name", "card_holder_name")):
            if member in echoed:
                token[field] = echoed[member]
        if new_name is not None and new_name != name:
            APS_TOKENS[new_name] = APS_TOKENS.pop(name)
            for agreement in APS_AGREEMENTS.values():
                if agreement["token_name"] == name:
                    agreement["token_name"] = new_name
        response = dict(echoed, response_code="58000", status="58", response_message="Token updated successfully")
        for field in ("card_number", "card_bin", "card_brand", "expiry_date", "card_holder_name", "token_status", "creation_date"):
            response[field] = token[field]
        return response


def aps_finish_challenge(order, outcome):
    """Finishes the 3-D Secure challenge of an order on hold (under app.lock): the order becomes
    approved (success), or declined with 030 (failure) or 074 (unavailable)."""
    purchase = order["command"] == "PURCHASE"
    status = ("14" if purchase else "02") if outcome == "success" else ("13" if purchase else "03")
    message = {"success": "000", "failure": "030", "unavailable": "074"}[outcome]
    order.pop("3ds_url", None)
    order.update(response_code=status + message, status=status, response_message=MESSAGES[message], eci="ECOMMERCE")
    if message == "000":
        aps_approve(order, aps_card(order.get("token_name", "")))
    APS_LEDGERS.pop(order["merchant_reference"], None)


def aps_routes():
    @app.route("GET", r"/test/aps-feedback/(?P<ref>[^/]+)")
    def feedback(request, match):
        """The transaction feedback APS would post for an order, signed here with the response
        phrase (Python hashlib): form-encoded, or JSON with ?format=json; ?status=NN&response_code=NNNNN
        posts the order with another status, as APS does when it settles later; ?operation=N the
        feedback of the order's Nth capture, refund or void."""
        order = APS_ORDERS.get(match.group("ref"))
        if order is None:
            return emulator.Response.json({"error": "no such order"}, 404)
        params = {k: v for k, v in order.items() if k != "signature"}
        query = dict(request.query_items())
        if "operation" in query:
            # The notification feedback of the order's Nth capture, refund or void (from 0), as
            # APS posts it after the operation (research notes, lifecycle §3.4, §6.3).
            operations = APS_LEDGERS.get(match.group("ref"), {}).get("operations", [])
            index = int(query["operation"])
            if index >= len(operations):
                return emulator.Response.json({"error": "no such operation"}, 404)
            params = {k: v for k, v in operations[index]["answer"].items() if k != "signature"}
        for name in ("status", "response_code"):
            if name in query:
                params[name] = query[name]
        params["signature"] = aps_signature(params, args().response_phrase)
        if query.get("format") == "json":
            return emulator.Response.json(params)
        from urllib.parse import urlencode
        return emulator.Response(200, urlencode(params).encode(), [("Content-Type", "application/x-www-form-urlencoded")])

    @app.route("GET", r"/3ds/(?P<fort>\d+)")
    def challenge(request, match):
        """The issuer's 3-D Secure page: ?outcome=success|failure|unavailable|abandon (success by
        default); then the browser goes back to return_url with the signed response parameters
        (a 302 with them in the query, or with &method=post an auto-POST form)."""
        from urllib.parse import urlencode
        from html import escape
        query = dict(request.query_items())
        outcome = query.get("outcome", "success")
        if outcome not in ("success", "failure", "unavailable", "abandon"):
            return emulator.Response.text("unknown outcome", 400)
        with app.lock:
            order = next((o for o in APS_ORDERS.values() if o.get("fort_id") == match.group("fort")), None)
            if order is None:
                return emulator.Response.text("no such payment", 404)
            if order["status"] != "20" or "return_url" not in order:
                return emulator.Response.text("the challenge is over", 410)
            if outcome == "abandon":
                return emulator.Response.text("the payer left the challenge", 200)
            aps_finish_challenge(order, outcome)
            params = {k: v for k, v in order.items() if k != "signature"}
        params["signature"] = aps_signature({k: v for k, v in params.items() if v != ""}, args().response_phrase)
        params["merchant_extra"] = ""
        if query.get("method") == "post":
            fields = "".join(f'<input type="hidden" name="{escape(k)}" value="{escape(str(v))}">' for k, v in params.items())
            page = (f'<form method="post" action="{escape(order["return_url"])}">{fields}</form>'
                    "<script>document.forms[0].submit()</script>")
            return emulator.Response(200, page.encode(), [("Content-Type", "text/html; charset=utf-8")])
        joiner = "&" if "?" in order["return_url"] else "?"
        return emulator.Response(302, b"", [("Location", order["return_url"] + joiner + urlencode(params))])

    @app.route("GET", r"/test/aps-token/(?P<name>[^/]+)")
    def token(request, match):
        """The vault's record of a token (status, masked card), for the tests."""
        with app.lock:
            saved = APS_TOKENS.get(match.group("name"))
            return emulator.Response.json(saved if saved is not None else {"error": "no such token"}, 200 if saved else 404)

    @app.route("GET", r"/test/aps-ledger/(?P<ref>[^/]+)")
    def ledger(request, match):
        """The ledger of an order (amounts and every maintenance operation), for the tests."""
        with app.lock:
            order = APS_ORDERS.get(match.group("ref"))
            if order is None:
                return emulator.Response.json({"error": "no such order"}, 404)
            ledger = dict(aps_ledger(order))
            ledger["last"] = list(ledger["last"])
            return emulator.Response.json(ledger)

    @app.route("POST", r"/FortAPI/paymentApi")
    def payment_api(request, match):
        params = request.json()
        echoed = {k: v for k, v in params.items() if k != "signature"}
        mode = args().mode
        # Apple Pay requests use the second credential set (research notes §2.2).
        apple = params.get("digital_wallet") == "APPLE_PAY"
        request_phrase = args().apple_request_phrase if apple else args().request_phrase
        response_phrase = args().apple_response_phrase if apple else args().response_phrase
        if not hmac.compare_digest(params.get("signature", ""), aps_signature(params, request_phrase)):
            response = dict(echoed, response_code="00008", status="00", response_message="Signature mismatch")
        elif params.get("access_code") != (args().apple_access_code if apple else args().access_code):
            response = dict(echoed, response_code="21010", status="21", response_message="Invalid access code")
        elif params.get("merchant_identifier") != args().merchant_identifier:
            response = dict(echoed, response_code="21009", status="21", response_message="Invalid merchant identifier")
        elif params.get("command") in ("PURCHASE", "AUTHORIZATION"):
            response = aps_payment(echoed, mode, request.header("Host") or "")
        elif params.get("service_command") == "UPDATE_TOKEN":
            response = aps_update_token(echoed)
        elif params.get("command") in MAINTENANCE:
            response = aps_maintenance(echoed)
        elif params.get("query_command") == "CHECK_STATUS":
            response = aps_check_status(echoed)
        elif mode.startswith("failure-"):
            code = mode[len("failure-"):]
            response = dict(echoed, response_code=code, status=code[:2], response_message="Failure")
        else:
            response = dict(echoed, response_code="22000", status="22", response_message="Success", sdk_token="Dwp78q3TOKEN")
        if mode == "other-device":
            response["device_id"] = "another-device"
        response["signature"] = aps_signature(response, response_phrase)
        if mode == "wrong-response-signature":
            response["signature"] = aps_signature(response, response_phrase + "x")
        elif mode == "tampered":
            response["sdk_token"] = "TamperedTOKEN"
        elif mode == "unsigned":
            del response["signature"]
        return emulator.Response.json(response, 200)


