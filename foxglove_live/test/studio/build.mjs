// SPDX-License-Identifier: Apache-2.0
// Build the Studio test page into OUT_DIR:
//   host.js      host.jsx bundled with esbuild (React 17 included)
//   index.html   the page
//   studio/      Foxglove Studio 1.48's assets (a symlink to the npm package's assets/)
//   studio-sdk/  the same assets (symlinks), but index.js patched so that Studio's WebSocket
//                client offers and expects the subprotocol foxglove.sdk.v1 instead of
//                foxglove.websocket.v1 (what current Foxglove and Lichtblick >= 1.22 offer)
//
//   node build.mjs NODE_MODULES OUT_DIR
import fs from 'node:fs';
import path from 'node:path';
import {createRequire} from 'node:module';
import {fileURLToPath} from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const [nodeModules, outDir] = process.argv.slice(2).map((p) => path.resolve(p));
if (!nodeModules || !outDir) {
  console.error('usage: node build.mjs NODE_MODULES OUT_DIR');
  process.exit(2);
}
const require = createRequire(path.join(nodeModules, 'noop.js'));
const esbuild = require('esbuild');

// The one place Studio 1.48 names its client's subprotocol (the worker that opens the
// socket takes the list from here; the client checks the server's answer against it too).
const STOCK = 'FoxgloveClient.SUPPORTED_SUBPROTOCOL = "foxglove.websocket.v1"';
const SDK = 'FoxgloveClient.SUPPORTED_SUBPROTOCOL = "foxglove.sdk.v1"';

const assets = path.join(nodeModules, '@foxglove', 'studio-base', 'assets');
fs.mkdirSync(outDir, {recursive: true});

await esbuild.build({
  entryPoints: [path.join(HERE, 'host.jsx')],
  bundle: true,
  outfile: path.join(outDir, 'host.js'),
  nodePaths: [nodeModules],
  define: {'process.env.NODE_ENV': '"production"'},
  target: 'chrome110',
  logLevel: 'warning',
});
fs.copyFileSync(path.join(HERE, 'index.html'), path.join(outDir, 'index.html'));

const stock = path.join(outDir, 'studio');
fs.rmSync(stock, {recursive: true, force: true});
fs.symlinkSync(assets, stock, 'dir');

const sdk = path.join(outDir, 'studio-sdk');
fs.rmSync(sdk, {recursive: true, force: true});
fs.mkdirSync(sdk);
for (const name of fs.readdirSync(assets)) {
  if (name !== 'index.js') {
    fs.symlinkSync(path.join(assets, name), path.join(sdk, name));
  }
}
const bundle = fs.readFileSync(path.join(assets, 'index.js'), 'utf8');
const found = bundle.split(STOCK).length - 1;
if (found !== 1) {
  console.error(`build.mjs: expected "${STOCK}" once in Studio's index.js, found ${found}`);
  process.exit(1);
}
fs.writeFileSync(path.join(sdk, 'index.js'), bundle.replace(STOCK, SDK));
console.log(JSON.stringify({outDir, assets}));
