// The tabs section: tabs and popups a page of the group opened during the call, one line each.
import { z } from 'zod';
import { tabInfoSchema, type TabInfo } from '../tab-info.js';
import type { Section } from './reply.js';

const schema = {
  opened_tabs: z.array(tabInfoSchema).optional(),
};

export const openedTabsSection: Section<typeof schema, TabInfo[]> = {
  schema,
  render(reply, tabs) {
    if (!tabs.length) return;
    reply.set('opened_tabs', tabs);
    reply.line(...tabs.map((tab) => `Opened tab ${tab.tabId} (joined this group; use tabId ${tab.tabId}): ${tab.title || '(untitled)'} — ${tab.url}`));
  },
};
