// The fuzz runner: serves the fuzz app with switchyard and with express@5,
// sends every generated batch to both over raw sockets, and compares.
//
//   npm run fuzz -- --seed N --count M [--lanes L] [--json]
//
// Exit code 0 when there was no crash, hang, desync or status difference
// outside the allow-list; 1 otherwise. The bounded run in `npm test` is
// test/fuzz/fuzz.test.ts.
import http from 'node:http'
import { Worker } from 'node:worker_threads'
import { fileURLToPath } from 'node:url'
import { batch } from './generate.mjs'
import { Lane } from './client.mjs'
import { buildApp, implementations } from './app.mjs'
import { explain } from './allow-list.mjs'

function listen(handler) {
  return new Promise((resolve) => {
    const server = http.createServer(handler)
    server.listen(0, '127.0.0.1', () => resolve(server))
  })
}

/** Start the fuzz app for `impl` in a worker thread; uncaught errors there are pushed to `uncaught`. */
function startWorker(impl, uncaught) {
  const worker = new Worker(new URL('./server-worker.mjs', import.meta.url), { workerData: { impl } })
  worker.on('error', (err) => { uncaught.push(impl + ' worker died: ' + String(err && err.stack || err)) })
  return new Promise((resolve) => {
    worker.on('message', (m) => {
      if (m.type === 'uncaught') uncaught.push(impl + ': ' + m.error)
      if (m.type === 'ready') {
        resolve({
          port: m.port,
          close: () => new Promise((done) => {
            worker.on('message', (x) => { if (x.type === 'closed') worker.terminate().then(() => done()) })
            worker.postMessage('close')
          })
        })
      }
    })
  })
}

function closeServer(server) {
  return new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()) })
}

/**
 * Run `count` generated requests from `seed` against both implementations.
 * Resolves with a report: counts, status differences (explained by the
 * allow-list, and unexplained), hangs, desyncs and uncaught errors.
 */
export async function runFuzz({ seed = 1, count = 20000, lanes = 16, timeoutMs = 5000, onProgress } = {}) {
  const uncaught = []
  const onUncaught = (err) => { uncaught.push(String(err && err.stack || err)) }
  process.on('uncaughtException', onUncaught)
  process.on('unhandledRejection', onUncaught)
  // each server in its own worker thread: the client, switchyard and express
  // do not share an event loop, and an exception in a server is reported, not fatal
  const ours = await startWorker('switchyard', uncaught)
  const theirs = await startWorker('express', uncaught)
  const report = {
    seed, count: 0, batches: 0, statuses: {}, explained: {}, unexplained: [], hangs: [], desyncs: [], junk: [], uncaught, ms: 0
  }
  const started = Date.now()
  let nextBatch = 0
  let nextSeq = 0
  const take = () => {
    if (nextSeq >= count) return null
    const b = batch(seed, nextBatch++, nextSeq)
    nextSeq += b.length
    return b
  }
  const worker = async () => {
    const a = new Lane(ours.port)
    const b = new Lane(theirs.port)
    for (let index = nextBatch, reqs = take(); reqs !== null; index = nextBatch, reqs = take()) {
      const [x, y] = await Promise.all([a.exchange(reqs, timeoutMs), b.exchange(reqs, timeoutMs)])
      report.batches++
      report.count += reqs.length
      if (x.hang || y.hang) report.hangs.push({ switchyard: x.hang, express: y.hang, batchIndex: index, requests: reqs.map(show) })
      if (x.desync) report.desyncs.push({ ...x.desync, batchIndex: index, requests: reqs.map(show) })
      if (x.junk) report.junk.push({ batchIndex: index, requests: reqs.map(show) })
      for (let i = 0; i < reqs.length; i++) {
        const s = x.results[i].status
        const e = y.results[i].status
        report.statuses[s] = (report.statuses[s] ?? 0) + 1
        if (s === e) continue
        const reason = explain(reqs[i], s, e)
        if (reason) {
          const entry = (report.explained[reason] ??= { count: 0, example: show(reqs[i]), statuses: {} })
          entry.count++
          entry.statuses[s + ' vs ' + e] = (entry.statuses[s + ' vs ' + e] ?? 0) + 1
        } else if (report.unexplained.length < 50) {
          report.unexplained.push({ switchyard: s, express: e, batchIndex: index, request: show(reqs[i]), batch: reqs.map(show) })
        } else report.unexplained.push({ switchyard: s, express: e })
      }
      if (onProgress && report.batches % 2000 === 0) onProgress(report)
    }
    a.close()
    b.close()
  }
  try {
    await Promise.all(Array.from({ length: lanes }, worker))
  } finally {
    await Promise.all([ours.close(), theirs.close()])
    process.removeListener('uncaughtException', onUncaught)
    process.removeListener('unhandledRejection', onUncaught)
  }
  report.ms = Date.now() - started
  return report
}

