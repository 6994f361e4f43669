// Every command of the contract keeps accepting the contract's common flags (../shared/CONTRACT.md, "Common flags"):
// a CI script written against v0.1 must not start failing because a flag turned out to mean nothing to its command.
// The list is copied here because the contract lives outside the repository; it only ever grows.
import { expect } from 'chai';
import { FLAGS, envName, resolveOptions } from '../../dist/config.js';
import { parseCommand } from '../../dist/cli/args.js';
import { COMMANDS } from '../../dist/cli/commands.js';

const CONTRACT_COMMANDS = ['mcp', 'serve', 'run', 'regress', 'doctor'];

/** The contract's common flags, each with a value a user might give. */
const CONTRACT_FLAGS = {
  profile: 'work',
  isolated: true,
  headed: true,
  firefox: '/usr/bin/firefox-esr',
  viewport: '1024x768',
  'output-dir': 'out',
  'allowed-origins': 'http://127.0.0.1:8080',
  'blocked-origins': 'https://ads.example',
  'timeout-action': '5000',
  'timeout-navigation': '20000',
};

/** A value of the right kind for any common flag, for the flags beyond the contract. */
function sampleValue(spec) {
  const byKind = { boolean: true, number: '7', viewport: '800x600', quota: '5,10', imageFormat: 'png', percent: '50', scale: '2', list: 'a,b', prefs: 'a.b=1' };
  return byKind[spec.kind] ?? 'x';
}

function argvOf(flag, value) {
  return value === true ? [`--${flag}`] : [`--${flag}`, String(value)];
}

describe('the contract: every command accepts the common flags', function () {
  it('the contract commands are all there and take the common flags', function () {
    for (const name of CONTRACT_COMMANDS) {
      expect(COMMANDS[name], name).to.be.an('object');
      expect(COMMANDS[name].common, `${name} takes the common flags`).to.equal(true);
    }
  });

  for (const command of CONTRACT_COMMANDS) {
    it(`firefox-use ${command} accepts each contract flag (and --config), reading it or saying why not`, function () {
      for (const [flag, value] of Object.entries(CONTRACT_FLAGS)) {
        const parsed = parseCommand(COMMANDS[command], [...argvOf(flag, value), 'positional']);
        const spec = FLAGS.find((candidate) => candidate.flag === flag);
        expect(spec, `--${flag} is a common flag`).to.be.an('object');
        if (spec.commands.includes(command)) {
          expect(parsed.notes, `${command} --${flag}`).to.deep.equal([]);
          expect(parsed.flags[flag], `${command} --${flag}`).to.deep.equal(value === true ? true : String(value));
          // And it resolves to an option, from the flag and from its environment variable alike.
          const fromFlag = resolveOptions(parsed.flags, {});
          const fromEnv = resolveOptions({}, { [envName(flag)]: value === true ? 'true' : String(value) });
          expect(fromFlag[spec.key], `${command} --${flag}`).to.deep.equal(fromEnv[spec.key]);
        } else {
          expect(parsed.notes, `${command} --${flag}`).to.have.length(1);
          expect(parsed.notes[0]).to.match(new RegExp(`^--${flag} (is implied|is not used|means nothing)`));
          expect(parsed.flags).not.to.have.property(flag);
        }
      }
      expect(parseCommand(COMMANDS[command], ['--config', 'firefox-use.yaml']).flags.config).to.equal('firefox-use.yaml');
    });

    it(`firefox-use ${command} accepts every other common flag too, never failing on one it does not read`, function () {
      for (const spec of FLAGS) {
        const parsed = parseCommand(COMMANDS[command], argvOf(spec.flag, sampleValue(spec)));
        expect(parsed.notes.length, `${command} --${spec.flag}`).to.equal(spec.commands.includes(command) ? 0 : 1);
      }
    });
  }

  it('regress says --isolated is implied: its browsers always have throwaway profiles', function () {
    const parsed = parseCommand(COMMANDS.regress, ['suite.json', '--isolated']);
    expect(parsed.positionals).to.deep.equal(['suite.json']);
    expect(parsed.notes).to.deep.equal(['--isolated is implied: regress starts every browser on a throwaway profile, deleted when it ends.']);
  });
});
