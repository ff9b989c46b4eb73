"""Test vectors of the access-point setup, written by python-broadlink's own packet code.

Runs python-broadlink's `setup()` (broadlink/__init__.py) and `scan()` (broadlink/device.py) unchanged, with
`socket.socket` replaced by a capture socket that records what `sendto` got and feeds `recvfrom` prepared answers
(no network), the clock fixed, and prints the vectors as JSON. Our code; python-broadlink is not part of this
repository (see packages/provisioning/vectors/README.md for the command and versions).

Usage: python3 broadlink_vectors.py /path/to/python-broadlink COMMIT DATE > broadlink-python.json
(COMMIT: the python-broadlink commit that tree was exported from; DATE: the day the vectors were made, YYYY-MM-DD.)
"""

import datetime as dt
import json
import platform
import socket
import sys
import types

REFERENCE, COMMIT, MADE_ON = sys.argv[1:4]
sys.path.insert(0, REFERENCE)

import broadlink  # noqa: E402
import broadlink.device  # noqa: E402
import broadlink.protocol  # noqa: E402
import cryptography  # noqa: E402

RealSocket = socket.socket


class CaptureSocket:
    """Stands in for socket.socket: records options, binds and datagrams; answers recvfrom from a queue."""

    sent = []
    answers = []
    bound_port = 0

    def __init__(self, family=None, kind=None, *args):
        self.options = []
        self.bound = None

    def setsockopt(self, level, name, value):
        self.options.append([level, name, value])

    def bind(self, address):
        self.bound = address

    def getsockname(self):
        return (self.bound[0] if self.bound else "0.0.0.0", CaptureSocket.bound_port)

    def settimeout(self, value):
        pass

    def sendto(self, data, address):
        CaptureSocket.sent.append(
            {
                "packet": bytes(data).hex(),
                "address": address[0],
                "port": address[1],
                "broadcast": [socket.SOL_SOCKET, socket.SO_BROADCAST, 1] in self.options,
            }
        )
        return len(data)

    def recvfrom(self, size):
        if CaptureSocket.answers:
            return CaptureSocket.answers.pop(0)
        raise socket.timeout()

    def close(self):
        pass


socket.socket = CaptureSocket


def run_setup(ssid, password, security):
    CaptureSocket.sent = []
    try:
        broadlink.setup(ssid, password, security)
    except Exception as err:  # python-broadlink's own failure, recorded as it is
        return {"error": f"{type(err).__name__}: {err}"}
    [datagram] = CaptureSocket.sent
    return datagram


# The clock: Datetime.now() reads time.timezone and datetime.now(tz); scan() loops on time.time().
FIXED_UTC = dt.datetime(2025, 1, 6, 9, 30, 15, tzinfo=dt.timezone.utc)


class FixedDatetime(dt.datetime):
    @classmethod
    def now(cls, tz=None):
        return FIXED_UTC.astimezone(tz)


def fixed_clock(offset_seconds):
    broadlink.protocol.time = types.SimpleNamespace(timezone=-offset_seconds)
    broadlink.protocol.dt = types.SimpleNamespace(
        datetime=FixedDatetime, timezone=dt.timezone, timedelta=dt.timedelta
    )
    ticks = iter(i * 0.3 for i in range(1000))  # scan(timeout=1): four rounds of sendto and recvfrom
    broadlink.device.time = types.SimpleNamespace(time=lambda: next(ticks))


def run_scan(local_ip, port, offset_seconds, answers=()):
    fixed_clock(offset_seconds)
    CaptureSocket.sent = []
    CaptureSocket.bound_port = port
    CaptureSocket.answers = [(bytes.fromhex(a), ("192.168.1.57", 80)) for a in answers]
    found = list(broadlink.device.scan(timeout=1, local_ip_address=local_ip))
    return CaptureSocket.sent[0], [
        {
            "deviceType": devtype,
            "host": list(host),
            "mac": bytes(mac).hex(),
            "name": name,
            "locked": locked,
        }
        for devtype, host, mac, name, locked in found
    ]


