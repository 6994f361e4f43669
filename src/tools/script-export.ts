import { z } from 'zod';
import { saveOutput } from '../browser/group/index.js';
import { ToolError } from '../errors.js';
import { defineTool } from './tool.js';

/** The `script` capability (--caps script): the session so far written out as a `firefox-use run` script. */
export const scriptExportTool = defineTool({
  name: 'script_export',
  title: 'Export the session as a run script',
  description: "Writes this session's successful calls as a firefox-use run script (YAML) in the output dir; returns its path.",
  details:
    'Writes the calls of this session that changed something, in order, as a `firefox-use run` script (docs/scripting.md) in the ' +
    'output dir, readable by this user only. Calls that only looked (read_page, find, screenshots) are left out; failed calls are ' +
    'comments. A ref becomes the `find` query that picked its element out on the page just before the call, saved under the ' +
    "ref's name; tabs are named by the steps that open them; text typed into a password field is written as " +
    '`${FIREFOX_USE_SECRET_N}`, an environment variable the replay must set (named in `secrets`); any other `$` in recorded ' +
    'text is written `$$`, so the replay types and visits it literally. `warnings` lists what a re-run may not reproduce.',
  scope: 'session',
  group: 'script',
  errors: [],
  input: z.strictObject({ filename: z.string().min(1).max(120).optional().describe('Default: session-<time>.yaml.') }),
  output: z.object({
    path: z.string(),
    steps: z.number(),
    left_out: z.object({ looked: z.number(), failed: z.number() }),
    secrets: z.array(z.string()),
    warnings: z.array(z.string()),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  script: { leftOut: 'a replay is not recorded, so it would have nothing to export' },
  async handler(context, args) {
    const script = context.group.exportScript();
    if (!script) throw new ToolError('invalid_arguments', 'This session is not recorded.', { field: 'filename' });
    const name = args.filename && !/\.ya?ml$/i.test(args.filename) ? `${args.filename}.yaml` : args.filename;
    const path = await saveOutput(context.group.outputDir, 'session', 'yaml', script.text, name);
    const needs = script.secrets.length ? ` It needs ${script.secrets.join(', ')} in the environment (typed into password fields; not in the file).` : '';
    const warned = script.warnings.length ? `\nA re-run may differ: ${script.warnings.join('; ')}.` : '';
    return {
      structured: { path, steps: script.steps, left_out: script.left_out, secrets: script.secrets, warnings: script.warnings },
      text:
        `Wrote ${script.steps} step(s) to ${path} (left out: ${script.left_out.looked} call(s) that only looked, ${script.left_out.failed} failed).` +
        `${needs} Replay: firefox-use run ${path}${warned}`,
    };
  },
});
