// npm run soak [-- --requests N --connections C --warmup W --minutes M]
//
// Soak and fault test: N requests (default 1,000,000) over C keep-alive
// connections (default 100) to a switchyard app in a child process, mixing
// routes with params, JSON and form posts, static files, sync and async thrown
// errors, client aborts mid-body and mid-sendFile. Loopback only; bounded by
// count and by time (default 30 minutes). Checks, and writes to
// bench/soak/last-report.md:
//   - RSS after warm-up and at the end within 10%;
//   - open handles and file descriptors at the end equal to the start;
//   - no error apart from the intended ones (thrown errors, aborts);
//   - nothing buffered or in flight after the aborts, no connection left open.
import { fork } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Lane } from '../../test/fuzz/client.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))

function args(argv) {
  const out = {}
  for (let i = 0; i < argv.length; i++) {
    const m = /^--(\w+)$/.exec(argv[i])
    if (m) out[m[1]] = argv[++i]
  }
  return out
}
const opts = args(process.argv.slice(2))
const TOTAL = Number(opts.requests ?? 1_000_000)
const CONNECTIONS = Number(opts.connections ?? 100)
const WARMUP = Number(opts.warmup ?? Math.min(50_000, Math.floor(TOTAL / 10)))
const DEADLINE = Date.now() + Number(opts.minutes ?? 30) * 60_000
const ABORT_EVERY = 500 // one abort mid-body and one mid-sendFile per 500 requests

const child = fork(path.join(here, 'server.mjs'), [], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
const port = await new Promise((resolve) => child.on('message', (m) => { if (m.type === 'ready') resolve(m.port) }))
let statsId = 0
function stats() {
  const id = ++statsId
  return new Promise((resolve) => {
    const on = (m) => { if (m.type === 'stats' && m.id === id) { child.off('message', on); resolve(m.stats) } }
    child.on('message', on)
    child.send({ type: 'stats', id })
  })
}

const JSON_BODY = JSON.stringify({ user: { name: 'tobi', tags: ['a', 'b', 'c'] }, items: Array.from({ length: 20 }, (_, i) => ({ i, v: 'x'.repeat(30) })) })
const FORM_BODY = 'user[name]=tobi&user[age]=3&' + Array.from({ length: 30 }, (_, i) => `k${i}=v${i}`).join('&')
const raw = (head, body = '') => Buffer.from(head + (body ? `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}` : '\r\n'), 'latin1')

/** The request mix: [weight, kind, expected status, build(seq)]. */
const MIX = [
  [30, 'params', 200, (s) => raw(`GET /users/${s}/posts/${s % 97}?q=${s} HTTP/1.1\r\nHost: soak\r\nX-Seq: ${s}\r\n`)],
  [15, 'json', 200, (s) => raw(`POST /json HTTP/1.1\r\nHost: soak\r\nX-Seq: ${s}\r\nContent-Type: application/json\r\n`, JSON_BODY)],
  [15, 'form', 200, (s) => raw(`POST /form HTTP/1.1\r\nHost: soak\r\nX-Seq: ${s}\r\nContent-Type: application/x-www-form-urlencoded\r\n`, FORM_BODY)],
  [20, 'static', 200, (s) => raw(`GET /static/small.txt HTTP/1.1\r\nHost: soak\r\nX-Seq: ${s}\r\n`)],
  [5, 'static16k', 200, (s) => raw(`GET /static/medium.css HTTP/1.1\r\nHost: soak\r\nX-Seq: ${s}\r\n`)],
  [3, 'static304', 304, (s) => raw(`GET /static/small.txt HTTP/1.1\r\nHost: soak\r\nX-Seq: ${s}\r\nIf-None-Match: ${etag}\r\n`)],
  [5, 'syncError', 500, (s) => raw(`GET /sync-error HTTP/1.1\r\nHost: soak\r\nX-Seq: ${s}\r\n`)],
  [5, 'asyncError', 500, (s) => raw(`GET /async-error HTTP/1.1\r\nHost: soak\r\nX-Seq: ${s}\r\n`)],
  [2, 'notFound', 404, (s) => raw(`GET /nope/${s} HTTP/1.1\r\nHost: soak\r\nX-Seq: ${s}\r\n`)]
]
const WHEEL = MIX.flatMap((m) => Array(m[0]).fill(m))
let etag = '"none"'

/** A client that sends half a body, then goes away. */
function abortMidBody() {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1')
    s.on('error', () => {})
    s.on('close', resolve)
    s.write('POST /json HTTP/1.1\r\nHost: soak\r\nContent-Type: application/json\r\nContent-Length: 200000\r\n\r\n{"a":"' + 'y'.repeat(20000))
    setTimeout(() => s.destroy(), 2)
  })
}

