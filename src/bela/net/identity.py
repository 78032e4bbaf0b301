"""Who is who at the public server: Ed25519 keys, the login challenge, and TLS pinning.

An account is a name and an Ed25519 public key (``bela.net.accounts``); there is no
password to steal or reuse. ``bela online`` makes the player's key on first use
(``load_or_make_key``: an owner-only PEM file in the config directory) and proves it
holds it by signing the server's challenge: 32 random bytes from ``secrets``, fresh
for every connection, and the server's certificate fingerprint (``login_message``).
A signature is good for that one connection to that one server: replayed, or
relayed by a man in the middle (who must show his own certificate, so the
fingerprint differs), it proves nothing.

The connection itself is TLS. The server makes a self-signed certificate in its
data directory on first run (``load_or_make_certificate``); the client pins it on
first use (``Pins``, trust on first use, as OpenSSH's known_hosts) and prints its
fingerprint, and refuses a server whose certificate has changed since.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import datetime
import hashlib
import json
import os
import secrets
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.x509.oid import NameOID

from bela.foundation.files import read_limited, replace_atomically

__all__ = [
    "NONCE_BYTES",
    "PinMismatch",
    "Pins",
    "b64",
    "client_context",
    "fingerprint",
    "key_id",
    "load_or_make_certificate",
    "load_or_make_key",
    "login_message",
    "new_nonce",
    "public_raw",
    "server_context",
    "sign",
    "unb64",
    "verify",
]

NONCE_BYTES: Final = 32
"""256 bits from ``secrets`` per login: never guessed, never repeated."""
KEY_FILE: Final = "online_key.pem"
PINS_FILE: Final = "online_servers.json"
CERT_FILE: Final = "server_cert.pem"
CERT_KEY_FILE: Final = "server_key.pem"
_DOMAIN: Final = b"bela-online-login-v1\n"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def unb64(text: str, size: int) -> bytes | None:
    """``text`` as exactly ``size`` bytes of base64, or None (never an exception)."""
    try:
        data = base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, binascii.Error, UnicodeEncodeError):
        return None
    return data if len(data) == size else None


def key_id(raw: bytes) -> str:
    """A public key as the operator reads and bans it: ``ed25519:`` and its base64."""
    return "ed25519:" + b64(raw)


def new_nonce() -> bytes:
    return secrets.token_bytes(NONCE_BYTES)


def login_message(nonce: bytes, server_fingerprint: str, public: bytes) -> bytes:
    """What the player signs: this nonce, at this server (its certificate), with this key."""
    return _DOMAIN + nonce + b"\n" + server_fingerprint.encode("ascii") + b"\n" + public


def _private(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.chmod(path, 0o600)


def load_or_make_key(directory: Path) -> Ed25519PrivateKey:
    """The player's key (made and kept owner-only on first use)."""
    path = directory / KEY_FILE
    try:
        data: bytes | None = read_limited(path, 16 * 1024)
    except FileNotFoundError:
        data = None
    if data is not None:
        key = serialization.load_pem_private_key(data, password=None)
        if not isinstance(key, Ed25519PrivateKey):
            raise ValueError(f"{path} does not hold an Ed25519 key")
        return key
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    directory.mkdir(parents=True, exist_ok=True)
    replace_atomically(path, pem.decode("ascii"), ".key-", mode=0o600)
    _private(path)
    return key


def public_raw(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def sign(key: Ed25519PrivateKey, message: bytes) -> bytes:
    return key.sign(message)


def verify(public: bytes, signature: bytes, message: bytes) -> bool:
    """Whether ``signature`` is ``public``'s over ``message`` (any malformed input: False)."""
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def fingerprint(der: bytes) -> str:
    """A certificate's SHA-256, as the player compares it: ``SHA256:`` and hex pairs."""
    digest = hashlib.sha256(der).hexdigest()
    return "SHA256:" + ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


def load_or_make_certificate(directory: Path) -> tuple[Path, Path, str]:
    """The server's certificate and key files (self-signed, made on first run) and the
    certificate's fingerprint."""
    cert_path, key_path = directory / CERT_FILE, directory / CERT_KEY_FILE
    if not (cert_path.exists() and key_path.exists()):
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "bela server")])
        now = datetime.datetime.now(datetime.UTC)
        cert = (
            x509.CertificateBuilder()
            .subject_name(name)
            .issuer_name(name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=3650))
            .sign(key, hashes.SHA256())
        )
        directory.mkdir(parents=True, exist_ok=True)
        pem_key = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        replace_atomically(key_path, pem_key.decode("ascii"), ".key-", mode=0o600)
        _private(key_path)
        replace_atomically(
            cert_path, cert.public_bytes(serialization.Encoding.PEM).decode("ascii"), ".cert-"
        )
    pem = read_limited(cert_path, 64 * 1024)
    der = x509.load_pem_x509_certificate(pem).public_bytes(serialization.Encoding.DER)
    return cert_path, key_path, fingerprint(der)


def server_context(cert: Path, key: Path) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    return context


def client_context() -> ssl.SSLContext:
    """TLS without the certificate authorities: the certificate is checked by its pin
    (``Pins``), which the caller compares right after the handshake, before a byte of
    the login is sent."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


class PinMismatch(ConnectionError):
    """The server shows another certificate than the one pinned for it."""

    def __init__(self, where: str, pinned: str, shown: str) -> None:
        super().__init__(where)
        self.where, self.pinned, self.shown = where, pinned, shown


@dataclass(slots=True)
class Pins:
    """Servers' certificate fingerprints by address (owner-only JSON in the config dir)."""

    directory: Path

    @property
    def path(self) -> Path:
        return self.directory / PINS_FILE

    def _read(self) -> dict[str, str]:
        try:
            data = json.loads(read_limited(self.path, 256 * 1024))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}

    def check(self, where: str, shown: str) -> bool:
        """True when ``where`` was first met now (pinned: the caller prints the
        fingerprint); False when it matches its pin; ``PinMismatch`` otherwise."""
        pins = self._read()
        pinned = pins.get(where)
        if pinned is None:
            pins[where] = shown
            self.directory.mkdir(parents=True, exist_ok=True)
            replace_atomically(self.path, json.dumps(pins, indent=1), ".pins-", mode=0o600)
            return True
        if not secrets.compare_digest(pinned, shown):
            raise PinMismatch(where, pinned, shown)
        return False
