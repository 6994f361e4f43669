import { z } from 'zod';
import { saveOutput } from '../browser/group/index.js';
import type { StorageCookie } from '../browser/group/index.js';
import { ToolError } from '../errors.js';
import { defineTool, tabIdField, type TabToolContext } from './tool.js';

// The `storage` capability (--caps storage): cookies of the page's site, and the session's logins as a file that
// --storage-state loads again. An HttpOnly cookie's value is never shown to the model: pages cannot read it either.

const cookieOut = z.object({
  name: z.string(),
  value: z.string().optional(),
  value_hidden: z.boolean().optional(),
  domain: z.string(),
  path: z.string(),
  expires: z.number(),
  httpOnly: z.boolean(),
  secure: z.boolean(),
  sameSite: z.string(),
});

function shown(cookie: StorageCookie): z.infer<typeof cookieOut> {
  const { value, ...rest } = cookie;
  return cookie.httpOnly ? { ...rest, value_hidden: true } : { ...rest, value };
}

function cookieLine(cookie: z.infer<typeof cookieOut>): string {
  const value = cookie.value_hidden ? '(HttpOnly: value hidden)' : JSON.stringify(cookie.value);
  const flags = [cookie.httpOnly && 'HttpOnly', cookie.secure && 'Secure', `SameSite=${cookie.sameSite}`, cookie.expires > 0 ? `expires ${new Date(cookie.expires * 1000).toISOString()}` : 'session'];
  return `${cookie.name}=${value} (${cookie.domain}${cookie.path}; ${flags.filter(Boolean).join('; ')})`;
}

/** The page's URL, which must be http(s): cookies belong to a site. */
async function pageUrl(context: TabToolContext): Promise<URL> {
  const url = new URL(await context.tab.currentUrl(context.tab.timeouts.action));
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolError('invalid_arguments', `Tab ${context.tab.id} shows ${url.href}, which has no cookies: navigate to a site first.`, { field: 'tabId' });
  }
  return url;
}

// Second-level labels under a country code that registries sell names beneath (co.uk, com.au, ac.jp): a cookie for one
// of those would reach every site under it. Not the whole public suffix list; a cookie for such a domain is refused.
const SHARED_SECOND_LEVEL = new Set(['ac', 'co', 'com', 'edu', 'go', 'gob', 'gov', 'ltd', 'me', 'mil', 'ne', 'net', 'nic', 'or', 'org', 'plc', 'sch']);

/**
 * Why `domain` is not the tab's site, or null when it is: the page's host itself, or a parent domain of it that is
 * not a top-level or shared second-level suffix, as a Set-Cookie header from that page could name. An IP address
 * only for itself.
 */
export function foreignCookieDomain(domain: string, host: string): string | null {
  const wanted = domain.toLowerCase().replace(/^\./, '').replace(/\.$/, '');
  const page = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (wanted === page) return null;
  const ip = /^[\d.]+$/.test(page) || page.includes(':');
  if (ip || !page.endsWith(`.${wanted}`)) return `is not the tab's host ${page} nor a parent domain of it`;
  const labels = wanted.split('.');
  if (labels.length < 2 || (labels.length === 2 && labels[1]!.length === 2 && SHARED_SECOND_LEVEL.has(labels[0]!))) {
    return `is a public suffix that ${page} shares with other sites`;
  }
  return null;
}

/** Whether the page at `url` gets `cookie` (domain and path match, as the browser decides). */
function sentTo(cookie: StorageCookie, url: URL): boolean {
  const domain = cookie.domain.replace(/^\./, '');
  const host = url.hostname;
  const path = cookie.path || '/';
  return (host === domain || host.endsWith(`.${domain}`)) && (url.pathname === path || url.pathname.startsWith(path.endsWith('/') ? path : `${path}/`));
}

async function pageCookies(context: TabToolContext, name?: string): Promise<{ url: URL; cookies: StorageCookie[] }> {
  const url = await pageUrl(context);
  const cookies = (await context.group.cookies.list(name ? { name } : undefined)).filter((cookie) => sentTo(cookie, url));
  return { url, cookies };
}

