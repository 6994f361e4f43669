// The downloads section: files an action or a navigation started, as records and as one line each.
import { z } from 'zod';
import { describeDownloads, type Download } from '../../browser/group/index.js';
import type { Section } from './reply.js';

const schema = {
  downloads: z.array(z.object({ url: z.string(), file: z.string(), status: z.string(), path: z.string().optional() })).optional(),
};

export const downloadsSection: Section<typeof schema, Download[]> = {
  schema,
  render(reply, downloads) {
    if (!downloads.length) return;
    reply.set('downloads', downloads.map((d) => ({ url: d.url, file: d.suggestedFilename, status: d.status, ...(d.path ? { path: d.path } : {}) })));
    reply.line(describeDownloads(downloads));
  },
};
