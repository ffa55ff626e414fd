# SPDX-License-Identifier: Apache-2.0
"""
Foxglove Studio 1.48 itself, in headless Chromium, as a peer of foxglove_server.

A real Foxglove app (the open-source `@foxglove/studio-base` 1.48.0 from npm, hosted by
`studio/host.jsx`) opens `ws://127.0.0.1:<port>` with a layout of 3D, Plot, Raw Messages and
Teleop panels, and `studio/drive.mjs` (puppeteer-core) looks at it and holds the Teleop up
arrow as a person would. Two variants of the same app: `stock` offers only the subprotocol
`foxglove.websocket.v1` (Studio 1.48 as released), `sdk` only `foxglove.sdk.v1` (its one
string patched: what current Foxglove and Lichtblick >= 1.22 offer). ROS is watched from this
process at the same time (/tf odom->body, the velocity commands), and the server's log.

Needs Debian's `chromium` and the npm packages of requirements/npm in .venv/npm (both
installed by scripts/bootstrap.sh); without them the test fails and says so, it never skips.
Screenshots are kept under pytest's tmp path (`studio-<variant>/`); with
UPDATE_DOCS_SCREENSHOTS=1 the walking robot's is copied to docs/foxglove_studio_3d.png.
"""

from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
import json
import math
import os
from pathlib import Path
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time

import pytest
import workspace_testing as wt
from workspace_testing.hb50_stack import start_hb50_stack

HERE = Path(__file__).resolve().parent
STUDIO_DIR = HERE / 'studio'
WS_ROOT = HERE.parents[1]
NODE_MODULES = Path(os.environ.get('STUDIO_NODE_MODULES',
                                   WS_ROOT / '.venv' / 'npm' / 'node_modules'))
CHROMIUM = '/usr/bin/chromium'
DOCS_SCREENSHOT = WS_ROOT / 'docs' / 'foxglove_studio_3d.png'
# variant -> (folder of Studio's assets on the page, subprotocol its client offers)
VARIANTS = {'sdk': ('studio-sdk', 'foxglove.sdk.v1'),
            'stock': ('studio', 'foxglove.websocket.v1')}
LAYOUT_ID = 'hb50-test'
LAYOUT_FILE = HERE.parent / 'layouts' / 'hb50_studio.json'
PANELS = {'threeD': '3D!hb50', 'plot': 'Plot!hb50', 'raw': 'RawMessages!hb50',
          'teleop': 'Teleop!hb50'}
HOLD_S = 6.0                # the Teleop up arrow is held this long
MIN_WALK_M = 0.3            # odom->body must move at least this far while it is held
DRIVE_DEADLINE_S = 110      # drive.mjs gives up (and reports where) after this
SERVER_LOG_BAD = re.compile(r'Traceback|Callback failed|\[ERROR\]|\berror\b', re.IGNORECASE)


def hb50_topics():
    """Return every topic the HB50 stack and its state publisher offer (absolute names)."""
    from hb50_nodes.topics import resolve, TOPICS
    return sorted({resolve(name) for name in TOPICS} | {
        '/hb50/robot_description', '/hb50/joint_states', '/tf', '/tf_static',
        '/robot_description'})


def layout():
    """
    Return the layout Studio opens: the one the package ships (layouts/hb50_studio.json).

    3D (following body, URDF from /robot_description, /tf), Plot, Raw Messages (header and
    legs folded: the tree is drawn again for every frame of a 500 Hz topic), Teleop on
    /hb50/velocity_command at 20 Hz; the README's recipe imports the same file.
    """
    data = json.loads(LAYOUT_FILE.read_text())
    assert set(data['configById']) == set(PANELS.values()), data['configById'].keys()
    return data


def missing_tools():
    """Return what the browser test lacks on this machine, one line each."""
    missing = []
    if shutil.which('node') is None:
        missing.append('node (Debian package nodejs) is not on PATH')
    if not os.access(CHROMIUM, os.X_OK):
        missing.append(f'{CHROMIUM} is missing: apt-get install chromium '
                       '(requirements/debian.txt; scripts/bootstrap.sh installs it as root)')
    for package in ('@foxglove/studio-base/assets/index.js', 'puppeteer-core/package.json',
                    'esbuild/package.json', 'react-dom/package.json'):
        if not (NODE_MODULES / package).is_file():
            missing.append(f'{NODE_MODULES / package} is missing: run scripts/bootstrap.sh '
                           '(npm ci of requirements/npm into .venv/npm)')
            break
    return missing


class _QuietHandler(SimpleHTTPRequestHandler):
    """Static files of the page, without a log line per request."""

    def log_message(self, *args):
        pass


