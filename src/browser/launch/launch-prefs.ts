import { readFileSync } from 'node:fs';
import type { Emulation } from 'webdriver-bidi-protocol';
import { ToolError } from '../../errors.js';
import { originPacPrefs } from './origin-pac.js';

export type PrefValue = string | number | boolean;

/** The launch and context options of issue 16 §3, as the flags give them. */
export interface ContextFlags {
  userAgent?: string;
  locale?: string;
  timezone?: string;
  /** "LAT,LON" */
  geolocation?: string;
  proxyServer?: string;
  proxyBypass?: string[];
  /** NAME=VALUE each */
  prefs?: string[];
  /** --allowed-origins / --blocked-origins: also enforced below BiDi, by a proxy auto-config (origin-pac.ts). */
  allowedOrigins?: string[];
  blockedOrigins?: string[];
}

/** What Firefox gets for them: prefs appended to the profile's user.js, variables for its process, BiDi overrides. */
export interface LaunchTuning {
  prefs: Record<string, PrefValue>;
  env: Record<string, string>;
  /** --geolocation: set on every user context the browser has or makes. */
  geolocation?: Emulation.GeolocationCoordinates;
}

function bad(field: string, message: string): ToolError {
  return new ToolError('invalid_arguments', `--${field}: ${message}`, { field });
}

/** `true`/`false` and numbers become those types, anything else a string (as in about:config). */
export function parsePrefValue(raw: string): PrefValue {
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (/^-?\d+$/.test(raw)) return Number(raw);
  return raw.replace(/^"(.*)"$/s, '$1');
}

function proxyUrl(server: string): { url: URL; port: number } {
  const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(server) ? server : `http://${server}`);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (!url.hostname || !port) throw bad('proxy-server', `expected host:port, got ${JSON.stringify(server)}`);
  return { url, port };
}

/** The proxy in a PAC's words ("PROXY host:port", "SOCKS5 host:port"). */
function proxyForPac(server: string): string {
  const { url, port } = proxyUrl(server);
  const kind = url.protocol === 'socks4:' ? 'SOCKS' : url.protocol.startsWith('socks') ? 'SOCKS5' : 'PROXY';
  return `${kind} ${url.host.replace(/:\d+$/, '')}:${port}`;
}

/** "host:port" or "http://host:port": the proxy every request goes through (localhost included). */
function proxyPrefs(server: string, bypass: string[]): Record<string, PrefValue> {
  const { url, port } = proxyUrl(server);
  const socks = url.protocol.startsWith('socks');
  return {
    'network.proxy.type': 1,
    ...(socks
      ? { 'network.proxy.socks': url.hostname, 'network.proxy.socks_port': port, 'network.proxy.socks_version': url.protocol === 'socks4:' ? 4 : 5, 'network.proxy.socks_remote_dns': true }
      : { 'network.proxy.http': url.hostname, 'network.proxy.http_port': port, 'network.proxy.ssl': url.hostname, 'network.proxy.ssl_port': port }),
    'network.proxy.no_proxies_on': bypass.join(', '),
    // Firefox sends localhost straight out unless told otherwise; a proxy given on purpose should see it too.
    'network.proxy.allow_hijacking_localhost': true,
  };
}

export function launchTuning(flags: ContextFlags): LaunchTuning {
  const prefs: Record<string, PrefValue> = {};
  const env: Record<string, string> = {};
  let geolocation: Emulation.GeolocationCoordinates | undefined;
  if (flags.userAgent) prefs['general.useragent.override'] = flags.userAgent;
  if (flags.locale) {
    if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(flags.locale)) throw bad('locale', `expected a language tag such as de-DE, got ${JSON.stringify(flags.locale)}`);
    prefs['intl.locale.requested'] = flags.locale;
    prefs['intl.accept_languages'] = flags.locale;
    // Without this Firefox keeps the OS's regional formats for dates and numbers.
    prefs['intl.regional_prefs.use_os_locales'] = false;
  }
  if (flags.timezone) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: flags.timezone });
    } catch {
      throw bad('timezone', `expected an IANA time zone such as Europe/Berlin, got ${JSON.stringify(flags.timezone)}`);
    }
    env['TZ'] = flags.timezone;
  }
  if (flags.geolocation) {
    const match = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(flags.geolocation);
    const [lat, lon] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
    if (!(Math.abs(lat) <= 90 && Math.abs(lon) <= 180)) throw bad('geolocation', `expected LAT,LON such as 52.52,13.40, got ${JSON.stringify(flags.geolocation)}`);
    // The position itself goes in through BiDi (emulation.setGeolocationOverride, per user context); this pref lets
    // every origin read it without a permission prompt nobody could answer.
    prefs['permissions.default.geo'] = 1;
    geolocation = { latitude: lat, longitude: lon, accuracy: 10 };
  }
  if (flags.proxyServer) Object.assign(prefs, proxyPrefs(flags.proxyServer, flags.proxyBypass ?? []));
  for (const entry of flags.prefs ?? []) {
    const at = entry.indexOf('=');
    if (at <= 0) throw bad('pref', `expected NAME=VALUE, got ${JSON.stringify(entry)}`);
    prefs[entry.slice(0, at).trim()] = parsePrefValue(entry.slice(at + 1).trim());
  }
  const origins = { allowedOrigins: flags.allowedOrigins ?? [], blockedOrigins: flags.blockedOrigins ?? [] };
  if (origins.allowedOrigins.length || origins.blockedOrigins.length) {
    // After --pref: the rules win over a proxy pref. The PAC also carries the user's proxy (and its bypass list) for the requests it lets through.
    const through = flags.proxyServer ? { proxy: proxyForPac(flags.proxyServer), bypass: flags.proxyBypass ?? [] } : undefined;
    Object.assign(prefs, originPacPrefs(origins, through));
  }
  return { prefs, env, ...(geolocation ? { geolocation } : {}) };
}

/** user.js lines for `prefs`, after the template's (a later line wins). */
export function userJsLines(prefs: Record<string, PrefValue>): string {
  return Object.entries(prefs)
    .map(([name, value]) => `user_pref(${JSON.stringify(name)}, ${JSON.stringify(value)});`)
    .join('\n');
}

export function readInitScript(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw bad('init-script', (error as Error).message);
  }
}
