"""Structured log lines on stderr (stdout belongs to the MCP protocol)."""

from __future__ import annotations

import logging
import os
import sys
import time


class LineFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        ts = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        msg = record.getMessage().replace("\n", " | ")
        line = f"{ts}Z level={record.levelname.lower()} logger={record.name} msg={msg!r}"
        if record.exc_info:
            line += " exc=" + repr(self.formatException(record.exc_info).splitlines()[-1])
        return line


def setup(level: str | None = None) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(LineFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    chosen = logging.getLevelName((level or os.environ.get("CODECAIRN_LOG_LEVEL", "INFO")).upper())
    if not isinstance(chosen, int):
        chosen = logging.INFO
    # The level applies to codecairn's own loggers; libraries speak up from warnings on (the
    # ONNX quantiser alone logs a hundred info lines when the int8 model is first built).
    logging.getLogger("codecairn").setLevel(chosen)
    root.setLevel(max(chosen, logging.WARNING))
