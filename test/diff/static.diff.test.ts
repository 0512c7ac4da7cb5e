// Differential tests: fw.static (switchyard) against serve-static@2 on express@5.
// The same app is built with both, the same raw request is sent to both, and
// status, headers (ETag and Last-Modified included) and body must be equal.
import fs from 'node:fs'
import path from 'node:path'
import type http from 'node:http'
import { describe, it, expect, beforeAll, afterAll } from 'vitest'
import express from 'express'
import fw from '../../src/index'
import { listen, request, type Answer, type RawRequest } from '../support/diff'
import { ROOT } from '../support/static'
import parseurl from 'parseurl'

type Lib = (() => any) & { static: (root: string, options?: object) => unknown }

/** Headers that legitimately differ (time of day, framework banner, connection handling). */
const IGNORED = new Set(['date', 'x-powered-by', 'connection', 'keep-alive'])

function normalise(a: Answer): Answer {
  const headers: Answer['headers'] = {}
  for (const k of Object.keys(a.headers).sort()) if (!IGNORED.has(k)) headers[k] = a.headers[k]
  return { status: a.status, headers, body: a.body }
}

/** The app under test, built identically for both libraries; handlers behind use only node:http calls. */
function build(lib: Lib, options: object | undefined, mount: string): http.RequestListener {
  const app = lib()
  app.use(mount, lib.static(ROOT, options))
  app.post('/todo.txt', (_req: http.IncomingMessage, res: http.ServerResponse) => { res.end('posted') })
  app.use((req: http.IncomingMessage, res: http.ServerResponse) => {
    res.statusCode = 404
    res.setHeader('Content-Type', 'text/plain')
    // and the parses left cached on req (serve-static parses the original URL too)
    res.end(`fell through: ${req.method} ${req.url} ${Object.keys(req).filter((k) => k.startsWith('_parsed')).join()} ${(req as any)._parsedOriginalUrl?.pathname}`)
  })
  app.use((err: any, _req: http.IncomingMessage, res: http.ServerResponse, _next: unknown) => {
    res.statusCode = err.status ?? 500
    res.setHeader('Content-Type', 'application/json')
    res.end(JSON.stringify({ name: err.name, message: err.message, status: err.status, statusCode: err.statusCode, expose: err.expose, code: err.code }))
  })
  return app
}

const stat = fs.statSync(path.join(ROOT, 'nums.txt'))
const ETAG = `W/"${stat.size.toString(16)}-${stat.mtime.getTime().toString(16)}"`
const MODIFIED = stat.mtime.toUTCString()

const get = (p: string, headers?: Record<string, string>): RawRequest => ({ method: 'GET', path: p, headers })
const head = (p: string, headers?: Record<string, string>): RawRequest => ({ method: 'HEAD', path: p, headers })

const COMMON: RawRequest[] = [
  get('/'), get('/todo.txt'), get('/nums.txt'), get('/empty.txt'), get('/README'), get('/style.css'), get('/data.json'),
  get('/nested'), get('/nested/'), get('/nested?x=1&y=<b>'), get('/nested?a=//b&%zz="q"'), get('//nested'), get('///nested//'), get('/noindex'), get('/noindex/'),
  get('/nested/deep/'), get('/multi/'), get('/page'), get('/todo'), get('/nope.txt'), get('/todo.txt/x'),
  get('/.hidden'), get('/.dotdir/file.txt'), get('/.dotdir/'), get('/.dotdir'), get('/sub/.hidden'), get('/sub/.dot/x.txt'),
  get('/with%20space.txt'), get('/100%25%20sure.txt'), get('/caf%C3%A9.txt'), get('/snow%20%E2%98%83.txt'),
  get('/a%20dir'), get('/dossier%20%C3%A9'), get('/dossier%20%C3%A9/inner.txt'),
  head('/todo.txt'), head('/nested'), head('/nope.txt'),
  { method: 'POST', path: '/todo.txt' }, { method: 'PUT', path: '/todo.txt' }, { method: 'OPTIONS', path: '/' },
  get('/nums.txt', { Range: 'bytes=0-2' }), get('/nums.txt', { Range: 'bytes=-3' }), get('/nums.txt', { Range: 'bytes=20-30' }),
  get('/nums.txt', { Range: 'bytes=0-1,4-5' }), get('/nums.txt', { Range: 'foo' }), get('/empty.txt', { Range: 'bytes=0-1' }),
  head('/nums.txt', { Range: 'bytes=2-3' }),
  get('/nums.txt', { Range: 'bytes=0-2', 'If-Range': ETAG }), get('/nums.txt', { Range: 'bytes=0-2', 'If-Range': '"stale"' }),
  get('/nums.txt', { Range: 'bytes=0-2', 'If-Range': MODIFIED }),
  get('/nums.txt', { 'If-None-Match': ETAG }), get('/nums.txt', { 'If-None-Match': 'W/"nope"' }),
  get('/nums.txt', { 'If-Modified-Since': MODIFIED }), get('/nums.txt', { 'If-Modified-Since': new Date(0).toUTCString() }),
  get('/nums.txt', { 'If-Match': '"nope"' }), get('/nums.txt', { 'If-Unmodified-Since': new Date(0).toUTCString() }),
  get('/../secret.txt'), get('/%2e%2e/secret.txt'), get('/..%2fsecret.txt'), get('/nested/..%2f..%2fsecret.txt'),
  get('/..\\secret.txt'), get('/..%5csecret.txt'), get('/nested/%2e%2e/todo.txt'), get('/..'),
  get('/todo.txt%00'), get('/%00'), get('/%E0%A4%A'), get('/%zz'), get('/a\\b'), get('/users%2ftobi.txt'),
  // a directory redirect keeps what the request target had: scheme, host, login, fragment
  get('http://example.com/nested'), get('HTTP://EXAMPLE.COM/nested?q=1'), get('http://u:p@h.example/nested'), get('/nested#frag'),
  get('/nested?x=1#y'), get('http://example.com//nested'), get('/nested#<b>"')
]

