#!/usr/bin/env python3
"""Loopback emulators of the merchant-server APIs CSEKit calls (issue #15), on emulator.py.

    server_api_emulator.py --platform worldline|aps|mastercard|paysafe [credentials] [--mode M]

Every emulator checks the request's signature or authentication ITSELF, with Python's hmac,
hashlib and base64 (an implementation independent of CSEKit), and answers the platform's error
shape when it fails. --mode makes the emulator misbehave in one documented way, so the tests can
check that CSEKit refuses it (see each platform's MODES).
"""

# Each platform lives in its own module (server_api_<platform>.py); server_api_common.py holds the
# one Emulator and its command line, server_api_notifications.py the signed deliveries.
import sys

from server_api_aps import aps_routes
from server_api_common import app
from server_api_mastercard import mastercard_routes, mastercard_token_routes, mastercard_transaction_routes
from server_api_notifications import notification_routes
from server_api_paysafe import paysafe_routes
from server_api_worldline import worldline_routes

ROUTES = {
    "worldline": worldline_routes,
    "aps": aps_routes,
    "mastercard": lambda: (mastercard_routes(), mastercard_transaction_routes(), mastercard_token_routes()),
    "paysafe": paysafe_routes,
}

if __name__ == "__main__":
    platform = sys.argv[sys.argv.index("--platform") + 1] if "--platform" in sys.argv else ""
    ROUTES.get(platform, lambda: None)()
    notification_routes(platform)
    app.main()
