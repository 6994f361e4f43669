// A reply built from sections: each section declares its fields once (a zod fragment the tool's output schema is
// composed of) and renders them once, the structured field and its text line together.
import type { z } from 'zod';
import type { ToolResponse } from '../tool.js';

/** The structured content a section's schema fragment describes. */
export type Fields<Shape extends z.ZodRawShape> = z.infer<z.ZodObject<Shape>>;

export class Reply<T extends object> {
  constructor(
    readonly structured: T,
    private readonly lines: string[] = [],
  ) {}

  set<K extends keyof T>(key: K, value: T[K]): void {
    this.structured[key] = value;
  }

  line(...lines: string[]): void {
    this.lines.push(...lines);
  }

  get text(): string {
    return this.lines.join('\n');
  }

  response(): ToolResponse<T> {
    return { structured: this.structured, text: this.text };
  }
}

/** One part of a reply: its fields (composed into the tool's output schema) and the one renderer that writes them. */
export interface Section<Shape extends z.ZodRawShape, Input, Result = void> {
  schema: Shape;
  render(reply: Reply<Fields<Shape>>, input: Input): Result;
}
