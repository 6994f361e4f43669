// HTML5 drag and drop under synthesized input. Firefox's remote agent runs the drag session (dragstart,
// dragenter, dragover are real) but ends it on button release without a drop, so the sandbox completes the
// drop itself: the data the page put on the trusted dragstart, a dragover/drop at the release point, a dragend.
import type { DragReport } from '../contract/index.js';
import { describe } from './describe.js';
import { deepElementFromPoint } from './guard.js';

interface DragWatch {
  source: Element | null;
  data: Array<[string, string]>;
  effectAllowed: DataTransfer['effectAllowed'];
  dropped: boolean;
  ended: boolean;
  remove: () => void;
}

const drags = new Map<string, DragWatch>();

export function armDragWatch(args: { token: string }): { armed: true } {
  const watch: DragWatch = { source: null, data: [], effectAllowed: 'uninitialized', dropped: false, ended: false, remove: () => undefined };
  const onStartCapture = (event: DragEvent) => {
    if (event.isTrusted) watch.source = event.composedPath()[0] as Element;
  };
  // Bubble phase on the window: the page's own dragstart handlers have filled the data by now.
  const onStartBubble = (event: DragEvent) => {
    const transfer = event.dataTransfer;
    if (!event.isTrusted || !transfer) return;
    watch.data = [...transfer.types].map((type) => [type, transfer.getData(type)]);
    watch.effectAllowed = transfer.effectAllowed;
    if (event.defaultPrevented) watch.source = null;
  };
  const onDrop = (event: DragEvent) => {
    if (event.isTrusted) watch.dropped = true;
  };
  const onEnd = (event: DragEvent) => {
    if (event.isTrusted) watch.ended = true;
  };
  window.addEventListener('dragstart', onStartCapture, { capture: true });
  window.addEventListener('dragstart', onStartBubble);
  window.addEventListener('drop', onDrop, { capture: true });
  window.addEventListener('dragend', onEnd, { capture: true });
  watch.remove = () => {
    window.removeEventListener('dragstart', onStartCapture, { capture: true });
    window.removeEventListener('dragstart', onStartBubble);
    window.removeEventListener('drop', onDrop, { capture: true });
    window.removeEventListener('dragend', onEnd, { capture: true });
  };
  drags.set(args.token, watch);
  return { armed: true };
}

function fire(type: string, target: EventTarget, transfer: DataTransfer, x: number, y: number): boolean {
  const event = new DragEvent(type, { bubbles: true, cancelable: type !== 'dragend', composed: true, clientX: x, clientY: y, dataTransfer: transfer });
  return !target.dispatchEvent(event);
}

/** After the release: whether an HTML5 drag happened, and if Firefox left it without a drop, completes it. */
export function finishDragWatch(args: { token: string; x: number; y: number }): DragReport {
  const watch = drags.get(args.token);
  drags.delete(args.token);
  if (!watch) return { html5: 'none' };
  watch.remove();
  if (!watch.source) return { html5: 'none' };
  if (watch.dropped) return { html5: 'dropped' };
  const transfer = new DataTransfer();
  for (const [type, value] of watch.data) transfer.setData(type, value);
  if (watch.effectAllowed !== 'uninitialized') transfer.effectAllowed = watch.effectAllowed;
  const target = deepElementFromPoint(args.x, args.y) ?? document.body;
  const accepted = fire('dragover', target, transfer, args.x, args.y);
  if (accepted) fire('drop', target, transfer, args.x, args.y);
  else fire('dragleave', target, transfer, args.x, args.y);
  if (!watch.ended && watch.source.isConnected) fire('dragend', watch.source, transfer, args.x, args.y);
  return { html5: accepted ? 'completed' : 'refused', dropTarget: describe(target) };
}
