// Runs one real-app task with one server's tools, as an agent would: the target is looked for in the replies seen
// since the page last changed (newest first); if it is not there, the server's snapshot tool is called; an action
// that errors is retried once after a fresh read. When the task's proof is not in the last reply, the agent reads
// the page again, up to three times with a short pause (a target, up to four times) (apps finish rendering after the reply). Counted: calls and
// the characters of every reply. A server with a search tool (firefox-use's `find`) is asked with the target's name
// (or the task's proof) when a snapshot does not show it, as its agent guide says; flagged: replies that said an action did not land while its effect then showed.
import { findRef } from './refs.mjs';
import { textOf } from './mcp.mjs';

const DENIES = /NOT delivered|No change on the page/;
const shows = (text, expected) => (expected instanceof RegExp ? expected.test(text) : text.includes(expected));

export async function runTask(adapter, server, handle, apps, task) {
  const log = [];
  let calls = 0;
  let chars = 0;
  let seen = [];
  const denials = [];
  const call = async ([tool, args], note = '') => {
    const reply = await server.call(tool, args);
    calls++;
    chars += reply.chars;
    const text = reply.result ? textOf(reply.result) : '';
    log.push({ tool, args, note, ms: Math.round(reply.ms), chars: reply.chars, error: reply.error ?? undefined, text });
    seen.unshift(text);
    return { reply, text };
  };
  const read = (note) => call(adapter.ops.snapshot(handle), note);
  const locate = (target) => {
    for (const text of seen) {
      const ref = findRef(adapter.format, text, target);
      if (ref) return ref;
    }
    return null;
  };
  const started = performance.now();
  const result = (extra) => ({ calls, chars, ms: Math.round(performance.now() - started), misleading: denials.length, denials, ...extra, log });
  try {
    const nav = await call(adapter.ops.navigate(handle, apps.url(task.start)), 'navigate');
    if (nav.reply.error) return result({ ok: false, failed: `navigate: ${nav.reply.error}` });
    seen = [nav.text];
    for (const step of task.steps) {
      if (step.act === 'key') {
        await call(adapter.ops.key(handle, step.key), `key ${step.key}`);
        continue;
      }
      const label = `${step.target.name} ${[step.target.role].flat()[0]}`;
      const op = (ref) => {
        if (step.act === 'click') return adapter.ops.click(handle, ref, label);
        if (step.act === 'dblclick') return adapter.ops.dblclick(handle, ref, label);
        return adapter.ops.type(handle, ref, step.text, label);
      };
      let ref = locate(step.target);
      for (let tries = 0; !ref && tries < 4; tries++) {
        if (tries) await new Promise((resolve) => setTimeout(resolve, 500));
        await read(`look for ${label}`);
        ref = locate(step.target);
        if (!ref && adapter.ops.find && typeof step.target.name === 'string') {
          await call(adapter.ops.find(handle, step.target.name), `find ${label}`);
          ref = locate(step.target);
        }
      }
      if (!ref) return result({ ok: false, failed: `no ref for ${label}` });
      let acted = await call(op(ref), `${step.act} ${label}`);
      if (acted.reply.error) {
        seen = [];
        await read('after an error');
        ref = locate(step.target);
        if (!ref) return result({ ok: false, failed: `after an error (${acted.reply.error}), no ref for ${label}` });
        acted = await call(op(ref), `${step.act} ${label} (retry)`);
        if (acted.reply.error) return result({ ok: false, failed: `${label}: ${acted.reply.error}` });
      }
      if (DENIES.test(acted.text)) denials.push({ step: `${step.act} ${label}`, said: acted.text.split('\n')[0], effect: step.effect });
      if (step.changesPage) seen = [acted.text];
    }
    for (let tries = 0; !shows(seen[0] ?? '', task.expect) && tries < 3; tries++) {
      if (tries) await new Promise((resolve) => setTimeout(resolve, 300));
      await read('check the result');
      if (!shows(seen[0], task.expect) && adapter.ops.find && typeof task.expect === 'string') {
        await call(adapter.ops.find(handle, task.expect), 'find the result');
        seen[0] = seen[0].split('\n').slice(1).join('\n'); // its first line repeats the query
      }
    }
    const done = shows(seen[0] ?? '', task.expect);
    // A denial is misleading only where the step's effect (or the task's proof) showed afterwards.
    const misleading = denials.filter((d) => done && (!d.effect || seen.some((text) => text.includes(d.effect))));
    denials.splice(0, denials.length, ...misleading);
    return result(done ? { ok: true } : { ok: false, failed: `the result does not show ${task.expect}` });
  } catch (error) {
    return result({ ok: false, failed: error.message });
  }
}
