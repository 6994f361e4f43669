// The context a tool's handler gets (src/tools/context.ts), made from the caller's Session: the tool sees its group
// (the TabGroup's tool view, plus the session's output dir and script), the options and a few named services, never
// the Browser or the Session itself.
import type { Browser } from '../browser/browser.js';
import type { Tab } from '../browser/tab/index.js';
import type { ServerOptions } from '../config.js';
import type { SessionGroup, TabToolContext, ToolContext, ToolServices } from '../tools/context.js';
import type { Session } from './session.js';
import { runHandOff } from './live/hand-off.js';

/**
 * `browser` is how the group reaches Firefox: the session's (launched on first use) for a session tool, the one the
 * tab lives in for a tab tool (a crash mid-call then fails the call rather than relaunching under it).
 */
function sessionGroup(session: Session, browser: () => Promise<Browser>, outputDir: string): SessionGroup {
  // Assigned, not spread: the view's activeTabId is an accessor onto the group.
  return Object.assign(session.group.on(browser), { outputDir, exportScript: () => session.recorder?.export() ?? null });
}

/** What the session offers its tools: its server's open sessions, and the person it asks (--confirm-actions). */
function services(session: Session, options: ServerOptions, signal: AbortSignal): ToolServices {
  return {
    openSessionCount: () => session.manager.listenerCount,
    confirm: (question) => session.ask(question, signal),
    handOff: (request) => runHandOff(session, request, options.headed, signal),
  };
}

/** A session tool's context: the group launches Firefox on first use, and keeps that browser for the rest of the call. */
export function sessionToolContext(session: Session, options: ServerOptions, signal: AbortSignal): ToolContext {
  let browser: Promise<Browser> | undefined;
  return {
    group: sessionGroup(session, () => (browser ??= session.group.browser()), options.outputDir),
    options,
    services: services(session, options, signal),
    signal,
  };
}

/** A tab tool's context: the group works on the browser the tab lives in. */
export function tabToolContext(session: Session, options: ServerOptions, browser: Browser, tab: Tab, signal: AbortSignal): TabToolContext {
  return {
    group: sessionGroup(session, () => Promise.resolve(browser), options.outputDir),
    options,
    services: services(session, options, signal),
    signal,
    tab,
  };
}