/** A client that reads the start of an 8 MB sendFile, then goes away. */
function abortMidSendFile() {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1')
    s.on('error', () => {})
    s.on('close', resolve)
    let got = 0
    s.on('data', (d) => { got += d.length; if (got > 64 * 1024) s.destroy() })
    s.write('GET /big HTTP/1.1\r\nHost: soak\r\n\r\n')
  })
}

const counts = { sent: 0, ok: 0, aborts: { body: 0, sendFile: 0 }, wrongStatus: 0, noAnswer: 0, desync: 0, hangs: 0 }
const byKind = {}
const wrongSamples = []
let warm = null
let warmAt = 0

const start = await stats()
const started = Date.now()
{
  // one request to learn the static file's ETag for the 304 share of the mix
  const lane = new Lane(port)
  const r = await new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => s.write('GET /static/small.txt HTTP/1.1\r\nHost: soak\r\nConnection: close\r\n\r\n'))
    let d = ''
    s.on('data', (c) => { d += c })
    s.on('close', () => resolve(d))
  })
  etag = /etag: (.*)\r\n/i.exec(r)?.[1] ?? etag
  lane.close()
}

let next = 0
let lastPrint = Date.now()
async function connection() {
  const lane = new Lane(port)
  for (;;) {
    if (Date.now() > DEADLINE) break
    const seq = next++
    if (seq >= TOTAL) break
    if (seq % ABORT_EVERY === 1) { await abortMidBody(); counts.aborts.body++; counts.sent++; continue }
    if (seq % ABORT_EVERY === 2) { await abortMidSendFile(); counts.aborts.sendFile++; counts.sent++; continue }
    const [, kind, expected, make] = WHEEL[seq % WHEEL.length]
    const { results, hang, desync } = await lane.exchange([{ seq, method: 'GET', bytes: make(seq) }], 5000)
    counts.sent++
    byKind[kind] = (byKind[kind] ?? 0) + 1
    if (hang) counts.hangs++
    if (desync) counts.desync++
    const status = results[0].status
    if (status === expected) counts.ok++
    else if (status === 0) counts.noAnswer++
    else { counts.wrongStatus++; if (wrongSamples.length < 5) wrongSamples.push({ kind, expected, status }) }
    if (warm === null && seq === WARMUP) { warmAt = counts.sent; warm = stats() }
    if (Date.now() - lastPrint > 10_000) {
      lastPrint = Date.now()
      process.stderr.write(`  ${counts.sent} requests, ${((Date.now() - started) / 1000).toFixed(0)} s\n`)
    }
  }
  lane.close()
}
await Promise.all(Array.from({ length: CONNECTIONS }, connection))
const seconds = (Date.now() - started) / 1000
warm = await warm

// let the server see every close, then measure
let end
for (let i = 0; i < 100; i++) {
  end = await stats()
  if (end.connections === 0 && end.inFlight === 0 && end.handles <= start.handles && end.fds <= start.fds) break
  await new Promise((r) => setTimeout(r, 100))
}
child.send({ type: 'exit' })

