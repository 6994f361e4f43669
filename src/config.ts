import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { parse } from 'yaml';
import { z } from 'zod';
import { ToolError } from './errors.js';
import { closest } from './suggest.js';

type Kind = 'string' | 'boolean' | 'number' | 'list' | 'prefs' | 'viewport' | 'imageFormat' | 'percent' | 'quota' | 'scale';

/** Kinds whose flag may be given more than once; the values add up. */
export const REPEATABLE: ReadonlySet<Kind> = new Set(['prefs']);

/**
 * `a=1,b=2` is two prefs, but a comma inside a value (`intl.accept_languages=de-DE,en`) stays: a split happens only
 * where the next part starts a new NAME=.
 */
function splitPrefs(entry: string): string[] {
  return entry
    .split(/,(?=\s*[\w.\-[\]]+=)/)
    .map((part) => part.trim())
    .filter(Boolean);
}

/** How much the pages of one session may download (--download-quota FILES,MB). */
export interface DownloadLimits {
  files: number;
  bytes: number;
}

/**
 * How a raw value (a flag's or variable's text, or a config file's JSON value) becomes an option of each kind, and
 * what the error says was expected.
 */
const VALUE = {
  string: z.string().min(1),
  boolean: z.preprocess((raw) => (raw === 'true' || raw === '1' || raw === '' ? true : raw === 'false' || raw === '0' ? false : raw), z.boolean()),
  number: z.preprocess((raw) => (typeof raw === 'number' ? raw : Number(raw)), z.number().int().positive()),
  list: z.preprocess(
    (raw) => (typeof raw === 'string' ? raw.split(',').map((part) => part.trim()).filter(Boolean) : Array.isArray(raw) ? raw.map(String) : raw),
    z.array(z.string()),
  ),
  // NAME=VALUE entries: a repeated flag gives an array, a variable or a single flag a comma list, a config file a list.
  prefs: z.preprocess((raw) => (typeof raw === 'string' ? [raw] : raw), z.array(z.coerce.string()).transform((entries) => entries.flatMap(splitPrefs))),
  viewport: z.preprocess((raw) => {
    const match = /^(\d{2,5})x(\d{2,5})$/.exec(String(raw));
    return match ? { width: Number(match[1]), height: Number(match[2]) } : raw;
  }, z.object({ width: z.number(), height: z.number() })),
  // FILES or FILES,MB (MiB): "20,100".
  quota: z.preprocess((raw) => {
    const match = /^\s*(\d{1,6})\s*(?:,\s*(\d{1,7})\s*)?$/.exec(String(raw));
    return match ? { files: Number(match[1]), bytes: Number(match[2] ?? 100) * 1024 * 1024 } : raw;
  }, z.object({ files: z.number().int().positive(), bytes: z.number().int().positive() })),
  imageFormat: z.enum(['png', 'jpeg']),
  percent: z.preprocess((raw) => (typeof raw === 'number' ? raw : Number(raw)), z.number().int().min(1).max(100)),
  scale: z.preprocess((raw) => (typeof raw === 'number' ? raw : Number(raw)), z.number().min(0.5).max(4)),
} satisfies Record<Kind, z.ZodType>;

const EXPECTED: Record<Kind, string> = {
  string: 'a non-empty string',
  boolean: 'true or false',
  number: 'a positive whole number',
  list: 'a comma-separated list',
  prefs: 'NAME=VALUE entries (repeat the flag or separate them with commas)',
  viewport: 'WIDTHxHEIGHT such as 1280x800',
  quota: 'FILES or FILES,MB such as 20,100',
  imageFormat: 'png or jpeg',
  percent: 'a whole number from 1 to 100',
  scale: 'a number from 0.5 to 4 such as 2',
};

/** The commands that take the common flags. */
export type CommandName = 'mcp' | 'serve' | 'run' | 'regress' | 'doctor';
const EVERY_COMMAND: readonly CommandName[] = ['mcp', 'serve', 'run', 'regress', 'doctor'];
const SERVE: readonly CommandName[] = ['serve'];
const MCP: readonly CommandName[] = ['mcp'];
/** regress makes a throwaway profile per browser: a profile flag would be ignored. */
const OWN_PROFILE: readonly CommandName[] = ['mcp', 'serve', 'run', 'doctor'];
/** What only an agent's session reads (tab caps, idle release, screenshot encoding). */
const SESSIONS: readonly CommandName[] = ['mcp', 'serve', 'run'];

