// request_human: the hand-off. The tab goes into a person's hands (the live view takes their clicks, keys and wheel
// as trusted input on it; the MCP client is asked too where it can be) until they press Done; the reply says what
// changed meanwhile (the delta, as an action's reply does) and the person's note.
import { z } from 'zod';
import { watchWhile } from '../browser/observe/index.js';
import { pageLine } from '../text-safety.js';
import { changesSection, Reply, type Fields } from './reply/index.js';
import { defineTool, tabIdField } from './tool.js';

export const HAND_OFF_DEFAULT_SECONDS = 300;
export const HAND_OFF_MAX_SECONDS = 1_800;
const NOTE_SHOWN = 1_000;

const output = z.object({
  done: z.literal(true),
  /** Where the person said Done: the live view, or the MCP client's question. */
  via: z.enum(['live_view', 'client']),
  /** Clicks, keys, texts and wheel turns the live view delivered to the tab. */
  inputs: z.number(),
  waited_ms: z.number(),
  note: z.string().optional(),
  ...changesSection.schema,
});

export const requestHumanTool = defineTool({
  name: 'request_human',
  title: 'Hand the tab to a person',
  description:
    'Hands the tab to the person watching the live view for what only they may do (CAPTCHA, second factor, sign-in, payment); returns when they press Done, with what changed and their note.',
  details:
    'Puts the tab in a person\'s hands until they press Done: the live view (`serve`\'s /live, or `mcp --live-port N`) shows `task` ' +
    'prominently and sends their clicks, keys, typed text and wheel to the tab as trusted input; where the MCP client supports ' +
    'elicitation, the request is offered there too, with the view\'s URL (accepting it is Done, declining it is `human_declined`). ' +
    'Meanwhile the session\'s other calls on the tab answer `held_by_person`. The reply has the page\'s delta over the whole ' +
    'hand-off (a full snapshot when they went to another page), how many inputs they made, and their note. After ' +
    '`timeoutSeconds` (default 300, at most 1800) it answers `human_timeout`; cancelling the call ends the hand-off too. ' +
    'Listed only where a person can be reached: under `serve`, `mcp --live-port N`, or a --headed Firefox (then the client\'s ' +
    'question alone hands it over; `no_live_view` when the client cannot ask). Your MCP client\'s own time limit for a call ' +
    'must be longer than the wait.',
  scope: 'tab',
  needsPerson: true,
  errors: ['human_timeout', 'human_declined', 'no_live_view'],
  input: z.strictObject({
    tabId: tabIdField,
    task: z.string().trim().min(1).max(500).describe('What the person should do, in a sentence or two.'),
    timeoutSeconds: z.number().int().min(5).max(HAND_OFF_MAX_SECONDS).optional().describe(`How long to wait for Done (default ${HAND_OFF_DEFAULT_SECONDS}).`),
  }),
  output,
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  script: { leftOut: 'a person acted in the tab; a replay has no person to hand it to' },
  async handler(context, args) {
    const timeoutMs = (args.timeoutSeconds ?? HAND_OFF_DEFAULT_SECONDS) * 1000;
    const tab = context.tab;
    // The page's changes over the whole hand-off, read the way an action's are: the watch starts before the hold.
    const { value: handed, outcome } = await watchWhile(tab, tab.context, () => context.services.handOff({ tabId: tab.id, task: args.task, timeoutMs }));
    const reply = new Reply<Fields<typeof output.shape>>({ done: true, via: handed.via, inputs: handed.inputs, waited_ms: handed.waitedMs });
    const where = handed.via === 'client' ? ' (in the MCP client)' : ' in the live view';
    const inputs = `${handed.inputs} input${handed.inputs === 1 ? '' : 's'}`;
    reply.line(`The person pressed Done${where} after ${(handed.waitedMs / 1000).toFixed(1)} s and ${inputs}. Tab ${tab.id} is yours again.`);
    if (handed.note) {
      const note = pageLine(handed.note, NOTE_SHOWN);
      reply.set('note', note);
      reply.line(`Their note: "${note}"`);
    }
    changesSection.render(reply, { changes: outcome ?? undefined, effects: {} });
    return reply.response();
  },
});
