// Layered icons drawn the way the game draws them in a GUI slot (Factorio 2.0 IconData rules):
// layers in order, each `size * scale` icon units wide, centred at `shift` units from the middle of
// a slot `canvas` units wide; tint multiplies the premultiplied pixel (alpha too, so a tint with
// a < 1 lightens additively, as barrel masks expect); and when the non-floating layers overflow the
// slot, the whole icon is scaled down and centred on them. Resampling is an exact area average.
import type { IconLayer, IconSpec } from './spec';
import type { Picture } from './picture';

/** Box-filter weights: for each output index, the source indices it covers and how much. */
function weights(outLen: number, start: number, drawn: number, srcLen: number): Array<Array<[number, number]>> {
  const k = srcLen / drawn;
  const out: Array<Array<[number, number]>> = [];
  for (let d = 0; d < outLen; d++) {
    const a = Math.max(0, (d - start) * k);
    const b = Math.min(srcLen, (d + 1 - start) * k);
    const w: Array<[number, number]> = [];
    for (let s = Math.floor(a); s < b; s++) {
      const cover = Math.min(b, s + 1) - Math.max(a, s);
      if (cover > 1e-9) w.push([s, cover / k]);
    }
    out.push(w);
  }
  return out;
}

interface Placement {
  left: number;
  top: number;
  drawn: number;
}

/** Where each layer lands in an `out`×`out` picture, fitted as the game fits icons to a slot. */
export function placeLayers(spec: IconSpec, out: number): Placement[] {
  const boxes = spec.layers.map((l) => ({ l, half: (l.size * l.scale) / 2 }));
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const { l, half } of boxes) {
    if (l.floating) continue;
    minX = Math.min(minX, l.shift[0] - half);
    maxX = Math.max(maxX, l.shift[0] + half);
    minY = Math.min(minY, l.shift[1] - half);
    maxY = Math.max(maxY, l.shift[1] + half);
  }
  const extent = Math.max(maxX - minX, maxY - minY);
  const overflow = Number.isFinite(extent) && extent > spec.canvas + 1e-9;
  const fit = overflow ? spec.canvas / extent : 1;
  const cx = overflow ? (minX + maxX) / 2 : 0;
  const cy = overflow ? (minY + maxY) / 2 : 0;
  const px = (out / spec.canvas) * fit;
  return boxes.map(({ l, half }) => ({
    left: out / 2 + (l.shift[0] - cx - half) * px,
    top: out / 2 + (l.shift[1] - cy - half) * px,
    drawn: half * 2 * px,
  }));
}

/**
 * Draw the layers (each picture already cropped to its full-size square) into an `out`×`out` RGBA
 * picture. `pictures[i]` belongs to `spec.layers[i]`.
 */
export function composeIcon(spec: IconSpec, pictures: Picture[], out: number): Picture {
  const acc = new Float64Array(out * out * 4);
  const places = placeLayers(spec, out);
  spec.layers.forEach((layer: IconLayer, i) => {
    const pic = pictures[i];
    const at = places[i];
    if (!pic || at.drawn <= 0) return;
    const tint = layer.tint ?? [1, 1, 1, 1];
    const wx = weights(out, at.left, at.drawn, pic.width);
    const wy = weights(out, at.top, at.drawn, pic.height);
    for (let y = 0; y < out; y++) {
      const rows = wy[y];
      if (!rows.length) continue;
      for (let x = 0; x < out; x++) {
        const cols = wx[x];
        if (!cols.length) continue;
        let r = 0;
        let g = 0;
        let b = 0;
        let a = 0;
        for (const [sy, fy] of rows) {
          for (const [sx, fx] of cols) {
            const o = (sy * pic.width + sx) * 4;
            const pa = (pic.data[o + 3] / 255) * fx * fy;
            r += (pic.data[o] / 255) * pa;
            g += (pic.data[o + 1] / 255) * pa;
            b += (pic.data[o + 2] / 255) * pa;
            a += pa;
          }
        }
        r *= tint[0];
        g *= tint[1];
        b *= tint[2];
        a *= tint[3];
        const d = (y * out + x) * 4;
        const keep = 1 - Math.min(1, a);
        acc[d] = r + acc[d] * keep;
        acc[d + 1] = g + acc[d + 1] * keep;
        acc[d + 2] = b + acc[d + 2] * keep;
        acc[d + 3] = a + acc[d + 3] * keep;
      }
    }
  });
  const data = new Uint8Array(out * out * 4);
  for (let d = 0; d < data.length; d += 4) {
    const a = Math.min(1, acc[d + 3]);
    if (a <= 0) continue;
    // Back to straight alpha; additive tints can leave colour above alpha, which saturates.
    data[d] = Math.round(Math.min(1, acc[d] / a) * 255);
    data[d + 1] = Math.round(Math.min(1, acc[d + 1] / a) * 255);
    data[d + 2] = Math.round(Math.min(1, acc[d + 2] / a) * 255);
    data[d + 3] = Math.round(a * 255);
  }
  return { width: out, height: out, data };
}
