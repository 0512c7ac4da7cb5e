// npm run bench [-- filter] : every scenario of bench/scenarios/, each served by
// switchyard, express@5, fastify@5 and bare node:http in turn (same run, same
// machine), loaded with autocannon; prints requests/second and the ratios.
//
// Two measures: requests/second, and the server's CPU time per request
// (process.cpuUsage() in the server's child process, read before and after the
// measured load and divided by the requests served). CPU per request is the
// steadier one on a shared 2-core machine, where the load generator competes
// with the server for CPU and the server may not be saturated. Ratios are
// written competitor/switchyard, so a ratio > 1 means switchyard is ahead.
//
// Before loading a server, the runner fetches the scenario's request once and
// warns when the status or body differs from switchyard's: every server must
// give the same answer.
//
// Environment:
//   BENCH_DURATION     seconds of measured load per server (default 5)
//   BENCH_CONNECTIONS  keep-alive connections (default 50)
//   BENCH_ROUNDS       measure every server this many times, interleaved, and keep
//                      each one's best round (default 1; 3 on a noisy machine)
//   BENCH_IMPLS        comma-separated subset of switchyard,express,fastify,node
//   BENCH_BASELINE     path of another switchyard build's dist/index.cjs: served as a
//                      fifth implementation, `baseline`, to measure a change before/after
//                      in the same run (scenarios use their switchyard builder for it)
//   BENCH_PIN          "0" to not pin; otherwise, when `taskset` exists, each
//                      server child runs pinned to one core (the default)
//   BENCH_CPU          the core the server is pinned to (default 0)
//   BENCH_NODE_FLAGS   node flags for every server, space-separated (for example
//                      --min-semi-space-size=16: every server in the young
//                      generation a long-running one settles in)
import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import path from 'node:path'
import autocannon from 'autocannon'
import { pinning } from './pin.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const duration = Number(process.env.BENCH_DURATION || 5)
const connections = Number(process.env.BENCH_CONNECTIONS || 50)
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS || 1))
const filter = process.argv[2]
const ALL = ['switchyard', 'express', 'fastify', 'node', 'baseline']
const impls = process.env.BENCH_IMPLS
  ? process.env.BENCH_IMPLS.split(',').map((s) => s.trim())
  : ALL.filter((i) => i !== 'baseline' || process.env.BENCH_BASELINE)
for (const i of impls) if (!ALL.includes(i)) throw new Error(`BENCH_IMPLS: unknown implementation ${i}`)
const pin = pinning()
/** The Node and V8 every server of a run uses (the servers run `process.execPath`): the runners print it first. */
export const runtime = `node ${process.version} (V8 ${process.versions.v8})`
/** BENCH_NODE_FLAGS, for every server the runners of bench/ start. */
export const nodeFlags = (process.env.BENCH_NODE_FLAGS || '').split(/\s+/).filter(Boolean)

export function startServer(file, impl, nodeFlags = []) {
  return new Promise((resolve, reject) => {
    const args = [...nodeFlags, path.join(here, 'server.mjs'), file, impl]
    const [cmd, argv] = pin ? [pin.command, [...pin.args, process.execPath, ...args]] : [process.execPath, args]
    const child = spawn(cmd, argv, { stdio: ['pipe', 'pipe', 'inherit'] })
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`${impl} server exited with code ${code}`)))
    ask(child, null).then((port) => resolve({ child, port: Number(port) }))
  })
}

// one question, one line of answer as a string (see server.mjs)
export function ask(child, question) {
  return new Promise((resolve) => {
    let buf = ''
    const onData = (d) => {
      buf += d
      const nl = buf.indexOf('\n')
      if (nl === -1) return
      child.stdout.off('data', onData)
      resolve(buf.slice(0, nl).trim())
    }
    child.stdout.on('data', onData)
    if (question) child.stdin.write(question + '\n')
  })
}

/** The scenarios of bench/scenarios/, in file order, each `{ file, scenario }` (`file` a file: URL), whose name or file name contains `filter` when given. */
export async function scenarios(filter) {
  const found = []
  for (const f of readdirSync(path.join(here, 'scenarios')).filter((x) => x.endsWith('.mjs')).sort()) {
    const file = pathToFileURL(path.join(here, 'scenarios', f)).href
    const scenario = (await import(file)).default
    if (!filter || scenario.name.includes(filter) || f.includes(filter)) found.push({ file, scenario })
  }
  return found
}

async function answer(port, req) {
  const res = await fetch(`http://127.0.0.1:${port}${req.path}`, { method: req.method || 'GET', headers: req.headers, body: req.body })
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() }
}

/**
 * Load `port` with the scenario's request over BENCH_CONNECTIONS keep-alive
 * connections, for `limit.duration` seconds or exactly `limit.amount`
 * requests; resolves with autocannon's result. Non-2xx answers and errors
 * are warned about, with `phase` (which load it was: 'warm-up', 'measured')
 * and how many of the errors were autocannon's timeouts (no answer within
 * 10 s, as can happen under valgrind). Shared by the runners of bench/.
 */
