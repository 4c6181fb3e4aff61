// Minimal typings for the two untyped dev dependencies the mod tests use.
declare module 'fengari' {
  // The C API mirrored in JS (see fengari's README); typed loosely on purpose.
  export const lua: any;
  export const lauxlib: any;
  export const lualib: any;
  export function to_luastring(s: string, cache?: boolean): Uint8Array;
  export function to_jsstring(s: Uint8Array): string;
}
declare module 'luaparse' {
  export interface ParseOptions {
    luaVersion?: '5.1' | '5.2' | '5.3' | 'LuaJIT';
    comments?: boolean;
    locations?: boolean;
    ranges?: boolean;
    scope?: boolean;
    encodingMode?: 'none' | 'x-user-defined' | 'pseudo-latin1';
  }
  export function parse(code: string, options?: ParseOptions): any;
  const luaparse: { parse: typeof parse };
  export default luaparse;
}
