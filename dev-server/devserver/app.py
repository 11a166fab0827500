"""The server object: options, shared state, and a ThreadingHTTPServer bound to 127.0.0.1."""
import pathlib
import shutil
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from http.server import ThreadingHTTPServer

from . import control
from .auth import TokenService
from .blobs import BlobStore
from .catalog import Catalog
from .content import load_content
from .faults import FaultBook
from .handler import Handler
from .iot import IotHub
from .osam import OsamStore
from .samples import assembled_samples
from .link import BlobLink
from .stats import Stats
from .synthetic import SyntheticSpec, add_synthetic
from .tables import TableStore


@dataclass
class Options:
    port: int = 0
    content: pathlib.Path | None = None  # None: the assembled sample decks, unless synthetic content is asked for
    blob_dir: pathlib.Path | None = None  # None: a temporary folder removed at exit
    synthetic: SyntheticSpec | None = None
    access_token_lifetime: float = 3600
    refresh_token_lifetime: float = 30 * 86400
    sas_lifetime: float = 3600
    osam_file: pathlib.Path | None = None
    quiet: bool = False
    controls: list[dict] = field(default_factory=list)  # control actions applied at start (fault flags)


@dataclass
class State:
    tokens: TokenService
    blobs: BlobStore
    catalog: Catalog
    faults: FaultBook
    stats: Stats
    iot: IotHub
    osam: OsamStore
    tables: TableStore = field(default_factory=TableStore)
    patches: dict = field(default_factory=dict)  # content route path -> JSON fields laid over its answer
    link: BlobLink = field(default_factory=BlobLink)  # range answers and the byte-rate limit of blob responses
    # Set by the `release` control action and by the server's stop: every stalled response goes on at once.
    stalls_released: threading.Event = field(default_factory=threading.Event)


class DevServer(ThreadingHTTPServer):
    """Serves everything on http://127.0.0.1:<port>. Raises ContentError/ValueError for bad options."""

    daemon_threads = True
    request_queue_size = 128

    def __init__(self, options: Options):
        self.quiet = options.quiet
        self._serving = threading.Event()
        self.sessions: set[str] = set()
        self._temporary_blob_dir = options.blob_dir is None
        blob_dir = options.blob_dir or pathlib.Path(tempfile.mkdtemp(prefix="sclm-dev-server-"))
        try:
            self.state = _build_state(options, blob_dir)
            super().__init__(("127.0.0.1", options.port), Handler)
        except BaseException:
            self._remove_blob_dir(blob_dir)
            raise
        self.blob_dir = blob_dir
        self.base_url = f"http://127.0.0.1:{self.server_address[1]}"

    def serve_forever(self, poll_interval: float = 0.5) -> None:
        self._serving.set()
        super().serve_forever(poll_interval)

    def handle_error(self, request, client_address) -> None:
        """A client that resets or drops its connection is routine here; anything else is reported."""
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)

    def start_background(self) -> threading.Thread:
        """Serves on a daemon thread (tests)."""
        thread = threading.Thread(target=self.serve_forever, args=(0.02,), name="dev-server", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        """Stops serving, wakes stalled responses, closes the socket, removes a temporary blob dir."""
        self.state.stalls_released.set()
        if self._serving.is_set():
            self.shutdown()
        self.server_close()
        self._remove_blob_dir(self.blob_dir)

    def _remove_blob_dir(self, blob_dir: pathlib.Path) -> None:
        if self._temporary_blob_dir:
            shutil.rmtree(blob_dir, ignore_errors=True)


def _build_state(options: Options, blob_dir: pathlib.Path) -> State:
    blob_dir.mkdir(parents=True, exist_ok=True)
    blobs = BlobStore(blob_dir, options.sas_lifetime)
    catalog = Catalog(blob_dir, blobs)
    content = options.content
    if content is None and options.synthetic is None:
        content = assembled_samples()
    if content is not None:
        load_content(content, catalog)
    if options.synthetic is not None:
        add_synthetic(catalog, options.synthetic)
    state = State(TokenService(options.access_token_lifetime, options.refresh_token_lifetime), blobs, catalog,
                  FaultBook(), Stats(), IotHub(), OsamStore(options.osam_file))
    for action in options.controls:
        try:
            control.apply(state, action)
        except control.ControlError as error:
            raise ValueError(f"fault option {action}: {error}") from None
    return state
