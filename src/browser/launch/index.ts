// Launching Firefox and owning its profile: the binary, the prefs, the BiDi session, the processes left behind.
// The one entrance for code outside src/browser (lint enforces it); inside, files import each other directly.
export * from './firefox-binary.js';
export * from './launcher.js';
export * from './profile.js';
export * from './launch-prefs.js';
export * from './user-js.js';
// The origin patterns of --allowed-origins, also read by --confirm-origins (src/tools/confirm-policy.ts).
export { originMatches } from './origins.js';
