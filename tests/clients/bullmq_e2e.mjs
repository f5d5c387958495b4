// BullMQ end to end (issue 15): BullMQ 5 (npm) against a server on
// 127.0.0.1:PORT. Adds N jobs, processes them with W workers of concurrency
// C, then checks that every job completed, ran exactly once, and has its
// return value. BullMQ's Lua scripts write its event stream with XADD and
// XTRIM, and its QueueEvents read it with XREAD BLOCK.
//
// Usage: node bullmq_e2e.mjs PORT [N] [W] [C]   (exit 0 when all is right)
import { Queue, Worker, QueueEvents } from 'bullmq';
import IORedis from 'ioredis';

const [port, n = 200, w = 2, c = 4] = process.argv.slice(2).map(Number);
const connection = { host: '127.0.0.1', port };
const redis = new IORedis(connection);
await redis.flushall();

const queue = new Queue('e2e', { connection });
const events = new QueueEvents('e2e', { connection });
await events.waitUntilReady();
let completedEvents = 0;
events.on('completed', () => { completedEvents++; });

const jobs = await queue.addBulk(Array.from({ length: n }, (_, i) => ({ name: 'square', data: { i } })));
const workers = Array.from({ length: w }, () => new Worker('e2e', async (job) => {
  await redis.incr(`e2e:runs:${job.data.i}`);
  return job.data.i * job.data.i;
}, { connection, concurrency: c }));

const deadline = Date.now() + 60000;
while ((await queue.getJobCounts('completed')).completed < n && Date.now() < deadline)
  await new Promise((r) => setTimeout(r, 50));
while (completedEvents < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

const bad = [];
for (const job of jobs) {
  const j = await queue.getJob(job.id);
  const runs = Number(await redis.get(`e2e:runs:${job.data.i}`));
  const state = j ? await j.getState() : 'missing';
  if (state !== 'completed' || j.returnvalue !== job.data.i * job.data.i || runs !== 1)
    bad.push({ i: job.data.i, state, returnvalue: j?.returnvalue, runs });
}
console.log(`BullMQ: ${n} jobs, ${w} workers x ${c}: ${n - bad.length} completed exactly once with their result, ${completedEvents} completed events`);
for (const b of bad.slice(0, 10)) console.log('  wrong:', JSON.stringify(b));
await Promise.all(workers.map((wk) => wk.close()));
await events.close();
await queue.close();
await redis.quit();
process.exit(bad.length || completedEvents !== n ? 1 : 0);
