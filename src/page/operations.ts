// Every operation the server may call in the sandbox, by name. Each takes one JSON argument and returns JSON.
import { deltaFinish, deltaStart } from './delta.js';
import { find } from './find.js';
import { fileInput, fileInputs, setFieldValue } from './forms.js';
import { frameOrigin, listFrames } from './frames.js';
import { pageInfo } from './info.js';
import { identify } from './nodes.js';
import { describeRef, snapshot } from './snapshot.js';
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
  identify,
  setFieldValue,
  fileInputs,
  fileInput,
};

export type Operations = typeof operations;
