// 100,000 random and mutated datagrams at the bridge's dispatcher: nothing crashes, the project is
// byte-for-byte unchanged, the re-solve hook never fires, and every datagram lands in exactly one
// counter. The generator is seeded, so a failure reproduces.
import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import { Bridge } from '../../../../src/core/bridge/bridge';
import { splitMessage } from '../../../../src/core/bridge/chunking';
import { MOD_MESSAGES, PROTOCOL_VERSION } from '../../../../src/core/bridge/protocol';
import { fingerprint, makeProject, PAIRING } from './helpers';

function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(a: readonly T[]): T => a[int(a.length)];
  return { next, int, pick };
}

const TOTAL = Number(process.env.FUZZ_TOTAL ?? 100_000);
const COUNTERS = ['malformed', 'unknown', 'rejected', 'ignored', 'late', 'partial', 'duplicate', 'handled', 'failed', 'refused'] as const;

describe('bridge fuzz', function () {
  this.timeout(30_000);

  it('survives 100,000 random and mutated datagrams without touching the project', async () => {
    const ctx = await makeProject({ gameData: true });
    try {
      const p = ctx.project;
      // some state, so a bogus snapshot would show
      p.write((db) => {
        db.run("INSERT INTO researched_techs VALUES ('electronics'), ('automation-basics')");
        db.run("INSERT INTO built_machines VALUES ('press', 'gear', 3)");
        db.run("INSERT INTO production_stats VALUES ('gear', 'item', 1.5, 0.5)");
        db.run("INSERT INTO turd_selections VALUES ('press-upgrade', 'lean-press', 'synced', '2026-01-01')");
      });
      const before = fingerprint(p);
      let hookCalls = 0;
      const bridge = new Bridge({ project: () => p, onStateChanged: () => hookCalls++, pairing: PAIRING });
      let replies = 0;
      const relay = bridge.attachRelay({ id: 'fuzz', send: () => (replies++, true) });

      const r = rng(20261202);
      const randomString = (max: number) => {
        const n = r.int(max);
        let s = '';
        for (let i = 0; i < n; i++) s += r.next() < 0.9 ? String.fromCharCode(32 + r.int(95)) : String.fromCharCode(r.int(0x3000));
        return s;
      };
      const randomJson = (depth: number): unknown => {
        const k = r.int(depth > 3 ? 5 : 8);
        switch (k) {
          case 0: return null;
          case 1: return r.next() < 0.5;
          case 2: return r.pick([0, -1, 1e308, -1e-300, 3.5, 2 ** 53, Number.MAX_SAFE_INTEGER]) * (r.next() < 0.5 ? 1 : -1);
          case 3: return randomString(30);
          case 4: return r.int(1000);
          case 5: return Array.from({ length: r.int(6) }, () => randomJson(depth + 1));
          default: {
            const o: Record<string, unknown> = {};
            for (let i = r.int(6); i > 0; i--) o[randomString(12)] = randomJson(depth + 1);
            return o;
          }
        }
      };
      const types = [...MOD_MESSAGES, 'cmd.eval', 'request.sync', 'x.y', 'state.unknown'];
      // Most carry the pairing code, so payload validation is what stands between them and the project.
      const envelope = (type: string, payload: unknown, extra: Record<string, unknown> = {}) =>
        JSON.stringify({ protocol_version: PROTOCOL_VERSION, type, request_id: `${r.int(1e6)}-1-${type}`, tick: r.int(1e6), player: 1, mod_version: '0.1.0', ...(r.next() < 0.9 ? { pairing: PAIRING } : {}), payload, ...extra });

      // Payloads of the writing types, each broken in one way the validator must catch.
      const brokenState = (): string => {
        const t = r.pick(['state.research', 'state.turd', 'state.built', 'state.stats', 'task.capture'] as const);
        const bad = r.pick(['wrong type', 'missing', 'too long', 'bad element', 'bad kind'] as const);
        const long = 'x'.repeat(201);
        switch (t) {
          case 'state.research':
            return envelope(t, bad === 'missing' ? { force: 'player' } : bad === 'wrong type' ? { researched: 'electronics' } : bad === 'too long' ? { researched: [long] } : { researched: ['electronics', r.pick([1, null, {}, []])] });
          case 'state.turd':
            return envelope(t, bad === 'missing' ? { force: 'player' } : { selections: r.pick(['lean-press', 5, null, true, [1]]) });
          case 'state.built':
            return envelope(t, bad === 'missing' ? {} : { machines: [{ machine: 'press', recipe: 'gear', count: 1 }, bad === 'wrong type' ? { machine: 'press', recipe: 'gear', count: '2' } : bad === 'too long' ? { machine: long, recipe: '', count: 1 } : { machine: '', recipe: 5, count: 1 }] });
          case 'state.stats':
            return envelope(t, bad === 'missing' ? { force: 'player' } : { items: [{ name: 'gear', kind: bad === 'bad kind' ? 'solid' : 'item', produced: bad === 'wrong type' ? '1' : 1, consumed: null }] });
          default:
            return envelope(t, bad === 'missing' ? { body: 'no title' } : { title: r.pick(['', '   ', 7, null]) });
        }
      };

      // Seeds for byte-level mutation: messages that never write the project.
      const seeds: Buffer[] = [
        Buffer.from(envelope('bridge.ping', { player_name: 'alice' })),
        Buffer.from(envelope('bridge.result', { request_id: 'nobody-waits', payload: { ok: true } })),
        Buffer.from(envelope('task.list', {})),
        Buffer.from(envelope('mystery.type', { a: 1 })),
        ...splitMessage(envelope('bridge.ping', { pad: 'y'.repeat(20_000) }), 8000, 'fz1'),
      ];
      const mutate = (src: Buffer): Buffer => {
        const b = Buffer.from(src);
        switch (r.int(6)) {
          case 0: // flip bytes
            for (let i = 1 + r.int(4); i > 0; i--) b[r.int(b.length)] ^= 1 << r.int(8);
            return b;
          case 1: // truncate
            return b.subarray(0, r.int(b.length));
          case 2: { // delete a region
            const at = r.int(b.length);
            return Buffer.concat([b.subarray(0, at), b.subarray(at + r.int(40))]);
          }
          case 3: { // insert junk
            const at = r.int(b.length);
            return Buffer.concat([b.subarray(0, at), Buffer.from(randomString(20)), b.subarray(at)]);
          }
          case 4: { // splice two seeds
            const o = r.pick(seeds);
            return Buffer.concat([b.subarray(0, r.int(b.length)), o.subarray(r.int(o.length))]);
          }
          default: // duplicate a region
            {
              const at = r.int(b.length);
              return Buffer.concat([b.subarray(0, at), b.subarray(at, at + r.int(60)), b.subarray(at)]);
            }
        }
      };

      for (let i = 0; i < TOTAL; i++) {
        const kind = r.int(100);
        let d: Buffer;
        if (kind < 20) d = Buffer.from(Array.from({ length: r.int(300) }, () => r.int(256)));
        else if (kind < 35) d = Buffer.from(JSON.stringify(randomJson(0)) ?? 'null');
        else if (kind < 55) d = Buffer.from(envelope(r.pick(types), randomJson(1)));
        else if (kind < 65) d = Buffer.from(brokenState());
        else if (kind < 70) d = Buffer.from(`PYC1 ${randomString(8).replace(/[^A-Za-z0-9]/g, 'a') || 'z'} ${1 + r.int(4)} ${2 + r.int(4)}\n${randomString(50)}`);
        else d = mutate(r.pick(seeds));
        // Mostly one source (the game); the rest come from others, refused while it is linked.
        relay.receive(r.next() < 0.9 ? 40_000 : 40_001 + r.int(9), d);
      }
      const c = bridge.status().counters;
      assert.equal(c.in, TOTAL);
      assert.equal(COUNTERS.reduce((n, k) => n + c[k], 0), c.in, JSON.stringify(c));
      assert.ok(c.malformed > TOTAL / 4, `malformed ${c.malformed}`);
      assert.ok(c.rejected > TOTAL / 20, `rejected ${c.rejected}`);
      assert.ok(c.refused > 0, `refused ${c.refused}`);
      assert.ok(c.handled > 0 && c.unknown > 0 && c.partial > 0, JSON.stringify(c));
      assert.equal(c.failed, 0);
      assert.equal(hookCalls, 0, 'the re-solve hook never fired');
      assert.equal(fingerprint(p), before, 'the project is unchanged');
      assert.ok(replies > 0, 'pings were still answered');
      relay.detach();
      await bridge.stop();
    } finally {
      ctx.dispose();
    }
  });

  it('keeps its counters consistent for garbage arriving over a real UDP socket', async () => {
    const bridge = new Bridge({ port: 0 });
    const { port } = await bridge.start();
    const s = dgram.createSocket('udp4');
    await new Promise<void>((res) => s.bind(0, '127.0.0.1', () => res()));
    const r = rng(7);
    // In batches the receiver can keep up with (a socket buffer holds only a few hundred datagrams).
    // The kernel may still drop a datagram on a loaded machine; the bridge must account for every
    // one it got, which the in-process fuzz above checks exactly.
    let sent = 0;
    while (sent < 2000) {
      for (let i = 0; i < 50; i++, sent++) {
        const d = Buffer.from(Array.from({ length: 1 + r.int(200) }, () => r.int(256)));
        await new Promise<void>((res) => s.send(d, port, '127.0.0.1', () => res()));
      }
      const batchDeadline = Date.now() + 2000;
      while (bridge.status().counters.in < sent && Date.now() < batchDeadline) await new Promise((res) => setTimeout(res, 1));
    }
    const c = bridge.status().counters;
    assert.ok(c.in <= sent && c.in >= sent * 0.99, `received ${c.in} of ${sent}`);
    assert.equal(COUNTERS.reduce((n, k) => n + c[k], 0), c.in);
    assert.equal(c.out, 0, 'garbage gets no reply');
    await new Promise<void>((res) => s.close(() => res()));
    await bridge.stop();
  });
});
