// The person beside the agent, asked through the MCP client (elicitation): a yes-or-no form with one line of question.
// A client that declared no elicitation cannot be asked; its calls that need a yes are refused (src/tools/confirm.ts).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { ConfirmAnswer, ConfirmQuestion } from '../tools/context.js';
import type { Asker } from './session.js';
import type { ClientHandOffAnswer, HandOffOffer } from './live/hand-off.js';

/** One boolean field: clients render it as a checkbox or a yes/no, and "accept" with it unticked is a no. */
const YES_OR_NO = {
  type: 'object' as const,
  properties: { confirm: { type: 'boolean' as const, title: 'Go ahead', description: 'Tick to let the agent do this; leave it or decline to stop it.' } },
  required: ['confirm'],
};

/**
 * The tool call each call's signal belongs to: over Streamable HTTP the question must go out on that call's stream
 * (a request related to no call would wait for a GET stream the client may never open).
 */
const callOfSignal = new WeakMap<AbortSignal, RequestId>();

/** Notes which tool call `signal` is the signal of (the server's tools/call handler does, before dispatch). */
export function noteCall(signal: AbortSignal, requestId: RequestId): void {
  callOfSignal.set(signal, requestId);
}

/** Asks through `server`'s client; never throws. */
export function elicitingAsker(server: Server): Asker {
  return async (question: ConfirmQuestion, signal: AbortSignal): Promise<ConfirmAnswer> => {
    if (!server.getClientCapabilities()?.elicitation) return 'unavailable';
    const relatedRequestId = callOfSignal.get(signal);
    try {
      const result = await server.elicitInput(
        { mode: 'form', message: question.message, requestedSchema: YES_OR_NO },
        { timeout: question.timeoutMs, signal, ...(relatedRequestId === undefined ? {} : { relatedRequestId }) },
      );
      if (result.action === 'accept') return result.content?.['confirm'] === true ? 'yes' : 'no';
      return result.action === 'decline' ? 'no' : 'dismissed';
    } catch (error) {
      if (error instanceof McpError && error.code === Number(ErrorCode.RequestTimeout)) return 'timeout';
      if (signal.aborted) return 'dismissed';
      // The client said it could elicit, then could not (no form mode, a broken handler): nobody was asked.
      return 'unavailable';
    }
  };
}

/** request_human's form: accepting it is Done, with an optional note for the agent. */
const HAND_OFF = {
  type: 'object' as const,
  properties: { note: { type: 'string' as const, title: 'Note for the agent', description: 'Optional: what you did, or what the agent should know.' } },
};

/** Offers a hand-off through `server`'s client; never throws. Withdrawn when `stop` aborts (Done in the live view). */
export function elicitingHandOff(server: Server): HandOffOffer {
  return async (message, timeoutMs, callSignal, stop): Promise<ClientHandOffAnswer> => {
    if (!server.getClientCapabilities()?.elicitation) return { answer: 'unavailable' };
    const relatedRequestId = callOfSignal.get(callSignal);
    const signal = AbortSignal.any([callSignal, stop]);
    try {
      const result = await server.elicitInput(
        { mode: 'form', message, requestedSchema: HAND_OFF },
        { timeout: timeoutMs, signal, ...(relatedRequestId === undefined ? {} : { relatedRequestId }) },
      );
      if (result.action === 'accept') {
        const note = result.content?.['note'];
        return { answer: 'done', note: typeof note === 'string' && note.trim() ? note.trim() : null };
      }
      return { answer: result.action === 'decline' ? 'declined' : 'dismissed' };
    } catch (error) {
      if (error instanceof McpError && error.code === Number(ErrorCode.RequestTimeout)) return { answer: 'timeout' };
      if (signal.aborted) return { answer: 'dismissed' };
      return { answer: 'unavailable' };
    }
  };
}
