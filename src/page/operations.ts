// Every operation the server may call in the sandbox, by name. Each takes one JSON argument and returns JSON.
import { concludeAction, prepareAction } from './action.js';
import { armDelivery, readDelivery } from './delivery.js';
import { armDragWatch, finishDragWatch } from './drag.js';
import { aimAtPoint, aimAtRef, localIdForSelector, scrollRefIntoView, textOfSelector } from './guard.js';
import { pageInfo } from './info.js';
import { armScrollProbe, readScrollProbe } from './scroll-probe.js';

export const operations = {
  pageInfo,
  // computer: guard, delivery, scroll and drag probes
  prepareAction,
  concludeAction,
  aimAtRef,
  aimAtPoint,
  scrollRefIntoView,
  localIdForSelector,
  textOfSelector,
  armDelivery,
  readDelivery,
  armScrollProbe,
  readScrollProbe,
  armDragWatch,
  finishDragWatch,
};

export type Operations = typeof operations;
