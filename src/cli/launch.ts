// Entry of dist/cli.cjs (the `pyops` bin): runs the command line's bundle, dist/cli-main.cjs, from a
// V8 code cache (codeCache.ts). PYOPS_NO_CODE_CACHE=1 runs it without one.
import path from 'node:path';
import { defaultCacheDir, runWithCodeCache } from './codeCache';

runWithCodeCache(path.join(__dirname, 'cli-main.cjs'), { cacheDir: process.env.PYOPS_NO_CODE_CACHE ? undefined : defaultCacheDir() });
