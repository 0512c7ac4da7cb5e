// npm run bench [-- filter] : every scenario of bench/scenarios/, each served by
// switchyard, express@5 and bare node:http in turn (same run, same machine),
// loaded with autocannon; prints requests/second and the ratios.
// Two measures: requests/second, and the server's CPU time per request (more
// stable on a shared 2-core machine, where the load generator itself competes
// for CPU and the server may not be saturated). Ratios > 1 favour switchyard.
// Environment: BENCH_DURATION (seconds, default 5), BENCH_CONNECTIONS (default 50).
import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import path from 'node:path'
import autocannon from 'autocannon'

const here = path.dirname(fileURLToPath(import.meta.url))
const duration = Number(process.env.BENCH_DURATION || 5)
const connections = Number(process.env.BENCH_CONNECTIONS || 50)
const filter = process.argv[2]
const impls = ['switchyard', 'express', 'node']

function start(file, impl) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(here, 'server.mjs'), file, impl], { stdio: ['pipe', 'pipe', 'inherit'] })
    child.stdout.once('data', (d) => resolve({ child, port: Number(String(d).trim()) }))
    child.once('error', reject)
  })
}

function cpu(child) {
  return new Promise((resolve) => {
    child.stdout.once('data', (d) => resolve(Number(String(d).trim())))
    child.stdin.write('?\n')
  })
}

function load(port, req) {
  return new Promise((resolve, reject) => {
    autocannon({
      url: `http://127.0.0.1:${port}`,
      connections,
      duration,
      requests: [{ method: req.method || 'GET', path: req.path, headers: req.headers, body: req.body }]
    }, (err, result) => {
      if (err) return reject(err)
      if (result.non2xx > 0 || result.errors > 0) console.error(`  warning: ${result.non2xx} non-2xx, ${result.errors} errors on port ${port}`)
      resolve({ rps: result.requests.average, total: result.requests.total })
    })
  })
}

const files = readdirSync(path.join(here, 'scenarios')).filter((f) => f.endsWith('.mjs')).sort()
const rows = []
for (const f of files) {
  const file = pathToFileURL(path.join(here, 'scenarios', f)).href
  const scenario = (await import(file)).default
  if (filter && !scenario.name.includes(filter) && !f.includes(filter)) continue
  const row = { scenario: scenario.name }
  for (const impl of impls) {
    if (!scenario[impl]) { row[impl] = NaN; continue }
    const { child, port } = await start(file, impl)
    try {
      await load(port, { ...scenario.request, duration: 1 }) // warm-up
      const before = await cpu(child)
      const { rps, total } = await load(port, scenario.request)
      const after = await cpu(child)
      row[impl] = rps
      row[impl + 'Cpu'] = (after - before) / total // microseconds of server CPU per request
    } finally {
      child.kill()
    }
  }
  row['sy/express'] = (row.switchyard / row.express).toFixed(2) + 'x'
  row['sy/node'] = Number.isNaN(row.node) ? '-' : (row.switchyard / row.node).toFixed(2) + 'x'
  row['cpu express/sy'] = (row.expressCpu / row.switchyardCpu).toFixed(2) + 'x'
  row['cpu node/sy'] = Number.isNaN(row.node) ? '-' : (row.nodeCpu / row.switchyardCpu).toFixed(2) + 'x'
  rows.push(row)
  console.log(`${scenario.name}: switchyard ${Math.round(row.switchyard)} req/s (${row.switchyardCpu.toFixed(1)} µs CPU/req), express ${Math.round(row.express)} (${row.expressCpu.toFixed(1)}), node ${Number.isNaN(row.node) ? '-' : Math.round(row.node) + ' (' + row.nodeCpu.toFixed(1) + ')'}`)
}

console.log('\nThroughput (req/s) and server CPU per request (µs); a ratio > 1 means switchyard is ahead.\n')
console.log('| scenario | switchyard req/s | express req/s | node req/s | req/s sy/express | req/s sy/node | CPU µs/req sy | express | node | CPU express/sy | CPU node/sy |')
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
for (const r of rows) {
  const n = (v) => (v === undefined || Number.isNaN(v) ? '-' : String(Math.round(v)))
  const u = (v) => (v === undefined || Number.isNaN(v) ? '-' : v.toFixed(1))
  console.log(`| ${r.scenario} | ${n(r.switchyard)} | ${n(r.express)} | ${n(r.node)} | ${r['sy/express']} | ${r['sy/node']} | ${u(r.switchyardCpu)} | ${u(r.expressCpu)} | ${u(r.nodeCpu)} | ${r['cpu express/sy']} | ${r['cpu node/sy']} |`)
}
