// Layered icons drawn by the IconData rules, checked against pixel values worked out by hand: a
// 4×4 output of a 32-unit slot is 8 units per pixel.
import assert from 'node:assert/strict';
import { composeIcon, placeLayers } from '../../../../../src/core/gamedata/icons/compose';
import { decodePng, encodePng, topLeftSquare, type Picture } from '../../../../../src/core/gamedata/icons/picture';
import type { IconLayer, IconSpec } from '../../../../../src/core/gamedata/icons/spec';
import { png, solid, type Rgba } from '../../../../helpers/iconFiles';

const pic = (bytes: Buffer): Picture => decodePng(bytes);
const layer = (over: Partial<IconLayer> = {}): IconLayer => ({ icon: '__t__/a.png', size: 2, scale: 16, shift: [0, 0], tint: null, floating: false, ...over });
const spec = (...layers: IconLayer[]): IconSpec => ({ canvas: 32, layers });
const at = (p: Picture, x: number, y: number): Rgba => Array.from(p.data.subarray((y * p.width + x) * 4, (y * p.width + x) * 4 + 4)) as Rgba;

describe('icon composition', () => {
  it('keeps only the top-left square of a file holding mipmaps', () => {
    // 4 px icon followed by its 2 px and 1 px mipmaps: 7 wide, 4 high.
    const file = pic(png(7, 4, (x) => (x < 4 ? [255, 0, 0, 255] : [0, 255, 0, 255])));
    const sq = topLeftSquare(file, 4);
    assert.deepEqual([sq.width, sq.height], [4, 4]);
    for (let i = 0; i < 16; i++) assert.deepEqual(Array.from(sq.data.subarray(i * 4, i * 4 + 4)), [255, 0, 0, 255]);
  });

  it('fills the slot with a single layer at the default scale', () => {
    const out = composeIcon(spec(layer()), [pic(solid(2, 2, [10, 20, 30, 255]))], 4);
    for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) assert.deepEqual(at(out, x, y), [10, 20, 30, 255]);
  });

  it('multiplies a tint into the premultiplied pixel, alpha included', () => {
    // straight (200,100,50,a=1) × tint (0.5,1,0,0.5): premultiplied (100,100,0,0.5) → straight (200,200,0) at a=0.5.
    const out = composeIcon(spec(layer({ tint: [0.5, 1, 0, 0.5] })), [pic(solid(2, 2, [200, 100, 50, 255]))], 4);
    assert.deepEqual(at(out, 1, 1), [200, 200, 0, 128]);
  });

  it('draws later layers over earlier ones (premultiplied "over")', () => {
    // blue base, white top at alpha 128/255 ≈ 0.502: rgb = 0.502·white + 0.498·blue = (128, 128, 255), a = 1.
    const out = composeIcon(spec(layer(), layer()), [pic(solid(2, 2, [0, 0, 255, 255])), pic(solid(2, 2, [255, 255, 255, 128]))], 4);
    assert.deepEqual(at(out, 2, 3), [128, 128, 255, 255]);
  });

  it('adds rather than covers where a tint lowers alpha only, as the game does', () => {
    // white × (1,1,1,0.5) stays (1,1,1) premultiplied at a = 0.5: over blue, (1, 1, 1 + 0.5) saturates to white.
    const out = composeIcon(spec(layer(), layer({ tint: [1, 1, 1, 0.5] })), [pic(solid(2, 2, [0, 0, 255, 255])), pic(solid(2, 2, [255, 255, 255, 255]))], 4);
    assert.deepEqual(at(out, 2, 3), [255, 255, 255, 255]);
  });

  it('scales and shifts a layer in icon units', () => {
    // 2 px × scale 8 = 16 units = half the slot, centred 8 units up-left: exactly the top-left 2×2 pixels.
    const out = composeIcon(spec(layer({ scale: 8, shift: [-8, -8] })), [pic(solid(2, 2, [0, 255, 0, 255]))], 4);
    for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) assert.deepEqual(at(out, x, y), x < 2 && y < 2 ? [0, 255, 0, 255] : [0, 0, 0, 0], `pixel ${x},${y}`);
  });

  it('averages the source pixels a smaller layer covers', () => {
    // 4×4 checkerboard of opaque black and white drawn into 2×2: each output pixel averages 2 black, 2 white.
    const board = pic(png(4, 4, (x, y) => ((x + y) % 2 ? [255, 255, 255, 255] : [0, 0, 0, 255])));
    const out = composeIcon(spec(layer({ size: 4, scale: 8 })), [board], 2);
    assert.deepEqual(at(out, 0, 0), [128, 128, 128, 255]);
  });

  it('covers a pixel the layer only half reaches with half the alpha', () => {
    // 16 units shifted 4 units right (half a pixel): columns 1.5..3.5, so column 1 and column 3 are half covered.
    const out = composeIcon(spec(layer({ scale: 8, shift: [4, 0] })), [pic(solid(2, 2, [255, 0, 0, 255]))], 4);
    assert.deepEqual(at(out, 1, 1), [255, 0, 0, 128]);
    assert.deepEqual(at(out, 2, 1), [255, 0, 0, 255]);
    assert.deepEqual(at(out, 3, 1), [255, 0, 0, 128]);
    assert.deepEqual(at(out, 0, 1), [0, 0, 0, 0]);
  });

  it('fits layers that overflow the slot back into it, ignoring floating ones', () => {
    // Two 32-unit layers 16 units apart span 48 units: scaled by 32/48 and centred on them.
    const places = placeLayers(spec(layer({ shift: [-8, 0] }), layer({ shift: [8, 0] }), layer({ scale: 8, shift: [40, 40], floating: true })), 48);
    assert.deepEqual(places[0], { left: 0, top: 8, drawn: 32 });
    assert.deepEqual(places[1], { left: 16, top: 8, drawn: 32 });
    // The floating layer is scaled with the rest but did not widen the fit.
    assert.equal(places[2].drawn, 16 * (48 / 32) * (32 / 48));
  });

  it('round-trips through PNG', () => {
    const out = composeIcon(spec(layer()), [pic(solid(2, 2, [1, 2, 3, 255]))], 4);
    assert.deepEqual(at(decodePng(encodePng(out)), 3, 3), [1, 2, 3, 255]);
  });
});
