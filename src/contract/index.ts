// The contract between the page scripts and the server: the only module both sides import (lint holds src/page
// and src/browser to it). Types only: nothing here runs.
export type * from './page-common.js';
export type * from './page-action.js';
export type * from './page-snapshot.js';
export type * from './page-operations.js';
