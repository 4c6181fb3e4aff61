// The CLI's version: stamped into the bundle by esbuild (scripts/build.mjs), "dev" when run from source.
declare const PYOPS_VERSION: string | undefined;

export const VERSION = typeof PYOPS_VERSION === 'string' ? PYOPS_VERSION : 'dev';
