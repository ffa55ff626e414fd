# SPDX-License-Identifier: Apache-2.0
"""Logging handlers that format each logger's records with that logger's own formatter."""

import logging
import os
import sys
from typing import Dict, Optional, Protocol, Union


class TextStream(Protocol):
    """What a StreamHandler writes to: a ``write(text)`` (sys.stderr, launch's stdout)."""

    def write(self, text: str, /) -> object:
        """Write ``text``."""
        ...


class _PerLoggerFormatting(logging.Handler):
    """Mixin: ``setFormatterFor(logger, formatter)`` overrides the handler's formatter."""

    def _init_per_logger(self) -> None:
        self._formatters: Dict[str, logging.Formatter] = {}

    def setFormatterFor(self, logger: logging.Logger,  # noqa: N802 - logging's style
                        formatter: Optional[logging.Formatter]) -> None:
        """Format the records of ``logger`` with ``formatter`` (None: the default)."""
        if formatter is None:
            self._formatters.pop(logger.name, None)
        else:
            self._formatters[logger.name] = formatter

    def format(self, record: logging.LogRecord) -> str:  # noqa: A003 - logging's API
        formatter = self._formatters.get(record.name)
        if formatter is not None:
            return formatter.format(record)
        return super().format(record)


class StreamHandler(_PerLoggerFormatting, logging.StreamHandler[TextStream]):
    """logging.StreamHandler with per-logger formatters."""

    def __init__(self, stream: Optional[TextStream] = None) -> None:
        """Create the handler on ``stream`` (default stderr)."""
        logging.StreamHandler.__init__(self, sys.stderr if stream is None else stream)
        self._init_per_logger()


class FileHandler(_PerLoggerFormatting, logging.FileHandler):
    """logging.FileHandler with per-logger formatters."""

    def __init__(self, filename: Union[str, 'os.PathLike[str]'], mode: str = 'a',
                 encoding: Optional[str] = None, delay: bool = False) -> None:
        """Create the handler on the file ``filename``."""
        logging.FileHandler.__init__(self, filename, mode, encoding, delay)
        self._init_per_logger()
