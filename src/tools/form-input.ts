import { z } from 'zod';
import { setFieldWatched } from '../browser/observe/index.js';
import { refField } from './ref-target.js';
import { pageAnswerSection, Reply, type Fields } from './reply/index.js';
import { defineTool, tabIdField } from './tool.js';

const valueField = z.union([z.string().max(100_000), z.boolean(), z.number().finite(), z.array(z.string().max(10_000)).min(1).max(500)]);

export const formInputTool = defineTool({
  name: 'form_input',
  title: 'Set a form field',
  description: 'Sets a field by ref without typing: text, checkbox/radio (boolean), select (option label or value; a list if multiple), range, date/time (ISO), color (#rrggbb).',
  details:
    'Sets a form field by ref without typing: text inputs and textareas (text; input and change fire as after a user\'s edit), ' +
    'checkbox and radio (true / false), select (an option\'s label or value; a list for a multiple select, which then holds ' +
    'exactly those; or an option\'s ref from read_page with true to pick it, false to unpick it), range (a number within min-max), date/time/month/week (their ISO formats), color (#rrggbb) and ' +
    'contenteditable elements. A ref to a label sets its control. A value the field cannot take fails with invalid_arguments ' +
    'naming what it takes (a select lists its options); disabled and read-only fields are refused. Returns the value the field ' +
    'now holds (never a password\'s).',
  scope: 'tab',
  errors: ['ref_stale'],
  input: z.strictObject({
    tabId: tabIdField,
    ref: refField,
    value: valueField,
  }),
  output: z.object({
    ref: z.string(),
    field: z.string(),
    described: z.string().optional(),
    value: z.union([z.string(), z.boolean(), z.array(z.string())]).optional(),
    masked: z.boolean().optional(),
    length: z.number().optional(),
    valid: z.boolean().optional(),
    validationMessage: z.string().optional(),
    note: z.string().optional(),
    ...pageAnswerSection.schema,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  script: { step: true, secret: { arg: 'value' } },
  async handler(context, args) {
    const { value: field, outcome } = await setFieldWatched(context.tab, args.ref, args.value);
    const shown = field.masked ? `(password, ${field.length} characters)` : JSON.stringify(field.value);
    let text = field.described ? `${field.described} [ref=${args.ref}] is now ${shown}` : `${args.ref} (${field.field}) is now ${shown}`;
    if (field.valid === false) text += `\nThe page marks it invalid: ${field.validationMessage}`;
    if (field.note) text += `\nNote: ${field.note}`;
    // How the page answered (a heading that follows the field, a button enabled); the field's own line is said above.
    const reply = new Reply<typeof field & { ref: string } & Fields<typeof pageAnswerSection.schema>>({ ref: args.ref, ...field }, [text]);
    pageAnswerSection.render(reply, { outcome, skipRef: args.ref });
    return reply.response();
  },
});
