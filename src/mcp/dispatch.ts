import type { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServerOptions } from '../config.js';
import { CallCancelled, NEVER, isCancelled } from '../abort.js';
import { ToolError, isToolError } from '../errors.js';
import { unmappedBidiError } from '../browser/bidi-errors.js';
import type { CallArgs, PreparedCall, TabToolContext, Tool, ToolResponse } from '../tools/tool.js';
import { findMatches } from '../tools/find.js';
import { describeOpenedTab } from '../tools/tab-info.js';
import { openedTabsSection, Reply } from '../tools/reply/index.js';
import { escapeControls, escapeDeep } from '../text-safety.js';
import { renderText } from './render.js';
import { MAX_ARGUMENT_DEPTH, tooDeepField } from './arg-depth.js';
import type { RefLocator, RefPin } from './recorder.js';
import { secretsOf, type Secrets } from './secrets.js';
import type { Session } from './session.js';
import { sessionToolContext, tabToolContext } from './tool-context.js';

/** Turns a zod failure into one readable line naming each field and what it expected. */
export function describeZodError(error: z.ZodError): { message: string; field: string } {
  const parts = error.issues.slice(0, 5).map((issue) => {
    const where = issue.path.length ? issue.path.join('.') : issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : '(arguments)';
    return `${where}: ${issue.message}`;
  });
  // One field, the argument the first issue is in (coordinate, not coordinate.0), like every other invalid_arguments;
  // the message says where inside it.
  const first = error.issues[0];
  const field = first?.path.length ? String(first.path[0]) : first?.code === 'unrecognized_keys' ? (first.keys[0] ?? '(arguments)') : '(arguments)';
  return { message: parts.join('; '), field };
}

export function errorResult(error: unknown): CallToolResult {
  const toolError = toToolError(error);
  const payload = toolError.toJSON();
  return {
    isError: true,
    content: [{ type: 'text', text: escapeControls(`${toolError.code}: ${toolError.message}` + renderDetails(toolError)) }],
    structuredContent: { error: escapeDeep(payload) },
  };
}

