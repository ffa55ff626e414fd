// SPDX-License-Identifier: Apache-2.0
// Drive Foxglove Studio 1.48 (the page build.mjs made) in headless Chromium with
// puppeteer-core, as a person would: open it without a connection (the empty 3D scene),
// open it connected to a foxglove_server, look at the topic list, the Problems tab, the Raw
// Messages receive time, the Plot and the 3D panel, then hold the Teleop up arrow.
// Everything seen goes into OUT_DIR/report.json (and screenshots beside it); the Python test
// (test_studio_app.py) judges it against what ROS saw at the same time. Every wait is bounded.
//
//   node drive.mjs CONFIG.json
// CONFIG: {nodeModules, baseUrl, query, emptyQuery, outDir, panels: {threeD, plot, raw,
//          teleop}, topics: [...], holdS, deadlineS}
import fs from 'node:fs';
import path from 'node:path';
import {createRequire} from 'node:module';

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const require = createRequire(path.join(config.nodeModules, 'noop.js'));
const puppeteer = require('puppeteer-core');

const CHROMIUM = '/usr/bin/chromium';
// WebGL through SwiftShader (no GPU), as root without the sandbox.
const FLAGS = ['--use-angle=swiftshader', '--use-gl=angle', '--enable-unsafe-swiftshader',
  '--ignore-gpu-blocklist', '--no-sandbox', '--window-size=1280,800'];
const VIEWPORT = {width: 1280, height: 800};

const started = Date.now();
const report = {step: 'start', timeline: [], console: [], pageErrors: [], failedRequests: [],
  screenshots: {}, topics: [], problems: null, receiveTimes: [], sourceText: '', error: null};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const mark = (event) => report.timeline.push({t: Date.now(), event});

function save() {
  report.elapsedS = (Date.now() - started) / 1000;
  fs.writeFileSync(path.join(config.outDir, 'report.json'), JSON.stringify(report, null, 1));
}

// Poll `probe` (async, returns a truthy value when done) every `periodMs` for `timeoutS`.
async function until(probe, timeoutS, periodMs = 250) {
  const deadline = Date.now() + timeoutS * 1000;
  for (;;) {
    const value = await probe();
    if (value || Date.now() > deadline) {
      return value;
    }
    await sleep(periodMs);
  }
}

