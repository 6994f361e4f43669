import { z } from 'zod';
import { resolveRef, type RefTarget } from '../browser/tab/index.js';
import type { TabToolContext } from './tool.js';

export const refField = z.string().regex(/^ref_\d+$/, 'must look like "ref_12"');

/** The element a ref names on this tab, checked live (ref_stale with the reason otherwise). */
export async function refTarget(context: TabToolContext, ref: string): Promise<RefTarget> {
  return (await resolveRef(context.tab, ref)).target;
}
