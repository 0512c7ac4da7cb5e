// Differential-test helpers: build the same app with switchyard and with the
// express@5 oracle, send the same request to both, compare the answers.
import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'

export interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

export interface RawRequest {
  method?: string
  path: string
  headers?: Record<string, string | string[]>
  body?: string | Buffer
  /**
   * Read the answer from a plain socket, for heads Node's HTTP client refuses
   * (Node 24's, even lenient, refuses an empty Transfer-Encoding): the
   * status, the headers by lower-case name (repeated ones joined by ', '),
   * and the bytes after the head, which must have a Content-Length.
   */
  raw?: boolean
}

/** Headers whose values legitimately differ between the two implementations. */
export const IGNORED_HEADERS = ['date', 'x-powered-by', 'etag', 'connection', 'keep-alive']

/** Start a server for `handler` on an ephemeral loopback port. */
export async function listen(handler: http.RequestListener): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http.createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    port,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()) })
  }
}

/** Send one raw request (no header normalisation: what you give is what goes on the wire). */
export function request(port: number, r: RawRequest): Promise<Answer> {
  if (r.raw === true) return rawRequest(port, r)
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: r.method ?? 'GET', path: r.path, headers: r.headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('latin1') }))
      res.on('error', reject)
    })
    req.on('error', reject)
    if (r.body !== undefined) req.end(r.body)
    else req.end()
  })
}

function rawRequest(port: number, r: RawRequest): Promise<Answer> {
  return exchange(port, `${r.method ?? 'GET'} ${r.path} HTTP/1.1`, { Host: `127.0.0.1:${port}`, Connection: 'close', ...r.headers }, r.body)
}

/**
 * Send a request line, `headers` (each value of an array on a line of its
 * own, in order) and `body` over a new socket, and read until the server
 * closes it: the status, the headers by lower-case name (repeated ones
 * joined by ', '), and the bytes after the head as latin1 text. For what
 * Node's HTTP client will not send or read: no Host, HTTP/1.0, heads it
 * refuses.
 */
export function exchange(port: number, requestLine: string, headers: Record<string, string | string[]> = {}, body?: string | Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('error', reject)
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('latin1')
      const end = text.indexOf('\r\n\r\n')
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n')
      const answer: Answer['headers'] = {}
      for (const line of lines) {
        const colon = line.indexOf(':')
        const name = line.slice(0, colon).toLowerCase()
        const value = line.slice(colon + 1).trim()
        const had = answer[name]
        answer[name] = had === undefined ? value : `${had}, ${value}`
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers: answer, body: text.slice(end + 4) })
    })
    const head = [requestLine]
    for (const [name, value] of Object.entries(headers)) for (const v of [value].flat()) head.push(`${name}: ${v}`)
    socket.write(head.join('\r\n') + '\r\n\r\n')
    socket.end(body ?? '')
  })
}

/** Drop the headers that may differ, and normalise the rest for comparison. */
export function comparable(a: Answer, ignore: string[] = []): Answer {
  const headers: Answer['headers'] = {}
  for (const k of Object.keys(a.headers).sort()) {
    if (IGNORED_HEADERS.includes(k) || ignore.includes(k)) continue
    headers[k] = a.headers[k]
  }
  return { status: a.status, headers, body: a.body }
}