function listen(page) {
  const keep = (where) => (msg) => {
    if (msg.type() !== 'debug') {
      report.console.push({where, type: msg.type(), text: msg.text().slice(0, 2000),
        t: Date.now()});
    }
  };
  page.on('console', keep('page'));
  page.on('workercreated', (worker) => worker.on('console', keep(worker.url())));
  page.on('pageerror', (error) => report.pageErrors.push(String(error).slice(0, 2000)));
  page.on('requestfailed', (request) => report.failedRequests.push(
      `${request.url()}: ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) {
      report.failedRequests.push(`${response.url()}: HTTP ${response.status()}`);
    }
  });
}

// The rectangle of a panel's element (its canvas, or the panel itself) in page pixels.
async function panelRect(page, panelId, selector) {
  return page.evaluate((id, sel) => {
    const panel = document.querySelector(`[data-testid="panel-mouseenter-container ${id}"]`);
    const el = panel && (sel ? panel.querySelector(sel) : panel);
    if (!el) {
      return null;
    }
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 ? {x: r.x, y: r.y, width: r.width, height: r.height} :
      null;
  }, panelId, selector);
}

async function shoot(page, name, clip) {
  const file = path.join(config.outDir, `${name}.png`);
  // No re-layout for the capture (captureBeyondViewport false): the page keeps rendering.
  await page.screenshot({path: file, captureBeyondViewport: false, optimizeForSpeed: true,
    ...(clip ? {clip} : {})});
  report.screenshots[name] = {file, clip: clip ?? null, t: Date.now()};
}

// Studio's topic list (Data source sidebar): names, schema names, message counts.
async function topicList(page) {
  return page.evaluate(() => [...document.querySelectorAll('[data-topic-stat="count"]')].map(
      (el) => {
        const item = el.closest('li');
        const schema = item?.querySelector('[title]:not([title="' + el.dataset.topic + '"])');
        return {name: el.dataset.topic, schema: schema?.getAttribute('title') ?? null,
          count: el.textContent};
      }));
}

async function clickTab(page, label) {
  return page.evaluate((text) => {
    const tab = [...document.querySelectorAll('[role=tab]')].find(
        (el) => el.innerText.trim().startsWith(text));
    tab?.click();
    return Boolean(tab);
  }, label);
}

// The Problems tab's entries ([] when it says "No problems found"; null without the tab).
// Each problem is a list button (the topic list's items are plain list items).
async function problems(page) {
  if (!(await clickTab(page, 'Problems'))) {
    return null;
  }
  await sleep(500);
  return page.evaluate(() => {
    const items = [...document.querySelectorAll(
        '.MuiListItemButton-root .MuiListItemText-primary')].map((el) => el.innerText.trim());
    return items.length === 0 && !document.body.innerText.includes('No problems found') ?
      ['(the Problems tab shows neither problems nor "No problems found")'] : items;
  });
}

// "Current source" of the Data source sidebar: the URL, then the server's name.
async function sourceText(page) {
  return page.evaluate(() => {
    const overline = [...document.querySelectorAll('span, p, div')].find(
        (el) => el.childElementCount === 0 && /^current source$/i.test(el.innerText.trim()));
    return overline?.parentElement?.innerText ?? '';
  });
}

// The receive time Raw Messages shows above the message ("<type> @ <sec>.<nsec> sec").
async function receiveTime(page) {
  return page.evaluate((id) => {
    const panel = document.querySelector(`[data-testid="panel-mouseenter-container ${id}"]`);
    const match = panel?.innerText.match(/([\w/]+) @ (\d+)\.(\d+) sec/);
    return match ? {schema: match[1], sec: Number(match[2]), nsec: Number(match[3]),
      text: match[0]} : null;
  }, config.panels.raw);
}

async function dismissHints(page) {
  // The 3D panel's first-use hint ("Open settings to configure topics and layers.") covers
  // part of the scene: close it as a person would.
  await page.evaluate(() => {
    for (const el of document.querySelectorAll('button[title="Close"], button')) {
      const box = el.closest('[role=tooltip], [class*="Tooltip"], [class*="hint" i]');
      if (box && /configure topics and layers/i.test(box.innerText)) {
        el.click();
      }
    }
  });
}

async function main() {
  fs.mkdirSync(config.outDir, {recursive: true});
  report.step = 'launch';
  const browser = await puppeteer.launch({executablePath: CHROMIUM, headless: true,
    args: FLAGS, defaultViewport: VIEWPORT, protocolTimeout: 60000});
  try {
    const page = await browser.newPage();
    listen(page);

    // 1. No data source: the 3D panel with an empty scene, the reference for "robot drawn".
    report.step = 'empty scene';
    await page.goto(`${config.baseUrl}?${config.emptyQuery}`, {waitUntil: 'load',
      timeout: 60000});
    const emptyRect = await until(() => panelRect(page, config.panels.threeD, 'canvas'), 60);
    if (!emptyRect) {
      throw new Error('the 3D panel did not appear within 60 s (no data source)');
    }
    await sleep(2000);
    await dismissHints(page);
    await sleep(500);
    await shoot(page, 'empty_3d', emptyRect);
    mark('empty scene');

    // 2. Connected.
    report.step = 'connect';
    await page.goto(`${config.baseUrl}?${config.query}`, {waitUntil: 'load', timeout: 60000});
    mark('page loaded');
    const want = new Set(config.topics);
    const all = await until(async () => {
      report.topics = await topicList(page);
      report.sourceText = await sourceText(page);
      return [...want].every((t) => report.topics.some((x) => x.name === t));
    }, config.connectTimeoutS ?? 45, 500);
    mark(all ? 'topics listed' : 'topics missing');
    if (!all) {
      await shoot(page, 'not_connected');
      report.problems = await problems(page);
      await shoot(page, 'not_connected_problems');
      throw new Error('Studio did not list every topic within ' +
        `${config.connectTimeoutS ?? 45} s`);
    }

    // 3. Data flowing: Raw Messages receive times, the Plot moving, the robot in 3D.
    report.step = 'data';
    await until(() => receiveTime(page), 20);
    await dismissHints(page);
    await sleep(2000);
    report.receiveTimes.push({t: Date.now(), value: await receiveTime(page)});
    const plotRect = await panelRect(page, config.panels.plot, 'canvas');
    const threeDRect = await panelRect(page, config.panels.threeD, 'canvas');
    if (!plotRect || !threeDRect) {
      throw new Error(`panel not found: plot ${JSON.stringify(plotRect)}, ` +
        `3D ${JSON.stringify(threeDRect)}`);
    }
    await shoot(page, 'plot_a', plotRect);
    await shoot(page, '3d_standing', threeDRect);
    await shoot(page, 'connected');
    await sleep(2000);
    report.receiveTimes.push({t: Date.now(), value: await receiveTime(page)});
    await shoot(page, 'plot_b', plotRect);
    await shoot(page, '3d_standing_b', threeDRect);
    report.topics = await topicList(page);
    report.sourceText = await sourceText(page);

    // 4. Problems tab (then back to the topic list).
    report.step = 'problems';
    report.problems = await problems(page);
    await shoot(page, 'problems');
    await clickTab(page, 'Topics');

    // 5. Teleop: hold the up arrow, watching the 3D panel.
    report.step = 'teleop';
    const up = await page.evaluate((id) => {
      const panel = document.querySelector(`[data-testid="panel-mouseenter-container ${id}"]`);
      const icon = panel?.querySelector('svg g[role=button] path:last-child');
      const r = icon?.getBoundingClientRect();
      return r ? {x: r.x + r.width / 2, y: r.y + r.height / 2} : null;
    }, config.panels.teleop);
    if (!up) {
      throw new Error('the Teleop panel has no up arrow');
    }
    await page.mouse.move(up.x, up.y);
    await page.mouse.down();
    const pressAt = Date.now();
    report.teleop = {pressAt};
    const holdMs = (config.holdS ?? 5) * 1000;
    // Screenshots at 1/4, 2/4 and 3/4 of the hold, then the whole page while there is time
    // (on a loaded machine a capture can take seconds and so lengthen the hold: the report
    // has the real press and release times).
    for (let i = 1; i <= 3; i++) {
      await sleep(Math.max(0, pressAt + (holdMs * i) / 4 - Date.now()));
      await shoot(page, `3d_walk_${i}`, threeDRect);
    }
    if (Date.now() < pressAt + holdMs - 500) {
      await shoot(page, 'walking');
    }
    await sleep(Math.max(0, pressAt + holdMs - Date.now()));
    await page.mouse.up();
    report.teleop.releaseAt = Date.now();
    mark('released');
    if (!report.screenshots.walking) {
      await shoot(page, 'walking');
    }
    await sleep(1500);
    report.receiveTimes.push({t: Date.now(), value: await receiveTime(page)});
    report.problemsAfter = await problems(page);
    await clickTab(page, 'Topics');
    await sleep(500);
    report.topics = await topicList(page);
    report.step = 'done';
  } finally {
    await browser.close();
  }
}

const watchdog = setTimeout(() => {
  report.error = `drive.mjs: deadline of ${config.deadlineS} s passed in step "${report.step}"`;
  save();
  process.exit(3);
}, (config.deadlineS ?? 150) * 1000);

try {
  await main();
} catch (error) {
  report.error = `${report.step}: ${error && error.message ? error.message : error}`;
}
clearTimeout(watchdog);
save();
console.log(JSON.stringify({step: report.step, error: report.error,
  elapsedS: report.elapsedS}));
