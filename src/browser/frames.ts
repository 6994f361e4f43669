// Frames of a tab: which BiDi child context each iframe element shows, and where a frame's viewport sits in the
// top-level viewport. Every frame (same- or cross-origin) is its own context with its own sandbox and page
// scripts, so refs inside frames resolve like any other.
import type { Script } from 'webdriver-bidi-protocol';
import { ToolError, isToolError } from '../errors.js';
import type { Browser } from './browser.js';
import { SANDBOX } from './page-script.js';
import type { Tab } from './tab.js';

/** The browser each tab lives in (filled by Browser when it adopts a tab). */
export const tabBrowsers = new WeakMap<Tab, Browser>();

export function browserOf(tab: Tab): Browser {
  const browser = tabBrowsers.get(tab);
  if (!browser) throw new ToolError('internal_error', `Tab ${tab.id} is not attached to a browser.`);
  return browser;
}

/** Where a child context's iframe element is: in which parent document, under which page-local id. */
interface FrameLink {
  parent: string;
  docId: string;
  id: number;
}

/** Per browser, so the links of a crashed browser go with it; a destroyed context's link is dropped at once. */
const linksByBrowser = new WeakMap<Browser, Map<string, FrameLink>>();

function linksOf(tab: Tab): Map<string, FrameLink> {
  const browser = browserOf(tab);
  let links = linksByBrowser.get(browser);
  if (!links) {
    const created = new Map<string, FrameLink>();
    browser.on('contextDestroyed', (id) => created.delete(id));
    linksByBrowser.set(browser, created);
    links = created;
  }
  return links;
}

const WINDOWS_OF = `function (docId, ids) {
  const of = globalThis.__firefoxUseFrameWindows;
  return of ? of(docId, JSON.parse(ids)) : null;
}`;

/**
 * Maps iframe elements (page-local ids in `docId` of `context`) to the child browsing contexts they show: in the
 * sandbox, each element's contentWindow comes back from BiDi as `{type: "window", value: {context}}`.
 */
export async function mapFrames(tab: Tab, context: string, docId: string, ids: number[]): Promise<Map<number, string>> {
  const mapped = new Map<number, string>();
  if (ids.length === 0) return mapped;
  const result = await tab.race(
    tab.bidi.send(
      'script.callFunction',
      {
        functionDeclaration: WINDOWS_OF,
        awaitPromise: false,
        target: { context, sandbox: SANDBOX },
        arguments: [
          { type: 'string', value: docId },
          { type: 'string', value: JSON.stringify(ids) },
        ],
        resultOwnership: 'none',
        serializationOptions: { maxObjectDepth: 1 },
      },
      { timeout: tab.timeouts.action },
    ),
  );
  if (result.type !== 'success' || result.result.type !== 'array') return mapped;
  const values = (result.result.value ?? []) as Script.RemoteValue[];
  const links = linksOf(tab);
  values.forEach((value, index) => {
    if (value.type !== 'window') return;
    const child = (value as Script.WindowProxyRemoteValue).value.context;
    const id = ids[index]!;
    mapped.set(id, child);
    links.set(child, { parent: context, docId, id });
  });
  return mapped;
}

/** Finds (again) the iframe element of `child` in its parent context. */
export async function linkOf(tab: Tab, child: string, parent: string, refresh: boolean): Promise<FrameLink | undefined> {
  const links = linksOf(tab);
  const known = links.get(child);
  if (known && known.parent === parent && !refresh) return known;
  const frames = await tab.callPage('listFrames', {}, { context: parent });
  await mapFrames(tab, parent, frames.docId, frames.ids);
  const found = links.get(child);
  return found && found.parent === parent ? found : undefined;
}

/** The child context an iframe element (page-local id `id` of `docId` in `parent`) shows, or undefined. */
export async function childContextOf(tab: Tab, parent: string, docId: string, id: number): Promise<string | undefined> {
  for (const [child, link] of linksOf(tab)) if (link.parent === parent && link.docId === docId && link.id === id && tabBrowsers.get(tab)?.contexts.has(child)) return child;
  return (await mapFrames(tab, parent, docId, [id])).get(id);
}

/**
 * The top-level viewport position of `frameContext`'s viewport origin: the sum of the iframe content-box offsets
 * up the chain of parents. Add it to coordinates measured inside the frame to dispatch input.performActions on
 * the tab's top-level context. Throws ref_stale (other_document) when the frame no longer exists.
 */
export async function frameOffset(tab: Tab, frameContext: string): Promise<{ x: number; y: number }> {
  const browser = browserOf(tab);
  let x = 0;
  let y = 0;
  let context = frameContext;
  while (context !== tab.context) {
    const node = browser.contexts.get(context);
    if (!node || node.parent === null) {
      throw new ToolError('ref_stale', 'The frame of that element no longer exists (it was removed or navigated).', { reason: 'other_document', tabId: tab.id });
    }
    const parent = node.parent;
    let origin: { x: number; y: number } | null = null;
    for (const refresh of [false, true]) {
      const link = await linkOf(tab, context, parent, refresh);
      if (!link) continue;
      try {
        origin = await tab.callPage('frameOrigin', { docId: link.docId, id: link.id }, { context: parent });
        break;
      } catch (error) {
        if (!isToolError(error, 'ref_stale')) throw error;
      }
    }
    if (!origin) throw new ToolError('ref_stale', 'The iframe holding that element is gone from its page.', { reason: 'other_document', tabId: tab.id });
    x += origin.x;
    y += origin.y;
    context = parent;
  }
  return { x, y };
}
