// The differential step most exactness tests share: the same app built on
// switchyard and on express@5, one request to each, and what the app noted
// on the way (what a middleware or a tool could observe).
import express from 'express'
import fw from '../../src/index'
import { listen, request, type RawRequest } from './diff'

/** Either library: switchyard's default export or express. */
export type Lib = any

/** Run `build` on an app of each library, send `req` to both, return both answers and what `build` recorded. */
export async function recorded(build: (app: any, lib: Lib, record: (v: unknown) => void) => void, req: RawRequest) {
  const out: Record<string, { answer: unknown; records: unknown[] }> = {}
  for (const [name, lib] of [['switchyard', fw], ['express', express]] as const) {
    const records: unknown[] = []
    const app = (lib as Lib)()
    build(app, lib, (v) => records.push(v))
    const server = await listen(app)
    try {
      const answer = await request(server.port, req)
      const { date: _d, 'x-powered-by': _x, ...headers } = answer.headers
      out[name] = { answer: { status: answer.status, headers, body: answer.body }, records }
    } finally {
      await server.close()
    }
  }
  return out
}
