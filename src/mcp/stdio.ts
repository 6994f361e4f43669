import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The largest request line read; the SDK's own stdio transport closes (and the server exits 0) past it. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/**
 * The id of a request whose line was too long to parse, from the bytes kept of its start and end: the TypeScript SDK
 * writes the id last, others (Python's) right after "jsonrpc". Null (allowed by JSON-RPC) when neither has it.
 */
function idOf(head: string, tail: string): string | number | null {
  const value = '("(?:[^"\\\\]|\\\\.){0,200}"|-?\\d{1,16})';
  const match = new RegExp(`"id"\\s*:\\s*${value}\\s*}\\s*$`).exec(tail) ?? new RegExp(`^\\s*\\{\\s*"jsonrpc"\\s*:\\s*"2\\.0"\\s*,\\s*"id"\\s*:\\s*${value}`).exec(head);
  if (!match) return null;
  return match[1]!.startsWith('"') ? (JSON.parse(match[1]!) as string) : Number(match[1]);
}

/**
 * MCP over stdin/stdout, one JSON-RPC message a line. Unlike the SDK's transport, a line over MAX_LINE_BYTES is
 * skipped and answered with a JSON-RPC error (invalid request), and the server stays up.
 */
export class LineStdioTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private chunks: Buffer[] = [];
  private size = 0;
  /** Inside a line already over the limit: its bytes are dropped until its newline. */
  private skipping = false;
  private skippedHead = '';
  private skippedTail = '';
  private readonly onData = (chunk: Buffer) => this.read(chunk);
  private readonly onError = (error: Error) => this.onerror?.(error);

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
  ) {}

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
  }

  private read(chunk: Buffer): void {
    let rest = chunk;
    for (let newline = rest.indexOf(10); newline !== -1; newline = rest.indexOf(10)) {
      this.take(rest.subarray(0, newline));
      this.endLine();
      rest = rest.subarray(newline + 1);
    }
    this.take(rest);
  }

  private take(part: Buffer): void {
    if (part.length === 0) return;
    if (!this.skipping && this.size + part.length > MAX_LINE_BYTES) {
      this.skipping = true;
      this.skippedHead = Buffer.concat([...this.chunks, part]).toString('utf8', 0, 400);
      this.chunks = [];
      this.size = 0;
    }
    if (this.skipping) {
      this.skippedTail = (this.skippedTail + part.toString('utf8', Math.max(0, part.length - 400))).slice(-400);
      return;
    }
    this.chunks.push(part);
    this.size += part.length;
  }

  private endLine(): void {
    if (this.skipping) {
      const id = idOf(this.skippedHead, this.skippedTail);
      this.skipping = false;
      this.skippedHead = '';
      this.skippedTail = '';
      void this.send({
        jsonrpc: '2.0',
        id: id as string | number,
        error: { code: -32600, message: `Request too large: over ${MAX_LINE_BYTES / 1024 / 1024} MiB; it was not read and nothing was done.` },
      });
      return;
    }
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (!line.trim()) return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch (error) {
      this.onerror?.(error as Error);
      return;
    }
    this.onmessage?.(message);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const json = `${JSON.stringify(message)}\n`;
    if (this.stdout.write(json)) return;
    await new Promise<void>((resolve) => this.stdout.once('drain', () => resolve()));
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    this.chunks = [];
    this.onclose?.();
  }
}
