/**
 * Where a capture's time goes, for `regress --verbose` (or FIREFOX_USE_TRACE_REGRESS=1): one line per capture and
 * a total per phase at the end. Phases of different captures overlap (the next page loads while this one is shot,
 * the comparison runs beside the next capture), so the totals add up to more than the run took.
 */
export type Phase = 'wait' | 'tab' | 'load' | 'steps' | 'still' | 'shots' | 'compare';

export class Phases {
  private last = performance.now();
  private readonly parts: Array<[Phase, number, string]> = [];

  constructor(private readonly totals: PhaseTotals) {}

  /** Ends the phase running since the previous mark (or since the capture started). */
  mark(phase: Phase, detail = ''): void {
    const now = performance.now();
    this.parts.push([phase, now - this.last, detail]);
    this.totals.add(phase, now - this.last);
    this.last = now;
  }

  line(id: string): string {
    return `[regress] ${id}: ${this.parts.map(([phase, ms, detail]) => `${phase}${detail ? ` ${detail}` : ''} ${ms.toFixed(0)}`).join(', ')} ms\n`;
  }
}

export class PhaseTotals {
  private readonly sums = new Map<Phase, number>();

  constructor(readonly enabled: boolean) {}

  add(phase: Phase, ms: number): void {
    this.sums.set(phase, (this.sums.get(phase) ?? 0) + ms);
  }

  print(id: string, phases: Phases): void {
    if (this.enabled) process.stderr.write(phases.line(id));
  }

  summary(captures: number): string {
    const parts = [...this.sums].map(([phase, ms]) => `${phase} ${Math.round(ms)}`);
    return `firefox-use regress: time in phases over ${captures} captures (ms, phases overlap across captures): ${parts.join(', ')}\n`;
  }
}