const mounted = (mount: string, reqs: RawRequest[]): RawRequest[] =>
  reqs.map((r) => ({ ...r, path: r.path === '/' ? mount : mount + r.path })).concat([get(mount + '/'), get(mount + '?q=1'), get('/todo.txt')])

interface Config { title: string; options?: object; mount?: string; requests: RawRequest[] }

const SMALL: RawRequest[] = [
  get('/'), get('/todo.txt'), get('/nested'), get('/nested/'), get('/nope.txt'), get('/.hidden'), get('/sub/.dot/x.txt'), get('/nested?a=1#f'),
  get('/page'), get('/nums.txt', { Range: 'bytes=0-2' }), { method: 'POST', path: '/todo.txt' }, head('/todo.txt')
]

const CONFIGS: Config[] = [
  { title: 'defaults', requests: COMMON },
  { title: 'defaults, mounted at /static', mount: '/static', requests: mounted('/static', SMALL) },
  { title: '{ fallthrough: false }', options: { fallthrough: false }, requests: COMMON },
  { title: '{ fallthrough: false }, mounted at /s', options: { fallthrough: false }, mount: '/s', requests: mounted('/s', SMALL) },
  { title: "{ dotfiles: 'deny', fallthrough: false }", options: { dotfiles: 'deny', fallthrough: false }, requests: SMALL.concat([get('/.dotdir/'), get('/.dotdir')]) },
  { title: "{ dotfiles: 'deny' }", options: { dotfiles: 'deny' }, requests: SMALL },
  { title: "{ dotfiles: 'allow' }", options: { dotfiles: 'allow' }, requests: SMALL.concat([get('/.dotdir/'), get('/.dotdir'), get('/..%2fsecret.txt')]) },
  { title: "{ dotfiles: 'ignore', fallthrough: false }", options: { dotfiles: 'ignore', fallthrough: false }, requests: SMALL },
  { title: '{ redirect: false }', options: { redirect: false }, requests: SMALL.concat([get('/noindex')]) },
  { title: '{ redirect: false, fallthrough: false }', options: { redirect: false, fallthrough: false }, requests: SMALL },
  { title: '{ index: false }', options: { index: false }, requests: SMALL },
  { title: '{ index: false, fallthrough: false }', options: { index: false, fallthrough: false }, requests: SMALL },
  { title: "{ index: ['index.htm', 'default.txt'] }", options: { index: ['index.htm', 'default.txt'] }, requests: SMALL.concat([get('/nested/deep/'), get('/multi/')]) },
  { title: "{ index: 'default.txt' }", options: { index: 'default.txt' }, requests: [get('/multi/'), get('/nested/deep/'), get('/')] },
  { title: "{ extensions: ['html', 'txt'] }", options: { extensions: ['html', 'txt'] }, requests: SMALL.concat([get('/todo'), get('/page.x'), get('/README')]) },
  { title: "{ extensions: 'txt', fallthrough: false }", options: { extensions: 'txt', fallthrough: false }, requests: SMALL.concat([get('/todo')]) },
  { title: "{ maxAge: '1d', immutable: true }", options: { maxAge: '1d', immutable: true }, requests: SMALL },
  { title: '{ maxAge: 1500 }', options: { maxAge: 1500 }, requests: [get('/todo.txt'), get('/nested/')] },
  { title: "{ maxAge: '5y' }", options: { maxAge: '5y' }, requests: [get('/todo.txt')] },
  { title: "{ maxAge: 'nonsense' }", options: { maxAge: 'nonsense' }, requests: [get('/todo.txt')] },
  { title: '{ maxage: 2000 } (lower case)', options: { maxage: 2000 }, requests: [get('/todo.txt')] },
  { title: '{ immutable: true } without maxAge', options: { immutable: true }, requests: [get('/todo.txt')] },
  { title: '{ etag: false, lastModified: false }', options: { etag: false, lastModified: false }, requests: SMALL.concat([get('/nums.txt', { 'If-Modified-Since': MODIFIED })]) },
  { title: '{ cacheControl: false, acceptRanges: false }', options: { cacheControl: false, acceptRanges: false, maxAge: '1d' }, requests: SMALL },
  {
    title: '{ setHeaders }',
    options: { setHeaders: (res: http.ServerResponse, p: string, s: fs.Stats) => { res.setHeader('X-Name', encodeURIComponent(path.basename(p))); res.setHeader('X-Size', String(s.size)) } },
    requests: SMALL.concat([get('/caf%C3%A9.txt'), get('/nested/')])
  }
]

