// Every operation the server may call in the sandbox, by name. Each takes one JSON argument and returns JSON.
import { concludeAction, prepareAction } from './action.js';
import { armDelivery, readDelivery } from './delivery.js';
import { deltaFinish, deltaStart } from './delta.js';
import { armDragWatch, finishDragWatch } from './drag.js';
import { find } from './find.js';
import { fileInput, fileInputs, setFieldValue } from './forms.js';
import { frameOrigin, listFrames } from './frames.js';
import { aimAtPoint, aimAtRef, focusCheck, localIdForSelector, scrollRefIntoView, textOfSelector } from './guard.js';
import { pageInfo } from './info.js';
import { identify } from './nodes.js';
import { armScrollProbe, readScrollProbe } from './scroll-probe.js';
import { describeRef, snapshot } from './snapshot.js';
import { waitFor, waitQuiet } from './settle.js';
import { pageText } from './text.js';

export const operations = {
  pageInfo,
  snapshot,
  describeRef,
  find,
  listFrames,
  frameOrigin,
  deltaStart,
  deltaFinish,
  pageText,
  waitQuiet,
  waitFor,
  identify,
  setFieldValue,
  fileInputs,
  fileInput,
  // computer: guard, delivery, scroll and drag probes
  prepareAction,
  concludeAction,
  aimAtRef,
  aimAtPoint,
  focusCheck,
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
