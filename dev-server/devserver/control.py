"""`POST /_control` actions (the dev-server contract's table). Command-line fault flags build the
same action objects, so both paths share this code."""
import pathlib
import zipfile

from .catalog import NotFound
from .faults import Fault


class ControlError(Exception):
    """A control action that cannot be applied: HTTP status and message."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def apply(state, action: dict) -> dict:
    """Applies one action to the server state; returns the JSON answer (`{"ok": true, …}`)."""
    if not isinstance(action, dict) or not isinstance(action.get("action"), str):
        raise ControlError(400, 'expected a JSON object with an "action" string')
    handler = _ACTIONS.get(action["action"])
    if handler is None:
        raise ControlError(400, f"unknown action {action['action']!r}; known: {', '.join(sorted(_ACTIONS))}")
    try:
        return {"ok": True, **(handler(state, action) or {})}
    except NotFound as missing:
        raise ControlError(404, f"no {missing}") from None
    except (ValueError, TypeError, OSError, zipfile.BadZipFile) as error:
        raise ControlError(400, f"{action['action']}: {error}") from None


def _number(action: dict, key: str, default=None, minimum: float = 0, kind=int):
    value = action.get(key, default)
    if value is None:
        raise ValueError(f"{key} is required")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (kind is int and value != int(value)):
        raise ValueError(f"{key} must be {'an integer' if kind is int else 'a number'}")
    if value < minimum:
        raise ValueError(f"{key} must be at least {minimum}")
    return kind(value)


def _count(action: dict) -> int:
    return _number(action, "count", 1, minimum=-1)


def _path(action: dict) -> str | None:
    path = action.get("path")
    if path is not None and (not isinstance(path, str) or not path.startswith("/")):
        raise ValueError("path must be a path prefix starting with /")
    return path


def _fail(state, action):
    status = _number(action, "status", 503, minimum=400)
    if status > 599:
        raise ValueError("status must be a 4xx or 5xx code")
    retry = action.get("retryAfter")
    state.faults.add(Fault("fail", _count(action), _path(action), status=status,
                           retry_after=None if retry is None else _number(action, "retryAfter", kind=float)))


def _drop(state, action):
    state.faults.add(Fault("drop", _count(action), _path(action), after_bytes=_number(action, "afterBytes")))


def _stall(state, action):
    state.stalls_released.clear()
    after = action.get("afterBytes")
    state.faults.add(Fault("stall", _count(action), _path(action), seconds=_number(action, "seconds", kind=float),
                           after_bytes=None if after is None else _number(action, "afterBytes")))


def _release(state, action):
    """Ends every stall now: a test that holds requests at the server lets them go when it is ready."""
    state.stalls_released.set()


def _pad(state, action):
    state.faults.add(Fault("pad", _count(action), _path(action), extra_bytes=_number(action, "bytes")))


def _patch(state, action):
    path = _path(action)
    fields = action.get("fields")
    if path is None or not path.startswith("/v1/"):
        raise ValueError("path must be a content route such as /v1/presentations/101")
    if fields is None:
        state.patches.pop(path.rstrip("/"), None)
        return
    if not isinstance(fields, dict):
        raise ValueError("fields must be a JSON object (or null to remove the patch)")
    state.patches[path.rstrip("/")] = {**state.patches.get(path.rstrip("/"), {}), **fields}


def _tokens_instead(state, action):
    state.faults.add(Fault("tokensInsteadOfContent", _count(action), _path(action)))


def _expire_tokens(state, action):
    state.tokens.expire(action.get("which", "all"))


def _presentation_id(action: dict) -> int:
    return _number(action, "presentationId", minimum=1)


def _bump(state, action):
    return {"revision": state.catalog.bump_revision(_presentation_id(action))}


def _delete(state, action):
    state.catalog.delete(_presentation_id(action))


def _set_package(state, action):
    path = action.get("path")
    if not isinstance(path, str) or not path:
        raise ValueError("path (a zip file on disk) is required")
    return {"revision": state.catalog.set_package(_presentation_id(action), pathlib.Path(path))}


def _corrupt(state, action):
    return {"revision": state.catalog.corrupt_package(_presentation_id(action), action.get("mode", "crc"))}


def _expire_sas(state, action):
    state.blobs.expire_all()


def _osam(state, action):
    changes = {key: value for key, value in action.items() if key not in ("action", "package", "platform")}
    state.osam.configure(action.get("package", ""), action.get("platform", ""), changes)


def _iot_fail(state, action):
    if "ratio" in action and "count" in action:
        raise ValueError("give either ratio or count")
    state.iot.set_failures(ratio=_number(action, "ratio", 0.0, kind=float), count=_number(action, "count", 0),
                           status=_number(action, "status", 503, minimum=400))


def _reset(state, action):
    state.faults.clear()
    state.iot.set_failures(ratio=0.0, count=0, status=503)
    state.link.configure(ranges="honour")


def _ranges(state, action):
    mode = action.get("mode")
    if not isinstance(mode, str):
        raise ValueError("mode is required")
    state.link.configure(ranges=mode)


def _rate_limit(state, action):
    state.link.configure(bytes_per_second=_number(action, "bytesPerSecond"))


def _reset_stats(state, action):
    state.stats.reset()


def _clear_iot(state, action):
    state.iot.clear()


_ACTIONS = {
    "fail": _fail, "drop": _drop, "stall": _stall, "release": _release, "pad": _pad, "patch": _patch,
    "tokensInsteadOfContent": _tokens_instead,
    "expireTokens": _expire_tokens, "bumpRevision": _bump, "deletePresentation": _delete,
    "setPackage": _set_package, "corruptPackage": _corrupt, "expireSas": _expire_sas, "osam": _osam,
    "iotFail": _iot_fail, "reset": _reset, "resetStats": _reset_stats, "clearIot": _clear_iot,
    "ranges": _ranges, "rateLimit": _rate_limit,
}
ACTION_NAMES = sorted(_ACTIONS)
