// --allowed-origins / --blocked-origins below BiDi: a proxy auto-config script that Firefox consults for every
// request of every realm. Firefox ESR 153's Remote Agent emits no network event for a request without a browsing
// context (shared and service workers), and an <object>/<embed> load reaches the server while BiDi holds what it
// reported of it; the PAC sees them all and sends a refused origin's requests to a closed port.
import { parsePattern, type OriginPattern } from './origins.js';
import type { OriginRules } from '../tab/interception.js';
import type { PrefValue } from './launch-prefs.js';

/** First line of the PAC: tells our PAC in a profile's prefs.js from one the user set. */
const PAC_MARKER = '// firefox-use origin rules';

/** Where refused requests go: a loopback port nothing listens on (the discard port), so they fail at once. */
export const REFUSED_PROXY = 'PROXY 127.0.0.1:9';

/**
 * The PAC's decision, written in the plain JavaScript PAC runs (no URL class there). It mirrors originAllowed: the
 * host is normalized the same way (lower case, no trailing dot, IPv4-mapped IPv6 as IPv4), a port defaults by scheme.
 */
function pacSource(allowed: OriginPattern[], blocked: OriginPattern[], through: Through | undefined): string {
  const proxy = through?.proxy ?? 'DIRECT';
  // --proxy-bypass entries as Firefox reads simple ones: a host and its subdomains ("example.com", ".example.com", "*.example.com").
  const bypass = (through?.bypass ?? []).map((entry) => entry.trim().toLowerCase().replace(/^\*?\./, '')).filter(Boolean);
  return `${PAC_MARKER}
var ALLOWED = ${JSON.stringify(allowed)}, BLOCKED = ${JSON.stringify(blocked)}, BYPASS = ${JSON.stringify(bypass)};
var PORTS = { "http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21 };
function norm(host) {
  host = String(host).toLowerCase().replace(/\\.+$/, "");
  if (host.indexOf(":") >= 0 && host.charAt(0) !== "[") host = "[" + host + "]";
  var m = /^\\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\\]$/.exec(host);
  if (m) { var hi = parseInt(m[1], 16), lo = parseInt(m[2], 16); host = [hi >> 8, hi & 255, lo >> 8, lo & 255].join("."); }
  return host;
}
function matches(p, scheme, host, port) {
  if (p.scheme && p.scheme !== scheme + ":") return false;
  if (p.port !== null && p.port !== port) return false;
  return host === p.host || (p.subdomains && host.slice(-(p.host.length + 1)) === "." + p.host);
}
function through(h) {
  for (var i = 0; i < BYPASS.length; i++) if (h === BYPASS[i] || h.slice(-(BYPASS[i].length + 1)) === "." + BYPASS[i]) return "DIRECT";
  return ${JSON.stringify(proxy)};
}
function FindProxyForURL(url, host) {
  var m = /^([a-z][a-z0-9+.-]*):\\/\\/(?:[^@\\/?#]*@)?(\\[[^\\]]*\\]|[^:\\/?#]*)(?::(\\d+))?/i.exec(url);
  if (!m) return ${JSON.stringify(proxy)};
  var scheme = m[1].toLowerCase(), h = norm(host || m[2]), port = m[3] ? Number(m[3]) : PORTS[scheme];
  var i;
  for (i = 0; i < BLOCKED.length; i++) if (matches(BLOCKED[i], scheme, h, port)) return "${REFUSED_PROXY}";
  if (!ALLOWED.length) return through(h);
  for (i = 0; i < ALLOWED.length; i++) if (matches(ALLOWED[i], scheme, h, port)) return through(h);
  return "${REFUSED_PROXY}";
}`;
}

/** What an allowed request goes through: --proxy-server in a PAC's words ("PROXY host:port") but for --proxy-bypass hosts. */
export interface Through {
  proxy: string;
  bypass: string[];
}

/** Prefs that make Firefox route every request through the rules' PAC; allowed ones go direct, or `through` a proxy. */
export function originPacPrefs(rules: OriginRules, through?: Through): Record<string, PrefValue> {
  const parse = (patterns: string[]) => patterns.map(parsePattern).filter((p): p is OriginPattern => p !== null);
  const source = pacSource(parse(rules.allowedOrigins), parse(rules.blockedOrigins), through);
  return {
    'network.proxy.type': 2,
    'network.proxy.autoconfig_url': `data:application/x-ns-proxy-autoconfig;charset=utf-8,${encodeURIComponent(source)}`,
    // Without these Firefox sends loopback hosts straight out, and a refused proxy falls back to a direct request.
    'network.proxy.allow_hijacking_localhost': true,
    'network.proxy.failover_direct': false,
    'network.proxy.no_proxies_on': '',
  };
}

/**
 * Firefox saves user.js prefs into prefs.js, so a named profile once run with origin rules would keep their PAC (and
 * refuse origins) on later runs without them: those runs reset the proxy prefs to Firefox's defaults.
 */
export function stalePacReset(prefsJs: string, prefs: Record<string, PrefValue>): Record<string, PrefValue> {
  if (prefs['network.proxy.autoconfig_url'] !== undefined || !prefsJs.includes(encodeURIComponent(PAC_MARKER))) return {};
  return {
    'network.proxy.autoconfig_url': '',
    'network.proxy.failover_direct': true,
    ...(prefs['network.proxy.type'] === undefined ? { 'network.proxy.type': 5, 'network.proxy.allow_hijacking_localhost': false, 'network.proxy.no_proxies_on': '' } : {}),
  };
}
