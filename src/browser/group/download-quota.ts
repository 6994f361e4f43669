// How many files and bytes the pages of one session may download: one click must not fill the disk.
import { stat, unlink } from 'node:fs/promises';

import type { DownloadLimits } from '../../config.js';

interface Usage {
  files: number;
  bytes: number;
  /** Set once a limit is reached: Firefox has been told to refuse this session's downloads. */
  full: boolean;
}

/**
 * Counts downloads per key (a session's user context, or '' for the default context that stdio and
 * --shared-browser-context sessions share). The download past the file limit, and the one whose bytes go past the
 * byte limit, is refused: Firefox is told to deny the key's later downloads (`deny`), and a file that was written all
 * the same (it began before Firefox heard) is deleted when it ends.
 */
export class DownloadQuota {
  private readonly usage = new Map<string, Usage>();
  /** Downloads refused at their start, by id: the reason. */
  private readonly refused = new Map<string, string>();

  constructor(
    readonly limits: DownloadLimits,
    private readonly deny: (key: string) => Promise<void>,
  ) {}

  private usageOf(key: string): Usage {
    let usage = this.usage.get(key);
    if (!usage) {
      usage = { files: 0, bytes: 0, full: false };
      this.usage.set(key, usage);
    }
    return usage;
  }

  describe(): string {
    return `${this.limits.files} files, ${Math.round(this.limits.bytes / 1024 / 1024)} MiB`;
  }

  private reason(): string {
    return `this session's download quota (${this.describe()}) is used up; nothing more is saved (--download-quota FILES,MB raises it)`;
  }

  private fill(key: string, usage: Usage): void {
    if (usage.full) return;
    usage.full = true;
    this.deny(key).catch((error: Error) => process.stderr.write(`firefox-use: could not stop downloads at the quota: ${error.message}\n`));
  }

  /** At a download's start. Null when it fits; else why it is refused. */
  begin(key: string, id: string): string | null {
    const usage = this.usageOf(key);
    usage.files += 1;
    if (!usage.full && usage.files <= this.limits.files) return null;
    this.fill(key, usage);
    const reason = this.reason();
    this.refused.set(id, reason);
    return reason;
  }

  /**
   * At a download's end, before it is reported. Null when the file is kept; else why it was refused (and its file, if
   * any, deleted).
   */
  async end(key: string, id: string, path: string | undefined): Promise<string | null> {
    const usage = this.usageOf(key);
    let reason = this.refused.get(id) ?? null;
    this.refused.delete(id);
    if (!path) return reason;
    if (!reason) {
      const size = await stat(path).then((info) => info.size, () => 0);
      usage.bytes += size;
      if (usage.bytes <= this.limits.bytes) return null;
      this.fill(key, usage);
      reason = this.reason();
    }
    await unlink(path).catch(() => undefined);
    return reason;
  }

  /** A session ended: its count goes with it. */
  forget(key: string): void {
    this.usage.delete(key);
  }
}
