"""Opaque, prefixed ids (CONTRACT §1): never sequential, never guessable."""

import base64
import secrets

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base32
# base32 as the standard library writes it, spelled in Crockford's alphabet: each character is 5 random bits
_CROCKFORD = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", _ALPHABET.encode())


def new_id(prefix: str) -> str:
    # 15 random bytes are 24 base32 characters without padding; 20 of them (100 bits) are the id
    return f"{prefix}_" + base64.b32encode(secrets.token_bytes(15))[:20].translate(_CROCKFORD).decode()