for (const config of CONFIGS) {
  describe(`fw.static(root, ${config.title}) vs serve-static@2`, () => {
    let sy: Awaited<ReturnType<typeof listen>>
    let ex: Awaited<ReturnType<typeof listen>>
    beforeAll(async () => {
      sy = await listen(build(fw as unknown as Lib, config.options, config.mount ?? '/'))
      ex = await listen(build(express as unknown as Lib, config.options, config.mount ?? '/'))
    })
    afterAll(async () => {
      await sy.close()
      await ex.close()
    })

    for (const r of config.requests) {
      const label = `${r.method ?? 'GET'} ${r.path}${r.headers ? ' ' + JSON.stringify(r.headers) : ''}`
      it(label, async () => {
        const expected = normalise(await request(ex.port, r))
        const actual = normalise(await request(sy.port, r))
        expect(actual).toEqual(expected)
      })
    }
  })
}

describe('what fw.static leaves on req once it has served a file', () => {
  for (const [mount, p] of [['/', '/todo.txt'], ['/static', '/static/todo.txt?x=1'], ['/static', '/static'], ['/', '/nested?x=1'], ['/static', 'http://h.example/static/nested#f']] as const) {
    it(`GET ${p} (mounted on ${mount}): the same own keys and cached parse of the original URL on 'finish'`, async () => {
      const seen: Record<string, string> = {}
      for (const [name, lib] of [['switchyard', fw], ['express', express]] as const) {
        const app = (lib as any)()
        let keys = 'not finished'
        app.use((req: any, res: any, next: any) => {
          res.on('finish', () => {
            const o = req._parsedOriginalUrl
            keys = Object.keys(req).join() + ' ' + JSON.stringify(o && { ...o }) + ' ' + (o && parseurl.original(req) === o)
          })
          next()
        })
        app.use(mount, (lib as any).static(ROOT))
        const server = await listen(app)
        try {
          const { status } = await request(server.port, get(p))
          for (let i = 0; i < 20 && keys === 'not finished'; i++) await new Promise((r) => setImmediate(r))
          seen[name] = `${status} ${keys}`
        } finally {
          await server.close()
        }
      }
      expect(seen.switchyard).toBe(seen.express)
      expect(seen.express).toContain('_parsedOriginalUrl')
    })
  }
})

describe('fw.static: differential coverage', () => {
  it('compares at least 50 cases', () => {
    expect(CONFIGS.reduce((n, c) => n + c.requests.length, 0)).toBeGreaterThanOrEqual(50)
  })
})

describe("what a setHeaders hook sees of send's stream", () => {
  it("the stream's listeners are named as serve-static's", async () => {
    const seen: Record<string, unknown> = {}
    for (const [name, lib] of [['switchyard', fw], ['express', express]] as const) {
      for (const redirect of [true, false]) {
        const app = (lib as any)()
        app.use(lib.static(ROOT, {
          redirect,
          setHeaders(this: any) {
            seen[`${name} ${redirect}`] = ['directory', 'headers', 'file', 'error'].map((e) => this.listeners(e).map((f: any) => f.name))
          }
        }))
        const server = await listen(app)
        try {
          await request(server.port, { path: '/data.json' })
        } finally {
          await server.close()
        }
      }
    }
    expect(seen['switchyard true']).toEqual(seen['express true'])
    expect(seen['switchyard false']).toEqual(seen['express false'])
    expect(seen['express false']).toEqual([['notFound'], ['setHeaders'], ['onFile'], ['error']])
  })
})
