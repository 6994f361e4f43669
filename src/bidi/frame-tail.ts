/**
 * Follows the WebSocket frames (RFC 6455 5.2) in the bytes a socket receives, only to tell whether a read ended in
 * the middle of one. Firefox writes a large message in 32 KB pieces with Nagle's algorithm on: after the first
 * piece the rest waits for our ACK, which Linux holds back for 40 ms (a 58 KB screenshot took 60 ms instead of 17).
 * Whoever reads the socket answers a cut frame with any write, which carries the ACK at once.
 */
export class FrameTail {
  /** Header bytes of a frame whose header was itself cut. */
  private header: Buffer | null = null;
  /** Payload bytes of the current frame not yet seen. */
  private remaining = 0;

  /** Takes the next bytes read; answers whether they end inside a frame (its header or its payload). */
  feed(chunk: Buffer): boolean {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.remaining > 0) {
        const taken = Math.min(this.remaining, chunk.length - offset);
        this.remaining -= taken;
        offset += taken;
        continue;
      }
      const available = chunk.subarray(offset);
      const header = this.header ? Buffer.concat([this.header, available]) : available;
      const size = headerSize(header);
      if (size === null || header.length < size) {
        this.header = Buffer.from(header);
        return true;
      }
      offset += size - (this.header?.length ?? 0);
      this.header = null;
      this.remaining = payloadLength(header);
    }
    return this.remaining > 0;
  }
}

/** The header's length, once its first two bytes are there. */
function headerSize(header: Buffer): number | null {
  if (header.length < 2) return null;
  const second = header[1] ?? 0;
  const lengthCode = second & 0x7f;
  const extended = lengthCode === 126 ? 2 : lengthCode === 127 ? 8 : 0;
  const mask = second & 0x80 ? 4 : 0;
  return 2 + extended + mask;
}

function payloadLength(header: Buffer): number {
  const lengthCode = (header[1] ?? 0) & 0x7f;
  if (lengthCode === 126) return header.readUInt16BE(2);
  // Messages past 2^53 bytes do not exist here.
  if (lengthCode === 127) return Number(header.readBigUInt64BE(2));
  return lengthCode;
}