def hello_answer(device_type, ip, mac_hex, name, locked, extension=b""):
    """A hello answer laid out where scan() reads it (device.py: 0x34 type, 0x3a MAC reversed, 0x40 name, 0x7f lock),
    0x36 the IP reversed, 0x26 = 0x07, the BroadLink checksum at 0x20; `extension` appended from 0x80."""
    p = bytearray(0x80) + bytearray(extension)
    p[0x26] = 0x07
    p[0x34:0x36] = device_type.to_bytes(2, "little")
    p[0x36:0x3A] = bytes(int(x) for x in ip.split("."))[::-1]
    p[0x3A:0x40] = bytes.fromhex(mac_hex)[::-1]
    p[0x40 : 0x40 + len(name.encode())] = name.encode()
    p[0x7F] = 1 if locked else 0
    checksum = sum(p, 0xBEAF) & 0xFFFF
    p[0x20:0x22] = checksum.to_bytes(2, "little")
    return bytes(p).hex()


def product_extension(cloud_state, failure, pairing_code):
    """The product's extension from 0x80 (docs/device-protocol.md §13.3): "AQ", cloud state, failure, code length,
    the code's ASCII."""
    code = pairing_code.encode()
    return b"AQ" + bytes([cloud_state, failure, len(code)]) + code


JOINS = [
    ("ascii", "AquaHome", "softwater24", 3),
    ("ascii-open", "AquaGuest", "", 0),
    ("wep", "AquaHome", "abcde", 1),
    ("wpa1", "AquaHome", "softwater24", 2),
    ("wpa2", "AquaHome", "softwater24", 3),
    ("wpa12", "AquaHome", "softwater24", 4),
    ("ssid-32", "S" * 32, "softwater24", 3),
    ("password-32", "AquaHome", "p" * 32, 3),
    ("both-32", "x" * 32, "p" * 32, 4),
    ("latin1-cafe", "Café Corner", "crème brûlée", 3),
    ("cjk", "家里的WiFi", "softwater24", 3),
    ("emoji-password", "AquaHome", "water💧24", 3),
    ("ssid-33", "S" * 33, "softwater24", 3),
]

HELLOS = [
    ("utc-plus-1", "192.168.1.20", 0, 3600),
    ("utc-minus-5", "10.0.0.2", 40000, -5 * 3600),
    ("no-local-address", None, 0, 0),
]


def main():
    out = {
        "source": {
            "repository": "https://github.com/mjg59/python-broadlink",
            "commit": COMMIT,
            "made": MADE_ON,
            "python": platform.python_version(),
            "cryptography": cryptography.__version__,
            "clock": FIXED_UTC.isoformat(),
        },
        "join": [],
        "hello": [],
        "answers": [],
    }
    for name, ssid, password, security in JOINS:
        out["join"].append(
            {"name": name, "ssid": ssid, "password": password, "security": security, **run_setup(ssid, password, security)}
        )
    for name, local_ip, port, offset in HELLOS:
        sent, _ = run_scan(local_ip, port, offset)
        out["hello"].append(
            {"name": name, "localIp": local_ip, "localPort": port, "utcOffsetSeconds": offset, **sent}
        )
    stock = hello_answer(0x3372, "192.168.1.57", "02abcdef3f2a", "WiFi-BL3372", False)
    locked = hello_answer(0x3372, "192.168.1.58", "90af0af91234", "Softener", True)
    product = hello_answer(
        0x3372, "192.168.1.57", "02abcdef3f2a", "WiFi-BL3372", False, product_extension(2, 0, "02ABCDEF3F2A:tok1")
    )
    for name, answer in [("stock", stock), ("stock-locked", locked), ("product-extension", product)]:
        _, found = run_scan("192.168.1.20", 0, 3600, [answer])
        out["answers"].append({"name": name, "packet": answer, "scan": found})
    json.dump(out, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


main()
