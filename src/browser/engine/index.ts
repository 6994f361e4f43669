// The action engine: aiming, trusted input, and reading back what the input did. Tools act through mouse, drag and typing.
// The one entrance for code outside src/browser (lint enforces it); inside, files import each other directly.
export * from './action-engine.js';
export type { HandleScope } from './aim.js';
export * from './clipboard.js';
export * from './drag.js';
export * from './input/keyboard.js';
export * from './input/keys.js';
export * from './input/pointer.js';
export * from './input/wheel.js';
export * from './locate.js';
export * from './mouse.js';
export * from './report.js';
export * from './typing.js';
