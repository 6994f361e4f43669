// Every operation the server may call in the sandbox, by name. Each takes one JSON argument and returns JSON.
import { pageInfo } from './info.js';

export const operations = {
  pageInfo,
};

export type Operations = typeof operations;
