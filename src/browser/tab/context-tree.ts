/** One browsing context as the Browser knows it: its parent (null for a tab), its URL, who opened it. */
export interface ContextNode {
  id: string;
  parent: string | null;
  url: string;
  opener: string | null;
}

/**
 * The tree of browsing contexts of one Firefox, kept by the Browser from BiDi's context events and shared with its
 * tabs, so a tab can find its frames without a way back to the Browser.
 */
export class ContextTree {
  private readonly nodes = new Map<string, ContextNode>();

  get(id: string): ContextNode | undefined {
    return this.nodes.get(id);
  }

  has(id: string): boolean {
    return this.nodes.has(id);
  }

  set(node: ContextNode): void {
    this.nodes.set(node.id, node);
  }

  /** Removes a context and every context under it; returns their ids, the given one first. */
  remove(id: string): string[] {
    const removed = [id];
    for (let i = 0; i < removed.length; i++) {
      for (const node of this.nodes.values()) if (node.parent === removed[i]) removed.push(node.id);
    }
    for (const gone of removed) this.nodes.delete(gone);
    return removed;
  }

  /** Child contexts (frames) of a context, in creation order. */
  children(id: string): ContextNode[] {
    return [...this.nodes.values()].filter((node) => node.parent === id);
  }

  /** The top-level context `id` belongs to (itself for a top-level one); undefined for an unknown context. */
  topOf(id: string): string | undefined {
    let node = this.nodes.get(id);
    while (node?.parent) node = this.nodes.get(node.parent);
    return node?.id;
  }

  /** `top` and every context under it, in creation order. */
  within(top: string): string[] {
    return [...this.nodes.values()].filter((node) => this.topOf(node.id) === top).map((node) => node.id);
  }
}
