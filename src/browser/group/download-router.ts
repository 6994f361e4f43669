// Downloads, from Firefox's events to the tab that began each one: counted against its session's quota, and ended
// there even if the page closed meanwhile.
import type { BrowsingContext } from 'webdriver-bidi-protocol';
import { downloadIdOf, type Download } from './downloads.js';
import type { DownloadQuota } from './download-quota.js';
import type { Tab } from '../tab/tab.js';

export class DownloadRouter {
  /** Downloads in progress with the tab that began them and their quota key. */
  private readonly downloading = new Map<string, Array<{ tab: Tab; download: Download; key: string }>>();

  constructor(
    private readonly quota: DownloadQuota | null,
    /** The quota key of a tab's downloads (its session's user context). */
    private readonly keyOf: (tab: Tab) => string,
  ) {}

  began(tab: Tab, event: BrowsingContext.DownloadWillBeginParams): void {
    const download = tab.downloads.began(event);
    const key = this.keyOf(tab);
    this.quota?.begin(key, download.id);
    // Two downloads of one URL may share an id (see downloadIdOf): they end in the order they began.
    this.downloading.set(download.id, [...(this.downloading.get(download.id) ?? []), { tab, download, key }]);
  }

  ended(event: BrowsingContext.DownloadEndParams): void {
    const id = downloadIdOf(event);
    const [known, ...rest] = this.downloading.get(id) ?? [];
    if (!known) return;
    if (rest.length) this.downloading.set(id, rest);
    else this.downloading.delete(id);
    const path = event.status === 'complete' ? (event.filepath ?? undefined) : undefined;
    // The quota deletes a file it refuses before the download is reported.
    void (this.quota?.end(known.key, id, path) ?? Promise.resolve(null)).then((refused) => known.tab.downloads.ended(known.download, event.status, path, refused));
  }
}
