import { readFileSync } from 'node:fs';
import { packageFile } from '../../package-files.js';

/** Name of the BiDi sandbox realm the page scripts live in: the page's own scripts cannot reach it. */
export const SANDBOX = 'firefox-use';

let cached: string | null = null;

/** The built page-script bundle (an IIFE that defines `globalThis.__firefoxUse` in the sandbox). */
export function pageScriptSource(): string {
  if (cached === null) cached = readFileSync(packageFile('dist', 'page', 'bundle.js'), 'utf8');
  return cached;
}

/** Marker the call stub returns when the sandbox has no page scripts yet (a document that predates the preload). */
export const NOT_INSTALLED = '__firefox_use_not_installed__';

/** The function every page-script call goes through. Arguments and results cross as JSON text: one cheap string. */
export const CALL_STUB = `function (op, args, ...nodes) {
  const api = globalThis.__firefoxUse;
  if (!api) return ${JSON.stringify(NOT_INSTALLED)};
  return api.call(op, args, nodes);
}`;

/** Hands back the element of a (document, local id) pair as a node (or a failure as JSON text). */
export const ELEMENT_STUB = `function (docId, localId) {
  const api = globalThis.__firefoxUse;
  if (!api) return ${JSON.stringify(NOT_INSTALLED)};
  return api.element(docId, localId);
}`;

/**
 * Preload function: BiDi wants a function declaration, so the bundle is wrapped in one. The flag tells the bundle it
 * runs before any script of the page, so its key gate (src/page/key-gate.ts) is the window's first key listener.
 */
export function preloadDeclaration(): string {
  return `function () {\nglobalThis.__firefoxUsePreloaded = true;\n${pageScriptSource()}\n}`;
}

let mainRealmCached: string | null = null;

/**
 * Preload function for the page's own realm: the activity counts the sandbox's settle reads
 * (src/page/main-realm.ts). It runs before the page's scripts and exposes nothing but one read function.
 */
export function mainRealmPreloadDeclaration(): string {
  mainRealmCached ??= readFileSync(packageFile('dist', 'page', 'main-realm.js'), 'utf8');
  return `function () {\n${mainRealmCached}\n}`;
}

/** A page-side failure, sent back as data so the sandbox never throws across BiDi. */
export interface PageFailure {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export type PageAnswer<T> = { ok: true; value: T } | { ok: false; error: PageFailure };
