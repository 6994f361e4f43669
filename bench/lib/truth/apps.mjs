// The apps the oracle drives, and in what order. Scripts live in apps-tested.mjs (the apps the tests use) and
// apps-bench.mjs (apps only the bench installs).
import { TESTED_APPS } from './apps-tested.mjs';
import { BENCH_APPS } from './apps-bench.mjs';

export const APPS = [...TESTED_APPS, ...BENCH_APPS];
