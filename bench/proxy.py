"""A TCP proxy that a fault script can cut and restore, to put a dependency "on a closed port".

``Proxy(target_port)`` listens on a free port of 127.0.0.1 and copies bytes both ways
between each accepted connection and ``127.0.0.1:target_port``. ``cut()`` closes the
listener and every live connection, so clients see their connections reset and new
ones refused, as when the service is down; ``restore()`` listens again on the same port.
Threads, not asyncio: the fault scripts are threaded already and the traffic is small.
"""

from __future__ import annotations

import socket
import threading

HOST = "127.0.0.1"


class Proxy:
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.lock = threading.Lock()
        self.live: set[socket.socket] = set()
        self.listener: socket.socket | None = None
        self.port = 0
        self.restore()

    def url(self, scheme: str, db: int) -> str:
        """The service's URL through the proxy, e.g. ``redis://127.0.0.1:PORT/7``."""
        return f"{scheme}://{HOST}:{self.port}/{db}"

    def restore(self) -> None:
        """Listen (again) on the proxy's port; the first call picks the port."""
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((HOST, self.port))
        listener.listen(128)
        self.port = listener.getsockname()[1]
        with self.lock:
            self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        """Close the listener and every connection through it: the port is closed."""
        with self.lock:
            listener, self.listener = self.listener, None
            live, self.live = self.live, set()
        for sock in [listener, *live]:
            if sock is None:
                continue
            try:
                # shutdown first: close() alone would leave the peer's read blocked in another thread
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:  # cut: the listener is closed
                return
            try:
                upstream = socket.create_connection((HOST, self.target_port), timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self.lock:
                if self.listener is not listener:  # cut between accept and here
                    client.close()
                    upstream.close()
                    return
                self.live.update((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            with self.lock:
                self.live.discard(source)
                self.live.discard(sink)
            for sock in (source, sink):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                sock.close()
