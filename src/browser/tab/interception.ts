import type { Network } from 'webdriver-bidi-protocol';
import type { BidiLink } from '../../bidi/connection.js';
import { originAllowed } from '../launch/origins.js';

export interface OriginRules {
  allowedOrigins: string[];
  blockedOrigins: string[];
}

/**
 * Told about each refused request: its context (null for workers), URL, and whether it was the context's own document
 * (a navigation of it; an <object> or <embed> load carries a navigation id too, but is not the document).
 */
export type BlockedListener = (context: string | null, url: string, ownDocument: boolean) => void;

/**
 * Enforces --allowed-origins / --blocked-origins inside Firefox: every request (navigations, redirects, link clicks,
 * subresources, fetches) is held at beforeRequestSent and failed when its origin is not allowed. Checking URLs only in
 * `navigate` would let a click or a redirect slip past.
 */
export class OriginGuard {
  constructor(
    private readonly bidi: BidiLink,
    private readonly rules: OriginRules,
    private readonly onBlocked: BlockedListener,
  ) {}

  static needed(rules: OriginRules): boolean {
    return rules.allowedOrigins.length > 0 || rules.blockedOrigins.length > 0;
  }

  /** Registers the intercept; resolves once Firefox holds requests for it. The Browser hands it every request (`decide`). */
  async install(): Promise<void> {
    await this.bidi.send('network.addIntercept', { phases: ['beforeRequestSent'] }, { timeout: 10_000 });
  }

  /** Lets a held request go on, or fails it when its origin is refused. */
  decide(event: Network.BeforeRequestSentParameters): void {
    if (!event.isBlocked) return;
    const { request, url } = event.request;
    if (originAllowed(url, this.rules)) {
      void this.bidi.send('network.continueRequest', { request }, { timeout: 10_000 }).catch(() => undefined);
      return;
    }
    this.onBlocked(event.context, url, event.navigation !== null && event.request.destination === 'document');
    void this.bidi.send('network.failRequest', { request }, { timeout: 10_000 }).catch(() => undefined);
  }
}
