import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ToolError } from './errors.js';
import { closest } from './suggest.js';

export interface ServerOptions {
  profile: string;
  isolated: boolean;
  headed: boolean;
  firefox?: string;
  viewport: { width: number; height: number };
  outputDir: string;
  allowedOrigins: string[];
  blockedOrigins: string[];
  timeoutAction: number;
  timeoutNavigation: number;
  allowJavascript: boolean;
  /** file: URLs load (refused by default). */
  allowUnrestrictedFileAccess: boolean;
  /** serve: every MCP session shares the profile's cookies and storage instead of a user context of its own. */
  sharedBrowserContext: boolean;
  /** Not a flag: file: URLs that a `run` script or `regress` config names itself, which load without the flag. */
  scriptFiles?: string[];
  uploadRoots: string[];
  port?: number;
  host: string;
  token?: string;
  /** serve: read the token from this file (not visible in `ps`, unlike --token). */
  tokenFile?: string;
  /** Close Firefox after this many milliseconds without a call; the next call starts it again. Unset: keep it. */
  idleTimeout?: number;
  /** A remote WebDriver endpoint (Selenium Grid, geckodriver) to create the session on instead of launching Firefox. */
  webdriverUrl?: string;
  /** Tool groups listed beyond the default ones (storage). */
  caps: string[];
  /** When not empty: exactly these tools are listed (an allow-list). */
  tools: string[];
  /** A Playwright storage-state JSON file loaded into every cookie jar at start. */
  storageState?: string;
  ignoreHttpsErrors: boolean;
  proxyServer?: string;
  proxyBypass: string[];
  userAgent?: string;
  locale?: string;
  timezone?: string;
  geolocation?: string;
  initScript?: string;
  /** Accepted for Playwright MCP's users: headless is already the default. */
  headless: boolean;
  prefs: string[];
}

type Kind = 'string' | 'boolean' | 'number' | 'list' | 'viewport';

export interface FlagSpec {
  flag: string;
  key: keyof ServerOptions;
  kind: Kind;
  help: string;
  defaultText: string;
}

