import { readFileSync } from 'node:fs';
import type { Network, Storage } from 'webdriver-bidi-protocol';
import { z } from 'zod';
import type { BidiLink } from '../../bidi/connection.js';
import { ToolError } from '../../errors.js';
import { PageScripts } from '../tab/page-calls.js';
import type { Tab } from '../tab/tab.js';

/** A cookie in Playwright's storage-state shape (`expires` in seconds since the epoch, -1 for a session cookie). */
export const storageCookieSchema = z.object({
  name: z.string().min(1),
  value: z.string(),
  domain: z.string().min(1),
  path: z.string().default('/'),
  expires: z.number().default(-1),
  httpOnly: z.boolean().default(false),
  secure: z.boolean().default(false),
  sameSite: z.enum(['Strict', 'Lax', 'None']).default('Lax'),
});

/** Playwright's storage-state file: its files load as they are; unknown fields (indexedDB) are ignored. */
export const storageStateSchema = z.object({
  cookies: z.array(storageCookieSchema).default([]),
  origins: z
    .array(z.object({ origin: z.string().url(), localStorage: z.array(z.object({ name: z.string(), value: z.string() })).default([]) }))
    .default([]),
});

export type StorageCookie = z.output<typeof storageCookieSchema>;
export type StorageState = z.output<typeof storageStateSchema>;

export function readStorageState(file: string): StorageState {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ToolError('invalid_arguments', `--storage-state ${file}: ${(error as Error).message}`, { field: 'storage-state' });
  }
  const parsed = storageStateSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ToolError('invalid_arguments', `--storage-state ${file}: ${issue.path.join('.') || '(file)'}: ${issue.message}`, { field: 'storage-state' });
  }
  return parsed.data;
}

const SAME_SITE_TO_BIDI = { Strict: 'strict', Lax: 'lax', None: 'none' } as const;

export function toStorageCookie(cookie: Network.Cookie): StorageCookie {
  const sameSite = cookie.sameSite === 'strict' ? 'Strict' : cookie.sameSite === 'none' ? 'None' : 'Lax';
  return {
    name: cookie.name,
    value: cookie.value.type === 'string' ? cookie.value.value : Buffer.from(cookie.value.value, 'base64').toString('latin1'),
    domain: cookie.domain,
    path: cookie.path,
    expires: cookie.expiry ?? -1,
    httpOnly: cookie.httpOnly,
    secure: cookie.secure,
    sameSite,
  };
}

export function toBidiCookie(cookie: StorageCookie): Storage.PartialCookie {
  return {
    name: cookie.name,
    value: { type: 'string', value: cookie.value },
    domain: cookie.domain,
    path: cookie.path,
    httpOnly: cookie.httpOnly,
    secure: cookie.secure,
    sameSite: SAME_SITE_TO_BIDI[cookie.sameSite],
    ...(cookie.expires > 0 ? { expiry: Math.round(cookie.expires) } : {}),
  };
}

/** The cookie jar of a user context (undefined: the default one, which holds the profile's cookies). */
export function jarOf(userContext: string | undefined): Storage.PartitionDescriptor {
  return { type: 'storageKey', userContext: userContext ?? 'default' };
}

export async function getCookies(bidi: BidiLink, partition: Storage.PartitionDescriptor, timeout: number, filter?: Storage.CookieFilter): Promise<StorageCookie[]> {
  const { cookies } = await bidi.send('storage.getCookies', { partition, ...(filter ? { filter } : {}) }, { timeout });
  return cookies.map(toStorageCookie);
}

export async function setCookies(bidi: BidiLink, cookies: StorageCookie[], partition: Storage.PartitionDescriptor, timeout: number): Promise<void> {
  for (const cookie of cookies) {
    try {
      await bidi.send('storage.setCookie', { cookie: toBidiCookie(cookie), partition }, { timeout, write: true });
    } catch (error) {
      throw new ToolError('invalid_arguments', `Firefox refused cookie "${cookie.name}" for ${cookie.domain}: ${(error as Error).message}`, { field: 'cookies' });
    }
  }
}

/**
 * Writes each origin's localStorage from a throwaway tab of the user context on that origin. The tab loads
 * `/robots.txt` (a plain-text document: none of the app's scripts run there before the items are in place); an
 * origin that does not answer is reported, not fatal.
 */
export async function setLocalStorage(bidi: BidiLink, state: StorageState, userContext: string | undefined, timeout: number): Promise<string[]> {
  const failed: string[] = [];
  const origins = state.origins.filter((origin) => origin.localStorage.length > 0);
  if (origins.length === 0) return failed;
  const { context } = await bidi.send('browsingContext.create', { type: 'tab', background: true, ...(userContext ? { userContext } : {}) }, { timeout });
  // The throwaway tab is no Tab of ours: no dialog or close can end a call early, so nothing to race.
  const page = new PageScripts(bidi, { id: -1, context, timeouts: { action: timeout }, race: (work) => work });
  try {
    for (const { origin, localStorage } of origins) {
      try {
        await bidi.send('browsingContext.navigate', { context, url: new URL('/robots.txt', origin).href, wait: 'complete' }, { timeout });
        const { written } = await page.call('writeLocalStorage', { origin, localStorage }, { timeout, write: true }, context);
        if (!written) failed.push(origin);
      } catch {
        failed.push(origin);
      }
    }
  } finally {
    await bidi.send('browsingContext.close', { context }, { timeout }).catch(() => undefined);
  }
  return failed;
}

/** The localStorage of the origins these tabs show (BiDi cannot list an origin's storage without a document of it). */
export async function readLocalStorage(tabs: Tab[], timeout: number): Promise<StorageState['origins']> {
  const byOrigin = new Map<string, StorageState['origins'][number]>();
  for (const tab of tabs) {
    // Read from the sandbox (src/page/storage.ts): the page's scripts cannot intercept it.
    const entry = await tab.callPage('readLocalStorage', {}, { timeout }).catch(() => null);
    if (entry && entry.origin.startsWith('http') && entry.localStorage.length) byOrigin.set(entry.origin, entry);
  }
  return [...byOrigin.values()];
}
