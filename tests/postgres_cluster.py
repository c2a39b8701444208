"""A throwaway PostgreSQL cluster for tests: Debian's initdb and pg_ctl on a free loopback port,
password authentication over TCP, deleted afterwards. PostgreSQL refuses to run as root, so as root
the binaries run as the ``postgres`` user (runuser). Real faults: stop it, freeze it (SIGSTOP),
start it again on the same port."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
from pathlib import Path

PASSWORD = "metrics-secret"


def _bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def available() -> str:
    """'' when a cluster can be started here, else why not (for the failure message)."""
    if not (_bin("initdb") and _bin("pg_ctl")):
        return "PostgreSQL's initdb/pg_ctl are missing: run scripts/test-prerequisites.sh (apt-get install postgresql)"
    return ""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="codecairn-pg-"))
        self.dir.chmod(0o755)
        self.data = self.dir / "data"
        self.port = free_port()
        self._as_postgres = os.geteuid() == 0
        pwfile = self.dir / "pw"
        pwfile.write_text(PASSWORD + "\n")
        if self._as_postgres:
            shutil.chown(self.dir, "postgres", "postgres")
            shutil.chown(pwfile, "postgres", "postgres")
        self._run(
            _bin("initdb"), "-D", str(self.data), "-U", "postgres", "-E", "UTF8", "--auth-local=trust",
            "--auth-host=scram-sha-256", f"--pwfile={pwfile}",
        )  # fmt: skip

    def _run(self, *argv: str | None) -> None:
        command = [a for a in argv if a is not None]
        if self._as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def url(self, password: str = PASSWORD) -> str:
        return f"postgresql://postgres:{password}@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(_bin("pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.dir / "log"), "-w", "start")

    def stop(self) -> None:
        self._run(_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def _pids(self) -> list[int]:
        master = int((self.data / "postmaster.pid").read_text().split()[0])
        children = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True).stdout.split()
        return [master, *map(int, children)]

    def freeze(self) -> None:
        """Every process of the server stops where it is: connections hang, nothing is refused."""
        self._signal(signal.SIGSTOP)

    def thaw(self) -> None:
        self._signal(signal.SIGCONT)

    def _signal(self, sig: int) -> None:
        for pid in self._pids():
            # A backend that ended between the listing and the signal (its client went) is no
            # process of the server any more: found by CI, where a closing test raced it.
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)

    def close(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self.thaw()
                self.stop()
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    def drop_connections(self, application: str) -> int:
        """Terminate the server's connections of one application (as an administrator would)."""
        import psycopg

        with psycopg.connect(self.url(), connect_timeout=5, autocommit=True) as conn:
            sql = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s"
            return len(conn.execute(sql, (application,)).fetchall())

    def rows(self) -> list[tuple]:
        import psycopg

        with psycopg.connect(self.url(), connect_timeout=5) as conn:
            return conn.execute("SELECT id, tool, outcome, tokens_saved FROM mcp_calls ORDER BY ts").fetchall()

    def rows_or_none(self) -> list[tuple] | None:
        """The rows, or None while there is no table (or no server) yet."""
        import psycopg

        try:
            return self.rows()
        except (psycopg.OperationalError, psycopg.errors.UndefinedTable):
            return None