export function loadServer(port, req, limit, phase = 'load') {
  return new Promise((resolve, reject) => {
    autocannon({
      url: `http://127.0.0.1:${port}`,
      connections,
      ...limit,
      requests: [{ method: req.method || 'GET', path: req.path, headers: req.headers, body: req.body }]
    }, (err, result) => {
      if (err) return reject(err)
      if (result.non2xx > 0 || result.errors > 0) {
        console.error(`  warning (${phase}): ${result.non2xx} non-2xx, ${result.errors} errors (${result.timeouts} timeouts) in ${result.requests.total} requests on port ${port}`)
      }
      resolve(result)
    })
  })
}

/**
 * Load a started server (`{ child, port }`, from startServer) as loadServer
 * does, and measure its CPU time per request in µs (`process.cpuUsage()` in
 * the server, asked before and after); also its requests/second. Shared by
 * the runners of bench/.
 */
export async function measureLoad(server, req, limit) {
  const before = Number(await ask(server.child, 'cpu'))
  const result = await loadServer(server.port, req, limit, 'measured')
  const after = Number(await ask(server.child, 'cpu'))
  return { cpu: (after - before) / result.requests.total, rps: result.requests.average }
}

const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? (a / b).toFixed(2) + 'x' : '-')
const int = (v) => (Number.isFinite(v) ? String(Math.round(v)) : '-')
const dec = (v) => (Number.isFinite(v) ? v.toFixed(1) : '-')

async function main() {
  console.log(`bench: ${runtime}; ${duration}s x ${connections} connections per server, ${rounds} round(s); servers ${pin ? `pinned to core ${pin.core} (taskset)` : 'not pinned'}${nodeFlags.length ? `, run with ${nodeFlags.join(' ')}` : ''}; ${impls.join(', ')}`)
  const rows = []
  for (const { file, scenario } of await scenarios(filter)) {
    const row = { scenario: scenario.name, rps: {}, cpu: {} }
    let reference
    // BENCH_ROUNDS > 1: every server is measured that many times, the servers
    // interleaved, and the best round of each is kept (the least disturbed by
    // the rest of a shared machine)
    for (let round = 0; round < rounds; round++) for (const impl of impls) {
      if (!scenario[impl] && !(impl === 'baseline' && scenario.switchyard)) continue
      const { child, port } = await startServer(file, impl, nodeFlags)
      child.removeAllListeners('exit')
      try {
        const got = await answer(port, scenario.request)
        if (!reference) reference = { impl, ...got }
        else if (got.status !== reference.status || got.body !== reference.body) {
          console.error(`  warning: ${impl} answers ${got.status} ${JSON.stringify(got.body.slice(0, 60))}, ${reference.impl} ${reference.status} ${JSON.stringify(reference.body.slice(0, 60))}`)
        } else if (got.type !== reference.type) {
          console.error(`  note: ${impl} sends Content-Type ${got.type}, ${reference.impl} ${reference.type}`)
        }
        await loadServer(port, scenario.request, { duration: 1 }, 'warm-up')
        const { cpu, rps } = await measureLoad({ child, port }, scenario.request, { duration: scenario.request.duration || duration })
        if (!(row.cpu[impl] <= cpu)) row.cpu[impl] = cpu
        if (!(row.rps[impl] >= rps)) row.rps[impl] = rps
      } finally {
        child.kill()
      }
    }
    rows.push(row)
    console.log(`${scenario.name}: ` + impls.map((i) => `${i} ${int(row.rps[i])} req/s (${dec(row.cpu[i])} µs CPU/req)`).join(', '))
  }

  const others = impls.filter((i) => i !== 'switchyard')
  const short = { switchyard: 'sy', express: 'express', fastify: 'fastify', node: 'node', baseline: 'baseline' }
  console.log('\nServer CPU time per request (µs), and the competitor\'s CPU per request divided by switchyard\'s: > 1 means switchyard is ahead.\n')
  console.log(`| scenario | ${impls.map((i) => `${i} µs/req`).join(' | ')} | ${others.map((i) => `cpu ${short[i]}/sy`).join(' | ')} |`)
  console.log(`|---|${impls.map(() => '---:').join('|')}|${others.map(() => '---:').join('|')}|`)
  for (const r of rows) {
    console.log(`| ${r.scenario} | ${impls.map((i) => dec(r.cpu[i])).join(' | ')} | ${others.map((i) => ratio(r.cpu[i], r.cpu.switchyard)).join(' | ')} |`)
  }
  console.log('\nThroughput (req/s; the load generator shares the machine), and switchyard\'s req/s divided by the competitor\'s: > 1 means switchyard is ahead.\n')
  console.log(`| scenario | ${impls.map((i) => `${i} req/s`).join(' | ')} | ${others.map((i) => `req/s sy/${short[i]}`).join(' | ')} |`)
  console.log(`|---|${impls.map(() => '---:').join('|')}|${others.map(() => '---:').join('|')}|`)
  for (const r of rows) {
    console.log(`| ${r.scenario} | ${impls.map((i) => int(r.rps[i])).join(' | ')} | ${others.map((i) => ratio(r.rps.switchyard, r.rps[i])).join(' | ')} |`)
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main()
