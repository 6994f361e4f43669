// One page call before and one after each input action: aim (guard) + arm the probes, then read them back.
import type { ActionConclusion, ActionPreparation, PrepareArgs, ConcludeArgs } from '../browser/page-types.js';
import { armDelivery, readDelivery } from './delivery.js';
import { armDragWatch, finishDragWatch } from './drag.js';
import { aimAtPoint, aimAtRef } from './guard.js';
import { armScrollProbe, readScrollProbe } from './scroll-probe.js';

export function prepareAction(args: PrepareArgs): ActionPreparation {
  const aim = args.ref ? aimAtRef(args.ref) : args.point ? aimAtPoint(args.point) : undefined;
  if (args.watch) {
    armDelivery({ token: args.token, types: args.watch, ref: args.ref, point: args.ref ? undefined : aim?.point });
  }
  if (args.scrollProbe && aim) armScrollProbe({ token: args.token, ...aim.point });
  if (args.dragWatch) armDragWatch({ token: args.token });
  return { aim, url: location.href, title: document.title };
}

export async function concludeAction(args: ConcludeArgs): Promise<ActionConclusion> {
  const drag = args.dragEnd ? finishDragWatch({ token: args.token, ...args.dragEnd }) : undefined;
  const scroll = args.scrollProbe ? await readScrollProbe({ token: args.token }) : undefined;
  const delivery = readDelivery({ token: args.token, need: args.need });
  return { delivery, scroll, drag };
}