export const cookiesListTool = defineTool({
  name: 'cookies_list',
  title: 'List cookies',
  description: "The cookies the tab's page gets (HttpOnly values hidden).",
  details:
    'Lists the cookies of this session\'s cookie jar that the page at the tab\'s URL is sent (domain and path match), with their ' +
    'domain, path, expiry and flags. The value of an HttpOnly cookie is never shown (`value_hidden: true`): the page cannot ' +
    'read it either, and it is usually a session secret.',
  scope: 'tab',
  group: 'storage',
  errors: [],
  input: z.strictObject({ tabId: tabIdField, name: z.string().min(1).max(4096).optional() }),
  output: z.object({ url: z.string(), cookies: z.array(cookieOut) }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  script: 'looks',
  async handler(context, args) {
    const { url, cookies } = await pageCookies(context, args.name);
    const listed = cookies.map(shown);
    const text = listed.length ? `${listed.length} cookie(s) for ${url.origin}:\n${listed.map(cookieLine).join('\n')}` : `No cookies for ${url.origin}${args.name ? ` named ${args.name}` : ''}.`;
    return { structured: { url: url.href, cookies: listed }, text };
  },
});

export const cookiesSetTool = defineTool({
  name: 'cookies_set',
  title: 'Set a cookie',
  description: "Sets a cookie for the tab's site (domain defaults to the page's host).",
  details:
    'Puts a cookie into this session\'s cookie jar, as a Set-Cookie header would; `domain` must be the tab\'s host or a parent ' +
    'domain of it (not a public suffix) unless the server runs with --allow-any-cookie-domain. The page sees it from its next request or ' +
    '`document.cookie` read. `expires` is seconds since the epoch (left out: a session cookie). Reload the page for a server to see it.',
  scope: 'tab',
  group: 'storage',
  errors: [],
  input: z.strictObject({
    tabId: tabIdField,
    name: z.string().min(1).max(4096),
    value: z.string().max(4096),
    domain: z.string().min(1).max(255).optional(),
    path: z.string().min(1).max(1024).optional(),
    expires: z.number().int().min(1).optional().describe('Seconds since the epoch; session cookie if left out.'),
    httpOnly: z.boolean().optional(),
    secure: z.boolean().optional(),
    sameSite: z.enum(['Strict', 'Lax', 'None']).optional(),
  }),
  output: z.object({ cookie: cookieOut }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  script: { step: true, secret: null },
  async handler(context, args) {
    const url = await pageUrl(context);
    // A page could have the agent plant a cookie for another site (session fixation): the tab's own site only.
    const foreign = args.domain && !context.options.allowAnyCookieDomain ? foreignCookieDomain(args.domain, url.hostname) : null;
    if (foreign) {
      throw new ToolError('invalid_arguments', `domain: ${args.domain} ${foreign}; a cookie is set only for the site the tab shows (start the server with --allow-any-cookie-domain to set others).`, {
        field: 'domain',
      });
    }
    const cookie: StorageCookie = {
      name: args.name,
      value: args.value,
      domain: args.domain ?? url.hostname,
      path: args.path ?? '/',
      expires: args.expires ?? -1,
      httpOnly: args.httpOnly ?? false,
      secure: args.secure ?? url.protocol === 'https:',
      sameSite: args.sameSite ?? 'Lax',
    };
    await context.group.cookies.set(cookie);
    const set = shown(cookie);
    return { structured: { cookie: set }, text: `Set ${cookieLine(set)}` };
  },
});

export const cookiesClearTool = defineTool({
  name: 'cookies_clear',
  title: 'Clear cookies',
  description: "Deletes the cookies the tab's page gets, or only those named name.",
  details: 'Deletes from this session\'s cookie jar the cookies the page at the tab\'s URL is sent (all, or those called `name`); other sites keep theirs.',
  scope: 'tab',
  group: 'storage',
  errors: [],
  input: z.strictObject({ tabId: tabIdField, name: z.string().min(1).max(4096).optional() }),
  output: z.object({ deleted: z.array(z.string()) }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  script: { step: true, secret: null },
  async handler(context, args) {
    const { url, cookies } = await pageCookies(context, args.name);
    const deleted: string[] = [];
    for (const cookie of cookies) {
      const count = await context.group.cookies.delete({ name: cookie.name, domain: cookie.domain, path: cookie.path });
      if (count) deleted.push(cookie.name);
    }
    return { structured: { deleted }, text: deleted.length ? `Deleted ${deleted.length} cookie(s) of ${url.origin}: ${deleted.join(', ')}` : `No cookies to delete for ${url.origin}.` };
  },
});

export const storageStateSaveTool = defineTool({
  name: 'storage_state_save',
  title: 'Save logins (storage state)',
  description: 'Saves the session\'s cookies and its open pages\' localStorage to a JSON file in the output dir, for --storage-state.',
  details:
    'Writes Playwright\'s storage-state shape (`cookies`, `origins[].localStorage`) into the output dir, readable by this user ' +
    'only: start the server (or `run`, `regress`) with `--storage-state FILE` and those logins carry over. localStorage is read ' +
    'from the origins the session\'s tabs show now. The file holds HttpOnly values; the reply does not.',
  scope: 'session',
  group: 'storage',
  errors: [],
  input: z.strictObject({ filename: z.string().min(1).max(120).optional().describe('Default: storage-state-<time>.json.') }),
  output: z.object({ path: z.string(), cookies: z.number(), origins: z.array(z.string()) }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  script: { step: true, secret: null },
  async handler(context, args) {
    const state = await context.group.storageState();
    const name = args.filename && !args.filename.endsWith('.json') ? `${args.filename}.json` : args.filename;
    const path = await saveOutput(context.group.outputDir, 'storage-state', 'json', JSON.stringify(state, null, 2), name);
    const origins = state.origins.map((origin) => origin.origin);
    return {
      structured: { path, cookies: state.cookies.length, origins },
      text: `Saved ${state.cookies.length} cookie(s) and the localStorage of ${origins.length ? origins.join(', ') : 'no origin'} to ${path}`,
    };
  },
});
