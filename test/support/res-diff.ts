// Helpers for the response tests: build the same app with switchyard and with
// the express@5 oracle, send one request to both, and return the answers in
// comparable form (ETag kept: both sides use the same etag function).
import express from 'express'
import fw from '../../src/index'
import { listen, request, type Answer, type RawRequest } from './diff'

/** Headers that legitimately differ between the two implementations. */
const DIFFERENT = new Set(['date', 'x-powered-by', 'connection', 'keep-alive'])

/** Sort headers, drop the ones that differ by design. */
export function normalise(a: Answer): Answer {
  const headers: Answer['headers'] = {}
  for (const k of Object.keys(a.headers).sort()) if (!DIFFERENT.has(k)) headers[k] = a.headers[k]
  return { status: a.status, headers, body: a.body }
}

/** Builds routes on an app; called once with a switchyard app and once with an express app. */
export type Build = (app: any) => void

/** Serve an express@5 app and a switchyard app built by `build`, and ask both with `ask(port)`. */
export async function bothWith<T>(build: Build, ask: (port: number) => Promise<T>): Promise<{ express: T; switchyard: T }> {
  const ours = fw()
  const theirs = express()
  build(ours)
  build(theirs)
  const a = await listen(ours as any)
  const b = await listen(theirs as any)
  try {
    const [switchyard, oracle] = await Promise.all([ask(a.port), ask(b.port)])
    return { express: oracle, switchyard }
  } finally {
    await Promise.all([a.close(), b.close()])
  }
}

/** Send `req` to an express@5 app and a switchyard app built by `build`; return both answers. */
export async function both(build: Build, req: RawRequest): Promise<{ express: Answer; switchyard: Answer }> {
  const r = await bothWith(build, (port) => request(port, req))
  return { express: normalise(r.express), switchyard: normalise(r.switchyard) }
}

/** An error handler that shows what reached it, identical in both apps. */
export function reportErrors(err: any, _req: any, res: any, _next: any): void {
  res.status(typeof err.status === 'number' ? err.status : 500).json({
    error: true,
    name: err.name,
    message: err.message,
    code: err.code,
    status: err.status,
    expose: err.expose,
    types: err.types
  })
}

/** A 404 responder, so both apps answer unmatched requests the same way. */
export function notFound(req: any, res: any): void {
  res.status(404).type('text').end('nothing at ' + req.method + ' ' + req.url)
}
