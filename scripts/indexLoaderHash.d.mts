export function indexLoaderSourceHash(root: string): string;
