// A scripted stand-in for Firefox's Remote Agent: a WebSocket server on 127.0.0.1 that answers each BiDi command
// with what the test's script says (a result, an error, events first), so the server's bookkeeping can be tested
// without a browser.
import { WebSocketServer } from 'ws';

/**
 * `script(method, params, reply)` is called for every command; `reply` offers `result(value)`, `error(code, message)`
 * and `event(method, params)` (sent before the answer, as Firefox does). Returns {url, commands, close}.
 */
export async function startFakeBidi(script) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => wss.once('listening', resolve));
  const commands = [];
  const sockets = new Set();
  wss.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('message', async (data) => {
      const { id, method, params } = JSON.parse(String(data));
      commands.push({ method, params });
      const send = (message) => socket.send(JSON.stringify(message));
      const reply = {
        event: (name, eventParams) => send({ type: 'event', method: name, params: eventParams }),
        result: (result = {}) => send({ type: 'success', id, result }),
        error: (error, message) => send({ type: 'error', id, error, message }),
      };
      await script(method, params, reply);
    });
  });
  return {
    url: `ws://127.0.0.1:${wss.address().port}`,
    commands,
    /** Drops every connection, as a Firefox that crashed would. */
    drop: () => sockets.forEach((socket) => socket.terminate()),
    close: () => new Promise((resolve) => {
      sockets.forEach((socket) => socket.terminate());
      wss.close(resolve);
    }),
  };
}

/** The answer script.callFunction gives for a page-script op that succeeded with `value`. */
export function pageAnswer(value) {
  return { type: 'success', realm: 'fake', result: { type: 'string', value: JSON.stringify({ ok: true, value }) } };
}
