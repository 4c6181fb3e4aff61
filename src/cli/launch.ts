// Entry of dist/cli.cjs (the `pyops` bin): runs the command line's bundle, dist/cli-main.cjs, from a
// V8 code cache (core/runtime/codeCache.ts). PYOPS_NO_CODE_CACHE=1 runs it without one. (sql.js is
// compiled lazily here, unlike in the extension's entry: a command reaches its first statement
// ~60 ms after start, too soon for a background compile to win anything; measured, no difference.)
import path from 'node:path';
import { defaultCacheDir, runWithCodeCache } from '../core/runtime/codeCache';

runWithCodeCache(path.join(__dirname, 'cli-main.cjs'), { cacheDir: process.env.PYOPS_NO_CODE_CACHE ? undefined : defaultCacheDir(), storeAtExit: true });
