// The effects section: what an action did besides changing the page: a dialog it opened, downloads, the document's
// new URL or title (or the frame's URL).
import { z } from 'zod';
import type { ActionEffects } from '../../browser/engine/index.js';
import { downloadsSection } from './downloads.js';
import type { Section } from './reply.js';

/** Where the tab's page is: declared once, written here (same page) and by the changes section (a new page). */
export const whereFields = {
  url: z.string().optional(),
  title: z.string().optional(),
};

const schema = {
  note: z.string().optional(),
  ...downloadsSection.schema,
  ...whereFields,
  /** After an action inside a frame whose document changed: where that frame is now (the tab's URL is `url`'s). */
  frame_url: z.string().optional(),
};

export const effectsSection: Section<typeof schema, ActionEffects> = {
  schema,
  render(reply, effects) {
    if (effects.dialog) {
      reply.set('note', effects.dialog);
      reply.line(`Then ${effects.dialog}.`);
    }
    if (effects.downloads) downloadsSection.render(reply, effects.downloads);
    if (effects.frameUrl) {
      reply.set('frame_url', effects.frameUrl);
      reply.line(`The frame acted in is now at ${effects.frameUrl} (the tab's page stays).`);
    }
    if (effects.url !== undefined) {
      reply.set('url', effects.url);
      reply.line(`URL now ${effects.url}`);
    }
    if (effects.title !== undefined) {
      reply.set('title', effects.title);
      reply.line(`Title now "${effects.title}"`);
    }
  },
};
