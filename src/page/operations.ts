// Every operation the server may call in the sandbox, by name. Each takes one JSON argument and returns JSON; the
// names, arguments and results are those of PageOperations (src/contract/page-operations.ts), checked here.
import type { PageArgs, PageOperationName, PageResult } from '../contract/index.js';
import { concludeAction, prepareAction, typeAlong } from './action.js';
import { describeTarget } from './action-target.js';
import { copyText } from './clipboard.js';
import { deltaFinish, deltaStart, deltaStartFrame } from './delta.js';
import { find } from './find.js';
import { setFieldValueWatched } from './field-write.js';
import { fileInput, fileInputs, setFieldValue } from './forms.js';
import { frameOrigin, listFrames } from './frames.js';
import { releaseKeys } from './delivery.js';
import { pressCheck } from './press-check.js';
import { focusCheck, localIdForSelector, scrollRefIntoView, textOfSelector } from './guard.js';
import { pageInfo } from './info.js';
import { identify } from './nodes.js';
import { describeRef, snapshot } from './snapshot.js';
import { cancelWaits, waitFor, waitQuiet } from './settle.js';
import { appeared, makeStill } from './still.js';
import { readLocalStorage, writeLocalStorage } from './storage.js';
import { pageText } from './text.js';

type Implementations = {
  [Op in PageOperationName]: (args: PageArgs<Op>, nodes: Node[]) => PageResult<Op> | Promise<PageResult<Op>>;
};

export const operations = {
  pageInfo,
  snapshot,
  describeRef,
  describeTarget,
  find,
  listFrames,
  frameOrigin,
  deltaStart,
  deltaStartFrame,
  deltaFinish,
  pageText,
  waitQuiet,
  waitFor,
  cancelWaits,
  identify,
  setFieldValue,
  setFieldValueWatched,
  fileInputs,
  fileInput,
  // computer: the guard, delivery, scroll and drag probes ride on prepareAction / concludeAction
  prepareAction,
  concludeAction,
  typeAlong,
  releaseKeys,
  focusCheck,
  pressCheck,
  scrollRefIntoView,
  copyText,
  readLocalStorage,
  writeLocalStorage,
  // regress
  makeStill,
  appeared,
  localIdForSelector,
  textOfSelector,
} satisfies Implementations;

export type Operations = typeof operations;
