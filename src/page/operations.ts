// Every operation the server may call in the sandbox, by name. Each takes one JSON argument and returns JSON.
import { deltaFinish, deltaStart } from './delta.js';
import { find } from './find.js';
import { frameOrigin, listFrames } from './frames.js';
import { pageInfo } from './info.js';
import { describeRef, snapshot } from './snapshot.js';

export const operations = {
  pageInfo,
  snapshot,
  describeRef,
  find,
  listFrames,
  frameOrigin,
  deltaStart,
  deltaFinish,
};

export type Operations = typeof operations;
