// Every operation the server may call in the sandbox, by name. Each takes one JSON argument and returns JSON.
import { fileInput, fileInputs, setFieldValue } from './forms.js';
import { pageInfo } from './info.js';
import { identify } from './nodes.js';
import { pageText } from './text.js';

export const operations = {
  pageInfo,
  pageText,
  identify,
  setFieldValue,
  fileInputs,
  fileInput,
};

export type Operations = typeof operations;
