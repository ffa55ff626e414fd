# SPDX-License-Identifier: Apache-2.0
"""launch.logging: the per-run log directory, launch.log, output loggers and formats."""

import logging
import os
import re
import socket

import launch.logging
import pytest


def test_log_dir_under_ros_log_dir(launch_log_dir):
    log_dir = launch.logging.launch_config.log_dir
    assert os.path.dirname(log_dir) == str(launch_log_dir)
    name = os.path.basename(log_dir)
    assert re.fullmatch(
        rf'\d{{4}}-\d\d-\d\d-\d\d-\d\d-\d\d-\d{{6}}-{re.escape(socket.gethostname())}-'
        rf'{os.getpid()}', name)
    assert os.path.realpath(os.path.join(str(launch_log_dir), 'latest')) == log_dir


def test_log_dir_under_ros_home(tmp_path, monkeypatch):
    monkeypatch.delenv('ROS_LOG_DIR')
    monkeypatch.setenv('ROS_HOME', str(tmp_path / 'home'))
    launch.logging.reset()
    assert os.path.dirname(launch.logging.launch_config.log_dir) == str(tmp_path / 'home' / 'log')


def test_get_logger_screen_and_launch_log(capsys):
    logger = launch.logging.get_logger('some_name')
    logger.info('an info')
    logger.debug('hidden debug')
    assert capsys.readouterr().out == '[INFO] [some_name]: an info\n'
    text = open(launch.logging.launch_config.get_log_file_path()).read()
    assert re.fullmatch(r'\d+\.\d{7} \[INFO\] \[some_name\]: an info\n', text)


def test_debug_level(capsys):
    launch.logging.launch_config.level = logging.DEBUG
    launch.logging.get_logger('dbg').debug('shown')
    assert '[DEBUG] [dbg]: shown' in capsys.readouterr().out


@pytest.mark.parametrize('config,stdout_screen,stderr_screen,stdout_log', [
    ('screen', True, True, False), ('log', False, True, True), ('both', True, True, True),
    ({'stdout': 'screen', 'stderr': ['log']}, True, False, False)])
def test_output_loggers(capsys, config, stdout_screen, stderr_screen, stdout_log):
    out_logger, err_logger = launch.logging.get_output_loggers(f'proc{id(config)}', config)
    out_logger.info('[p-1] o-line')
    err_logger.info('[p-1] e-line')
    screen = capsys.readouterr().out
    assert ('[p-1] o-line\n' in screen) is stdout_screen
    assert ('[p-1] e-line\n' in screen) is stderr_screen
    path = launch.logging.launch_config.get_log_file_path()
    text = open(path).read() if os.path.exists(path) else ''
    assert bool(re.search(r'\d+\.\d{7} \[p-1\] o-line', text)) is stdout_log


def test_own_log_files():
    out_logger, err_logger = launch.logging.get_output_loggers('own-1', 'own_log')
    out_logger.info('o')
    err_logger.info('e')
    config = launch.logging.launch_config
    assert open(config.get_log_file_path('own-1-stdout.log')).read() == 'o\n'
    assert open(config.get_log_file_path('own-1-stderr.log')).read() == 'e\n'
    assert open(config.get_log_file_path('own-1.log')).read() == 'o\ne\n'


def test_invalid_output_configuration():
    with pytest.raises(ValueError, match='not a valid standard output config'):
        launch.logging.get_output_loggers('x', 'nowhere')
    with pytest.raises(ValueError, match='not a valid output destination'):
        launch.logging.get_output_loggers('x', {'stdout': 'nowhere'})


def test_screen_format_override(capsys, monkeypatch):
    monkeypatch.setenv('OVERRIDE_LAUNCH_SCREEN_FORMAT', '{levelname}: {msg}')
    launch.logging.reset()
    launch.logging.launch_config.set_screen_format('default', screen_style='{')
    launch.logging.get_logger('fmt').warning('w')
    assert capsys.readouterr().out == 'WARNING: w\n'
