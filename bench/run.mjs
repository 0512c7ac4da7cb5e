// npm run bench [-- filter] : every scenario of bench/scenarios/, each served by
// switchyard, express@5 and bare node:http in turn (same run, same machine),
// loaded with autocannon; prints requests/second and the ratios.
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
    const child = spawn(process.execPath, [path.join(here, 'server.mjs'), file, impl], { stdio: ['ignore', 'pipe', 'inherit'] })
    child.stdout.once('data', (d) => resolve({ child, port: Number(String(d).trim()) }))
    child.once('error', reject)
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
      resolve(result.requests.average)
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
      row[impl] = await load(port, scenario.request)
    } finally {
      child.kill()
    }
  }
  row['sy/express'] = (row.switchyard / row.express).toFixed(2) + 'x'
  row['sy/node'] = Number.isNaN(row.node) ? '-' : (row.switchyard / row.node).toFixed(2) + 'x'
  rows.push(row)
  console.log(`${scenario.name}: switchyard ${Math.round(row.switchyard)} req/s, express ${Math.round(row.express)}, node ${Number.isNaN(row.node) ? '-' : Math.round(row.node)}`)
}

console.log('\n| scenario | switchyard req/s | express req/s | node req/s | switchyard/express | switchyard/node |')
console.log('|---|---:|---:|---:|---:|---:|')
for (const r of rows) {
  const n = (v) => (Number.isNaN(v) ? '-' : String(Math.round(v)))
  console.log(`| ${r.scenario} | ${n(r.switchyard)} | ${n(r.express)} | ${n(r.node)} | ${r['sy/express']} | ${r['sy/node']} |`)
}
