// Firefox now and then leaves a browsingContext.navigate with wait "complete" unanswered though its document has
// loaded (a CI run here waited out 30 s on a three-line page in a fresh profile; Playwright sees the same in about 1%
// of its Firefox navigations, microsoft/playwright#42183). Once a document has committed in the tab since the command
// went out and the answer is still missing a while later, the document itself is asked: complete there is the answer.
import { TabChange } from './tab-change.js';
import type { NavigationEvent, Tab } from './tab.js';

/** How long after a commit the command's own answer is waited for before the document is asked. */
const ANSWER_GRACE_MS = 2_000;
/** Between two looks at a document that is still loading. */
const LOOK_EVERY_MS = 1_000;
const LOOK_TIMEOUT_MS = 2_000;

export interface LoadedUnanswered {
  /** Resolves once a document committed since this was made is complete and the grace has passed; never rejects. */
  loaded: Promise<void>;
  dispose(): void;
}

export function loadedUnanswered(tab: Tab): LoadedUnanswered {
  let stopped = false;
  let committedAt = 0;
  let change: TabChange | null = null;
  let stop: () => void = () => undefined;
  const stoppedNow = new Promise<void>((resolve) => (stop = resolve));
  const onNavigation = (kind: NavigationEvent[0], event: NavigationEvent[1]): void => {
    // The initial about:blank of a tab just made commits too; it is not the document asked for.
    if (kind === 'committed' && event.url !== 'about:blank') committedAt = Date.now();
  };
  /** Until the tab's next change or `ms`, or until disposed; nothing stays listening on the tab after. */
  const pause = async (ms: number): Promise<void> => {
    change = new TabChange(tab);
    await Promise.race([change.wait(ms), stoppedNow]);
    change.dispose();
    change = null;
  };
  tab.on('navigation', onNavigation);
  const loaded = (async () => {
    while (!stopped) {
      const due = committedAt === 0 ? Infinity : committedAt + ANSWER_GRACE_MS - Date.now();
      if (due > 0) {
        await pause(Math.min(due, LOOK_EVERY_MS));
        continue;
      }
      const info = await tab.callPage('pageInfo', {}, { timeout: LOOK_TIMEOUT_MS }).catch(() => null);
      if (stopped) return;
      if (info?.readyState === 'complete' && info.url !== 'about:blank') return;
      await pause(LOOK_EVERY_MS);
    }
  })();
  return {
    loaded,
    dispose: () => {
      stopped = true;
      stop();
      change?.dispose();
      tab.off('navigation', onNavigation);
    },
  };
}
