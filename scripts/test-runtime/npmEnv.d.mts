export function cleanNpmEnv(env: NodeJS.ProcessEnv, opts?: { nodeBinDir?: string }): NodeJS.ProcessEnv;
export function npmCliScript(env?: NodeJS.ProcessEnv): string;