function renderDetails(error: ToolError): string {
  const details = Object.entries(error.details).filter(([key]) => key !== 'tabId');
  if (details.length === 0) return '';
  return '\n' + details.map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`).join('\n');
}

export function toToolError(error: unknown): ToolError {
  if (isToolError(error)) return error;
  const refused = unmappedBidiError(error);
  if (refused) return refused;
  const message = error instanceof Error ? error.message : String(error);
  return new ToolError('internal_error', message);
}

export function successResult(response: ToolResponse<Record<string, unknown>>, notice: string | null): CallToolResult {
  const text = response.text ?? renderText(response.structured);
  // Whatever a page put in a reply is printed by clients and read by models: no control or bidi character gets out raw.
  const content: CallToolResult['content'] = [{ type: 'text', text: escapeControls(notice ? `${notice}\n${text}` : text) }];
  for (const image of response.images ?? []) content.push({ type: 'image', data: image.base64 ?? image.data.toString('base64'), mimeType: image.mimeType });
  return { content, structuredContent: escapeDeep(notice ? { ...response.structured, notice } : response.structured) };
}

/** How long a reply waits for a tab its action opened to show a URL and title. */
const OPENED_TAB_WAIT_MS = 3_000;

/** Adds the tabs and popups pages of the group opened during (or since the reply before) this call. */
async function withOpenedTabs(response: ToolResponse<Record<string, unknown>>, session: Session): Promise<ToolResponse<Record<string, unknown>>> {
  const opened = session.takeOpenedTabs();
  if (opened.length === 0) return response;
  const tabs = await Promise.all(opened.map((tab) => describeOpenedTab(tab, OPENED_TAB_WAIT_MS)));
  const reply = new Reply<Record<string, unknown>>({ ...response.structured }, [response.text ?? renderText(response.structured)]);
  openedTabsSection.render(reply, tabs);
  return { ...response, ...reply.response() };
}

/** Validates, resolves the tab inside the caller's group, runs the handler, and codes every failure. */
export async function dispatch(tool: Tool, rawArgs: unknown, session: Session, options: ServerOptions, signal: AbortSignal = NEVER): Promise<CallToolResult> {
  const secrets = secretsOf(options);
  const watched = session.watchers.begin(tool.name, isArgs(rawArgs) ? rawArgs : {});
  // The tool gets the values; the reply, and the script recorded, get `${NAME}` back.
  const result = await dispatchRecorded(tool, rawArgs, session, options, signal, secrets ?? undefined);
  session.watchers.end(watched, result);
  // The client cancelled it and reads no reply (the SDK sends none): its next call hears how it ended.
  if (signal.aborted) session.addNotice(cancelledNotice(tool.name, result));
  return result;
}

async function dispatchRecorded(tool: Tool, rawArgs: unknown, session: Session, options: ServerOptions, signal: AbortSignal, secrets?: Secrets): Promise<CallToolResult> {
  const recorder = session.recorder;
  const masked = (result: CallToolResult): CallToolResult => (secrets ? secrets.maskResult(result) : result);
  const toolArgs = secrets ? secrets.fill(rawArgs) : rawArgs;
  // Before anything walks them (zod, the recorder, the export): what is refused here is recorded without its value.
  const deep = tooDeepField(rawArgs);
  if (deep !== null) {
    const result = errorResult(new ToolError('invalid_arguments', `${deep}: nested deeper than ${MAX_ARGUMENT_DEPTH} levels; no tool takes that.`, { field: deep }));
    recorder?.record(tool, { [deep]: `<nested deeper than ${MAX_ARGUMENT_DEPTH} levels>` }, result);
    return result;
  }
  if (!recorder) return masked(await dispatchCall(tool, toolArgs, session, options, signal));
  // Recording (--save-script, --caps script): the call, and how the element of its ref can be found again.
  const call: { pin?: RefPin } = {};
  const result = masked(await dispatchCall(tool, toolArgs, session, options, signal, call));
  recorder.record(tool, isArgs(rawArgs) ? rawArgs : {}, result, secrets && call.pin ? secrets.mask(call.pin) : call.pin);
  return result;
}

/** The recorder's RefLocator on a call's tab: find's own ranking, so the replay's find picks the same match. */
function refsFoundOn(context: TabToolContext): RefLocator {
  return async (query, maxResults) => (await findMatches(context, query, maxResults)).matches.map((match) => match.ref);
}

function isArgs(value: unknown): value is CallArgs {
  return typeof value === 'object' && value !== null;
}

async function dispatchCall(tool: Tool, rawArgs: unknown, session: Session, options: ServerOptions, signal: AbortSignal, call?: { pin?: RefPin }): Promise<CallToolResult> {
  // The tool's own parse, bound to its own handler (defineTool): nothing here asserts what the arguments are.
  let prepared: PreparedCall;
  try {
    const { call: bound, invalid } = tool.prepare(rawArgs);
    if (invalid) {
      const { message, field } = describeZodError(invalid);
      return errorResult(new ToolError('invalid_arguments', message, { field }));
    }
    prepared = bound;
  } catch (error) {
    return errorResult(error);
  }
  const release = session.manager.hold();
  try {
    if (prepared.scope === 'session') {
      const response = await prepared.run(sessionToolContext(session, options, signal));
      return successResult(response, session.takeLostTabsNotice());
    }
    const { args, tabId, run } = prepared;
    const browser = await session.group.browser();
    const tab = session.group.resolveTab(browser, tabId);
    // A tab in a person's hands (request_human) is theirs until the hand-off ends: refused, not queued behind it.
    session.handOffs.assertFree(tab.id);
    session.group.activeTabId = tab.id;
    const response = await tab.serialize(async () => {
      // Cancelled while queued behind another call on the tab: it never starts.
      if (signal.aborted) throw new CallCancelled(false);
      if (tool.worksWithDialog) {
        if (tab.isClosed) tab.assertUsable();
      } else {
        tab.assertUsable();
      }
      await browser.showTab(tab);
      const tabContext = tabToolContext(session, options, browser, tab, signal);
      if (call && session.recorder) call.pin = await session.recorder.pin(args, refsFoundOn(tabContext));
      return run(tabContext);
    });
    // Taken once the call had its turn on the tab: a cancelled call it queued behind has left its notice by then.
    return successResult(await withOpenedTabs(response, session), session.takeLostTabsNotice());
  } catch (error) {
    if (isCancelled(error)) return cancelledResult(error);
    return errorResult(error);
  } finally {
    release();
  }
}

/** How a cancelled call ended, for the session's next notice; the client itself reads no reply to it. */
const cancelledCalls = new WeakMap<CallToolResult, CallCancelled>();

function cancelledResult(error: CallCancelled): CallToolResult {
  const result: CallToolResult = { isError: true, content: [{ type: 'text', text: error.message }] };
  cancelledCalls.set(result, error);
  return result;
}

/** What the next reply says of a call the client cancelled: stopped, never begun, or done before the cancel came. */
function cancelledNotice(tool: string, result: CallToolResult): string {
  const stopped = cancelledCalls.get(result);
  if (stopped && !stopped.started) return `Your cancelled ${tool} call never started: nothing was done.`;
  if (stopped) {
    const after = tool === 'navigate' ? ': the page it started loading may have gone on (read_page shows where the tab is)' : '; nothing is left running';
    return `Your cancelled ${tool} call stopped while it waited${after}.`;
  }
  const first = result.content.find((part) => part.type === 'text')?.text.split('\n')[0] ?? '';
  return `Your cancelled ${tool} call had ${result.isError ? 'failed' : 'been carried out'} before the cancel took effect: ${first}`;
}
