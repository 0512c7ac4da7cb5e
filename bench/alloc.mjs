// npm run bench:alloc [-- filter] : bytes allocated per request, and garbage
// collections, for each scenario and implementation.
//
// Why: CPU time per request includes the garbage collector's work, on the
// event loop (the pauses) and on V8's helper threads, and that work grows
// with what each request allocates. Like an instruction count
// (bench:instructions), an allocation count does not move with what else
// runs on the machine; it takes seconds where callgrind takes minutes.
//
// How: each server (bench/server.mjs, as in `npm run bench`) gets ALLOC_WARM
// requests; then its garbage collections are counted over ALLOC_MEAS
// requests (count, and pause time on the event loop); then V8's sampling heap
// profiler runs in the server process (bench/alloc-probe.mjs, through
// node:inspector) over ALLOC_MEAS more (apart, since it slows the collector). The
// profile counts objects the collector has already reclaimed, so its total is
// what the requests allocated, sampled (one byte in ALLOC_INTERVAL on
// average: a few percent of spread between runs). With ALLOC_TOP=n it prints
// the n functions that allocated most, per request (the frame on top of the
// stack: V8 names a function inlined into another by its own name).
//
// Environment:
//   ALLOC_IMPLS     comma-separated implementations (default switchyard,fastify,node;
//                   also express, and baseline with BENCH_BASELINE set)
//   ALLOC_WARM      warm-up requests (default 20000)
//   ALLOC_MEAS      measured requests (default 20000)
//   ALLOC_INTERVAL  the profiler's mean sampling interval in bytes (default 256)
//   ALLOC_TOP       also print the top n allocating functions of each server (default 0)
//   BENCH_BASELINE, BENCH_NODE_FLAGS, BENCH_PIN, BENCH_CPU, BENCH_CONNECTIONS as for npm run bench
import { ask, loadServer, nodeFlags, scenarios, startServer } from './run.mjs'

const impls = (process.env.ALLOC_IMPLS || 'switchyard,fastify,node').split(',').map((s) => s.trim())
const warm = Number(process.env.ALLOC_WARM || 20000)
const meas = Number(process.env.ALLOC_MEAS || 20000)
const top = Number(process.env.ALLOC_TOP || 0)
const filter = process.argv[2]

async function measure(file, impl, req) {
  const { child, port } = await startServer(file, impl, nodeFlags)
  child.removeAllListeners('exit')
  try {
    await loadServer(port, req, { amount: warm }, 'warm-up')
    await ask(child, 'gc-start')
    const counted = await loadServer(port, req, { amount: meas }, 'counted')
    const { gcs } = JSON.parse(await ask(child, 'alloc-stop'))
    await ask(child, 'alloc-start')
    const sampled = await loadServer(port, req, { amount: meas }, 'sampled')
    const { bytes, top } = JSON.parse(await ask(child, 'alloc-stop'))
    const n = sampled.requests.total || meas
    return { bytes: bytes / n, gcs, perRequestPause: (gcs.pauseMs * 1000) / (counted.requests.total || meas), top: top.map(([k, v]) => [k, v / n]) }
  } finally {
    child.kill()
  }
}

const rows = []
for (const { file, scenario } of await scenarios(filter)) {
  const row = { scenario: scenario.name }
  for (const impl of impls) {
    if (!scenario[impl] && !(impl === 'baseline' && scenario.switchyard)) continue
    const m = (row[impl] = await measure(file, impl, scenario.request))
    console.error(`${scenario.name} | ${impl}: ${Math.round(m.bytes)} B/request; ${m.gcs.minor} young and ${m.gcs.major} full collections, ${m.perRequestPause.toFixed(2)} µs/request of pauses`)
    for (const [where, bytes] of m.top.slice(0, top)) console.error(`    ${String(Math.round(bytes)).padStart(6)}  ${where}`)
  }
  rows.push(row)
}
const cell = (m) => (m ? `${Math.round(m.bytes)} (${m.gcs.minor}, ${m.perRequestPause.toFixed(2)})` : '-')
console.log(`\nBytes allocated per request (young collections over ${meas} requests, µs of collection pauses per request)\n`)
console.log(`| scenario | ${impls.join(' | ')} |`)
console.log(`|---|${impls.map(() => '---:').join('|')}|`)
for (const r of rows) console.log(`| ${r.scenario} | ${impls.map((i) => cell(r[i])).join(' | ')} |`)
