import { randomInt } from 'node:crypto';

/** Ids a group counts through before it needs a new block. */
const BLOCK = 10_000;
/** Blocks are picked at random among these (ids stay below 2^31). */
const BLOCKS = 200_000;

/**
 * Tab ids. Each tab group counts its own, from a block of ids no other group has: one `serve` session's tab ids say
 * nothing of how many tabs another opened. The first group counts from 1 (stdio and `run` have only that one). Ids
 * live as long as the process, across a Firefox relaunch, and are never reused.
 */
class TabIds {
  private readonly counters = new Map<string | null, { base: number; next: number }>();
  private readonly blocks = new Set<number>();

  take(group: string | null): number {
    let counter = this.counters.get(group);
    if (!counter || counter.next >= counter.base + BLOCK) {
      const block = this.blocks.size === 0 ? 0 : this.freeBlock();
      this.blocks.add(block);
      counter = { base: block * BLOCK, next: block * BLOCK + 1 };
      this.counters.set(group, counter);
    }
    return counter.next++;
  }

  private freeBlock(): number {
    for (let tries = 0; tries < 100; tries++) {
      const block = randomInt(1, BLOCKS);
      if (!this.blocks.has(block)) return block;
    }
    // A server that used most blocks: the next free one in order.
    for (let block = 1; ; block++) if (!this.blocks.has(block)) return block;
  }
}

export const tabIds = new TabIds();
