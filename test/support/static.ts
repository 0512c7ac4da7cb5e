// Helpers for the fw.static tests: fixture paths, raw requests (paths sent
// byte for byte, no client-side normalisation of '..' or '\').
import path from 'node:path'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import fw from '../../src/index'

/** The served fixture folder. */
export const ROOT = path.join(__dirname, '..', 'fixtures', 'static', 'root')
/** A folder whose own name starts with a dot. */
export const DOT_ROOT = path.join(__dirname, '..', 'fixtures', 'static', '.root')
/** Content of the file that sits outside ROOT; it must never be served. */
export const SECRET = 'secret outside root'

export interface RawAnswer {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
}

/** Send one request with a literal path to `handler` and collect the answer. */
export async function raw(handler: http.RequestListener, method: string, reqPath: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const server = http.createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  try {
    return await new Promise<RawAnswer>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method, path: reqPath, headers, agent: false }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
        res.on('error', reject)
      })
      req.on('error', reject)
      req.end()
    })
  } finally {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next: (err?: unknown) => void) => void

/**
 * A switchyard app with `mw` (mounted at `mount` when given), then a handler
 * answering 404 `fell through: METHOD URL` when `mw` calls next(), and an
 * error handler answering `error STATUS` when it calls next(err).
 */
export function host(mw: Middleware, mount = ''): http.RequestListener {
  const app = fw()
  if (mount) app.use(mount, mw)
  else app.use(mw)
  app.use((req: http.IncomingMessage, res: http.ServerResponse) => {
    res.statusCode = 404
    res.setHeader('Content-Type', 'text/plain')
    res.end(`fell through: ${req.method} ${req.url}`)
  })
  app.use((err: { status?: number }, _req: http.IncomingMessage, res: http.ServerResponse, _next: unknown) => {
    res.statusCode = err.status ?? 500
    res.setHeader('Content-Type', 'text/plain')
    res.end(`error ${err.status}`)
  })
  return app as unknown as http.RequestListener
}
