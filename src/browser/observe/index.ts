// Reading a tab: snapshots and their deltas, settling, page text.
// The one entrance for code outside src/browser (lint enforces it); inside, files import each other directly.
export * from './delta.js';
export * from './page-text.js';
export * from './settle.js';
export * from './snapshot-reply.js';
export * from './snapshot.js';
