// npm run bench:memory : does the server's memory stay flat under load?
// Starts the hello-world scenario's switchyard server in a child process (as
// npm run bench does, pinned to one core when taskset exists), sends it
// 1,000,000 GET requests over keep-alive connections to 127.0.0.1 with
// autocannon, and compares the RSS the requests leave behind: after the first
// 100,000 requests, and after all of them. Passes (exit code 0) when the final
// RSS is within 10% of the 100k value; otherwise exits with code 1.
//
// The load goes in steps of 100,000 requests (each step is one autocannon run
// over fresh keep-alive connections), back to back, and the server's memory is
// printed after each step: RSS, and V8's heap in use and reserved, to help
// tell a leak (the heap in use keeps growing) from memory that is only
// settling (RSS grows to a plateau while the heap in use stays flat).
//
// The server runs with --expose-gc and collects garbage (a full collection)
// before each reading. Under load, V8 also enlarges its young generation, step
// by step, up to 16 MB per semi-space (~50 MB of RSS over its starting size):
// that is V8 sizing itself for the allocation rate, whatever the server does
// (bare node:http shows the same steps), and it is given back once the load
// stops. So the two readings that are compared, after the first step and
// after the last, are taken once the server has settled: the load stops, and
// the runner waits until V8 has shrunk its young generation back to its
// starting size (MEMORY_YOUNG_FLOOR, 1 MiB by default: V8 does so in a full collection
// once it has seen a few seconds without allocation, about 5 s here; the
// runner asks for one every second; MEMORY_SETTLE_MS bounds the wait, default
// 60 s). What is then resident is what the requests left behind. The steps in between run back to back and
// are read right after each step, without settling, for information.
// MEMORY_SETTLE_MS=0 reads every step right after it instead (the check then
// fails for the young generation's growth alone, bare node:http included;
// MEMORY_NODE_FLAGS=--min-semi-space-size=16 starts it at its full size).
//
// Environment: MEMORY_NODE_FLAGS, MEMORY_REQUESTS (default 1000000), MEMORY_STEP (default 100000;
// the reference point is after the first step), MEMORY_TOLERANCE (default
// 0.10), MEMORY_SETTLE_MS (default 60000), MEMORY_YOUNG_FLOOR (bytes,
// default 1048576), BENCH_CONNECTIONS (default 50), MEMORY_IMPL (default
// switchyard; any of the bench's servers), BENCH_PIN / BENCH_CPU as for npm
// run bench.
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import autocannon from 'autocannon'
import { startServer, ask, runtime } from './run.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const total = Number(process.env.MEMORY_REQUESTS || 1_000_000)
const step = Number(process.env.MEMORY_STEP || 100_000)
const tolerance = Number(process.env.MEMORY_TOLERANCE || 0.1)
const connections = Number(process.env.BENCH_CONNECTIONS || 50)
const impl = process.env.MEMORY_IMPL || 'switchyard'
const settleLimit = Number(process.env.MEMORY_SETTLE_MS ?? 60_000)
// V8's starting young generation (one semi-space, 1 MiB on 64-bit Node), which it shrinks back to when idle
const youngFloor = Number(process.env.MEMORY_YOUNG_FLOOR || 1 << 20)
if (!(step > 0 && total > step)) throw new Error('need 0 < MEMORY_STEP < MEMORY_REQUESTS')

const file = pathToFileURL(path.join(here, 'scenarios', '01-hello.mjs')).href
const mb = (n) => (n / 1024 / 1024).toFixed(1).padStart(6) + ' MB'

// Exactly `amount` requests; a time limit bounds a stalled run.
function send(port, amount) {
  return new Promise((resolve, reject) => {
    const started = Date.now()
    const limit = setTimeout(() => reject(new Error(`gave up after ${Math.round((Date.now() - started) / 1000)} s`)), Math.max(60_000, amount * 2))
    autocannon({ url: `http://127.0.0.1:${port}/`, connections, amount, timeout: 10 }, (err, result) => {
      clearTimeout(limit)
      if (err) return reject(err)
      if (result.non2xx || result.errors || result.timeouts) return reject(new Error(`${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`))
      resolve({ sent: result.requests.total, seconds: (Date.now() - started) / 1000 })
    })
  })
}

const memory = async (child) => JSON.parse(await ask(child, 'mem'))
const young = async (child) => Number(await ask(child, 'young'))
const line = (label, m, note = '') => console.log(`${label.padStart(9)}  rss ${mb(m.rss)}  heap used ${mb(m.heapUsed)}  heap total ${mb(m.heapTotal)}  external ${mb(m.external)}${note}`)

// With no load, collect garbage in the server every second (at most
// settleLimit ms) until V8 has shrunk its young generation back to youngFloor;
// then read its memory.
async function settled(child) {
  const started = Date.now()
  let m = await memory(child)
  let now = await young(child)
  while (now > youngFloor && Date.now() - started < settleLimit) {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    m = await memory(child)
    now = await young(child)
  }
  if (now <= youngFloor) {
    // V8 hands the freed semi-space pages back to the OS from a background
    // task: a reading taken in the collection that shrank the young
    // generation can still count them (one run read 89.8 MB there, and 59.3
    // MB in the next). Read once more, a second later.
    await new Promise((resolve) => setTimeout(resolve, 1000))
    m = await memory(child)
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(0)
  return { m, note: now > youngFloor ? `  (not settled after ${seconds} s: young generation ${mb(now).trim()})` : `  (settled, ${seconds} s)` }
}

// MEMORY_NODE_FLAGS: extra flags for the server's node, e.g. --min-semi-space-size=16
// (V8's young generation at its full size from the start, so that its one-time
// growth under load is not counted as the server's memory)
const extraFlags = (process.env.MEMORY_NODE_FLAGS || '').split(/\s+/).filter(Boolean)
const { child, port } = await startServer(file, impl, ['--expose-gc', ...extraFlags])
child.removeAllListeners('exit')
let code = 1
try {
  console.log(`${impl} hello world on ${runtime}: ${total} GET requests, ${connections} keep-alive connections, steps of ${step}`)
  line('start', await memory(child))
  let sent = 0
  let seconds = 0
  let reference
  let last
  while (sent < total) {
    const r = await send(port, Math.min(step, total - sent))
    sent += r.sent
    seconds += r.seconds
    // the first and the last step are read once the server has settled; the others right after the step
    const compared = !reference || sent >= total
    if (compared && settleLimit > 0) {
      line(String(sent), await memory(child), '  (right after the step)')
      const { m, note } = await settled(child)
      last = m
      line('', last, note)
    } else {
      last = await memory(child)
      line(String(sent), last, '  (right after the step)')
    }
    if (!reference) reference = last
  }
  const change = (last.rss - reference.rss) / reference.rss
  const ok = Math.abs(change) <= tolerance
  console.log(`${Math.round(sent / seconds)} req/s on average`)
  console.log(`RSS after ${step} requests: ${mb(reference.rss).trim()}; after ${sent}: ${mb(last.rss).trim()} (${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)}%)`)
  console.log(ok ? `PASS: within ${tolerance * 100}% of the value after ${step} requests` : `FAIL: more than ${tolerance * 100}% away from the value after ${step} requests`)
  code = ok ? 0 : 1
} finally {
  child.kill()
}
process.exitCode = code
