// In-process dispatch benchmark: no sockets, no load generator, so the numbers
// are steadier than autocannon's on a busy machine. Every body-less scenario of
// bench/scenarios/ is dispatched N times through switchyard and express@5
// using synthetic IncomingMessage/ServerResponse objects.
// Usage: node bench/dispatch.mjs [filter]   (after npm run build)
import http from 'node:http'
import { Socket } from 'node:net'
import { readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import path from 'node:path'

const require = createRequire(import.meta.url)
const here = path.dirname(fileURLToPath(import.meta.url))
const libs = { switchyard: require(process.env.SWITCHYARD_DIST || '../dist/index.cjs'), express: require('express') }
const filter = process.argv[2]
const ITER = Number(process.env.BENCH_ITER || 20000)

function once(handler, r) {
  return new Promise((resolve) => {
    const socket = new Socket()
    const req = new http.IncomingMessage(socket)
    req.method = r.method || 'GET'
    req.url = r.path
    req.headers = { host: 'localhost', ...(r.headers || {}) }
    req.push(null)
    const res = new http.ServerResponse(req)
    res.end = function (chunk) { resolve(this.statusCode); return this }
    handler(req, res)
  })
}

async function measure(handler, r) {
  for (let i = 0; i < 2000; i++) await once(handler, r) // warm-up
  const t = process.hrtime.bigint()
  for (let i = 0; i < ITER; i++) await once(handler, r)
  return Number(ITER) / (Number(process.hrtime.bigint() - t) / 1e9)
}

const rows = []
for (const f of readdirSync(path.join(here, 'scenarios')).filter((x) => x.endsWith('.mjs')).sort()) {
  const scenario = (await import(pathToFileURL(path.join(here, 'scenarios', f)).href)).default
  // bodies and file streaming need a real socket (backpressure): autocannon measures those
  if (scenario.request.body !== undefined || scenario.streams) continue
  if (filter && !f.includes(filter) && !scenario.name.includes(filter)) continue
  const out = { scenario: scenario.name }
  for (const impl of ['switchyard', 'express']) {
    out[impl] = await measure(scenario[impl](libs[impl]), scenario.request)
  }
  rows.push(out)
}
console.log('| scenario | switchyard ops/s | express ops/s | switchyard/express |')
console.log('|---|---:|---:|---:|')
for (const r of rows) console.log(`| ${r.scenario} | ${Math.round(r.switchyard)} | ${Math.round(r.express)} | ${(r.switchyard / r.express).toFixed(2)}x |`)
