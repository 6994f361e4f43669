// Turning a ref back into a live element for an action: the registry says where it points, the page says whether
// the element is still there.
import { ToolError, isToolError } from '../../errors.js';
import type { RefTarget } from './refs.js';
import { tabOf, type TabHandle } from './handle.js';

/** A ref that still names a live element, with what that element is now. */
export interface ResolvedRef {
  target: RefTarget;
  role: string;
  name: string;
}

/**
 * Resolves a ref for an action: registry lookup (not_in_snapshot; another tab's ref is other_document), then a
 * page check in the ref's frame that the element still exists: ref_stale with reason element_removed (detached)
 * or other_document (the frame navigated, reloaded, or is gone). The element itself is reached in the page with
 * `elementFor(target.docId, target.localId)` in `target.frameContext`.
 */
export async function resolveRef(handle: TabHandle, ref: string): Promise<ResolvedRef> {
  const tab = tabOf(handle);
  const target = lookupRef(handle, ref);
  try {
    const summary = await tab.callPage('describeRef', { docId: target.docId, id: target.localId }, { context: target.frameContext });
    return { target, role: summary.role, name: summary.name };
  } catch (error) {
    throw staleRef(handle, ref, error);
  }
}

/**
 * A ref's element as the registry has it, without asking the page (not_in_snapshot, other_document, a frame gone):
 * for a page call that reaches the element itself, whose ref_stale goes through staleRef.
 */
export function lookupRef(handle: TabHandle, ref: string): RefTarget {
  const tab = tabOf(handle);
  const target = tab.refs.lookup(ref, tab.id);
  if (!tab.contexts.has(target.frameContext)) {
    throw new ToolError('ref_stale', `${ref} was in a frame that no longer exists. Call read_page or find for current refs.`, {
      reason: 'other_document',
      ref,
      tabId: tab.id,
    });
  }
  return target;
}

/** A page call's failure on the element of `ref`, as the ref_stale an agent can act on; other failures as they are. */
export function staleRef(handle: TabHandle, ref: string, error: unknown): unknown {
  const tab = tabOf(handle);
  if (isToolError(error, 'ref_stale')) {
    return new ToolError('ref_stale', `${ref}: ${error.message} Call read_page or find for current refs.`, { ...error.details, ref });
  }
  if (isToolError(error, 'tab_closed') && !tab.isClosed) {
    return new ToolError('ref_stale', `${ref} was in a frame that no longer exists.`, { reason: 'other_document', ref, tabId: tab.id });
  }
  return error;
}
