// What a prototype's icon is made of, read from its `icon`/`icons` fields with Factorio 2.0's
// IconData defaults made explicit, so the compositor needs no knowledge of prototype types. Stored
// per (kind, name) in the game data's `icons` table; the pictures are extracted from it later.
import { z } from 'zod';

/** Kinds of prototypes the planner shows icons for. Entities share one name space in the game. */
export type IconKind = 'item' | 'fluid' | 'recipe' | 'entity' | 'technology';

export interface IconLayer {
  /** `__mod__/path/file.png`. */
  icon: string;
  /** Side of the square at the top-left of the file that is the full-size picture (mipmaps follow it). */
  size: number;
  /** Drawn size in icon units is `size * scale` (see IconSpec.canvas). */
  scale: number;
  /** Offset of the layer's centre from the icon's centre, in icon units (y down). */
  shift: [number, number];
  /** Multiplied into the premultiplied pixel, alpha included; 0..1. */
  tint: [number, number, number, number] | null;
  /** Floating layers are drawn but do not count when the icon is fitted into its slot. */
  floating: boolean;
}

export interface IconSpec {
  /** Width of the icon's slot in icon units: expected_icon_size / 2 (32, or 128 for technologies). */
  canvas: number;
  layers: IconLayer[];
}

const layerSchema = z.object({
  icon: z.string().min(1),
  size: z.number().positive(),
  scale: z.number().positive(),
  shift: z.tuple([z.number(), z.number()]),
  tint: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
  floating: z.boolean(),
});
export const iconSpecSchema = z.object({ canvas: z.number().positive(), layers: z.array(layerSchema).min(1) });

/** Factorio's `expected_icon_size`: technologies are drawn big, everything else at 64. */
export function expectedIconSize(kind: IconKind): number {
  return kind === 'technology' ? 256 : 64;
}

const DEFAULT_ICON_SIZE = 64;

function finite(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** A Lua array as JSON: a list, or an object keyed "1", "2", …; `{}` is an empty list. */
function list(v: unknown): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  if (v && typeof v === 'object') return Object.values(v);
  return undefined;
}

/** A Vector: `{x, y}` or `[x, y]`. */
function vector(v: unknown): [number, number] {
  if (v && typeof v === 'object' && !Array.isArray(v) && ('x' in v || 'y' in v)) {
    const o = v as { x?: unknown; y?: unknown };
    return [finite(o.x) ?? 0, finite(o.y) ?? 0];
  }
  const l = list(v);
  return [finite(l?.[0]) ?? 0, finite(l?.[1]) ?? 0];
}

/**
 * A Color: `{r, g, b, a}` or `[r, g, b, a]`; missing r, g, b are 0 and a is 1, and a colour with
 * any component above 1 is on the 0..255 scale.
 */
export function color(v: unknown): [number, number, number, number] | null {
  let c: Array<number | undefined>;
  if (v && typeof v === 'object' && !Array.isArray(v) && ('r' in v || 'g' in v || 'b' in v || 'a' in v)) {
    const o = v as Record<string, unknown>;
    c = [finite(o.r), finite(o.g), finite(o.b), finite(o.a)];
  } else {
    const l = list(v);
    if (!l) return null;
    c = [finite(l[0]), finite(l[1]), finite(l[2]), finite(l[3])];
  }
  const rgba = [c[0] ?? 0, c[1] ?? 0, c[2] ?? 0, c[3] ?? 1];
  const k = rgba.some((x) => x > 1) ? 255 : 1;
  return rgba.map((x) => Math.min(1, Math.max(0, x / k))) as [number, number, number, number];
}

/**
 * The icon spec of a raw prototype, or undefined when it declares none (or only unusable layers).
 * Defaults follow Factorio 2.0's IconData: icon_size 64, scale (expected_icon_size / 2) / icon_size
 * (the layer fills the slot), no shift, no tint.
 */
export function iconSpecOf(proto: Record<string, unknown>, kind: IconKind): IconSpec | undefined {
  const canvas = expectedIconSize(kind) / 2;
  const layers: IconLayer[] = [];
  const rawLayers = list(proto.icons);
  if (rawLayers?.length) {
    for (const raw of rawLayers) {
      if (!raw || typeof raw !== 'object') continue;
      const l = raw as Record<string, unknown>;
      if (typeof l.icon !== 'string' || !l.icon) continue;
      const size = positive(l.icon_size) ?? DEFAULT_ICON_SIZE;
      layers.push({
        icon: l.icon,
        size,
        scale: positive(l.scale) ?? canvas / size,
        shift: vector(l.shift),
        tint: l.tint === undefined ? null : color(l.tint),
        floating: l.floating === true,
      });
    }
  } else if (typeof proto.icon === 'string' && proto.icon) {
    const size = positive(proto.icon_size) ?? DEFAULT_ICON_SIZE;
    layers.push({ icon: proto.icon, size, scale: canvas / size, shift: [0, 0], tint: null, floating: false });
  }
  return layers.length ? { canvas, layers } : undefined;
}

function positive(v: unknown): number | undefined {
  const n = finite(v);
  return n !== undefined && n > 0 ? n : undefined;
}
