// Factorio writes energy and power as SI strings ("150kW", "2.5MJ", "0.2kJ"). We store watts and joules.

const PREFIX: Record<string, number> = {
  '': 1, k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18, Z: 1e21, Y: 1e24, R: 1e27, Q: 1e30,
};

const PATTERN = /^\s*(-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*([kKMGTPEZYRQ]?)([WJ])\s*$/;

/** Parse an SI energy/power string; returns undefined when the text is not one. */
export function parseEnergy(text: unknown, unit?: 'W' | 'J'): number | undefined {
  if (typeof text === 'number') return Number.isFinite(text) ? text : undefined;
  if (typeof text !== 'string') return undefined;
  const m = PATTERN.exec(text);
  if (!m) return undefined;
  if (unit && m[3] !== unit) return undefined;
  return Number(m[1]) * PREFIX[m[2]];
}

/** Turn an internal name into a readable fallback ("iron-gear-wheel" → "Iron gear wheel"). */
/** A crafting category as a player reads it: the game has no names for them ("crafting-with-fluid" → "Crafting with fluid"). */
export function categoryName(category: string): string {
  return humanize(category);
}

export function humanize(name: string): string {
  const s = name.replace(/[-_]+/g, ' ').trim();
  return s ? s[0].toUpperCase() + s.slice(1) : name;
}
