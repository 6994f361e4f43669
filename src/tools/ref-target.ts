import { z } from 'zod';
import type { RefTarget } from '../browser/refs.js';
import type { TabToolContext } from './tool.js';

export const refField = z.string().regex(/^ref_\d+$/, 'must look like "ref_12"');

/**
 * The element a ref names on this tab (ref_stale when it was never issued or is another tab's). The page op then
 * checks that the element is still there in that document.
 */
export function refTarget(context: TabToolContext, ref: string): RefTarget {
  return context.browserNow.refs.lookup(ref, context.tab.id);
}
