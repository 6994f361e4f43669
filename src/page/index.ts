// Entry of the page-script bundle. It runs inside the BiDi sandbox realm "firefox-use": it sees the page's DOM
// through Xray wrappers, so prototype overrides made by the page do not reach it.
import { operations } from './operations.js';
import { PageError } from './errors.js';
import { elementFor } from './registry.js';

interface Failure {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

// Ops take their JSON argument and, when the server passes element references, those elements.
type Operation = (args: never, nodes: Node[]) => unknown;

function fail(error: unknown): string {
  const failure: Failure =
    error instanceof PageError
      ? { code: error.code, message: error.message, details: error.details }
      : { code: 'internal_error', message: `page script: ${(error as Error)?.message ?? String(error)}` };
  return JSON.stringify({ ok: false, error: failure });
}

function call(op: string, argsJson: string, nodes: Node[] = []): string | Promise<string> {
  const fn = (operations as Record<string, Operation>)[op];
  if (!fn) return fail(new PageError('internal_error', `unknown page operation ${op}`));
  try {
    const result = fn(JSON.parse(argsJson) as never, nodes);
    if (result instanceof Promise) return result.then((value: unknown) => JSON.stringify({ ok: true, value }), fail);
    return JSON.stringify({ ok: true, value: result });
  } catch (error) {
    return fail(error);
  }
}

/**
 * The element behind a (document, local id) pair as a node, so the server gets a BiDi shared reference for it
 * (input.setFiles needs one); a failure comes back as the same JSON text `call` would return.
 */
function element(docId: string, localId: number): Element | string {
  try {
    return elementFor(docId, localId);
  } catch (error) {
    return fail(error);
  }
}

const scope = globalThis as unknown as { __firefoxUse?: unknown };
if (!scope.__firefoxUse) scope.__firefoxUse = { call, element };
