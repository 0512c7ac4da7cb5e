// Differential-test helpers: build the same app with switchyard and with the
// express@5 oracle, send the same request to both, compare the answers.
import http from 'node:http'
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

/** Drop the headers that may differ, and normalise the rest for comparison. */
export function comparable(a: Answer, ignore: string[] = []): Answer {
  const headers: Answer['headers'] = {}
  for (const k of Object.keys(a.headers).sort()) {
    if (IGNORED_HEADERS.includes(k) || ignore.includes(k)) continue
    headers[k] = a.headers[k]
  }
  return { status: a.status, headers, body: a.body }
}