/** Every common flag: each is also FIREFOX_USE_<FLAG> in the environment and a key of the --config file. */
export const FLAGS: FlagSpec[] = [
  { flag: 'profile', key: 'profile', kind: 'string', help: 'Profile NAME (under the data dir) or PATH', defaultText: 'default' },
  { flag: 'isolated', key: 'isolated', kind: 'boolean', help: 'Throwaway profile, deleted on exit', defaultText: 'false' },
  { flag: 'headed', key: 'headed', kind: 'boolean', help: 'Show the Firefox window (headless otherwise)', defaultText: 'false' },
  { flag: 'firefox', key: 'firefox', kind: 'string', help: 'Firefox binary (else FIREFOX_BIN, else PATH)', defaultText: 'auto' },
  { flag: 'viewport', key: 'viewport', kind: 'viewport', help: 'Viewport WxH in CSS pixels', defaultText: '1280x800' },
  { flag: 'output-dir', key: 'outputDir', kind: 'string', help: 'Where downloads and saved screenshots go', defaultText: './firefox-use-output' },
  { flag: 'allowed-origins', key: 'allowedOrigins', kind: 'list', help: 'Only these origins may load (comma-separated)', defaultText: 'all' },
  { flag: 'blocked-origins', key: 'blockedOrigins', kind: 'list', help: 'These origins never load (comma-separated)', defaultText: 'none' },
  { flag: 'timeout-action', key: 'timeoutAction', kind: 'number', help: 'Milliseconds an action may take', defaultText: '10000' },
  { flag: 'timeout-navigation', key: 'timeoutNavigation', kind: 'number', help: 'Milliseconds a navigation may take', defaultText: '30000' },
  { flag: 'allow-javascript', key: 'allowJavascript', kind: 'boolean', help: 'List javascript_tool and let javascript: URLs run', defaultText: 'false' },
  { flag: 'allow-unrestricted-file-access', key: 'allowUnrestrictedFileAccess', kind: 'boolean', help: 'Let file: URLs load (local files)', defaultText: 'false' },
  { flag: 'shared-browser-context', key: 'sharedBrowserContext', kind: 'boolean', help: 'serve: all sessions share one cookie jar and storage', defaultText: 'false' },
  { flag: 'upload-root', key: 'uploadRoots', kind: 'list', help: 'Directories file_upload may read from', defaultText: 'the output dir' },
  { flag: 'port', key: 'port', kind: 'number', help: 'serve: TCP port', defaultText: '8931' },
  { flag: 'host', key: 'host', kind: 'string', help: 'serve: address to bind', defaultText: '127.0.0.1' },
  { flag: 'token', key: 'token', kind: 'string', help: 'serve: bearer token clients must send (visible in ps: prefer FIREFOX_USE_TOKEN or --token-file)', defaultText: 'none' },
  { flag: 'token-file', key: 'tokenFile', kind: 'string', help: 'serve: read the bearer token from this file', defaultText: 'none' },
  { flag: 'caps', key: 'caps', kind: 'list', help: 'Tool groups to list beyond the default ones: storage (see docs/tools.md)', defaultText: 'none' },
  { flag: 'tools', key: 'tools', kind: 'list', help: 'List only these tools (comma-separated names)', defaultText: 'all of the groups' },
  { flag: 'storage-state', key: 'storageState', kind: 'string', help: 'Load cookies and localStorage from this Playwright storage-state JSON file', defaultText: 'none' },
  { flag: 'idle-timeout', key: 'idleTimeout', kind: 'number', help: 'Close Firefox after this many milliseconds without a call (the next call starts it again; a named profile keeps its cookies)', defaultText: 'never' },
  { flag: 'ignore-https-errors', key: 'ignoreHttpsErrors', kind: 'boolean', help: 'Load pages whose certificate is self-signed or invalid', defaultText: 'false' },
  { flag: 'proxy-server', key: 'proxyServer', kind: 'string', help: 'Send every request through this proxy (host:port, http:// or socks5://)', defaultText: 'none' },
  { flag: 'proxy-bypass', key: 'proxyBypass', kind: 'list', help: 'Hosts that skip the proxy (comma-separated, e.g. .internal,10.0.0.0/8)', defaultText: 'none' },
  { flag: 'user-agent', key: 'userAgent', kind: 'string', help: 'User-Agent header and navigator.userAgent', defaultText: "Firefox's" },
  { flag: 'locale', key: 'locale', kind: 'string', help: 'Language tag for navigator.language, Accept-Language and formats (e.g. de-DE)', defaultText: "the system's" },
  { flag: 'timezone', key: 'timezone', kind: 'string', help: 'IANA time zone pages see (e.g. Europe/Berlin)', defaultText: "the system's" },
  { flag: 'geolocation', key: 'geolocation', kind: 'string', help: 'LAT,LON navigator.geolocation answers with (no prompt)', defaultText: 'none' },
  { flag: 'init-script', key: 'initScript', kind: 'string', help: 'JavaScript file run in every document before its own scripts', defaultText: 'none' },
  { flag: 'headless', key: 'headless', kind: 'boolean', help: 'Accepted and ignored: headless is the default (see --headed)', defaultText: 'true' },
  { flag: 'pref', key: 'prefs', kind: 'list', help: 'Firefox prefs NAME=VALUE (comma-separated; a config file takes a list)', defaultText: 'none' },
  { flag: 'webdriver-url', key: 'webdriverUrl', kind: 'string', help: 'Create the session on this remote WebDriver endpoint (Selenium Grid, geckodriver) instead of launching Firefox', defaultText: 'none' },
];

