# SPDX-License-Identifier: Apache-2.0  # noqa: A005 - the module name is upstream's
"""
Logging of launch: the screen, the per-run log directory and its files.

- ``launch_config``: the verbosity level, the screen and log file formats, and the log
  directory of this run: ``$ROS_LOG_DIR``, else ``$ROS_HOME/log``, else ``~/.ros/log``,
  then ``<date-time>-<host>-<pid>`` (made on first use, with a ``latest`` link).
- ``get_logger(name)``: a logger writing to the screen and to ``launch.log`` in that
  directory (``[INFO] [name]: message`` on the screen).
- ``get_output_loggers(process_name, output)``: the stdout and stderr loggers of a process
  for an output configuration ('screen', 'log', 'both', 'own_log', 'full' or a dict).
"""

import datetime
import logging
import os
import socket
import sys
from typing import cast, Dict, Iterable, List, Literal, Mapping, Optional, Set, Tuple, Union

from . import handlers

# the style of a logging.Formatter's format string
_FormatStyle = Literal['%', '{', '$']
# a process's output configuration: an alias ('screen', 'log', ...) or a dict of sources
# ('stdout', 'stderr', 'both') to destinations ('screen', 'log', 'own_log')
OutputConfig = Union[str, Mapping[str, Union[str, Iterable[str]]]]

__all__ = ['get_logger', 'get_output_loggers', 'handlers', 'launch_config',
           'log_launch_config', 'reset']


def _logging_directory() -> str:
    log_dir = os.environ.get('ROS_LOG_DIR')
    if not log_dir:
        home = os.environ.get('ROS_HOME') or os.path.join('~', '.ros')
        log_dir = os.path.join(home, 'log')
    return os.path.normpath(os.path.expanduser(log_dir))


def _make_unique_log_dir(base_path: str) -> str:
    while True:
        stamp = datetime.datetime.now().strftime('%Y-%m-%d-%H-%M-%S-%f')
        path = os.path.join(base_path, f'{stamp}-{socket.gethostname()}-{os.getpid()}')
        try:
            os.makedirs(path)
            return path
        except FileExistsError:
            continue


def _renew_latest_link(log_dir: str) -> None:
    latest = os.path.join(os.path.dirname(log_dir), 'latest')
    try:
        if os.path.lexists(latest):
            if not os.path.islink(latest):
                return
            os.unlink(latest)
        os.symlink(log_dir, latest, target_is_directory=True)
    except OSError:
        pass        # a concurrent launch renewed it: harmless


_SCREEN_DEFAULT = '[{levelname}] [{name}]: {msg}'
_LOG_DEFAULT = '{created:.7f} [{levelname}] [{name}]: {msg}'


