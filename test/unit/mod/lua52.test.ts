// The same mod on the real Lua 5.2 interpreter (closest to Factorio's 5.2.1), when installed: the
// fengari tests run Lua 5.3, which is more lenient (and formats numbers differently). This runs the
// mod on the fake runtime without sockets and checks what it would have sent.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Reassembler, isChunkFrame } from '../../../src/core/bridge/chunking';
import { decodeModMessage } from '../../../src/core/bridge/protocol';
import { MOD_DIR, STUB_DIR } from '../../mod/harness';

const hasLua52 = spawnSync('lua5.2', ['-v'], { encoding: 'utf8' }).status === 0;

const SCRIPT = `
package.path = ${JSON.stringify(`${MOD_DIR}/?.lua;${STUB_DIR}/?.lua;`)} .. package.path
local C = require("factorio_stub")
C.default_world()
C.install_turd({ ["press-upgrade"] = "lean-press" })
C.add_player({ name = "alice", port = 37657, allow_eval = true })
for i = 1, 300 do C.add_entity({ name = "assembling-machine-3", type = "assembling-machine", x = i, y = 9, surface = C.surfaces.nauvis, force = C.forces.player, recipe = "long-recipe-name-" .. i }) end
C.load_mod(true)
C.advance(120)
C.deliver(1, '{"protocol_version":1,"type":"bridge.pong","payload":{"protocol_version":1,"project":"P"}}', 37657)
C.deliver(1, '{"protocol_version":1,"type":"cmd.eval","request_id":"e1","payload":{"code":"10/2"}}', 37657)
C.deliver(1, '{"protocol_version":1,"type":"cmd.eval","request_id":"e2","payload":{"code":"1/3"}}', 37657)
C.deliver(1, '{"protocol_version":1,"type":"cmd.game_context","request_id":"g1","payload":{}}', 37657)
C.deliver(1, '{"protocol_version":1,"type":"cmd.show_block","request_id":"s1","payload":{"name":"B","powerW":1500000,"recipes":[{"recipe":"r","machine":"m","count":2.5,"modules":[]}],"inputs":[{"name":"x","rate":0.5}],"outputs":[]}}', 37657)
C.advance(30)
for _, d in ipairs(C.take_outbox()) do io.write(#d.data, "\\n", d.data, "\\n") end
io.write("LOGS ", #C.logs, "\\n")
`;

describe('companion mod on real Lua 5.2', function () {
  this.timeout(10_000);

  it('runs the heartbeat, snapshots and commands with Lua 5.2 semantics', function () {
    if (!hasLua52) {
      console.log('      (skipped: lua5.2 is not installed; apt-get install lua5.2)');
      this.skip();
    }
    const r = spawnSync('lua5.2', ['-'], { input: SCRIPT });
    assert.equal(r.status, 0, r.stderr.toString());
    const out = r.stdout;
    const messages: Array<{ type: string; payload: any }> = [];
    const re = new Reassembler();
    let at = 0;
    while (at < out.length) {
      const nl = out.indexOf(0x0a, at);
      const head = out.subarray(at, nl).toString();
      if (head.startsWith('LOGS')) {
        assert.equal(head, 'LOGS 0', 'nothing logged (no errors)');
        break;
      }
      const len = Number(head);
      let data: Buffer = out.subarray(nl + 1, nl + 1 + len);
      at = nl + 1 + len + 1;
      assert.ok(data.length <= 8000);
      if (isChunkFrame(data)) {
        const c = re.accept(data, 'lua');
        if (c.kind !== 'complete') continue;
        data = c.message;
      }
      const d = decodeModMessage(data);
      assert.ok(d.ok, data.toString().slice(0, 200));
      messages.push({ type: d.envelope.type, payload: d.envelope.payload });
    }
    const types = messages.map((m) => m.type);
    assert.deepEqual(types.slice(0, 5), ['bridge.ping', 'state.research', 'state.turd', 'state.built', 'state.stats']);
    assert.equal(messages[3].payload.machines.length, 304, 'the chunked built snapshot came back whole');
    const results = new Map(messages.filter((m) => m.type === 'bridge.result').map((m) => [m.payload.request_id, m.payload.payload]));
    assert.deepEqual(results.get('e1'), { ok: true, result: '5', truncated: false });
    assert.deepEqual(results.get('e2'), { ok: true, result: '0.33333333333333', truncated: false });
    assert.equal(results.get('g1').player, 'alice');
    assert.deepEqual(results.get('s1'), { ok: true, panel: 'block', block: 'B' });
  });
});
