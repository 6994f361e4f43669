// The changes section: how the page answered an action: it scrolled, a popup opened, what changed (the delta), or
// the new page it loaded.
import { z } from 'zod';
import type { ActionEffects } from '../../browser/engine/index.js';
import type { DeltaOutcome } from '../../browser/observe/index.js';
import { whereFields } from './effects.js';
import type { Section } from './reply.js';

export interface ChangesInput {
  changes: DeltaOutcome | undefined;
  effects: Pick<ActionEffects, 'scrolled' | 'replaced'>;
}

const schema = {
  delta: z.string().optional(),
  opened_popup: z
    .object({ ref: z.string(), role: z.string(), name: z.string(), opened_by: z.string().optional(), items: z.array(z.string()), item_lines: z.array(z.string()).optional() })
    .optional(),
  /** A click or key that scrolled the document (a fragment link): by how much, and the fragment's target. */
  page_scrolled: z.object({ dx: z.number(), dy: z.number(), to: z.string().optional() }).optional(),
  ...whereFields,
};

export const changesSection: Section<typeof schema, ChangesInput> = {
  schema,
  render(reply, { changes: delta, effects: { scrolled, replaced } }) {
    if (scrolled) {
      const { dx, dy, to } = scrolled;
      const by = [dy ? `${dy > 0 ? 'down' : 'up'} ${Math.abs(dy)} px` : '', dx ? `${dx > 0 ? 'right' : 'left'} ${Math.abs(dx)} px` : ''].filter(Boolean).join(' and ');
      reply.set('page_scrolled', scrolled);
      const alone = delta && !delta.delta && !delta.navigated;
      reply.line(`The page scrolled ${by}${to ? `, to ${to}` : ''}${alone ? '; nothing else changed' : ''}.`);
    }
    if (delta?.opened_popup) {
      const popup = delta.opened_popup;
      reply.set('opened_popup', popup);
      reply.line(`Opened ${popup.role}${popup.name ? ` "${popup.name}"` : ''} [ref=${popup.ref}]${popup.items.length ? ` with ${popup.items.length} items` : ''}.`);
      // Its items with their refs, when the delta below does not list them already.
      const shown = delta.delta ?? '';
      const missing = popup.item_lines.filter((line, index) => !shown.includes(`[ref=${popup.items[index]}]`));
      if (missing.length) reply.line(...missing.map((line) => `  ${line}`));
    }
    if (delta?.unsettled) reply.line(`(The page had not settled: ${delta.unsettled}; this is what it showed then.)`);
    if (delta?.delta) {
      reply.set('delta', delta.delta);
      if (delta.navigated && delta.url !== undefined) {
        reply.set('url', delta.url);
        reply.set('title', delta.title ?? '');
      }
      const where = delta.url !== undefined ? `: ${delta.title || '(untitled)'} — ${delta.url}` : '';
      // Snapshot lines ("- …") follow the head as they are; a navigation says where it went first.
      if (delta.navigated) reply.line(`New page${where}`);
      reply.line(delta.delta);
    } else if (delta && !delta.navigated) {
      if (!scrolled) reply.line('No change on the page.');
    } else if (replaced) {
      reply.line('A new document loaded; earlier refs of this page are stale.');
    }
  },
};
