/** A bounded log: the oldest entry goes when a new one would exceed the capacity, and the loss is counted. */
export class Ring<T> {
  private items: T[] = [];
  private start = 0;
  /** Entries dropped for room since the last clear. */
  dropped = 0;

  constructor(readonly capacity: number) {}

  push(item: T): void {
    if (this.items.length - this.start < this.capacity) {
      this.items.push(item);
    } else {
      this.start++;
      this.dropped++;
      this.items.push(item);
      // Compact now and then instead of shifting on every push.
      if (this.start >= this.capacity) {
        this.items = this.items.slice(this.start);
        this.start = 0;
      }
    }
  }

  /** Oldest first. */
  entries(): T[] {
    return this.items.slice(this.start);
  }

  get size(): number {
    return this.items.length - this.start;
  }

  clear(): void {
    this.items = [];
    this.start = 0;
    this.dropped = 0;
  }
}