class LaunchConfig:
    """The logging configuration of launch (one per process: ``launch_config``)."""

    def __init__(self) -> None:
        """Create the configuration with the defaults."""
        self.reset()

    def reset(self) -> None:
        """Back to the defaults: INFO, default formats, a new log directory when needed."""
        self._log_dir: Optional[str] = None
        self.file_handlers: Dict[str, handlers.FileHandler] = {}
        self.screen_handler: Optional[handlers.StreamHandler] = None
        self.screen_formatter: Optional[logging.Formatter] = None
        self.file_formatter: Optional[logging.Formatter] = None
        self.level = logging.INFO
        self.set_screen_format('default')
        self.set_log_format('default')

    @property
    def level(self) -> int:
        """Return the verbosity level of launch's loggers."""
        return logging.root.getEffectiveLevel()

    @level.setter
    def level(self, new_level: int) -> None:
        logging.root.setLevel(new_level)

    @property
    def log_dir(self) -> str:
        """Return this run's log directory, made on first use."""
        if self._log_dir is None:
            self._log_dir = _make_unique_log_dir(_logging_directory())
            _renew_latest_link(self._log_dir)
        return self._log_dir

    @log_dir.setter
    def log_dir(self, new_log_dir: str) -> None:
        if self.file_handlers:
            raise RuntimeError('Cannot change the log directory after log files were opened')
        if not os.path.isdir(new_log_dir):
            raise ValueError(f'{new_log_dir} is not a directory')
        self._log_dir = new_log_dir

    def set_screen_format(self, screen_format: Optional[str], *,
                          screen_style: Optional[str] = None) -> None:
        """Set the screen format ('default', 'default_with_timestamp' or a format string)."""
        override = os.environ.get('OVERRIDE_LAUNCH_SCREEN_FORMAT')
        if override:
            screen_format, screen_style = override, '{'
        if screen_format == 'default':
            screen_format, screen_style = _SCREEN_DEFAULT, '{'
        elif screen_format == 'default_with_timestamp':
            screen_format, screen_style = _LOG_DEFAULT, '{'
        self.screen_formatter = None if screen_format is None else logging.Formatter(
            screen_format, style=cast(_FormatStyle, screen_style or '%'))
        if self.screen_handler is not None:
            self.screen_handler.setFormatter(self.screen_formatter)

    def set_log_format(self, log_format: Optional[str], *,
                       log_style: Optional[str] = None) -> None:
        """Set the format of the launch log file ('default' or a format string)."""
        override = os.environ.get('OVERRIDE_LAUNCH_LOG_FORMAT')
        if override:
            log_format, log_style = override, '{'
        if log_format == 'default':
            log_format, log_style = _LOG_DEFAULT, '{'
        self.file_formatter = None if log_format is None else logging.Formatter(
            log_format, style=cast(_FormatStyle, log_style or '%'))
        for handler in self.file_handlers.values():
            handler.setFormatter(self.file_formatter)

    def get_screen_handler(self) -> handlers.StreamHandler:
        """Return the one screen handler (this process's stdout)."""
        if self.screen_handler is None:
            self.screen_handler = handlers.StreamHandler(_Stdout())
            self.screen_handler.setFormatter(self.screen_formatter)
        return self.screen_handler

    def get_log_file_path(self, file_name: str = 'launch.log') -> str:
        """Return the path of a log file of this run."""
        return os.path.join(self.log_dir, file_name)

    def get_log_file_handler(self, file_name: str = 'launch.log') -> handlers.FileHandler:
        """Return the (one) handler of a log file of this run."""
        path = self.get_log_file_path(file_name)
        if path not in self.file_handlers:
            handler = handlers.FileHandler(path, delay=True)
            if file_name == 'launch.log':
                handler.setFormatter(self.file_formatter)
            self.file_handlers[path] = handler
        return self.file_handlers[path]


class _Stdout:
    """
    The current sys.stdout (pytest's capture replaces it), errors replaced.

    A reader that went away (``ros2 launch ... | head``) ends the screen output quietly:
    the launch goes on, its log file keeps everything.
    """

    closed = False

    def write(self, text: str) -> None:
        if _Stdout.closed:
            return
        try:
            try:
                sys.stdout.write(text)
            except UnicodeEncodeError:
                encoding = getattr(sys.stdout, 'encoding', None) or 'ascii'
                sys.stdout.write(text.encode(encoding, 'replace').decode(encoding))
        except (BrokenPipeError, ValueError):
            _Stdout.closed = True

    def flush(self) -> None:
        if _Stdout.closed:
            return
        try:
            sys.stdout.flush()
        except (BrokenPipeError, ValueError):
            _Stdout.closed = True
        except OSError:
            pass


launch_config = LaunchConfig()
_our_loggers: List[logging.Logger] = []


def _ours(name: Optional[str]) -> logging.Logger:
    logger = logging.getLogger(name)
    if logger is logging.root:
        logger = logging.getLogger('launch')
    logger.propagate = False
    if logger not in _our_loggers:
        _our_loggers.append(logger)
    return logger


def log_launch_config(*, logger: logging.Logger = logging.root) -> None:
    """Log where the log files are and the verbosity."""
    if launch_config.file_handlers:
        logger.info(f'All log files can be found below {launch_config.log_dir}')
    logger.info('Default logging verbosity is set to '
                f'{logging.getLevelName(logging.root.getEffectiveLevel())}')


