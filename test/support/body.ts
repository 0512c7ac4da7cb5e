// Helpers for the body-parser tests: an app that reports what the parsers did
// (req.body as JSON, or the error's status/type/message/fields), built the same
// way for switchyard and for the express@5 + body-parser@2 oracle.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** Error fields the report carries when present. */
export const ERROR_FIELDS = ['charset', 'encoding', 'limit', 'length', 'expected', 'received', 'expose'] as const

/** Encode req.body so Buffers, undefined and absent bodies stay distinguishable in JSON. */
export function describeBody(req: { body?: unknown }): unknown {
  if (!('body' in req)) return { absent: true }
  const body = req.body
  if (body === undefined) return { undefined: true }
  if (Buffer.isBuffer(body)) return { buffer: body.toString('hex') }
  if (body !== null && typeof body === 'object') {
    return { value: body, proto: Object.getPrototypeOf(body) === null ? 'null' : Array.isArray(body) ? 'array' : 'object' }
  }
  return { value: body }
}

/** The JSON report an error handler answers with. */
export function describeError(err: any): Record<string, unknown> {
  const out: Record<string, unknown> = {
    error: true,
    status: err.status,
    statusCode: err.statusCode,
    type: err.type,
    message: err.message,
    name: err.name
  }
  for (const f of ERROR_FIELDS) if (err[f] !== undefined) out[f] = err[f]
  if (err.body !== undefined) out.body = Buffer.isBuffer(err.body) ? { buffer: err.body.toString('hex') } : err.body
  return out
}

/** Install the reporting route and error handler on an express-like app. */
export function reportingApp<A extends { use: Function; all: Function }>(app: A, parsers: Function[]): A {
  for (const p of parsers) app.use(p)
  app.all('/{*any}', (req: any, res: any) => { res.json({ body: describeBody(req) }) })
  app.use((err: any, req: any, res: any, _next: any) => {
    res.status(typeof err.status === 'number' ? err.status : 500).json(describeError(err))
  })
  return app
}

/** One raw request, with full control over headers and how the body is sent. */
export interface BodyRequest {
  method?: string
  headers?: Record<string, string>
  body?: string | Buffer
  /** Send with Transfer-Encoding: chunked (no Content-Length). */
  chunked?: boolean
  /** Do not add a Content-Length header (headers are sent as given). */
  noLength?: boolean
}

/** Answer of one request: status and the parsed JSON body (or the raw text). */
export interface BodyAnswer {
  status: number
  json: any
  text: string
}

/** Start a server for a handler on an ephemeral loopback port. */
export async function serve(handler: http.RequestListener): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http.createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    port,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) })
  }
}

/** Send one request and collect the answer. */
export function send(port: number, r: BodyRequest): Promise<BodyAnswer> {
  const headers: Record<string, string> = { ...(r.headers ?? {}) }
  const body = r.body === undefined ? undefined : Buffer.from(r.body)
  if (r.chunked) headers['Transfer-Encoding'] = 'chunked'
  else if (body !== undefined && !r.noLength && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-length')) {
    headers['Content-Length'] = String(body.length)
  }
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: r.method ?? 'POST', path: '/', headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        let json: any
        try { json = JSON.parse(text) } catch { json = undefined }
        resolve({ status: res.statusCode ?? 0, json, text })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    if (body !== undefined && r.chunked) {
      // two chunks, to exercise streaming
      const half = Math.floor(body.length / 2)
      req.write(body.subarray(0, half))
      req.end(body.subarray(half))
    } else if (body !== undefined) req.end(body)
    else req.end()
  })
}

/** A switchyard-like app factory (fw). */
type AppFactory = () => { use: Function; all: Function }

/** Build a reporting app from a factory and a parser stack. */
export function bodyApp(factory: AppFactory, ...parsers: Function[]): any {
  return reportingApp(factory(), parsers)
}

/** Open a raw TCP connection to a port; collect everything the server sends. */
export async function rawConnection(port: number): Promise<{
  write: (data: string | Buffer) => void
  end: () => void
  destroy: () => void
  received: () => string
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<string>
  closed: Promise<void>
}> {
  const net = await import('node:net')
  const socket = net.connect(port, '127.0.0.1')
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
  let data = ''
  const waiters: Array<() => void> = []
  socket.on('data', (c: Buffer) => { data += c.toString('latin1'); for (const w of waiters.splice(0)) w() })
  socket.on('error', () => {})
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  return {
    write: (d) => { socket.write(d) },
    end: () => { socket.end() },
    destroy: () => { socket.destroy() },
    received: () => data,
    closed,
    waitFor: (pattern, timeoutMs = 5000) => new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for ' + pattern + '; got ' + JSON.stringify(data))), timeoutMs)
      const check = () => {
        if (pattern.test(data)) { clearTimeout(timer); resolve(data) } else waiters.push(check)
      }
      check()
    })
  }
}