interface OptionShape {
  flag: string;
  kind: Kind;
  /** The commands that read it (every one that takes the common flags when left out): --help lists it there only. */
  commands?: readonly CommandName[];
  help: string;
  /** The value when nothing sets it; an option without one is undefined then (`defaultText` says what that means). */
  default?: unknown;
  defaultText?: string;
}

/**
 * Every common option, written once: its flag (also FIREFOX_USE_<FLAG> in the environment, and a key of the
 * --config file by flag name or by option key), its kind, help and default. A new option is one entry here.
 */
const OPTIONS = {
  profile: { commands: OWN_PROFILE, flag: 'profile', kind: 'string', help: 'Profile NAME (under the data dir) or PATH', default: 'default' },
  isolated: { commands: OWN_PROFILE, flag: 'isolated', kind: 'boolean', help: 'Throwaway profile, deleted on exit', default: false },
  headed: { flag: 'headed', kind: 'boolean', help: 'Show the Firefox window (headless otherwise)', default: false },
  firefox: { flag: 'firefox', kind: 'string', help: 'Firefox binary (else FIREFOX_BIN, else PATH)', defaultText: 'auto' },
  deviceScaleFactor: {
    flag: 'device-scale-factor',
    kind: 'scale',
    help: 'devicePixelRatio pages see; screenshots stay in CSS pixels, the coordinates computer takes (zoom shows the detail)',
    default: 1,
  },
  viewport: { flag: 'viewport', kind: 'viewport', help: 'Viewport WxH in CSS pixels', default: { width: 1280, height: 800 }, defaultText: '1280x800' },
  // Made absolute against the working directory when the options are resolved.
  outputDir: { flag: 'output-dir', kind: 'string', help: 'Where downloads and saved screenshots go', default: './firefox-use-output' },
  allowedOrigins: { flag: 'allowed-origins', kind: 'list', help: 'Only these origins may load (comma-separated)', default: [], defaultText: 'all' },
  blockedOrigins: { flag: 'blocked-origins', kind: 'list', help: 'These origins never load (comma-separated)', default: [], defaultText: 'none' },
  timeoutAction: { flag: 'timeout-action', kind: 'number', help: 'Milliseconds an action may take', default: 10_000 },
  timeoutNavigation: { flag: 'timeout-navigation', kind: 'number', help: 'Milliseconds a navigation may take', default: 30_000 },
  allowJavascript: { flag: 'allow-javascript', kind: 'boolean', help: 'List javascript_tool and let javascript: URLs run', default: false },
  allowUnrestrictedFileAccess: { flag: 'allow-unrestricted-file-access', kind: 'boolean', help: 'Let file: URLs load (local files)', default: false },
  sharedBrowserContext: { commands: SERVE, flag: 'shared-browser-context', kind: 'boolean', help: 'serve: all sessions share one cookie jar and storage', default: false },
  // Several agents on one profile share its browser through a per-profile daemon (docs/profiles.md).
  exclusive: {
    commands: MCP,
    flag: 'exclusive',
    kind: 'boolean',
    help: 'Own the profile\'s Firefox alone instead of sharing it with other agents on this profile (a second one gets profile_locked)',
    default: false,
  },
  ownStorage: {
    commands: MCP,
    flag: 'own-storage',
    kind: 'boolean',
    help: "On a shared profile browser: cookies and storage of this agent's own, starting empty, instead of the profile's",
    default: false,
  },
  daemonFile: { commands: SERVE, flag: 'daemon-file', kind: 'string', help: "serve: run as a profile's shared browser (started by mcp): write port and pid here, exit when unused", defaultText: 'none' },
  daemonOptions: { commands: SERVE, flag: 'daemon-options', kind: 'string', help: 'serve: the options hash a shared browser records for the mcp bridges', defaultText: 'none' },
  // Empty means the output dir only: the working directory may be / or a home directory full of secrets.
  uploadRoots: { flag: 'upload-root', kind: 'list', help: 'Directories file_upload may read from', default: [], defaultText: 'the output dir' },
  downloadQuota: {
    flag: 'download-quota',
    kind: 'quota',
    help: 'Files and MiB the pages of one session may download (FILES,MB)',
    default: { files: 20, bytes: 100 * 1024 * 1024 },
    defaultText: '20,100',
  },
  maxTabs: { commands: SESSIONS, flag: 'max-tabs', kind: 'number', help: 'Open tabs one session may have', default: 30 },
  maxSessions: { commands: SERVE, flag: 'max-sessions', kind: 'number', help: 'serve: MCP sessions at once', default: 16 },
  sessionIdleSeconds: { commands: SERVE, flag: 'session-idle-seconds', kind: 'number', help: 'serve: close a session no request touched for this many seconds', default: 1800 },
  port: { commands: SERVE, flag: 'port', kind: 'number', help: 'serve: TCP port', default: 8931 },
  host: { commands: SERVE, flag: 'host', kind: 'string', help: 'serve: address to bind', default: '127.0.0.1' },
  token: { commands: SERVE, flag: 'token', kind: 'string', help: 'serve: bearer token clients must send (visible in ps: prefer FIREFOX_USE_TOKEN or --token-file)', defaultText: 'none' },
  tokenFile: { commands: SERVE, flag: 'token-file', kind: 'string', help: 'serve: read the bearer token from this file', defaultText: 'none' },
  allowAnyCookieDomain: {
    commands: SESSIONS,
    flag: 'allow-any-cookie-domain',
    kind: 'boolean',
    help: "cookies_set may set a cookie for any domain, not only the tab's site",
    default: false,
  },
  httpCredentials: {
    flag: 'http-credentials',
    kind: 'string',
    help: 'Answer HTTP authentication with [ORIGIN=]USER:PASS (else it is cancelled and the 401 page shows; visible in ps: prefer --http-credentials-file)',
    defaultText: 'none',
  },
  secrets: {
    commands: SESSIONS,
    flag: 'secrets',
    kind: 'string',
    help: 'A dotenv file of NAME=value: ${NAME} in a tool argument is the value, and replies and saved scripts show ${NAME} instead of it',
    defaultText: 'none',
  },
  httpCredentialsFile: { flag: 'http-credentials-file', kind: 'string', help: 'Read --http-credentials from the first line of this file', defaultText: 'none' },
  // Tool groups listed beyond the default ones (storage).
  caps: { flag: 'caps', kind: 'list', help: 'Tool groups to list beyond the default ones: storage, pdf, script (see docs/tool-list.md)', default: [], defaultText: 'none' },
  saveScript: {
    commands: ['mcp', 'serve'],
    flag: 'save-script',
    kind: 'boolean',
    help: "Keep each session's successful calls as a run script in the output dir (session-*.yaml, rewritten after every call)",
    default: false,
  },
  // Ask before acting (docs/watching.md): these kinds of action wait for a person's yes through MCP elicitation.
  confirmActions: {
    commands: ['mcp', 'serve'],
    flag: 'confirm-actions',
    kind: 'list',
    help: 'Ask a person (MCP elicitation) before these actions: submit, purchase, download, upload, navigate-away, all (comma-separated)',
    default: [],
    defaultText: 'none',
  },
  confirmOrigins: {
    commands: ['mcp', 'serve'],
    flag: 'confirm-origins',
    kind: 'list',
    help: 'Ask only on these origins (as --allowed-origins writes them; comma-separated)',
    default: [],
    defaultText: 'all',
  },
  confirmTimeout: { commands: ['mcp', 'serve'], flag: 'confirm-timeout', kind: 'number', help: 'Seconds to wait for the yes; then the action is not done', default: 120 },
  saveTrace: {
    commands: ['mcp', 'serve'],
    flag: 'save-trace',
    kind: 'boolean',
    help: "Write each session's calls, replies and a picture after each action as one HTML file in the output dir (trace-*.html, rewritten as it goes)",
    default: false,
  },
  // The live view (docs/watching.md): serve has it at /live; a stdio session gets its own loopback port for it.
  livePort: {
    commands: ['mcp'],
    flag: 'live-port',
    kind: 'number',
    help: "Serve this session's live view (its tabs as they are, its calls, request_human's hand-off) on http://127.0.0.1:PORT/live",
    defaultText: 'none',
  },
  // When not empty: exactly these tools are listed (an allow-list).
  tools: { flag: 'tools', kind: 'list', help: 'List only these tools (comma-separated names)', default: [], defaultText: 'all of the groups' },
  // A Playwright storage-state JSON file loaded into every cookie jar at start.
  storageState: { flag: 'storage-state', kind: 'string', help: 'Load cookies and localStorage from this Playwright storage-state JSON file', defaultText: 'none' },
  ignoreHttpsErrors: { flag: 'ignore-https-errors', kind: 'boolean', help: 'Load pages whose certificate is self-signed or invalid', default: false },
  proxyServer: { flag: 'proxy-server', kind: 'string', help: 'Send every request through this proxy (host:port, http:// or socks5://)', defaultText: 'none' },
  proxyBypass: { flag: 'proxy-bypass', kind: 'list', help: 'Hosts that skip the proxy (comma-separated, e.g. .internal,localhost)', default: [], defaultText: 'none' },
  userAgent: { flag: 'user-agent', kind: 'string', help: 'User-Agent header and navigator.userAgent', defaultText: "Firefox's" },
  locale: { flag: 'locale', kind: 'string', help: 'Language tag for navigator.language, Accept-Language and formats (e.g. de-DE)', defaultText: "the system's" },
  timezone: { flag: 'timezone', kind: 'string', help: 'IANA time zone pages see (e.g. Europe/Berlin)', defaultText: "the system's" },
  geolocation: { flag: 'geolocation', kind: 'string', help: 'LAT,LON navigator.geolocation answers with (no prompt)', defaultText: 'none' },
  initScript: { flag: 'init-script', kind: 'string', help: 'JavaScript file run in every document before its own scripts', defaultText: 'none' },
  // Accepted for Playwright MCP's users: headless is already the default.
  headless: { flag: 'headless', kind: 'boolean', help: 'Accepted and ignored: headless is the default (see --headed)', default: false, defaultText: 'true' },
  prefs: { flag: 'pref', kind: 'prefs', help: 'A Firefox pref NAME=VALUE (repeatable; or comma-separated; a config file takes a list)', default: [], defaultText: 'none' },
  // JPEG by default: a third of PNG's time and size in Firefox, small text still legible (docs/benchmark.md).
  screenshotFormat: { commands: SESSIONS, flag: 'screenshot-format', kind: 'imageFormat', help: 'computer screenshots as jpeg or png (lossless); zoom stays png', default: 'jpeg' },
  screenshotQuality: { commands: SESSIONS, flag: 'screenshot-quality', kind: 'percent', help: 'JPEG quality of screenshots, 1-100', default: 80 },
  // Claude refuses an image over 8000 px on a side, and over 2000 px when a request holds many images.
  screenshotMaxSize: {
    commands: SESSIONS,
    flag: 'screenshot-max-size',
    kind: 'viewport',
    help: 'Largest image a screenshot or zoom returns, WxH; a larger one is scaled down to fit and the reply says by how much',
    default: { width: 2000, height: 2000 },
    defaultText: '2000x2000',
  },
  // Unset: keep Firefox running.
  idleTimeout: {
    commands: SESSIONS,
    flag: 'idle-timeout',
    kind: 'number',
    help: 'Close Firefox after this many milliseconds without a call (the next call starts it again; a named profile keeps its cookies)',
    defaultText: 'never',
  },
  connect: {
    commands: SESSIONS,
    flag: 'connect',
    kind: 'string',
    help: 'Attach to a Firefox started with --remote-debugging-port (ws://HOST:PORT, a port, or its profile folder); it keeps running',
    defaultText: 'none',
  },
  webdriverUrl: {
    flag: 'webdriver-url',
    kind: 'string',
    help: 'Create the session on this remote WebDriver endpoint (Selenium Grid, geckodriver) instead of launching Firefox',
    defaultText: 'none',
  },
} as const satisfies Record<string, OptionShape>;

