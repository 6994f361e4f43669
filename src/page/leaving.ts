// Whether an action set the document on its way to another one (a link, a form, a script assigning location):
// the Navigation API's `navigate` event fires in the document when the navigation starts, before its request
// reaches the network. The server can then wait for the new page instead of answering "no change" under load.
import { WatchRegistry, type ArmedWatch } from './watch-registry.js';

/** The parts of the Navigation API used here (TypeScript's DOM library does not declare it yet). */
interface NavigateEventLike extends Event {
  readonly destination: { readonly url: string };
  readonly hashChange: boolean;
}
type NavigationLike = EventTarget;

interface LeaveWatch extends ArmedWatch {
  /** The last cross-document navigation the document started, until a same-document one replaces it. */
  event: NavigateEventLike | null;
}

const watches = new WatchRegistry<LeaveWatch>();

function navigationApi(): NavigationLike | undefined {
  return (window as unknown as { navigation?: NavigationLike }).navigation;
}

/** Watches the top-level document for a navigation the action starts; frames' loads are not the tab's. */
export function armLeaving(token: string): void {
  const navigation = navigationApi();
  if (!navigation || window.parent !== window) return;
  const watch: LeaveWatch = { event: null, remove: () => undefined, timer: 0 };
  const onNavigate = (event: Event) => {
    watch.event = event as NavigateEventLike;
  };
  // An intercepted navigation (a single-page app's router) or a fragment change stays in this document.
  const onSameDocument = () => {
    watch.event = null;
  };
  navigation.addEventListener('navigate', onNavigate);
  navigation.addEventListener('currententrychange', onSameDocument);
  watch.remove = () => {
    navigation.removeEventListener('navigate', onNavigate);
    navigation.removeEventListener('currententrychange', onSameDocument);
  };
  watches.arm(token, watch);
}

/** Whether the action started a navigation away from this document that has not happened yet. */
export function readLeaving(token: string): boolean {
  const event = watches.disarm(token)?.event;
  if (!event || event.defaultPrevented || event.hashChange) return false;
  // Only loads that reach the network are waited for (a blocked data: or javascript: URL never does).
  return /^https?:/i.test(event.destination.url);
}
