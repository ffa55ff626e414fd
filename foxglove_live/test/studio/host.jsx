// SPDX-License-Identifier: Apache-2.0
// A minimal web host for Foxglove Studio 1.48 (@foxglove/studio-base, MPL-2.0), written
// against the package's public exports (src/index.d.ts, src/App.d.ts): the test page of
// foxglove_live/test/test_studio_app.py. Bundled by build.mjs with esbuild.
//
// Query parameters of the page:
//   studio=<folder>  where Studio's assets/ are served (index.js and its chunks); default
//                    "studio". build.mjs makes "studio-sdk" with the client's subprotocol
//                    renamed to foxglove.sdk.v1.
//   layout=<file>    JSON with the layout data to open (default layout.json), written by
//                    the test; it is selected by the layoutId parameter Studio reads itself.
//   ds, ds.url, layoutId: read by Studio itself (deep link).
import React from 'react';
import ReactDOM from 'react-dom';

const params = new URLSearchParams(window.location.search);
const LAYOUT_ID = params.get('layoutId') ?? 'hb50-test';

// Studio's UMD bundle takes React from these globals when its <script> runs.
self.React = React;
self.react = React;
self['react-dom'] = ReactDOM;

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`cannot load ${src}`));
    document.head.appendChild(script);
  });
}

// IAppConfiguration kept in memory: nothing of a previous run leaks into this one.
class MemoryAppConfiguration {
  constructor(values) {
    this.values = new Map(Object.entries(values));
    this.listeners = new Map();
  }

  get(key) {
    return this.values.get(key);
  }

  async set(key, value) {
    this.values.set(key, value);
    for (const listener of this.listeners.get(key) ?? []) {
      listener(value);
    }
  }

  addChangeListener(key, cb) {
    if (!this.listeners.has(key)) {
      this.listeners.set(key, new Set());
    }
    this.listeners.get(key).add(cb);
  }

  removeChangeListener(key, cb) {
    this.listeners.get(key)?.delete(cb);
  }
}

// ILayoutStorage kept in memory, by namespace; `seed` goes into Studio's local namespace.
class MemoryLayoutStorage {
  constructor(seed) {
    this.byNamespace = new Map([['local', new Map(seed.map((l) => [l.id, l]))]]);
  }

  space(namespace) {
    if (!this.byNamespace.has(namespace)) {
      this.byNamespace.set(namespace, new Map());
    }
    return this.byNamespace.get(namespace);
  }

  async list(namespace) {
    return [...this.space(namespace).values()];
  }

  async get(namespace, id) {
    return this.space(namespace).get(id);
  }

  async put(namespace, layout) {
    this.space(namespace).set(layout.id, layout);
    return layout;
  }

  async delete(namespace, id) {
    this.space(namespace).delete(id);
  }

  async migrateUnnamespacedLayouts() {}

  async importLayouts() {}
}

async function main() {
  const folder = params.get('studio') ?? 'studio';
  const layoutData = await (await fetch(params.get('layout') ?? 'layout.json')).json();
  await loadScript(`${folder}/index.js`);
  // The bundle's exports are now globals (UMD on self).
  const studio = self;
  studio.installDevtoolsFormatters();
  studio.overwriteFetch();
  await studio.waitForFonts();
  await studio.initI18n();

  const S = studio.AppSetting;
  const appConfiguration = new MemoryAppConfiguration({
    [S.COLOR_SCHEME]: 'light',
    [S.TELEMETRY_ENABLED]: false,
    [S.CRASH_REPORTING_ENABLED]: false,
    [S.UPDATES_ENABLED]: false,
    [S.HIDE_SIGN_IN_PROMPT]: true,
    [S.LAUNCH_PREFERENCE]: 'web',
    [S.SHOW_OPEN_DIALOG_ON_STARTUP]: false,
    [S.ENABLE_NEW_TOPNAV]: false,
  });
  const now = new Date().toISOString();
  const layoutStorage = new MemoryLayoutStorage([{
    id: LAYOUT_ID,
    name: 'HB50 live',
    permission: 'CREATOR_WRITE',
    baseline: {data: layoutData, savedAt: now},
    working: undefined,
    syncInfo: undefined,
  }]);

  const app = React.createElement(studio.App, {
    deepLinks: [window.location.href],
    appConfiguration,
    dataSources: [new studio.FoxgloveWebSocketDataSourceFactory()],
    layoutStorage,
    extensionLoaders: [],
    enableGlobalCss: true,
    enableLaunchPreferenceScreen: false,
  });
  // React 17, as the bundle's own jsx-runtime (17.0.2): the legacy root.
  ReactDOM.render(app, document.getElementById('root'));
  window.studioHostReady = true;
}

main().catch((error) => {
  console.error('studio host:', error);
  window.studioHostError = String(error && error.stack ? error.stack : error);
});