class RosWatch:
    """rclpy in this process: odom->body from /tf and the velocity commands, with times."""

    def __init__(self):
        import rclpy
        from geometry_msgs.msg import Twist
        from rclpy.executors import SingleThreadedExecutor
        from rclpy.qos import QoSProfile, ReliabilityPolicy
        from tf2_msgs.msg import TFMessage
        self.context = rclpy.Context()
        rclpy.init(context=self.context)
        self.node = rclpy.create_node('studio_test_watch', context=self.context)
        self.poses = []         # (wall time s, x, y) of odom->body
        self.commands = []      # (wall time s, linear.x)
        self.node.create_subscription(TFMessage, '/tf', self._on_tf, QoSProfile(
            depth=100, reliability=ReliabilityPolicy.RELIABLE))
        self.node.create_subscription(Twist, '/hb50/velocity_command', self._on_twist,
                                      QoSProfile(depth=50,
                                                 reliability=ReliabilityPolicy.BEST_EFFORT))
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._spin, daemon=True)
        self.thread.start()

    def _on_tf(self, msg):
        for tf in msg.transforms:
            if tf.header.frame_id == 'odom' and tf.child_frame_id == 'body':
                t = tf.transform.translation
                self.poses.append((time.time(), t.x, t.y))

    def _on_twist(self, msg):
        self.commands.append((time.time(), msg.linear.x))

    def _spin(self):
        while not self._stop.is_set():
            self.executor.spin_once(timeout_sec=0.1)

    def close(self):
        self._stop.set()
        self.thread.join(timeout=5)
        self.executor.shutdown()
        self.node.destroy_node()
        self.context.try_shutdown()


