// A session's tab group and what it owns: its user context, downloads and their quota, cookies and storage, output files.
// The one entrance for code outside src/browser (lint enforces it); inside, files import each other directly.
export * from './downloads.js';
export * from './output.js';
export * from './own-files.js';
export * from './storage.js';
export * from './tab-group.js';
