// The soak target: a switchyard app (built package) in its own process, so its
// memory, handles and file descriptors are measured apart from the load
// generator. Answers `{ type: 'stats' }` IPC messages with its figures.
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
// stdout/stderr handles are created on first use (a dependency looks at stdout
// lazily); create both now so the start and end handle counts compare like with like
void process.stdout.fd
void process.stderr.fd
const fw = require('../../dist/index.cjs')

// files: small static ones, and one large enough that an abort lands mid-stream
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-soak-'))
fs.writeFileSync(path.join(dir, 'small.txt'), 'x'.repeat(1024))
fs.writeFileSync(path.join(dir, 'medium.css'), 'body{}\n'.repeat(16 * 1024 / 7))
fs.writeFileSync(path.join(dir, 'big.bin'), Buffer.alloc(8 * 1024 * 1024, 7))
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }))

const counters = { requests: 0, errorsSync: 0, errorsAsync: 0, abortedBodies: 0, otherErrors: 0, uncaught: 0, sendFileAborted: 0, sendFileOtherErrors: 0 }
const inFlight = new Set()
const otherErrorSamples = []
process.on('uncaughtException', (err) => { counters.uncaught++; otherErrorSamples.push(String(err && err.stack || err)) })
process.on('unhandledRejection', (err) => { counters.uncaught++; otherErrorSamples.push(String(err && err.stack || err)) })

const app = fw()
app.use((req, res, next) => {
  counters.requests++
  inFlight.add(req)
  res.on('close', () => { inFlight.delete(req) })
  next()
})
app.get('/users/:id/posts/:post', (req, res) => { res.json({ id: req.params.id, post: req.params.post, q: req.query.q }) })
app.post('/json', fw.json({ limit: '1mb' }), (req, res) => { res.json({ keys: Object.keys(req.body).length }) })
app.post('/form', fw.urlencoded({ extended: true, limit: '1mb' }), (req, res) => { res.json({ keys: Object.keys(req.body).length }) })
app.use('/static', fw.static(dir))
app.get('/big', (req, res, next) => {
  res.sendFile('big.bin', { root: dir }, (err) => {
    if (!err) return
    if (err.code === 'ECONNABORTED' || err.code === 'ECONNRESET' || err.code === 'EPIPE' || req.destroyed) counters.sendFileAborted++
    else { counters.sendFileOtherErrors++; otherErrorSamples.push(String(err.stack)) }
  })
})
app.get('/sync-error', () => { throw new Error('intended sync error') })
app.get('/async-error', async () => { await null; throw new Error('intended async error') })
app.use((err, req, res, next) => {
  if (err.message === 'intended sync error') counters.errorsSync++
  else if (err.message === 'intended async error') counters.errorsAsync++
  else if (err.type === 'request.aborted') counters.abortedBodies++
  else { counters.otherErrors++; if (otherErrorSamples.length < 20) otherErrorSamples.push(String(err.stack)) }
  if (!res.headersSent) res.status(err.status || 500).json({ error: err.message })
})

const server = http.createServer(app)
server.keepAliveTimeout = 60_000

function fdCount() {
  try { return fs.readdirSync('/proc/self/fd').length } catch { return -1 }
}

function stats() {
  if (global.gc) { global.gc(); global.gc() }
  return new Promise((resolve) => server.getConnections((err, connections) => resolve({
    rss: process.memoryUsage().rss,
    heapUsed: process.memoryUsage().heapUsed,
    handles: process._getActiveHandles().length,
    handleTypes: process._getActiveHandles().map((h) => h.constructor.name + (h._handle && h._handle.fd !== undefined ? '#' + h._handle.fd : '') + (h.remotePort ? ':' + h.remotePort : '')).sort().join(' '),
    fds: fdCount(),
    connections: err ? -1 : connections,
    inFlight: inFlight.size,
    buffered: [...inFlight].reduce((n, req) => n + (req.readableLength || 0), 0),
    counters: { ...counters },
    otherErrorSamples: otherErrorSamples.slice(0, 5),
    cpu: process.cpuUsage()
  })))
}

process.on('message', async (m) => {
  if (m && m.type === 'stats') process.send({ type: 'stats', id: m.id, stats: await stats() })
  if (m && m.type === 'exit') { server.close(); process.exit(0) }
})

server.listen(0, '127.0.0.1', () => { process.send({ type: 'ready', port: server.address().port }) })
