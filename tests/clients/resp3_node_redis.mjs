// node-redis 5 speaking RESP3 (issue 20): HELLO 3's map, typed replies (a
// map for HGETALL, a double for ZSCORE), pub/sub messages pushed on a
// connection that keeps running commands, pattern and sharded pub/sub.
// Usage: node resp3_e2e.mjs PORT; exit status 0 when every check passes.
import { createClient } from 'redis';
import assert from 'node:assert/strict';

const url = `redis://127.0.0.1:${Number(process.argv[2])}`;
const client = createClient({ url, RESP: 3 });
const publisher = createClient({ url, RESP: 3 });
await client.connect();
await publisher.connect();

const hello = await client.sendCommand(['HELLO', '3']);
assert.equal(hello.proto, 3);
assert.equal(hello.version, '7.0.15');
await client.del(['h', 'z']);
await client.hSet('h', { f1: 'v1', f2: 'v2' });
assert.deepEqual({ ...(await client.hGetAll('h')) }, { f1: 'v1', f2: 'v2' });
await client.zAdd('z', { score: 1.5, value: 'm' });
assert.equal(await client.zScore('z', 'm'), 1.5);

const got = [];
let expected = 0;
let allArrived;
const arrived = new Promise((resolve) => { allArrived = resolve; });
const listener = (kind) => (message, channel) => {
  got.push(`${kind}:${channel}:${message}`);
  if (got.length === expected) allArrived();
};
await client.subscribe('news', listener('message'));
await client.pSubscribe('n*', listener('pmessage'));
await client.sSubscribe('shard', listener('smessage'));
// The subscribed RESP3 connection still runs ordinary commands.
await client.set('k', 'v');
assert.equal(await client.get('k'), 'v');
expected = 3 * 20;
for (let i = 0; i < 20; i++) {
  assert.equal(await publisher.publish('news', `m${i}`), 2);
  assert.equal(await publisher.sPublish('shard', `s${i}`), 1);
}
await arrived;
for (let i = 0; i < 20; i++) {
  for (const m of [`message:news:m${i}`, `pmessage:news:m${i}`, `smessage:shard:s${i}`])
    assert.ok(got.includes(m), `${m} missing from ${got}`);
}
// By name: node-redis 5 waits forever on an UNSUBSCRIBE without arguments
// (against Redis 7.0.15 too).
await client.unsubscribe('news');
await client.pUnsubscribe('n*');
await client.sUnsubscribe('shard');
assert.equal(await client.ping(), 'PONG');
client.destroy();
publisher.destroy();
console.log(`node-redis RESP3: typed replies and ${got.length} pushed messages ok`);
