export function vscePackageArgs(out: string, extra?: string[]): string[];