def get_logger(name: Optional[str] = None) -> logging.Logger:
    """Return the named logger, writing to the screen and to this run's launch.log."""
    logger = _ours(name)
    screen = launch_config.get_screen_handler()
    if screen not in logger.handlers:
        logger.addHandler(screen)
    log_file = launch_config.get_log_file_handler()
    if log_file not in logger.handlers:
        logger.addHandler(log_file)
    return logger


_OUTPUT_ALIASES = {
    'screen': {'both': {'screen'}},
    'log': {'both': {'log'}, 'stderr': {'screen'}},
    'both': {'both': {'log', 'screen'}},
    'own_log': {'both': {'own_log'}, 'stdout': {'own_log'}, 'stderr': {'own_log'}},
    'full': {'both': {'screen', 'log', 'own_log'}, 'stdout': {'own_log'},
             'stderr': {'own_log'}},
}


def _normalize_output_configuration(config: OutputConfig) -> Dict[str, Set[str]]:
    normalized: Dict[str, Set[str]] = {'both': set(), 'stdout': set(), 'stderr': set()}
    if isinstance(config, str):
        if config not in _OUTPUT_ALIASES:
            raise ValueError(f'{config} is not a valid standard output config i.e. '
                             '"screen", "log" or "both"')
        normalized.update({k: set(v) for k, v in _OUTPUT_ALIASES[config].items()})
    elif isinstance(config, dict):
        for source, destinations in config.items():
            if source not in ('stdout', 'stderr', 'both'):
                raise ValueError(f'{source} is not a valid output source i.e. '
                                 '"stdout", "stderr" or "both"')
            targets = {destinations} if isinstance(destinations, str) \
                else set(destinations)
            for destination in targets:
                if destination not in ('screen', 'log', 'own_log'):
                    raise ValueError(f'{destination} is not a valid output destination i.e. '
                                     '"screen", "log" or "own_log"')
            normalized[source] = targets
    else:
        raise ValueError(f'{config} is not a valid output configuration')
    return normalized


def get_output_loggers(process_name: str,
                       output_config: OutputConfig) -> Tuple[logging.Logger, logging.Logger]:
    """
    Return the (stdout, stderr) loggers of the process ``process_name``.

    'screen': both to the screen; 'log': both to launch.log and stderr to the screen;
    'both': both to the screen and launch.log; 'own_log': to <name>-stdout.log,
    <name>-stderr.log and <name>.log; 'full': all of these. A dict maps 'stdout', 'stderr'
    or 'both' to destinations ('screen', 'log', 'own_log').
    """
    config = _normalize_output_configuration(output_config)
    for source in ('stdout', 'stderr'):
        logger = _ours(f'{process_name}-{source}')
        destinations = config['both'] | config[source]
        if 'screen' in destinations:
            screen = launch_config.get_screen_handler()
            if screen not in logger.handlers:
                screen.setFormatterFor(logger, logging.Formatter('{msg}', style='{'))
                logger.addHandler(screen)
        if 'log' in destinations:
            log_file = launch_config.get_log_file_handler()
            if log_file not in logger.handlers:
                log_file.setFormatterFor(logger, logging.Formatter('{created:.7f} {msg}',
                                                                   style='{'))
                logger.addHandler(log_file)
        if 'own_log' in config[source]:
            own = launch_config.get_log_file_handler(f'{process_name}-{source}.log')
            own.setFormatter(logging.Formatter('{msg}', style='{'))
            if own not in logger.handlers:
                logger.addHandler(own)
        if 'own_log' in config['both']:
            combined = launch_config.get_log_file_handler(f'{process_name}.log')
            combined.setFormatter(logging.Formatter('{msg}', style='{'))
            if combined not in logger.handlers:
                logger.addHandler(combined)
    return (logging.getLogger(f'{process_name}-stdout'),
            logging.getLogger(f'{process_name}-stderr'))


def reset() -> None:
    """Forget every handler of launch's loggers and reset ``launch_config``."""
    for logger in _our_loggers:
        logger.setLevel(logging.NOTSET)
        for handler in list(logger.handlers):
            logger.removeHandler(handler)
    for handler in launch_config.file_handlers.values():
        handler.close()
    launch_config.reset()
