// Whole tasks, scripted as an agent does them with a server's tools: read to get refs, act, read the result.
// The agent's rule, the same for every server: look for the target in the replies seen since the page last
// changed (newest first); if it is not there, call the server's snapshot tool; if an action fails (a stale ref),
// read once more and retry. Counted: calls and the characters of every reply.
import { findRef } from './refs.mjs';
import { textOf } from './mcp.mjs';

export const FLOWS = [
  {
    id: 'signin-checkout',
    title: 'sign in, add to cart, check out',
    start: '/apps/shop/index.html',
    steps: [
      { act: 'type', target: { role: 'textbox', name: 'Email' }, text: 'ann@example.com' },
      { act: 'type', target: { role: 'textbox', name: 'Password' }, text: 'correct horse' },
      { act: 'click', target: { role: 'button', name: 'Sign in' }, changesPage: true },
      { act: 'click', target: { role: 'button', name: 'Add Trail Mug to cart' }, reveals: true },
      { act: 'click', target: { role: 'button', name: 'Checkout' }, changesPage: true },
      { act: 'type', target: { role: 'textbox', name: 'Full name' }, text: 'Ann Example' },
      { act: 'type', target: { role: 'textbox', name: 'Shipping address' }, text: '1 Main Street, Lyon' },
      { act: 'click', target: { role: 'radio', name: 'Express shipping' } },
      { act: 'click', target: { role: 'button', name: 'Place order' }, changesPage: true },
    ],
    expect: 'Order A1001 placed for Ann Example, express shipping',
  },
  {
    id: 'menu-dialog',
    title: 'open a row menu, delete through a confirm dialog',
    start: '/apps/admin/index.html',
    steps: [
      { act: 'click', target: { role: 'button', name: 'Actions for Apollo' }, reveals: true },
      { act: 'click', target: { role: 'menuitem', name: 'Delete' }, changesPage: true },
      { act: 'type', target: { role: 'textbox', name: 'Project name' }, text: 'Apollo' },
      { act: 'click', target: { role: 'button', name: 'Delete project' }, changesPage: true },
    ],
    expect: 'Apollo was deleted',
  },
];

export async function runFlow(adapter, server, handle, fixtures, flow) {
  const log = [];
  let calls = handle.calls?.length ?? 0;
  let chars = handle.calls?.reduce((sum, call) => sum + call.chars, 0) ?? 0;
  let seen = [];
  const call = async ([tool, args]) => {
    const reply = await server.call(tool, args);
    calls++;
    chars += reply.chars;
    const text = reply.result ? textOf(reply.result) : '';
    log.push({ tool, ms: Math.round(reply.ms), chars: reply.chars, error: reply.error ?? undefined });
    seen.unshift(text);
    return { reply, text };
  };
  const read = () => call(adapter.ops.snapshot(handle));
  const locate = (target) => {
    for (const text of seen) {
      const ref = findRef(adapter.format, text, target);
      if (ref) return ref;
    }
    return null;
  };
  const started = performance.now();
  try {
    if (!server.has(adapter.snapshotTool)) return { skipped: `no ${adapter.snapshotTool} tool` };
    const nav = await call(adapter.ops.navigate(handle, fixtures.url(flow.start)));
    if (nav.reply.error) return { failed: `navigate: ${nav.reply.error}`, calls, chars };
    seen = [nav.text];
    for (const step of flow.steps) {
      const name = `${step.target.name} ${step.target.role}`;
      const withSnapshot = { withSnapshot: Boolean(step.changesPage || step.reveals) };
      const op = (ref) => (step.act === 'click' ? adapter.ops.click(handle, ref, name, withSnapshot) : adapter.ops.type(handle, ref, step.text, name, withSnapshot));
      let ref = locate(step.target);
      if (!ref) {
        await read();
        ref = locate(step.target);
      }
      if (!ref) return { failed: `no ref for ${name}`, calls, chars, log };
      if (!server.has(op(ref)[0])) return { skipped: `no ${op(ref)[0]} tool` };
      let acted = await call(op(ref));
      if (acted.reply.error) {
        if (/not available in this build/.test(acted.reply.error)) return { skipped: `${op(ref)[0]}: ${acted.reply.error}` };
        seen = [];
        await read();
        ref = locate(step.target);
        if (!ref) return { failed: `after an error (${acted.reply.error}), no ref for ${name}`, calls, chars, log };
        acted = await call(op(ref));
        if (acted.reply.error) return { failed: `${name}: ${acted.reply.error}`, calls, chars, log };
      }
      if (step.changesPage) seen = [acted.text];
    }
    if (!seen[0]?.includes(flow.expect)) await read();
    const done = seen[0]?.includes(flow.expect);
    return {
      ...(done ? { ok: true } : { failed: `the result does not show "${flow.expect}"` }),
      calls,
      chars,
      ms: Math.round(performance.now() - started),
      log,
    };
  } catch (error) {
    return { failed: error.message, calls, chars, log };
  }
}
