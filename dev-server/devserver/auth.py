"""OAuth2 token endpoint (`POST /connect/token`) and bearer-token checks, StoryCLM style.

Access tokens are JWT-shaped (HS256 over a per-process random key) and also remembered, so that
`expireTokens` can expire every token issued so far. Refresh tokens are opaque and not rotated.
"""
import hashlib
import hmac
import secrets
import threading
import time
from dataclasses import dataclass

from .util import b64url, basic_credentials, json_bytes

DEMO_CLIENT_ID = "sclm-demo"
DEMO_CLIENT_SECRET = "demo-secret"
DEMO_USERNAME = "demo@storyclm.test"
DEMO_PASSWORD = "demo-pass"
DEMO_SUB = "6f1c2a4e-0000-4000-8000-000000000001"
DEMO_FULLNAME = "Demo User"


@dataclass(frozen=True)
class Identity:
    """Who a token speaks for."""
    sub: str
    name: str
    client_id: str
    grant: str


DEMO_IDENTITY = Identity(DEMO_SUB, DEMO_FULLNAME, DEMO_CLIENT_ID, "password")


@dataclass
class _Issued:
    identity: Identity
    expires_at: float
    revoked: bool = False

    def valid(self, now: float) -> bool:
        return not self.revoked and now < self.expires_at


class TokenError(Exception):
    """A rejected token request: HTTP status and OAuth2 error code."""

    def __init__(self, status: int, error: str, description: str):
        super().__init__(description)
        self.status = status
        self.body = {"error": error, "error_description": description}


class TokenService:
    """Issues and checks tokens. Thread-safe."""

    def __init__(self, access_lifetime: float, refresh_lifetime: float, clock=time.time):
        self.access_lifetime = access_lifetime
        self.refresh_lifetime = refresh_lifetime
        self._clock = clock
        self._key = secrets.token_bytes(32)
        self._access: dict[str, _Issued] = {}
        self._refresh: dict[str, _Issued] = {}
        self._lock = threading.Lock()

    def grant(self, form: dict[str, str], authorization: str | None) -> dict:
        """Handles a token request (form fields, optional Basic client auth). Raises TokenError."""
        client_id, client_secret = _client_credentials(form, authorization)
        if client_id != DEMO_CLIENT_ID or not hmac.compare_digest(client_secret, DEMO_CLIENT_SECRET):
            raise TokenError(401, "invalid_client", "unknown client_id or wrong client_secret")
        grant_type = form.get("grant_type", "")
        if grant_type == "password":
            return self._password_grant(form)
        if grant_type == "client_credentials":
            return self.issue(Identity(client_id, f"{client_id} (service)", client_id, grant_type), refresh=False)
        if grant_type == "refresh_token":
            return self._refresh_grant(form.get("refresh_token", ""))
        if not grant_type:
            raise TokenError(400, "invalid_request", "grant_type is missing")
        raise TokenError(400, "unsupported_grant_type", f"grant_type {grant_type!r} is not supported")

    def issue(self, identity: Identity, refresh: bool, refresh_token: str | None = None) -> dict:
        """A token response for `identity`; a new refresh token unless one is reused or refresh is False."""
        now = self._clock()
        access = self._jwt(identity, now)
        response = {"access_token": access, "expires_in": int(self.access_lifetime), "token_type": "Bearer"}
        with self._lock:
            self._access[access] = _Issued(identity, now + self.access_lifetime)
            if refresh and refresh_token is None:
                refresh_token = secrets.token_urlsafe(32)
                self._refresh[refresh_token] = _Issued(identity, now + self.refresh_lifetime)
        if refresh:
            response["refresh_token"] = refresh_token
        return response

    def authenticate(self, authorization: str | None) -> Identity | None:
        """The identity of a valid, unexpired `Bearer` access token, else None."""
        if not authorization or not authorization[:7].lower() == "bearer ":
            return None
        with self._lock:
            issued = self._access.get(authorization[7:].strip())
            if issued is None or not issued.valid(self._clock()):
                return None
            return issued.identity

    def expire(self, which: str) -> None:
        """Expires every `access`, `refresh` or `all` token issued so far."""
        if which not in ("access", "refresh", "all"):
            raise ValueError("which must be access, refresh or all")
        with self._lock:
            stores = [self._access] if which == "access" else [self._refresh] if which == "refresh" \
                else [self._access, self._refresh]
            for store in stores:
                for issued in store.values():
                    issued.revoked = True

    def _password_grant(self, form: dict[str, str]) -> dict:
        username, password = form.get("username", ""), form.get("password", "")
        if not username or not password:
            raise TokenError(400, "invalid_request", "username and password are required for grant_type=password")
        if username.lower() != DEMO_USERNAME or not hmac.compare_digest(password, DEMO_PASSWORD):
            raise TokenError(400, "invalid_grant", "invalid username or password")
        return self.issue(DEMO_IDENTITY, refresh=True)

    def _refresh_grant(self, token: str) -> dict:
        if not token:
            raise TokenError(400, "invalid_request", "refresh_token is required for grant_type=refresh_token")
        with self._lock:
            issued = self._refresh.get(token)
            valid = issued is not None and issued.valid(self._clock())
        if not valid:
            raise TokenError(400, "invalid_grant", "the refresh token is unknown or expired")
        return self.issue(issued.identity, refresh=True, refresh_token=token)

    def _jwt(self, identity: Identity, now: float) -> str:
        header = b64url(json_bytes({"alg": "HS256", "typ": "JWT"}))
        payload = b64url(json_bytes({
            "iss": "sclm-dev-server", "sub": identity.sub, "name": identity.name, "fullname": identity.name,
            "client_id": identity.client_id, "iat": int(now), "nbf": int(now),
            "exp": int(now + self.access_lifetime), "jti": secrets.token_hex(8),
        }))
        signature = hmac.new(self._key, f"{header}.{payload}".encode(), hashlib.sha256).digest()
        return f"{header}.{payload}.{b64url(signature)}"


def _client_credentials(form: dict[str, str], authorization: str | None) -> tuple[str, str]:
    """client_id/secret from the form, or from `Authorization: Basic` (RFC 6749 §2.3.1)."""
    try:
        credentials = basic_credentials(authorization)
    except ValueError:
        raise TokenError(401, "invalid_client", "malformed Basic client authentication") from None
    if credentials is not None:
        user, _, password = credentials.partition(":")
        return user, password
    return form.get("client_id", ""), form.get("client_secret", "")