type Options = typeof OPTIONS;
type ValueOf<K extends keyof Options> = z.output<(typeof VALUE)[Options[K]['kind']]>;
type WithDefault = { [K in keyof Options]: Options[K] extends { default: unknown } ? K : never }[keyof Options];

/** The resolved options: one field per entry of OPTIONS (optional where it has no default), plus what no flag sets. */
export type ServerOptions = { [K in WithDefault]: ValueOf<K> } & { [K in Exclude<keyof Options, WithDefault>]?: ValueOf<K> } & {
  /** Not a flag: file: URLs that a `run` script or `regress` config names itself, which load without the flag. */
  scriptFiles?: string[];
};

export interface FlagSpec {
  flag: string;
  key: keyof Options;
  commands: readonly CommandName[];
  kind: Kind;
  help: string;
  defaultText: string;
}

/** Every common flag, in help order: each is also FIREFOX_USE_<FLAG> in the environment and a key of the --config file. */
export const FLAGS: FlagSpec[] = Object.entries(OPTIONS).map(([key, spec]: [string, OptionShape]) => ({
  flag: spec.flag,
  key: key as keyof Options,
  commands: spec.commands ?? EVERY_COMMAND,
  kind: spec.kind,
  help: spec.help,
  defaultText: spec.defaultText ?? String(spec.default),
}));