/** A request as printable text (JSON-escaped, long runs shortened). */
export function show(req) {
  const text = req.bytes.toString('latin1')
  return text.length > 600 ? text.slice(0, 400) + `…[${text.length - 500} bytes]…` + text.slice(-100) : text
}

function args(argv) {
  const out = {}
  for (let i = 0; i < argv.length; i++) {
    const m = /^--(\w+)(?:=(.*))?$/.exec(argv[i])
    if (!m) continue
    out[m[1]] = m[2] ?? (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--') ? argv[++i] : 'true')
  }
  return out
}

/** Send batch `index` of `seed` (the first request numbered `firstSeq`) to both servers on one fresh connection each; return the raw bytes each answered. */
export async function replay(seed, index, firstSeq = 0) {
  const { batch: make } = await import('./generate.mjs')
  const net = await import('node:net')
  const reqs = make(seed, index, firstSeq)
  const { switchyard, express } = implementations()
  const out = { requests: reqs.map((r) => r.bytes.toString('latin1')) }
  for (const [name, lib] of [['switchyard', switchyard], ['express', express]]) {
    const server = await listen(buildApp(lib))
    const socket = net.connect(server.address().port, '127.0.0.1')
    let data = ''
    socket.on('data', (d) => { data += d.toString('latin1') })
    socket.on('error', () => {})
    socket.write(Buffer.concat(reqs.map((r) => r.bytes)))
    await new Promise((resolve) => { const t = setTimeout(resolve, 1000); socket.on('close', () => { clearTimeout(t); resolve() }) })
    socket.destroy()
    await closeServer(server)
    out[name] = data
  }
  return out
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const startedAt = Date.now()
  const opts = args(process.argv.slice(2))
  if (opts.replay !== undefined) {
    const r = await replay(Number(opts.seed ?? 1), Number(opts.replay))
    for (const [k, v] of Object.entries(r)) console.log('=====', k, '\n' + (Array.isArray(v) ? v.join('\n-----\n') : v))
    process.exit(0)
  }
  const seed = Number(opts.seed ?? 1)
  const count = Number(opts.count ?? 20000)
  const lanes = Number(opts.lanes ?? 16)
  const t0 = process.cpuUsage()
  const report = await runFuzz({
    seed, count, lanes,
    onProgress: (r) => { process.stderr.write(`  ${r.count} requests, ${((Date.now() - startedAt) / 1000).toFixed(0)} s, unexplained ${r.unexplained.length}, hangs ${r.hangs.length}, desyncs ${r.desyncs.length}, uncaught ${r.uncaught.length}\n`) }
  })
  const cpu = process.cpuUsage(t0)
  const failed = report.unexplained.length + report.hangs.length + report.desyncs.length + report.junk.length + report.uncaught.length
  if (opts.json === 'true') console.log(JSON.stringify(report, null, 2))
  else {
    console.log(`fuzz seed ${seed}: ${report.count} requests in ${report.batches} batches (${lanes} lanes), ${(report.ms / 1000).toFixed(1)} s, ${Math.round(report.count / (report.ms / 1000))} req/s per server, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s`)
    console.log('switchyard statuses:', JSON.stringify(report.statuses))
    console.log(`uncaught exceptions: ${report.uncaught.length}, hangs > 5 s: ${report.hangs.length}, pipelined desyncs: ${report.desyncs.length}, unparseable bytes: ${report.junk.length}`)
    console.log('status differences on the allow-list:')
    for (const [reason, e] of Object.entries(report.explained)) console.log(`  ${e.count} × ${reason} ${JSON.stringify(e.statuses)}`)
    console.log(`status differences NOT on the allow-list: ${report.unexplained.length}`)
    for (const u of report.unexplained.slice(0, 20)) console.log('  ', JSON.stringify(u))
    for (const h of report.hangs.slice(0, 5)) console.log('  hang', JSON.stringify(h))
    for (const d of report.desyncs.slice(0, 5)) console.log('  desync', JSON.stringify(d))
    for (const u of report.uncaught.slice(0, 5)) console.log('  uncaught', u)
  }
  process.exitCode = failed === 0 ? 0 : 1
}
