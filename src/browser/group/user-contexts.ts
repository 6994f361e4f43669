// The user contexts (BiDi's separate cookie jars, storage and cache) of the groups that keep theirs apart: serve's
// sessions. Each is made on first need and set up as the default one is: overrides, storage state, download folder.
import type { Emulation, Storage } from 'webdriver-bidi-protocol';
import type { BidiLink } from '../../bidi/connection.js';
import { routeDownloads } from './downloads.js';
import { LAUNCH_TIMEOUT_MS } from '../launch/session-start.js';
import { jarOf, setCookies, setLocalStorage, type StorageState } from './storage.js';

export interface UserContextOptions {
  /** For the commands that make and remove contexts and write cookies. */
  actionTimeout: number;
  /** For writing localStorage, which loads each origin. */
  navigationTimeout: number;
  geolocation?: Emulation.GeolocationCoordinates;
  storageState?: StorageState;
  /** The viewport every tab of a user context opens at, in a browser the server owns (not the user's own Firefox). */
  viewport?: { width: number; height: number; devicePixelRatio: number };
}

export class UserContexts {
  /** Isolated groups, each with the folder its downloads go to (undefined: the server's output dir). */
  private readonly isolated = new Map<string, string | undefined>();
  private readonly made = new Map<string, Promise<string>>();
  /** User contexts whose new tabs open at the viewport ('default' for the default one); dropped if Firefox refuses it. */
  private readonly sized = new Set<string>();

  constructor(
    private readonly bidi: BidiLink,
    private readonly options: UserContextOptions,
  ) {}

  /** From now on the group's tabs open in a user context of its own, whose downloads go to `downloadDir` when given. */
  isolate(groupId: string, downloadDir?: string): void {
    this.isolated.set(groupId, downloadDir);
  }

  isIsolated(groupId: string): boolean {
    return this.isolated.has(groupId);
  }

  /** The group's user context, made on first need; undefined (the default context) for a group that shares it. */
  of(groupId: string): Promise<string> | undefined {
    if (!this.isolated.has(groupId)) return undefined;
    let made = this.made.get(groupId);
    if (!made) {
      const downloadDir = this.isolated.get(groupId);
      made = this.bidi.send('browser.createUserContext', {}, { timeout: this.options.actionTimeout }).then(async ({ userContext }) => {
        if (downloadDir) await routeDownloads(this.bidi, downloadDir, [userContext]);
        await this.emulate(userContext);
        await this.loadStorageState(userContext);
        return userContext;
      });
      made.catch(() => this.made.delete(groupId));
      this.made.set(groupId, made);
    }
    return made;
  }

  /** The user context already made for a group, if any: nothing is made for the asking. */
  existing(groupId: string): Promise<string> | undefined {
    return this.made.get(groupId);
  }

  /** The cookie jar a group's tabs use. */
  async jarOfGroup(groupId: string): Promise<Storage.PartitionDescriptor> {
    return jarOf(await this.of(groupId));
  }

  /** Forgets the group and removes its user context (cookies and storage go with it) unless the browser is gone. */
  async release(groupId: string, browserGone: () => boolean): Promise<void> {
    this.isolated.delete(groupId);
    const made = this.made.get(groupId);
    this.made.delete(groupId);
    const userContext = await made?.catch(() => null);
    if (userContext && !browserGone()) {
      await this.bidi.send('browser.removeUserContext', { userContext }, { timeout: this.options.actionTimeout }).catch(() => undefined);
    }
  }

  /** The overrides of a user context's pages (--geolocation, the viewport), before any of its tabs opens: popups inherit them. */
  async emulate(userContext: string): Promise<void> {
    this.size(userContext);
    const coordinates = this.options.geolocation;
    if (coordinates) await this.bidi.send('emulation.setGeolocationOverride', { coordinates, userContexts: [userContext] }, { timeout: this.options.actionTimeout });
  }

  /**
   * The viewport set once on the user context, so a tab opens at it: a setViewport per new tab took 45-80 ms of a
   * cold start. Not awaited: Firefox records it as the command arrives, so a tab created after it opens at it, but
   * answers only once the context's existing tabs have resized (1.5 s for the launch's own tab during startup). A
   * Firefox without it refuses the command at once; each tab then gets its own setViewport.
   */
  private size(userContext: string): void {
    const viewport = this.options.viewport;
    if (!viewport) return;
    const { devicePixelRatio, ...size } = viewport;
    this.sized.add(userContext);
    this.bidi
      .send('browsingContext.setViewport', { userContexts: [userContext], viewport: size, devicePixelRatio }, { timeout: LAUNCH_TIMEOUT_MS })
      .catch(() => this.sized.delete(userContext));
  }

  /** Whether a new tab of this user context (undefined: the default one) opens at the server's viewport. */
  opensSized(userContext: string | undefined): boolean {
    return this.sized.has(userContext ?? 'default');
  }

  /** Puts --storage-state into a cookie jar; origins whose localStorage could not be written are said on stderr. */
  async loadStorageState(userContext: string | undefined): Promise<void> {
    const state = this.options.storageState;
    if (!state) return;
    await setCookies(this.bidi, state.cookies, jarOf(userContext), this.options.actionTimeout);
    const failed = await setLocalStorage(this.bidi, state, userContext, this.options.navigationTimeout);
    if (failed.length) process.stderr.write(`firefox-use: --storage-state: localStorage not written for ${failed.join(', ')} (origin unreachable or blocked)\n`);
  }
}
