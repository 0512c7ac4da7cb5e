// Helpers for the security suite: send one raw request to the same app built
// on switchyard and on express@5, with a hang limit, and return both answers.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import express from 'express'
import fw from '../../src/index'
import { listen, request, type Answer, type RawRequest } from '../support/diff'

export { fw, express }

/** Builds routes on an app; called once with switchyard and once with express. */
export type Build = (app: any, lib: any) => void

const HANG_MS = 5000

function withHangLimit<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout
  const limit = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('no answer within 5 s: ' + what)), HANG_MS) })
  return Promise.race([p, limit]).finally(() => clearTimeout(timer))
}

/** Headers that legitimately differ between the two implementations. */
const DIFFERENT = new Set(['date', 'x-powered-by', 'connection', 'keep-alive'])

function normalise(a: Answer): Answer {
  const headers: Answer['headers'] = {}
  for (const k of Object.keys(a.headers).sort()) if (!DIFFERENT.has(k)) headers[k] = a.headers[k]
  return { status: a.status, headers, body: a.body }
}

/** Serve `build` on both implementations; send every request to both; return the pairs. */
export async function both(build: Build, reqs: RawRequest[]): Promise<Array<{ ours: Answer; theirs: Answer }>> {
  const a = fw()
  const b = express()
  build(a, fw)
  build(b, express)
  const ours = await listen(a as any)
  const theirs = await listen(b as any)
  try {
    const out: Array<{ ours: Answer; theirs: Answer }> = []
    for (const r of reqs) {
      const [x, y] = await Promise.all([
        withHangLimit(request(ours.port, r), 'switchyard ' + r.path),
        withHangLimit(request(theirs.port, r), 'express ' + r.path)
      ])
      out.push({ ours: normalise(x), theirs: normalise(y) })
    }
    return out
  } finally {
    await Promise.all([ours.close(), theirs.close()])
  }
}

/** One request to both; the pair of answers. */
export async function one(build: Build, req: RawRequest): Promise<{ ours: Answer; theirs: Answer }> {
  return (await both(build, [req]))[0]
}

/** An error handler that reports what reached it, the same in both apps. */
export function reportErrors(err: any, _req: any, res: any, _next: any): void {
  if (res.headersSent) return
  res.statusMessage = '' // a rejected statusMessage must not break the error answer too
  res.status(typeof err.status === 'number' ? err.status : 500).json({ error: true, name: err.name, message: err.message, status: err.status, type: err.type })
}

/** A temporary directory with the given files (relative path -> content); removed by the returned function. */
export function tempTree(files: Record<string, string>): { root: string; remove: () => void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-sec-'))
  for (const [rel, content] of Object.entries(files)) {
    const full = path.join(root, rel)
    fs.mkdirSync(path.dirname(full), { recursive: true })
    if (rel.endsWith('/')) fs.mkdirSync(full, { recursive: true })
    else fs.writeFileSync(full, content)
  }
  return { root, remove: () => fs.rmSync(root, { recursive: true, force: true }) }
}
