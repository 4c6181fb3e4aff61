// Screenshots of the running game. The mod has no screenshot command: PyOps asks the game, through
// an eval, to call game.take_screenshot into script-output/, waits for the file to appear and stop
// growing (the game writes it a few ticks later, asynchronously), then crops and scales it here.
// Parsing of the crop/scale arguments and the image work are pure; only waitForFile touches disk.
import fs from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';

/** "WxH+X+Y", as ImageMagick writes a geometry. */
export const CROP_RE = /^(\d{1,5})x(\d{1,5})\+(\d{1,5})\+(\d{1,5})$/;
/** "50%" or "800" / "800px" (target width in pixels). */
export const SCALE_RE = /^(?:(\d{1,3}(?:\.\d+)?)%|(\d{1,5})(?:px)?)$/;

export interface Crop {
  width: number;
  height: number;
  x: number;
  y: number;
}

export function parseCrop(text: string): Crop | undefined {
  const m = CROP_RE.exec(text.trim());
  if (!m) return undefined;
  const [width, height, x, y] = m.slice(1).map(Number);
  return width > 0 && height > 0 ? { width, height, x, y } : undefined;
}

/** Scale factor for an image `width` pixels wide. */
export function parseScale(text: string, width: number): number | undefined {
  const m = SCALE_RE.exec(text.trim());
  if (!m) return undefined;
  const f = m[1] !== undefined ? Number(m[1]) / 100 : Number(m[2]) / width;
  return f > 0 && f <= 4 ? f : undefined;
}

/** The Lua the game runs (through cmd.eval) to take the shot. */
export function screenshotLua(relPath: string): string {
  const p = JSON.stringify(relPath);
  return `game.take_screenshot{player = player, by_player = player, show_gui = true, show_entity_info = true, path = ${p}, anti_alias = false}
return {path = ${p}, resolution = player.display_resolution, scale = player.display_scale}`;
}

/** Wait until `file` exists and its size holds still across two looks; undefined on timeout. */
export async function waitForFile(file: string, timeoutMs: number, pollMs = 100): Promise<fs.Stats | undefined> {
  const deadline = Date.now() + timeoutMs;
  let lastSize = -1;
  while (Date.now() < deadline) {
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(file);
    } catch {
      st = undefined;
    }
    if (st && st.size > 0 && st.size === lastSize) return st;
    lastSize = st ? st.size : -1;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  return undefined;
}

export interface EditResult {
  png: PNG;
  crop?: Crop;
  scale?: number;
}

/** Crop (clamped to the image) and then scale a decoded PNG. */
export function editImage(src: PNG, crop?: Crop, scale?: number): EditResult {
  let img = src;
  let applied: Crop | undefined;
  if (crop) {
    const x = Math.min(crop.x, src.width - 1);
    const y = Math.min(crop.y, src.height - 1);
    const w = Math.max(1, Math.min(crop.width, src.width - x));
    const h = Math.max(1, Math.min(crop.height, src.height - y));
    const out = new PNG({ width: w, height: h });
    for (let row = 0; row < h; row++) {
      const from = ((y + row) * src.width + x) * 4;
      src.data.copy(out.data, row * w * 4, from, from + w * 4);
    }
    img = out;
    applied = { width: w, height: h, x, y };
  }
  if (scale !== undefined && scale !== 1) img = resize(img, Math.max(1, Math.round(img.width * scale)), Math.max(1, Math.round(img.height * scale)));
  return { png: img, ...(applied ? { crop: applied } : {}), ...(scale !== undefined ? { scale } : {}) };
}

/** Box filter when shrinking (keeps text legible), nearest neighbour when growing. */
function resize(src: PNG, w: number, h: number): PNG {
  const out = new PNG({ width: w, height: h });
  const sx = src.width / w;
  const sy = src.height / h;
  for (let y = 0; y < h; y++) {
    const y0 = Math.floor(y * sy);
    const y1 = Math.max(y0 + 1, Math.min(src.height, Math.floor((y + 1) * sy)));
    for (let x = 0; x < w; x++) {
      const x0 = Math.floor(x * sx);
      const x1 = Math.max(x0 + 1, Math.min(src.width, Math.floor((x + 1) * sx)));
      const acc = [0, 0, 0, 0];
      for (let yy = y0; yy < y1; yy++) {
        for (let xx = x0; xx < x1; xx++) {
          const i = (yy * src.width + xx) * 4;
          for (let c = 0; c < 4; c++) acc[c] += src.data[i + c];
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      const o = (y * w + x) * 4;
      for (let c = 0; c < 4; c++) out.data[o + c] = Math.round(acc[c] / n);
    }
  }
  return out;
}

export function readPng(file: string): PNG {
  return PNG.sync.read(fs.readFileSync(file));
}

export function writePng(file: string, png: PNG): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, PNG.sync.write(png));
}
