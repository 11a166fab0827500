"""StoryCLM Tables (`/v1/tables/...`): a small in-memory store with demo tables, as the API answers them.

Entries are JSON objects with a string `_id`. Queries are TablesQuery text, `[field][op][value]` terms
that must all hold (ops eq, neq, gt, gte, lt, lte, contains); what this store does not understand is a
400 naming it.
"""
import copy
import itertools
import json
import re
import threading
import urllib.parse

DEMO_TABLES = [
    {"id": 1, "clientId": 1, "name": "Contacts",
     "schema": [{"k": "name", "t": "1"}, {"k": "specialty", "t": "1"}, {"k": "visits", "t": "2"}],
     "created": "2024-01-10T08:00:00.00",
     "entries": [{"name": "Dr. Anna Vidal", "specialty": "cardiology", "visits": 3},
                 {"name": "Dr. Joan Puig", "specialty": "pneumology", "visits": 1},
                 {"name": "Dr. Marta Soler", "specialty": "cardiology", "visits": 5}]},
    {"id": 2, "clientId": 1, "name": "QuizAnswers",
     "schema": [{"k": "question", "t": "1"}, {"k": "answer", "t": "1"}], "created": "2024-01-10T08:00:00.00",
     "entries": []},
    {"id": 3, "clientId": 2, "name": "Clinics",
     "schema": [{"k": "city", "t": "1"}, {"k": "beds", "t": "2"}], "created": "2024-02-01T08:00:00.00",
     "entries": [{"city": "Girona", "beds": 40}]},
]

_TERM = re.compile(r"\[([^\]]+)\]\[(eq|neq|gt|gte|lt|lte|contains)\]\[([^\]]*)\]", re.IGNORECASE)


