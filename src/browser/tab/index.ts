// The tab model: one top-level browsing context, its frames, navigation, refs, calls into its documents' page
// scripts, and what it collects (console and network logs).
// The one entrance for code outside src/browser (lint enforces it); inside, files import each other directly.
export * from './console-log.js';
export * from './handle.js';
export * from './http-auth.js';
export * from './navigation.js';
export * from './network-log.js';
export * from './page-queries.js';
export * from './person-input.js';
export * from './refs.js';
export * from './remote-value.js';
export * from './resolve.js';
export * from './tab.js';
