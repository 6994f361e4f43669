import { parseArgs } from 'node:util';
import { FLAGS, REPEATABLE, envName, type CommandName, type FlagSpec } from '../config.js';
import { ToolError } from '../errors.js';
import { closest } from '../suggest.js';

export { closest };

export interface CommandSpec {
  name: string;
  summary: string;
  usage: string;
  /** Flags of this command beyond the common ones. */
  extra?: Array<{ flag: string; kind: 'string' | 'boolean'; help: string; defaultText: string; short?: string }>;
  /** Whether the common browser flags apply. */
  common: boolean;
  positionals?: string;
}

export interface ParsedCommand {
  flags: Record<string, unknown>;
  positionals: string[];
  /** One line for each common flag given that this command does not read: accepted, and said to be implied or unused. */
  notes: string[];
}

/**
 * Why a command has no use for a common flag it accepts, where there is more to say than "another command reads it".
 * Every common flag stays accepted by every command that takes them (v0.1 took them all): a CI script written then
 * must not break because a flag turned out to mean nothing to its command.
 */
const UNUSED_BECAUSE: Partial<Record<string, Partial<Record<CommandName, string>>>> = {
  isolated: { regress: 'is implied: regress starts every browser on a throwaway profile, deleted when it ends' },
  profile: { regress: 'is not used: regress starts every browser on a throwaway profile, never a named one' },
};

function unusedNote(command: CommandName, flag: FlagSpec): string {
  const why = UNUSED_BECAUSE[flag.flag]?.[command];
  return `--${flag.flag} ${why ?? `means nothing to "firefox-use ${command}" (only ${flag.commands.join(', ')} read it): accepted and ignored`}.`;
}

export function parseCommand(spec: CommandSpec, argv: string[]): ParsedCommand {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {
    help: { type: 'boolean', short: 'h' },
    config: { type: 'string' },
  };
  if (spec.common) {
    for (const flag of FLAGS) options[flag.flag] = { type: flag.kind === 'boolean' ? 'boolean' : 'string', ...(REPEATABLE.has(flag.kind) ? { multiple: true } : {}) };
  }
  for (const flag of spec.extra ?? []) options[flag.flag] = { type: flag.kind, ...(flag.short ? { short: flag.short } : {}) };
  for (const arg of argv) {
    if (!arg.startsWith('--')) continue;
    const name = arg.slice(2).split('=')[0]!;
    if (!(name in options)) {
      const elsewhere = FLAGS.find((flag) => flag.flag === name);
      if (elsewhere) {
        // merge-reports takes no browser flags at all: it never starts one.
        throw new ToolError('invalid_arguments', `--${name} is not read by "firefox-use ${spec.name}" (only by ${elsewhere.commands.join(', ')}). See firefox-use ${spec.name} --help.`, {
          field: name,
        });
      }
      const suggestion = closest(name, Object.keys(options));
      throw new ToolError('invalid_arguments', `Unknown flag --${name} for "firefox-use ${spec.name}".${suggestion ? ` Did you mean --${suggestion}?` : ''} See firefox-use ${spec.name} --help.`, {
        field: name,
      });
    }
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    // node:util reports a short unknown flag, a value given to a boolean flag or a missing value as a TypeError.
    const message = (error as Error).message.split('. ')[0];
    throw new ToolError('invalid_arguments', `${message} for "firefox-use ${spec.name}". See firefox-use ${spec.name} --help.`, { field: 'argv' });
  }
  const flags = parsed.values as Record<string, unknown>;
  const notes: string[] = [];
  for (const flag of unusedFlagsOf(spec)) {
    if (flags[flag.flag] === undefined) continue;
    notes.push(unusedNote(spec.name as CommandName, flag));
    delete flags[flag.flag];
  }
  return { flags, positionals: parsed.positionals, notes };
}

/** The common flags this command accepts but does not read. */
function unusedFlagsOf(spec: Pick<CommandSpec, 'name' | 'common'>): FlagSpec[] {
  return spec.common ? FLAGS.filter((flag) => !flag.commands.includes(spec.name as CommandName)) : [];
}

/** The common flags this command reads. */
function flagsOf(spec: Pick<CommandSpec, 'name' | 'common'>): FlagSpec[] {
  return spec.common ? FLAGS.filter((flag) => flag.commands.includes(spec.name as CommandName)) : [];
}

export function helpText(spec: CommandSpec): string {
  const command = spec.name as CommandName;
  const unused = unusedFlagsOf(spec);
  const explained = unused.filter((flag) => UNUSED_BECAUSE[flag.flag]?.[command]).map((flag) => `--${flag.flag} ${UNUSED_BECAUSE[flag.flag]![command]!}.`);
  const others = unused.filter((flag) => !UNUSED_BECAUSE[flag.flag]?.[command]).map((flag) => `--${flag.flag}`);
  const accepted = unused.length ? ['', 'Accepted, not read here:', ...explained.map((line) => `  ${line}`), ...(others.length ? [`  Other commands read: ${others.join(', ')}.`] : [])] : [];
  return [`firefox-use ${spec.usage}`, '', spec.summary, '', ...flagLines(spec), ...accepted].join('\n');
}

/** The flags table: each flag with its environment variable and default, in precedence order's terms. */
export function flagLines(spec: Pick<CommandSpec, 'name' | 'extra' | 'common'>): string[] {
  const lines: string[] = [];
  const rows: Array<[string, string, string, string]> = [];
  for (const flag of spec.extra ?? []) rows.push([`--${flag.flag}${flag.kind === 'string' ? ' VALUE' : ''}`, flag.help, '', flag.defaultText]);
  if (spec.common) {
    for (const flag of flagsOf(spec)) rows.push([`--${flag.flag}${flag.kind === 'boolean' ? '' : ' VALUE'}`, flag.help, envName(flag.flag), flag.defaultText]);
    rows.push(['--config FILE', 'YAML or JSON file with the same keys as the flags', 'FIREFOX_USE_CONFIG', 'none']);
  }
  rows.push(['--help, -h', 'Show this help', '', '']);
  const width = Math.max(...rows.map((row) => row[0].length));
  lines.push('Flags (precedence: flag > environment > config file > default):');
  for (const [flag, help, env, def] of rows) {
    lines.push(`  ${flag.padEnd(width)}  ${help}${env ? ` [env ${env}]` : ''}${def ? ` (default: ${def})` : ''}`);
  }
  return lines;
}
