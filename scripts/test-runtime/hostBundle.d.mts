export function bundleForExtensionHost(opts: { entry: string; outfile: string; plugins?: unknown[] }): Promise<string>;
