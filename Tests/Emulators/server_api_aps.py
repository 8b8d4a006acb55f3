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
# MODES (payments): decline (13/03 + 072), on-hold (20064 with 3ds_url), uncertain (15777).
APS_ORDERS = {}


def aps_payment(echoed, mode):
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
    ]
    if not all(checks):
        return dict(echoed, response_code="00002", status="00", response_message="Invalid parameter format")
    with app.lock:
        if reference in APS_ORDERS:
            return dict(echoed, response_code="00066", status="00", response_message="Merchant reference already exists")
        COUNTER[0] += 1
        number = COUNTER[0]
    purchase = echoed["command"] == "PURCHASE"
    code = {"decline": ("13" if purchase else "03") + "072", "on-hold": "20064", "uncertain": "15777"}.get(
        mode, "14000" if purchase else "02000")
    response = dict(echoed, fort_id=f"1690{number:013d}", response_code=code, status=code[:2],
                    response_message={"000": "Success", "072": "Transaction has been cancelled by the consumer",
                                      "064": "3-D Secure check requested",
                                      "777": "Processed, but confirmation was not received"}[code[2:]],
                    card_number="400555******0001", expiry_date="2105", payment_option="VISA")
    if code[2:] == "000":
        response["authorization_code"] = "123456"
    if code == "20064":
        response["3ds_url"] = "https://sbcheckout.payfort.com/FortAPI/redirectionResponse/threeDs2RedirectURL?token=abc"
    with app.lock:
        APS_ORDERS[reference] = response
    return response


# The ledger of each approved order (research notes, lifecycle §6 and §6.3): authorised,
# captured and refunded amounts in minor units, whether it is voided, and every maintenance
# operation with its own id (`operation_id`, the emulator's), reference and code; the last
# operation is what CHECK_STATUS reports. Maintenance has no idempotence on APS: every accepted
# CAPTURE or REFUND books a new operation, and a REFUND whose maintenance_reference the order has
# seen is refused (07066, the emulator's choice: undocumented).
APS_LEDGERS = {}
MAINTENANCE = {"CAPTURE": ("04", "05"), "REFUND": ("06", "07"), "VOID_AUTHORIZATION": ("08", "09")}
MESSAGES = {"000": "Success", "013": "Invalid currency", "034": "Operation not allowed", "036": "Order not found",
            "042": "Operation amount exceeds the authorized amount", "048": "Operation amount exceeds captured amount",
            "066": "Merchant reference already exists"}


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
        return dict(echoed, response_code="12000", status="12", response_message="Success", fort_id=order["fort_id"],
                    transaction_status=status, transaction_code=code, transaction_message=message,
                    authorized_amount=str(ledger["authorized"]), captured_amount=str(ledger["captured"]),
                    refunded_amount=str(ledger["refunded"]))


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
            response = aps_payment(echoed, mode)
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


