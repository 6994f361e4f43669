// FrameTail tells whether the bytes read so far end inside a WebSocket frame (then the connection sends the ACK
// Firefox's Nagle-held remainder waits for). Frames as Firefox sends them: unmasked, 7-, 16- and 64-bit lengths.
import { expect } from 'chai';
import { WebSocketServer } from 'ws';
import { BidiConnection } from '../../dist/bidi/connection.js';
import { FrameTail } from '../../dist/bidi/frame-tail.js';

function frame(payloadLength, { masked = false } = {}) {
  const length = payloadLength < 126 ? [payloadLength] : payloadLength < 65_536 ? [126, payloadLength >> 8, payloadLength & 0xff] : [127, 0, 0, 0, 0, ...[24, 16, 8, 0].map((s) => (payloadLength >>> s) & 0xff)];
  length[0] |= masked ? 0x80 : 0;
  return Buffer.concat([Buffer.from([0x81, ...length]), Buffer.alloc(masked ? 4 : 0), Buffer.alloc(payloadLength, 0x61)]);
}

/** Feeds `bytes` cut at `cuts`; answers what feed said after each piece. */
function feedCut(bytes, cuts) {
  const tail = new FrameTail();
  const answers = [];
  let from = 0;
  for (const to of [...cuts, bytes.length]) {
    answers.push(tail.feed(bytes.subarray(from, to)));
    from = to;
  }
  return answers;
}

describe('unit: FrameTail (where a read ends among WebSocket frames)', function () {
  it('says a whole frame, or several, is not cut', function () {
    expect(feedCut(frame(10), [])).to.deep.equal([false]);
    expect(feedCut(Buffer.concat([frame(10), frame(300), frame(70_000)]), [])).to.deep.equal([false]);
  });

  it('says a 58 KB message read as 32 KB and the rest is cut after the first piece only', function () {
    expect(feedCut(frame(58_000), [32_768])).to.deep.equal([true, false]);
  });

  it('follows a 64-bit length and a payload read in many pieces', function () {
    const bytes = frame(200_000);
    expect(feedCut(bytes, [32_768, 98_304, 163_840])).to.deep.equal([true, true, true, false]);
  });

  it('handles a header cut in two, in each of its lengths and with a mask', function () {
    for (const [length, masked] of [[5, false], [500, false], [90_000, false], [500, true]]) {
      const bytes = frame(length, { masked });
      for (let cut = 1; cut < Math.min(16, bytes.length); cut++) expect(feedCut(bytes, [cut]), `length ${length} cut at ${cut}`).to.deep.equal([true, false]);
    }
  });

  it('finds the next frame after one that ends mid-read', function () {
    const bytes = Buffer.concat([frame(100), frame(40_000)]);
    expect(feedCut(bytes, [50, 102 + 1_000])).to.deep.equal([true, true, false]);
  });

  it('an empty frame (a pong) is whole', function () {
    expect(feedCut(Buffer.concat([frame(0), frame(3)]), [2])).to.deep.equal([false, false]);
  });
});

describe('unit: BidiConnection acknowledges a message cut between reads', function () {
  it('sends a pong when a frame stops short, and the rest (held until then, as Nagle holds it) completes the answer', async function () {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((resolve) => wss.once('listening', resolve));
    wss.on('connection', (socket) => {
      socket.on('message', (data) => {
        const { id } = JSON.parse(String(data));
        const text = JSON.stringify({ type: 'success', id, result: { data: 'x'.repeat(60_000) } });
        const bytes = Buffer.concat([Buffer.from([0x81, 126, text.length >> 8, text.length & 0xff]), Buffer.from(text)]);
        // The server's own socket, as Firefox's: the first 32 KB now, the rest only once the client has written.
        const raw = socket._socket;
        raw.write(bytes.subarray(0, 32_768));
        socket.once('pong', () => raw.write(bytes.subarray(32_768)));
      });
    });
    const bidi = await BidiConnection.connect(`ws://127.0.0.1:${wss.address().port}`);
    try {
      const result = await bidi.send('browsingContext.captureScreenshot', { context: 'top' }, { timeout: 5_000 });
      expect(result.data).to.have.length(60_000);
    } finally {
      bidi.close();
      await new Promise((resolve) => wss.close(resolve));
    }
  });
});

describe('unit: BidiConnection acknowledges an event that comes while nothing is awaited', function () {
  it('sends a pong after an event with no command in flight (a wait for a load listens to events only)', async function () {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((resolve) => wss.once('listening', resolve));
    let eventSent = false;
    const ponged = new Promise((resolve) => {
      wss.on('connection', (socket) => {
        socket.on('pong', () => eventSent && resolve('pong after the event'));
        socket.on('message', (data) => {
          const { id } = JSON.parse(String(data));
          socket.send(JSON.stringify({ type: 'success', id, result: {} }));
          // Later, with nothing awaited: Firefox's next message would wait for the ACK of this one (Nagle).
          setTimeout(() => {
            eventSent = true;
            socket.send(JSON.stringify({ type: 'event', method: 'browsingContext.load', params: { context: 'top', navigation: 'n', url: 'about:blank', timestamp: 0 } }));
          }, 100);
        });
      });
    });
    const bidi = await BidiConnection.connect(`ws://127.0.0.1:${wss.address().port}`);
    try {
      const loaded = new Promise((resolve) => bidi.on('browsingContext.load', resolve));
      await bidi.send('session.subscribe', { events: ['browsingContext.load'] }, { timeout: 5_000 });
      expect((await loaded).url).to.equal('about:blank');
      const timeout = new Promise((resolve) => setTimeout(() => resolve('no pong'), 2_000));
      expect(await Promise.race([ponged, timeout])).to.equal('pong after the event');
    } finally {
      bidi.close();
      await new Promise((resolve) => wss.close(resolve));
    }
  });
});
