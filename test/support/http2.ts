import { afterAll, beforeAll, expect, it, vi } from 'vitest'
// HTTP/2 test helpers: the three kinds of HTTP/2 server an app can be given
// to, an HTTP/1.1 reference server for each, Node's own HTTP/2 and HTTP/1.1
// clients, and the comparison of two answers.
import http from 'node:http'
import https from 'node:https'
import http2 from 'node:http2'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'

/** The self-signed certificate under test/fixtures/tls (CN=localhost, SAN localhost and 127.0.0.1, valid until 2126). */
export const tls = {
  key: readFileSync(join(__dirname, '../fixtures/tls/key.pem')),
  cert: readFileSync(join(__dirname, '../fixtures/tls/cert.pem'))
}

export type Kind = 'secure+http1' | 'secure' | 'h2c'
export const KINDS: Kind[] = ['secure+http1', 'secure', 'h2c']

export interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

export interface Req {
  method?: string
  path: string
  headers?: Record<string, string | string[]>
  /** Sent as is; chunks are written one by one (HTTP/1.1: chunked unless a Content-Length is given). */
  body?: string | Buffer | Array<string | Buffer>
}

type AnyServer = http.Server | https.Server | http2.Http2Server | http2.Http2SecureServer

/** A running HTTP/2 server for `app` and the HTTP/1.1 server its answers are compared with. */
export interface Pair {
  kind: Kind
  h2: (r: Req) => Promise<Answer>
  h1: (r: Req) => Promise<Answer>
  /** The HTTP/2 client session used by `h2` (one per pair, reused by every request). */
  session: () => http2.ClientHttp2Session
  origin2: string
  close: () => Promise<void>
}

async function listen(server: AnyServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

function closeServer(server: AnyServer): Promise<void> {
  const s = server as http.Server
  s.closeAllConnections?.()
  return new Promise((resolve) => server.close(() => resolve()))
}

/**
 * Serve `app` over HTTP/2 in the given kind of server, and over HTTP/1.1:
 * on the same server for 'secure+http1', on an https server for 'secure',
 * on an http server for 'h2c'.
 */
export async function serve(app: any, kind: Kind): Promise<Pair> {
  const servers: AnyServer[] = []
  let h2server: AnyServer
  let h1server: AnyServer
  if (kind === 'secure+http1') {
    h2server = h1server = http2.createSecureServer({ allowHTTP1: true, ...tls }, app)
  } else if (kind === 'secure') {
    h2server = http2.createSecureServer(tls, app)
    h1server = https.createServer(tls, app)
  } else {
    h2server = http2.createServer(app)
    h1server = http.createServer(app)
  }
  servers.push(h2server)
  if (h1server !== h2server) servers.push(h1server)
  const port2 = await listen(h2server)
  const port1 = h1server === h2server ? port2 : await listen(h1server)
  const secure = kind !== 'h2c'
  const origin2 = (secure ? 'https' : 'http') + '://127.0.0.1:' + port2
  let session: http2.ClientHttp2Session | undefined
  const getSession = (): http2.ClientHttp2Session => {
    if (!session || session.closed || session.destroyed) {
      session = http2.connect(origin2, { rejectUnauthorized: false })
      session.on('error', () => {})
    }
    return session
  }
  return {
    kind,
    origin2,
    session: getSession,
    h2: (r) => h2request(getSession(), r),
    h1: (r) => h1request(secure, port1, r),
    close: async () => {
      session?.destroy()
      await Promise.all(servers.map(closeServer))
    }
  }
}

function chunksOf(body: Req['body']): Array<string | Buffer> {
  if (body === undefined) return []
  return Array.isArray(body) ? body : [body]
}

/** One request over HTTP/2 on `session`; rejects when the stream is reset before it ends. */
export function h2request(session: http2.ClientHttp2Session, r: Req): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const chunks = chunksOf(r.body)
    const stream = session.request({ ':method': r.method ?? 'GET', ':path': r.path, ...r.headers }, { endStream: chunks.length === 0 })
    let status = 0
    let headers: Answer['headers'] = {}
    const body: Buffer[] = []
    stream.on('response', (h) => {
      status = Number(h[':status'])
      headers = {}
      for (const k of Object.keys(h)) if (k[0] !== ':') headers[k] = h[k] as string | string[]
    })
    stream.on('data', (c: Buffer) => body.push(c))
    stream.on('end', () => resolve({ status, headers, body: Buffer.concat(body) }))
    stream.on('error', (err) => reject(Object.assign(err, { status, rstCode: stream.rstCode })))
    stream.on('close', () => {
      if (stream.rstCode !== http2.constants.NGHTTP2_NO_ERROR) reject(Object.assign(new Error('stream reset ' + stream.rstCode), { status, rstCode: stream.rstCode }))
    })
    for (const c of chunks) stream.write(c)
    if (chunks.length > 0) stream.end()
  })
}

/** One request over HTTP/1.1 (a fresh connection each time). */
export function h1request(secure: boolean, port: number, r: Req): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const options = { host: '127.0.0.1', port, method: r.method ?? 'GET', path: r.path, headers: r.headers, agent: false, rejectUnauthorized: false }
    const req = (secure ? https : http).request(options, (res) => {
      const body: Buffer[] = []
      res.on('data', (c: Buffer) => body.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(body) }))
      res.on('error', reject)
      res.on('aborted', () => reject(Object.assign(new Error('aborted'), { status: res.statusCode })))
    })
    req.on('error', reject)
    for (const c of chunksOf(r.body)) req.write(c)
    req.end()
  })
}

/** Headers HTTP/2 forbids (RFC 9113 8.2.2), plus Date, which moves with the clock. */
export const NOT_COMPARED = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'date']

/**
 * An answer with the headers that may differ between HTTP/1.1 and HTTP/2
 * removed, keys sorted. Node's HTTP/2 also drops Content-Length from a 204
 * (RFC 9110 8.6 forbids it there; cors sets `Content-Length: 0` on its 204).
 * A cookie's `Expires` made from `maxAge` moves with the clock, like Date:
 * two requests may straddle a second, so its date is masked.
 */
export function comparable(a: Answer): { status: number; headers: Answer['headers']; body: string } {
  const headers: Answer['headers'] = {}
  for (const k of Object.keys(a.headers).sort()) {
    if (NOT_COMPARED.includes(k) || (a.status === 204 && k === 'content-length')) continue
    const v = a.headers[k]
    headers[k] = k === 'set-cookie' && Array.isArray(v) ? v.map((c) => c.replace(/; Expires=[^;]*/, '; Expires=<date>')) : v
  }
  return { status: a.status, headers, body: a.body.toString('latin1') }
}

/**
 * Inside a describe block: serve `build()` on `kind` for its tests (with
 * console.error silenced: the apps run in production mode, which logs every
 * error they answer), and check that each request of `matrix` gets the same
 * answer over HTTP/2 as over HTTP/1.1. Returns the pair, filled in before the
 * block's tests run, for more tests of its own.
 */
export function sameAnswers(build: () => any, kind: Kind, matrix: Array<[string, Req]>): Pair {
  const pair = {} as Pair
  let quiet: { mockRestore(): void }
  beforeAll(async () => {
    quiet = vi.spyOn(console, 'error').mockImplementation(() => {})
    Object.assign(pair, await serve(build(), kind))
  })
  afterAll(async () => {
    quiet.mockRestore()
    await pair.close()
  })
  it.each(matrix)('%s: same answer as HTTP/1.1', async (_name, req) => {
    const one = await pair.h1(req)
    const two = await pair.h2(req)
    expect(comparable(two)).toEqual(comparable(one))
  })
  return pair
}