export function defaultOptions(): ServerOptions {
  const outputDir = resolve('firefox-use-output');
  return {
    profile: 'default',
    isolated: false,
    headed: false,
    viewport: { width: 1280, height: 800 },
    outputDir,
    allowedOrigins: [],
    blockedOrigins: [],
    timeoutAction: 10_000,
    timeoutNavigation: 30_000,
    allowJavascript: false,
    allowUnrestrictedFileAccess: false,
    sharedBrowserContext: false,
    uploadRoots: [],
    host: '127.0.0.1',
    caps: [],
    tools: [],
    ignoreHttpsErrors: false,
    proxyBypass: [],
    headless: false,
    prefs: [],
  };
}

export function envName(flag: string): string {
  return `FIREFOX_USE_${flag.toUpperCase().replace(/-/g, '_')}`;
}

function convert(spec: FlagSpec, raw: unknown, where: string): unknown {
  const bad = (expected: string) =>
    new ToolError('invalid_arguments', `${where}: expected ${expected}, got ${JSON.stringify(raw)}`, { field: spec.flag });
  switch (spec.kind) {
    case 'boolean':
      if (typeof raw === 'boolean') return raw;
      if (raw === 'true' || raw === '1' || raw === '') return true;
      if (raw === 'false' || raw === '0') return false;
      throw bad('true or false');
    case 'number': {
      const value = typeof raw === 'number' ? raw : Number(raw);
      if (!Number.isInteger(value) || value <= 0) throw bad('a positive whole number');
      return value;
    }
    case 'list':
      if (Array.isArray(raw)) return raw.map(String);
      if (typeof raw === 'string') return raw.split(',').map((part) => part.trim()).filter(Boolean);
      throw bad('a comma-separated list');
    case 'viewport': {
      const match = /^(\d{2,5})x(\d{2,5})$/.exec(String(raw));
      if (!match) throw bad('WIDTHxHEIGHT such as 1280x800');
      return { width: Number(match[1]), height: Number(match[2]) };
    }
    default:
      if (typeof raw !== 'string' || raw === '') throw bad('a non-empty string');
      return raw;
  }
}

/** Layers options: defaults < config file < environment < flags. */
export function resolveOptions(flags: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): ServerOptions {
  const options = defaultOptions() as unknown as Record<string, unknown>;
  const configPath = (flags['config'] as string | undefined) ?? env['FIREFOX_USE_CONFIG'];
  const layers: Array<[string, (spec: FlagSpec) => unknown]> = [];
  if (configPath) {
    let config: Record<string, unknown>;
    try {
      // YAML, like run scripts and regress configs (JSON is YAML too).
      config = parseYaml(readFileSync(configPath, 'utf8')) as Record<string, unknown>;
      if (!config || typeof config !== 'object' || Array.isArray(config)) throw new Error('expected a mapping of option names to values');
    } catch (error) {
      throw new ToolError('invalid_arguments', `--config ${configPath}: ${(error as Error).message}`, { field: 'config' });
    }
    const known = new Set(FLAGS.flatMap((spec) => [spec.flag, spec.key]));
    for (const key of Object.keys(config)) {
      if (known.has(key)) continue;
      const suggestion = closest(key, [...known]);
      throw new ToolError('invalid_arguments', `--config ${configPath}: unknown key "${key}".${suggestion ? ` Did you mean "${suggestion}"?` : ''}`, { field: key });
    }
    layers.push([`config ${configPath}`, (spec) => config[spec.key] ?? config[spec.flag]]);
  }
  layers.push(['environment', (spec) => env[envName(spec.flag)]]);
  layers.push(['flag', (spec) => flags[spec.flag]]);
  for (const [where, read] of layers) {
    for (const spec of FLAGS) {
      const raw = read(spec);
      if (raw === undefined) continue;
      options[spec.key] = convert(spec, raw, `${where} ${spec.flag}`);
    }
  }
  const resolved = options as unknown as ServerOptions;
  resolved.outputDir = resolve(resolved.outputDir);
  // Only the output dir by default: the working directory may be / or a home directory full of secrets.
  if (resolved.uploadRoots.length === 0) resolved.uploadRoots = [resolved.outputDir];
  resolved.uploadRoots = resolved.uploadRoots.map((root) => resolve(root));
  return resolved;
}
