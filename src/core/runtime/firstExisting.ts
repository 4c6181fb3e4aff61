// Finding a file shipped beside the code (the WebAssembly of sql.js and HiGHS): in the bundle's own
// folder when running from dist/, in node_modules when running from a checkout.

/**
 * The first of `places` that exists, each named only when the ones before it do not: resolving a
 * package reads package.json files (~10 ms of a command-line call), which the bundle's own folder
 * never needs. A place may be undefined or throw (nothing to resolve from here). When none exists:
 * the first place named, else `fallback`.
 */
export function firstExisting(places: Array<() => string | undefined>, exists: (file: string) => boolean, fallback: string): string {
  let first: string | undefined;
  for (const place of places) {
    let file: string | undefined;
    try {
      file = place();
    } catch {
      continue;
    }
    if (file === undefined) continue;
    first ??= file;
    if (exists(file)) return file;
  }
  return first ?? fallback;
}
