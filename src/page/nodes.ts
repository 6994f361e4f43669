// Elements the server hands over as BiDi references (e.g. javascript_tool results), named for refs.
import type { NodeIdentity } from '../contract/index.js';
import { documentId, localIdOf } from './registry.js';

/** Local ids (for refs) of elements the server hands over; null for nodes that are not elements. */
export function identify(_args: unknown, nodes: Node[]): Array<NodeIdentity | null> {
  return nodes.map((node) => (node instanceof Element ? { docId: documentId, localId: localIdOf(node) } : null));
}