const c = end.counters
const intended = counts.aborts.body + counts.aborts.sendFile
const checks = [
  ['all requests sent within the time bound', counts.sent >= TOTAL, `${counts.sent} of ${TOTAL}`],
  ['RSS at the end within 10% of RSS after warm-up', Math.abs(end.rss - warm.rss) / warm.rss <= 0.10, `${mb(warm.rss)} -> ${mb(end.rss)} (${pct(end.rss / warm.rss - 1)})`],
  ['open handles at the end = at the start', end.handles === start.handles, `${start.handles} -> ${end.handles}`],
  ['file descriptors at the end = at the start', end.fds === start.fds, `${start.fds} -> ${end.fds}`],
  ['no connection left open', end.connections === 0, String(end.connections)],
  ['nothing in flight or buffered after the aborts', end.inFlight === 0 && end.buffered === 0, `${end.inFlight} requests, ${end.buffered} bytes`],
  ['every non-abort request got its expected status', counts.ok === counts.sent - intended, `${counts.ok} of ${counts.sent - intended}; wrong ${counts.wrongStatus}, no answer ${counts.noAnswer}`],
  ['no hang > 5 s, no pipelined desync', counts.hangs === 0 && counts.desync === 0, `hangs ${counts.hangs}, desyncs ${counts.desync}`],
  ['no uncaught exception, no unintended error in the server', c.uncaught === 0 && c.otherErrors === 0 && c.sendFileOtherErrors === 0, `uncaught ${c.uncaught}, other errors ${c.otherErrors + c.sendFileOtherErrors}`],
  ['intended errors all seen by the error handler', c.errorsSync === (byKind.syncError ?? 0) && c.errorsAsync === (byKind.asyncError ?? 0), `sync ${c.errorsSync}/${byKind.syncError ?? 0}, async ${c.errorsAsync}/${byKind.asyncError ?? 0}`]
]
function mb(n) { return (n / 1048576).toFixed(1) + ' MB' }
function pct(x) { return (x >= 0 ? '+' : '') + (x * 100).toFixed(1) + '%' }

const cpu = (end.cpu.user + end.cpu.system) / 1e6
const lines = [
  `# Soak run, ${new Date().toISOString()}`,
  '',
  `Node ${process.version}, ${(await import('node:os')).cpus().length} CPUs. ${counts.sent.toLocaleString('en')} requests over ${CONNECTIONS} keep-alive connections in ${seconds.toFixed(0)} s (${Math.round(counts.sent / seconds)} req/s); server CPU ${cpu.toFixed(0)} s.`,
  `Mix: ${Object.entries(byKind).map(([k, n]) => `${k} ${n}`).join(', ')}; aborts mid-body ${counts.aborts.body}, mid-sendFile ${counts.aborts.sendFile}.`,
  `Server saw ${c.requests} requests; intended errors: sync ${c.errorsSync}, async ${c.errorsAsync}, aborted bodies (request.aborted) ${c.abortedBodies}, aborted sendFile ${c.sendFileAborted}.`,
  `RSS: start ${mb(start.rss)}, after warm-up (${warmAt.toLocaleString('en')} requests) ${mb(warm.rss)}, end ${mb(end.rss)}. Heap used: warm-up ${mb(warm.heapUsed)}, end ${mb(end.heapUsed)}.`,
  `Handles: start ${start.handles} (${start.handleTypes}), end ${end.handles} (${end.handleTypes}). File descriptors: start ${start.fds}, end ${end.fds}.`,
  '',
  '| check | result | figures |',
  '|---|---|---|',
  ...checks.map(([name, ok, fig]) => `| ${name} | ${ok ? 'pass' : 'FAIL'} | ${fig} |`)
]
if (wrongSamples.length) lines.push('', 'Wrong statuses (samples): ' + JSON.stringify(wrongSamples))
if (end.otherErrorSamples.length) lines.push('', 'Unintended errors (samples):', ...end.otherErrorSamples.map((s) => '    ' + s.split('\n').slice(0, 3).join(' | ')))
const report = lines.join('\n') + '\n'
fs.writeFileSync(path.join(here, 'last-report.md'), report)
process.stdout.write(report)
process.exitCode = checks.every(([, ok]) => ok) ? 0 : 1