class TableError(Exception):
    """An API error: its status and message."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class TableStore:
    """The tables of every client, thread-safe."""

    def __init__(self, tables=None):
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._tables = {}
        for table in copy.deepcopy(tables if tables is not None else DEMO_TABLES):
            table["entries"] = [self._stamped(entry) for entry in table.get("entries", [])]
            self._tables[table["id"]] = table

    def _stamped(self, entry):
        if not isinstance(entry, dict):
            raise TableError(400, "an entry must be a JSON object")
        return {**entry, "_id": entry.get("_id") or f"{next(self._ids):024x}"}

    def _table(self, table_id: int):
        table = self._tables.get(table_id)
        if table is None:
            raise TableError(404, f"no table {table_id}")
        return table

    def tables(self, client_id: int):
        with self._lock:
            return [{k: v for k, v in t.items() if k not in ("entries", "clientId")}
                    for t in self._tables.values() if t["clientId"] == client_id]

    def count(self, table_id: int, query: str | None):
        with self._lock:
            return {"count": len(_matching(self._table(table_id)["entries"], query))}

    def find(self, table_id: int, query: str | None, skip: int, take: int, sortfield: str | None, sort: int):
        with self._lock:
            entries = _matching(self._table(table_id)["entries"], query)
        if sortfield:
            entries = sorted(entries, key=lambda e: str(e.get(sortfield, "")), reverse=sort < 0)
        return copy.deepcopy(entries[skip:skip + take])

    def find_by_id(self, table_id: int, entry_id: str):
        with self._lock:
            return copy.deepcopy(self._entry(self._table(table_id), entry_id))

    def find_by_ids(self, table_id: int, ids: list[str]):
        with self._lock:
            table = self._table(table_id)
            return [copy.deepcopy(e) for e in table["entries"] if e["_id"] in ids]

    def insert(self, table_id: int, entries: list):
        with self._lock:
            table = self._table(table_id)
            stamped = [self._stamped({k: v for k, v in entry.items() if k != "_id"}) if isinstance(entry, dict)
                       else self._stamped(entry) for entry in entries]
            table["entries"].extend(stamped)
            return copy.deepcopy(stamped)

    def update(self, table_id: int, entries: list):
        with self._lock:
            table = self._table(table_id)
            for entry in entries:
                if not isinstance(entry, dict) or not entry.get("_id"):
                    raise TableError(400, "an updated entry needs its _id")
                self._entry(table, entry["_id"])
            for entry in entries:
                index = next(i for i, e in enumerate(table["entries"]) if e["_id"] == entry["_id"])
                table["entries"][index] = copy.deepcopy(entry)
            return copy.deepcopy(entries)

    def delete(self, table_id: int, ids: list[str]):
        with self._lock:
            table = self._table(table_id)
            gone = [self._entry(table, entry_id) for entry_id in ids]
            table["entries"] = [e for e in table["entries"] if e["_id"] not in ids]
            return gone

    @staticmethod
    def _entry(table, entry_id: str):
        for entry in table["entries"]:
            if entry["_id"] == entry_id:
                return entry
        raise TableError(404, f"no entry {entry_id} in table {table['id']}")


def _matching(entries, query: str | None):
    if not query:
        return list(entries)
    terms = _TERM.findall(query)
    if not terms or _TERM.sub("", query).lower().replace("and", "").strip():
        raise TableError(400, f"bad TablesQuery: {query} (expected [field][eq][value] terms)")
    return [entry for entry in entries if all(_holds(entry, *term) for term in terms)]


def _holds(entry, field: str, op: str, value: str) -> bool:
    actual = entry.get(field)
    text = "" if actual is None else str(actual).lower()
    wanted = value.lower()
    op = op.lower()
    if op == "contains":
        return wanted in text
    if op in ("eq", "neq"):
        return (text == wanted) == (op == "eq")
    try:
        left, right = float(actual), float(value)
    except (TypeError, ValueError):
        return False
    return {"gt": left > right, "gte": left >= right, "lt": left < right, "lte": left <= right}[op]


def route(store: TableStore, method: str, number: int, operation: str, query: dict, body: bytes):
    """Answers one `/v1/tables/{number}/{operation}` request: (status, JSON). Raises TableError."""
    name, _, entry_id = operation.partition("/")
    entry_id = urllib.parse.unquote(entry_id)
    ids = query.get("ids", [])
    first = {key: values[0] for key, values in query.items()}
    routes = {
        ("GET", "tables"): lambda: store.tables(number),
        ("GET", "count"): lambda: store.count(number, first.get("query")),
        ("GET", "find"): lambda: store.find(number, first.get("query"), _int(first, "skip", 0),
                                            _int(first, "take", 100), first.get("sortfield"), _int(first, "sort", 1)),
        ("GET", "findbyid"): lambda: store.find_by_id(number, entry_id),
        ("GET", "findbyids"): lambda: store.find_by_ids(number, ids),
        ("POST", "insert"): lambda: store.insert(number, [_json(body, dict)])[0],
        ("POST", "insertmany"): lambda: store.insert(number, _json(body, list)),
        ("PUT", "update"): lambda: store.update(number, [_json(body, dict)])[0],
        ("PUT", "updatemany"): lambda: store.update(number, _json(body, list)),
        ("DELETE", "delete"): lambda: store.delete(number, [entry_id])[0],
        ("DELETE", "deletemany"): lambda: store.delete(number, ids),
    }
    handler = routes.get((method, name))
    if handler is None:
        raise TableError(405, f"{method} is not allowed for tables/{name}")
    return 200, handler()


def _int(query: dict, name: str, default: int) -> int:
    try:
        return int(query.get(name, default))
    except ValueError:
        raise TableError(400, f"{name} must be an integer") from None


def _json(body: bytes, kind: type):
    try:
        value = json.loads(body or b"null")
    except ValueError:
        raise TableError(400, "the body is not JSON") from None
    if not isinstance(value, kind):
        raise TableError(400, f"the body must be a JSON {'object' if kind is dict else 'array'}")
    return value