@pytest.fixture(scope='module')
def page_build(tmp_path_factory):
    """Check the tools, build the page (host.js, studio/, studio-sdk/), write the layout."""
    missing = missing_tools()
    if missing:
        pytest.fail('the Foxglove Studio browser test cannot run:\n  ' + '\n  '.join(missing),
                    pytrace=False)
    with tempfile.TemporaryDirectory(prefix='studio-page-') as out:
        result = subprocess.run(['node', str(STUDIO_DIR / 'build.mjs'), str(NODE_MODULES), out],
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, f'build.mjs failed:\n{result.stdout}\n{result.stderr}'
        Path(out, 'layout.json').write_text(json.dumps(layout()))
        yield Path(out)


@pytest.fixture(scope='module')
def ros_side(page_build):
    """Run the HB50 stack, its state publisher, foxglove_server and the page's web server."""
    wt.isolate()
    port = wt.free_port()
    procs = {}
    stack = {}
    watch = None
    httpd = None
    try:
        stack = start_hb50_stack(debug_counts=False)
        procs['state_publisher'] = wt.start([
            wt.executable('hb50_nodes', 'state_publisher_node'), '--ros-args',
            '-p', 'publish_global_robot_description:=true'])
        procs['server'] = wt.start([wt.executable('foxglove_live', 'foxglove_server'),
                                    '--ros-args', '-p', f'port:={port}'])
        httpd = ThreadingHTTPServer(('127.0.0.1', 0),
                                    partial(_QuietHandler, directory=str(page_build)))
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        watch = RosWatch()
        assert wt.wait_for(lambda: wt.accepting(port), 30), \
            f'foxglove_server does not accept on {port}:\n{procs["server"].output()[-3000:]}'
        assert wt.wait_for(lambda: watch.poses, 30), 'no odom->body on /tf within 30 s'
        yield {'port': port, 'http': httpd.server_address[1], 'watch': watch,
               'server': procs['server']}
    finally:
        if watch is not None:
            watch.close()
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
        for proc in procs.values():
            wt.stop(proc)
        for name in reversed(list(stack)):
            wt.stop(stack[name])


def _image(path):
    import numpy as np
    from PIL import Image
    return np.asarray(Image.open(path).convert('RGB')).astype(np.int16)


def _center(img, fraction=0.6):
    h, w = img.shape[:2]
    dh, dw = int(h * (1 - fraction) / 2), int(w * (1 - fraction) / 2)
    return img[dh:h - dh, dw:w - dw]


def _changed(a, b, threshold=40):
    """Return the fraction of pixels that differ by more than `threshold` in some channel."""
    h, w = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
    diff = abs(a[:h, :w] - b[:h, :w]).max(axis=2)
    return float((diff > threshold).mean())


def _robot_pixels(img):
    """Return how many pixels have the HB50 URDF's hip orange (robot-only colour)."""
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    return int(((r > 120) & (r - g > 50) & (g - b > 40)).sum())


def _line_pixels(img):
    """Return how many pixels are saturated colour (plot lines on a grey chart)."""
    return int(((img.max(axis=2) - img.min(axis=2)) > 80).sum())


def image_checks(shots):
    """Return the image figures the assertions use, from the screenshots' files."""
    out = {}
    if 'empty_3d' in shots and '3d_standing' in shots:
        empty, standing = _image(shots['empty_3d']['file']), _image(shots['3d_standing']['file'])
        out['robot_vs_empty_changed'] = _changed(_center(empty), _center(standing))
        out['robot_pixels_empty'] = _robot_pixels(empty)
        out['robot_pixels_standing'] = _robot_pixels(standing)
        if '3d_standing_b' in shots:
            out['standing_changed'] = _changed(
                _center(standing), _center(_image(shots['3d_standing_b']['file'])))
    walk = [_image(shots[f'3d_walk_{i}']['file']) for i in (1, 2, 3)
            if f'3d_walk_{i}' in shots]
    out['robot_pixels_walking'] = [_robot_pixels(img) for img in walk]
    out['walk_changed'] = [_changed(_center(a), _center(b)) for a, b in zip(walk, walk[1:])]
    if 'plot_a' in shots and 'plot_b' in shots:
        plot_a, plot_b = _image(shots['plot_a']['file']), _image(shots['plot_b']['file'])
        out['plot_changed'] = _changed(plot_a, plot_b)
        out['plot_line_pixels'] = [_line_pixels(plot_a), _line_pixels(plot_b)]
    return out


@pytest.fixture(scope='module', params=list(VARIANTS))
def studio(request, ros_side, page_build, tmp_path_factory):
    """Run drive.mjs against the server with one variant; return what it and ROS saw."""
    variant = request.param
    folder, subprotocol = VARIANTS[variant]
    out_dir = tmp_path_factory.mktemp(f'studio-{variant}')
    port = ros_side['port']
    query = f'studio={folder}&layoutId={LAYOUT_ID}'
    config = {
        'nodeModules': str(NODE_MODULES),
        'baseUrl': f'http://127.0.0.1:{ros_side["http"]}/index.html',
        'emptyQuery': query,
        'query': f'{query}&ds=foxglove-websocket&ds.url=ws://127.0.0.1:{port}',
        'outDir': str(out_dir), 'panels': PANELS, 'topics': hb50_topics(),
        'holdS': HOLD_S, 'deadlineS': DRIVE_DEADLINE_S, 'connectTimeoutS': 45,
    }
    (out_dir / 'config.json').write_text(json.dumps(config, indent=1))
    server, watch = ros_side['server'], ros_side['watch']
    log_start = len(server.output())
    started = time.monotonic()
    driver = wt.start(['node', str(STUDIO_DIR / 'drive.mjs'), str(out_dir / 'config.json')])
    try:
        ended = wt.wait_for(lambda: driver.poll() is not None, DRIVE_DEADLINE_S + 20, 0.2)
    finally:
        # SIGINT first: puppeteer closes its browser; then nothing of its session is left
        stopped = wt.stop(driver)
        try:
            os.killpg(driver.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    driver_output = (stopped.output or '') + ('' if ended else '\ndrive.mjs did not end')
    runtime = time.monotonic() - started
    time.sleep(0.5)
    report_file = out_dir / 'report.json'
    report = json.loads(report_file.read_text()) if report_file.is_file() else {
        'error': f'no report.json: {driver_output[-3000:]}', 'screenshots': {}}
    shots = report.get('screenshots', {})
    poses, commands = list(watch.poses), list(watch.commands)
    (out_dir / 'ros.json').write_text(json.dumps({'odom_body': poses, 'commands': commands}))
    server_log = server.output()[log_start:]
    (out_dir / 'foxglove_server.log').write_text(server_log)
    if os.environ.get('UPDATE_DOCS_SCREENSHOTS') == '1' and 'walking' in shots \
            and report.get('error') is None:
        shutil.copyfile(shots['walking']['file'], DOCS_SCREENSHOT)
    return {'variant': variant, 'subprotocol': subprotocol, 'port': port, 'report': report,
            'driver_output': driver_output, 'runtime_s': runtime, 'out_dir': out_dir,
            'images': image_checks(shots), 'poses': poses,
            'commands': commands,
            'server_log': server_log}


def _where(studio):
    r = studio['report']
    return (f"[{studio['variant']}: client offers {studio['subprotocol']}; driver step "
            f"{r.get('step')!r}, error {r.get('error')!r}; Studio's current source "
            f"{r.get('sourceText', '')!r}, problems {r.get('problems')}; screenshots in "
            f"{studio['out_dir']}]")


def test_connects(studio):
    r = studio['report']
    assert r.get('error') is None, f'Studio run failed {_where(studio)}'
    source = r.get('sourceText', '')
    assert f"127.0.0.1:{studio['port']}" in source.replace('\n', '') \
        and 'foxglove_live' in source, f'Current source: {source!r} {_where(studio)}'
    problems = (r.get('problems') or []) + (r.get('problemsAfter') or [])
    assert not any('connection failed' in p.lower() for p in problems), problems


def test_topic_list_holds_every_hb50_topic(studio):
    listed = {t['name']: t['schema'] for t in studio['report'].get('topics', [])}
    missing = sorted(set(hb50_topics()) - set(listed))
    assert not missing, f"missing from Studio's topic list: {missing}; listed: " \
        f'{sorted(listed)} {_where(studio)}'
    assert listed['/hb50/robot_state'] == 'hb50_commons/msg/RobotState', listed


def test_no_problems_no_console_error(studio):
    r = studio['report']
    assert r.get('problems') == [] and r.get('problemsAfter') == [], \
        f"Problems: {r.get('problems')} / after the drive: {r.get('problemsAfter')} " \
        f'{_where(studio)}'
    errors = [c for c in r.get('console', []) if c['type'] == 'error']
    assert not errors, f'browser console errors: {errors[:10]} {_where(studio)}'
    assert not r.get('pageErrors'), r.get('pageErrors')
    assert not r.get('failedRequests'), r.get('failedRequests')


def test_plot_and_raw_messages_carry_real_times(studio):
    r = studio['report']
    times = [x for x in r.get('receiveTimes', []) if x.get('value')]
    assert len(times) >= 2, f"Raw Messages showed no receive time: {r.get('receiveTimes')} " \
        f'{_where(studio)}'
    for sample in times:
        shown = sample['value']['sec'] + sample['value']['nsec'] * 1e-9
        wall = sample['t'] / 1000
        assert abs(shown - wall) < 60, \
            f"receive time {sample['value']['text']!r} is not the wall clock {wall:.3f} " \
            f'(server time 0?) {_where(studio)}'
    first, second = (t['value']['sec'] + t['value']['nsec'] * 1e-9 for t in times[:2])
    assert second - first > 0.5, (first, second)
    images = studio['images']
    assert images.get('plot_changed', 0) > 0.002, \
        f'the Plot did not move in 2 s: {images} {_where(studio)}'
    assert min(images.get('plot_line_pixels', [0])) > 100, images


def test_3d_panel_draws_the_robot_and_it_walks(studio):
    images = studio['images']
    assert images.get('robot_pixels_empty', 1) == 0, images
    assert images.get('robot_pixels_standing', 0) > 200, \
        f'no robot in the 3D panel: {images} {_where(studio)}'
    assert images.get('robot_vs_empty_changed', 0) > 0.03, images
    walking = images.get('robot_pixels_walking', [])
    assert len(walking) == 3 and min(walking) > 200, images
    # never a frozen view while it walks (an app clock stuck at 0 freezes the robot), and
    # walking (legs, the grid sliding under the followed body) changes it more than
    # standing still does in a similar time
    assert min(images['walk_changed']) > 0.005, \
        f'the 3D view froze while walking: {images} {_where(studio)}'
    assert max(images['walk_changed']) > images.get('standing_changed', 1), \
        f'the 3D view did not change more while walking than standing: {images} ' \
        f'{_where(studio)}'


def test_teleop_up_arrow_walks_the_robot(studio):
    teleop = studio['report'].get('teleop') or {}
    assert 'releaseAt' in teleop, f'the up arrow was not held: {_where(studio)}'
    pressed, released = teleop['pressAt'] / 1000, teleop['releaseAt'] / 1000
    before = [p for p in studio['poses'] if p[0] <= pressed]
    during = [p for p in studio['poses'] if pressed < p[0] <= released + 1.5]
    assert before and during, (len(before), len(during))
    t0, x0, y0 = before[-1]
    moved = max(math.hypot(x - x0, y - y0) for _, x, y in during)
    commands = [c for c in studio['commands'] if pressed <= c[0] <= released + 0.2]
    forward = [c for c in commands if c[1] > 0.5]
    assert moved >= MIN_WALK_M, \
        f'odom->body moved {moved:.3f} m while the up arrow was held ' \
        f'{released - pressed:.1f} s; {len(forward)} forward commands of ' \
        f'{len(commands)} reached ROS {_where(studio)}'
    assert len(forward) >= 10, len(forward)


def test_server_log_clean(studio):
    bad = [line for line in studio['server_log'].splitlines() if SERVER_LOG_BAD.search(line)]
    assert not bad, f'foxglove_server logged: {bad[:20]} {_where(studio)}'
