import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { PROTOCOL_VERSION, decodeModMessage, encodeAppMessage, luaArray, luaRecord, appEnvelopeSchema } from '../../../../src/core/bridge/protocol';
import { REPO } from '../../../helpers/paths';

const enc = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));
const good = { protocol_version: PROTOCOL_VERSION, type: 'bridge.ping', request_id: '120-1-bridge.ping', tick: 120, player: 1, mod_version: '0.1.0', payload: {} };

describe('bridge protocol', () => {
  it('has the same protocol version in TypeScript and in the mod\'s Lua', () => {
    const lua = fs.readFileSync(path.join(REPO, 'companion-mod', 'scripts', 'protocol.lua'), 'utf8');
    const m = /^M\.PROTOCOL_VERSION\s*=\s*(\d+)\s*$/m.exec(lua);
    assert.ok(m, 'protocol.lua declares M.PROTOCOL_VERSION');
    assert.equal(Number(m[1]), PROTOCOL_VERSION);
  });

  it('decodes a well-formed envelope from the mod', () => {
    const r = decodeModMessage(enc(good));
    assert.ok(r.ok);
    assert.equal(r.envelope.type, 'bridge.ping');
    assert.equal(r.envelope.player, 1);
  });

  it('accepts an envelope with only version and type (the rest is optional)', () => {
    assert.ok(decodeModMessage(enc({ protocol_version: 3, type: 'state.stats' })).ok);
  });

  it('rejects bad JSON, non-objects, a missing or malformed type, and wrong field types', () => {
    const bad: unknown[] = [
      '', '{', 'null', '[1,2]', '"ping"', '{"type":"bridge.ping"}',
      { ...good, type: undefined }, { ...good, type: '' }, { ...good, type: 'ping' }, { ...good, type: 'Bridge.Ping' },
      { ...good, type: 'a.' + 'b'.repeat(80) }, { ...good, protocol_version: '1' }, { ...good, protocol_version: 1.5 },
      { ...good, tick: -1 }, { ...good, player: 'alice' }, { ...good, request_id: 7 }, { ...good, mod_version: 'x'.repeat(40) },
    ];
    for (const b of bad) {
      const r = decodeModMessage(enc(b as string));
      assert.equal(r.ok, false, JSON.stringify(b));
    }
    assert.equal(decodeModMessage(Buffer.alloc(0)).ok, false);
    assert.equal(decodeModMessage(Buffer.from([0x7b, 0xff, 0xfe])).ok, false);
  });

  it('writes app messages the fake game (and the mod) can read', () => {
    const text = encodeAppMessage('cmd.eval', { code: '1+1' }, 'abc');
    const env = appEnvelopeSchema.parse(JSON.parse(text));
    assert.deepEqual(env, { protocol_version: PROTOCOL_VERSION, type: 'cmd.eval', request_id: 'abc', payload: { code: '1+1' } });
    assert.deepEqual(JSON.parse(encodeAppMessage('bridge.pong')), { protocol_version: PROTOCOL_VERSION, type: 'bridge.pong' });
  });

  it('accepts an empty Lua table written as {} where a list is expected, and as [] where a map is', () => {
    const list = luaArray(z.string(), 5);
    const map = luaRecord(z.number());
    assert.deepEqual(list.parse({}), []);
    assert.deepEqual(list.parse([]), []);
    assert.deepEqual(list.parse(['a']), ['a']);
    assert.deepEqual(map.parse([]), {});
    assert.deepEqual(map.parse({}), {});
    assert.equal(list.safeParse({ a: 1 }).success, false);
    assert.equal(map.safeParse([1]).success, false);
    assert.equal(list.safeParse(['a', 'b', 'c', 'd', 'e', 'f']).success, false);
  });
});