/** The options schema: each field parses its kind's raw value and falls back to its default. */
const optionsSchema = z.strictObject(
  Object.fromEntries(
    Object.entries(OPTIONS).map(([key, spec]: [string, OptionShape]) => [
      key,
      'default' in spec ? (VALUE[spec.kind] as z.ZodType).default(() => structuredClone(spec.default)) : VALUE[spec.kind].optional(),
    ]),
  ),
);

/** The options when nothing is set (paths not yet made absolute). */
export function defaultOptions(): ServerOptions {
  return optionsSchema.parse({}) as ServerOptions;
}

export function envName(flag: string): string {
  return `FIREFOX_USE_${flag.toUpperCase().replace(/-/g, '_')}`;
}

/** The YAML parser, loaded only for a config file: importing it cost every cold start ~20 ms. */
function parseYaml(text: string): unknown {
  const yaml = createRequire(import.meta.url)('yaml') as { parse: typeof parse };
  return yaml.parse(text);
}

/** Layers options: defaults < config file < environment < flags. */
export function resolveOptions(flags: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): ServerOptions {
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
  // The last layer that sets an option wins; where it came from goes into the error if its value is bad.
  const raw: Record<string, unknown> = {};
  const source = new Map<string, string>();
  for (const [where, read] of layers) {
    for (const spec of FLAGS) {
      const value = read(spec);
      if (value === undefined) continue;
      raw[spec.key] = value;
      source.set(spec.key, where);
    }
  }
  const parsed = optionsSchema.safeParse(raw);
  if (!parsed.success) {
    const spec = FLAGS.find((candidate) => candidate.key === parsed.error.issues[0]?.path[0])!;
    throw new ToolError('invalid_arguments', `${source.get(spec.key)} ${spec.flag}: expected ${EXPECTED[spec.kind]}, got ${JSON.stringify(raw[spec.key])}`, {
      field: spec.flag,
    });
  }
  const resolved = parsed.data as ServerOptions;
  if (resolved.connect !== undefined && resolved.webdriverUrl !== undefined) {
    throw new ToolError('invalid_arguments', '--connect and --webdriver-url both name a browser to use: give one of them.', { field: 'connect' });
  }
  resolved.outputDir = resolve(resolved.outputDir);
  if (resolved.uploadRoots.length === 0) resolved.uploadRoots = [resolved.outputDir];
  resolved.uploadRoots = resolved.uploadRoots.map((root) => resolve(root));
  return resolved;
}
