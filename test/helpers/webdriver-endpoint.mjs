// A small WebDriver endpoint that creates sessions the way geckodriver does, for testing --webdriver-url on the
// real Firefox. POST /session with capabilities.alwaysMatch.webSocketUrl: true launches /usr/bin/firefox on a fresh
// profile (the moz:firefoxOptions args, the prefs written to user.js) with the BiDi port open, creates the session
// and answers {value: {sessionId, capabilities: {webSocketUrl, ...}}}; DELETE /session/<id> ends it and closes that
// Firefox. Like geckodriver it starts Firefox with -marionette (marionette.port 0, the port read back from the
// profile's MarionetteActivePort) and --remote-debugging-port, and makes the session with WebDriver:NewSession over
// Marionette: Firefox itself then registers ws://…/session/<id> for the session and names it in webSocketUrl, and a
// client must not send session.new there (a BiDi-only session from session.new gets no such path).
// With `grid: true` it answers like Selenium Grid 4: webSocketUrl points at this endpoint (…/session/<id>/se/bidi)
// and every frame is relayed to Firefox, so a test can see which BiDi commands the client sent.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket, { WebSocketServer } from 'ws';

const FIREFOX = process.env.FIREFOX_USE_FIREFOX ?? '/usr/bin/firefox';

function launch(args, prefs, env = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'fu-fake-wd-profile-'));
  // As geckodriver: Marionette on a free port, written back to the profile.
  prefs = { ...prefs, 'marionette.port': 0 };
  writeFileSync(join(profile, 'user.js'), Object.entries(prefs).map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});`).join('\n') + '\n');
  // As geckodriver: the client's args, a profile of our own, the BiDi port on (0: any free one).
  const child = spawn(FIREFOX, [...args, '-marionette', '--no-remote', '--profile', profile, '--remote-debugging-port=0', '--remote-allow-hosts', 'localhost,127.0.0.1'], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    // As geckodriver: moz:firefoxOptions.env goes into Firefox's environment.
    env: { ...process.env, MOZ_CRASHREPORTER_DISABLE: '1', ...(args.includes('-headless') ? { MOZ_HEADLESS: '1' } : {}), ...env },
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { child, profile, exited, ready: bidiEndpoint(child) };
}

/** The ws:// address a Firefox started with --remote-debugging-port prints on stderr (piped). */
export function bidiEndpoint(child) {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      text += chunk;
      const match = /WebDriver BiDi listening on (ws:\/\/\S+)/.exec(text);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`firefox exited (${code}): ${text.slice(-500)}`)));
  });
}

/** A Marionette client: length-prefixed JSON, [0, id, command, params] out, [1, id, error, result] back. */
// Marionette starts after the browser's idle startup tasks, seconds after the BiDi port under load (a CI run with
// the suite on both cores took over 10 s); geckodriver gives it 60 s.
const MARIONETTE_WAIT_MS = 60_000;

async function marionette(profile, child) {
  let port = 0;
  const deadline = Date.now() + MARIONETTE_WAIT_MS;
  while (!port && Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
    try {
      port = Number(readFileSync(join(profile, 'MarionetteActivePort'), 'utf8').trim());
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  if (!port) throw new Error(`Marionette did not write its port${child.exitCode === null && child.signalCode === null ? ` in ${MARIONETTE_WAIT_MS / 1000} s` : ' (Firefox exited)'}`);
  const socket = connect(port, '127.0.0.1');
  let buffer = Buffer.alloc(0);
  const waiting = new Map();
  let hello;
  const helloSeen = new Promise((resolve) => (hello = resolve));
  socket.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const colon = buffer.indexOf(':');
      if (colon < 0) return;
      const length = Number(buffer.subarray(0, colon).toString());
      if (buffer.length < colon + 1 + length) return;
      const message = JSON.parse(buffer.subarray(colon + 1, colon + 1 + length).toString());
      buffer = buffer.subarray(colon + 1 + length);
      if (!Array.isArray(message)) hello(message);
      else waiting.get(message[1])?.(message);
    }
  });
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  await helloSeen;
  let next = 1;
  return {
    call(command, params) {
      const id = next++;
      const body = JSON.stringify([0, id, command, params]);
      socket.write(`${Buffer.byteLength(body)}:${body}`);
      return new Promise((resolve, reject) => {
        waiting.set(id, ([, , error, result]) => {
          waiting.delete(id);
          if (error) reject(new Error(`${error.error}: ${error.message}`));
          else resolve(result);
        });
      });
    },
    close: () => socket.destroy(),
  };
}

function send(response, status, value) {
  const body = JSON.stringify({ value });
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' });
  response.end(body);
}

const error = (response, status, code, message) => send(response, status, { error: code, message, stacktrace: '' });

/**
 * Starts the endpoint. Returns {url, requests, sessions, bidiMethods(id), close}: `requests` lists every HTTP
 * request ({method, path, body}); `sessions` maps a live session id to its Firefox pid.
 */
export async function startWebDriverEndpoint({ grid = false, port = 0 } = {}) {
  const requests = [];
  const sessions = new Map();
  const relayed = new Map();
  const ending = new Set();
  const handle = (request, raw, response) => {
    const path = (request.url ?? '/').replace(/^\/wd\/hub/, '');
    let body;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      return error(response, 400, 'invalid argument', 'body is not JSON');
    }
    requests.push({ method: request.method, path, body });
    if (request.method === 'POST' && path === '/session') return newSession(body, request, response);
    const match = /^\/session\/([^/]+)$/.exec(path);
    if (request.method === 'DELETE' && match) return deleteSession(match[1], response);
    if (request.method === 'GET' && path === '/status') return send(response, 200, { ready: true, message: 'fake endpoint' });
    return error(response, 404, 'unknown command', `${request.method} ${path}`);
  };
  const server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => handle(request, raw, response));
  });
  // Java's HTTP client (Selenium Grid's node) asks for an h2c upgrade on plain requests; Node hands those to the
  // 'upgrade' listener, so they are answered here in HTTP/1.1, as geckodriver does by ignoring the offer.
  const h2c = (request, socket, head) => {
    const length = Number(request.headers['content-length'] ?? 0);
    let raw = Buffer.from(head);
    const respond = () => {
      let status = 200;
      let headers = {};
      handle(request, raw.subarray(0, length).toString(), {
        writeHead(code, fields) {
          status = code;
          headers = fields ?? {};
          return this;
        },
        end(body = '') {
          const lines = Object.entries({ ...headers, 'content-length': Buffer.byteLength(body), connection: 'close' }).map(([k, v]) => `${k}: ${v}`);
          socket.end(`HTTP/1.1 ${status} ${status === 200 ? 'OK' : 'Error'}\r\n${lines.join('\r\n')}\r\n\r\n${body}`);
        },
      });
    };
    if (raw.length >= length) return respond();
    socket.on('data', (chunk) => {
      raw = Buffer.concat([raw, chunk]);
      if (raw.length >= length) respond();
    });
  };

  async function newSession(body, request, response) {
    const caps = body?.capabilities;
    if (!caps || typeof caps !== 'object') return error(response, 400, 'invalid argument', 'capabilities missing');
    const wanted = { ...(caps.alwaysMatch ?? {}), ...(caps.firstMatch?.[0] ?? {}) };
    if (wanted.browserName && wanted.browserName !== 'firefox') return error(response, 500, 'session not created', `no ${wanted.browserName} here`);
    if (wanted.webSocketUrl !== true) return error(response, 500, 'session not created', 'this endpoint only makes BiDi sessions');
    const options = wanted['moz:firefoxOptions'] ?? {};
    const firefox = launch(options.args ?? [], options.prefs ?? {}, options.env ?? {});
    try {
      await firefox.ready;
      const control = await marionette(firefox.profile, firefox.child);
      firefox.control = control;
      // geckodriver hands Marionette the capabilities minus its own moz:firefoxOptions.
      const { 'moz:firefoxOptions': _options, ...forFirefox } = wanted;
      // geckodriver matches the capabilities itself and hands Marionette the flat result.
      const created = await control.call('WebDriver:NewSession', forFirefox);
      const id = created.sessionId;
      const direct = created.capabilities.webSocketUrl;
      if (typeof direct !== 'string') throw new Error('Firefox named no webSocketUrl');
      sessions.set(id, { firefox, control, direct, pid: firefox.child.pid });
      const host = request.headers.host;
      const webSocketUrl = grid ? `ws://${host}/session/${id}/se/bidi` : direct;
      send(response, 200, {
        sessionId: id,
        capabilities: { ...created.capabilities, webSocketUrl, 'moz:processID': firefox.child.pid, 'moz:profile': firefox.profile, ...(grid ? { 'se:bidi': webSocketUrl } : {}) },
      });
    } catch (err) {
      firefox.control?.close();
      await stop(firefox);
      error(response, 500, 'session not created', err.message);
    }
  }

  async function deleteSession(id, response) {
    const session = sessions.get(id);
    if (!session) return error(response, 404, 'invalid session id', `no session ${id}`);
    sessions.delete(id);
    const quitting = quit(session);
    ending.add(quitting);
    await quitting;
    ending.delete(quitting);
    send(response, 200, null);
  }

  // Grid's BiDi proxy: /session/<id>/se/bidi relays to Firefox's /session/<id>, frame for frame.
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, socket, head) => {
    if (!/websocket/i.test(request.headers.upgrade ?? '')) return h2c(request, socket, head);
    const match = /^(?:\/wd\/hub)?\/session\/([^/]+)\/se\/bidi$/.exec(request.url ?? '');
    const session = match && sessions.get(match[1]);
    if (!grid || !session) return socket.destroy();
    wss.handleUpgrade(request, socket, head, (client) => {
      const methods = relayed.get(match[1]) ?? [];
      relayed.set(match[1], methods);
      const upstream = new WebSocket(session.direct);
      const pending = [];
      upstream.on('open', () => pending.splice(0).forEach((data) => upstream.send(data)));
      client.on('message', (data) => {
        const text = String(data);
        try {
          methods.push(JSON.parse(text).method);
        } catch {
          methods.push('(not JSON)');
        }
        if (upstream.readyState === WebSocket.OPEN) upstream.send(text);
        else pending.push(text);
      });
      upstream.on('message', (data) => client.readyState === WebSocket.OPEN && client.send(String(data)));
      upstream.on('close', () => client.close());
      client.on('close', () => upstream.close());
      upstream.on('error', () => client.close());
    });
  });

  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    requests,
    sessions,
    /** BiDi methods the client sent through the Grid proxy for a session. */
    bidiMethods: (id) => relayed.get(id) ?? [],
    async close() {
      for (const id of [...sessions.keys()]) {
        const session = sessions.get(id);
        sessions.delete(id);
        await quit(session);
      }
      await Promise.all(ending);
      wss.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** As geckodriver on DELETE: end the session, ask Firefox to quit, and make sure it did. */
async function quit(session) {
  await session.control.call('WebDriver:DeleteSession', {}).catch(() => undefined);
  await session.control.call('Marionette:Quit', { flags: ['eForceQuit'] }).catch(() => undefined);
  session.control.close();
  await stop(session.firefox);
}

async function stop(firefox) {
  if (firefox.child.exitCode === null && firefox.child.signalCode === null) {
    const timer = setTimeout(() => {
      try {
        process.kill(-firefox.child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, 5_000);
    await firefox.exited;
    clearTimeout(timer);
  }
  // Content processes share the group: none outlives the session.
  try {
    process.kill(-firefox.child.pid, 'SIGKILL');
  } catch {
    /* gone */
  }
  rmSync(firefox.profile, { recursive: true, force: true });
}
