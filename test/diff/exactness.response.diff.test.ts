// Differential tests of responses against express@5.3: headers as
// getHeader returns them, bytes on the wire, freshness, res.sendFile, the
// resources on-finished runs in, a destroyed socket, patched Node methods
// and helpers called oddly. Each builds the same app on both, sends the
// same request, and compares what a client or a middleware can observe.
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import net, { type AddressInfo } from 'node:net'
import { createHook } from 'node:async_hooks'
import express from 'express'
import { describe, expect, it } from 'vitest'
import fw from '../../src/index'
import { listen, request, type RawRequest } from '../support/diff'
import { both, bothWith } from '../support/res-diff'
import { recorded, type Lib } from '../support/recorded'

describe("res.attachment('')", () => {
  for (const name of ['', 'report.pdf', undefined]) {
    it(`attachment(${JSON.stringify(name)})`, async () => {
      const r = await both((app) => app.get('/', (req: any, res: any) => res.attachment(name).end()), { path: '/' })
      expect(r.switchyard).toEqual(r.express)
    })
  }
  it('an empty string is a file name', async () => {
    const r = await both((app) => app.get('/', (req: any, res: any) => res.attachment('').end()), { path: '/' })
    expect(r.switchyard.headers['content-disposition']).toBe('attachment; filename=""')
  })
})

describe('Content-Length as res.getHeader and res.getHeaders return it', () => {
  const cases: Array<[string, (req: any, res: any) => void, Partial<RawRequest>?]> = [
    ['send(string)', (req, res) => res.send('hello')],
    ['send(Buffer)', (req, res) => res.send(Buffer.from('bytes'))],
    ['json', (req, res) => res.json({ a: 1 })],
    ['jsonp', (req, res) => res.jsonp({ a: 1 }), { path: '/?callback=cb' }],
    ['sendStatus', (req, res) => res.sendStatus(201)],
    ['redirect', (req, res) => res.redirect('/elsewhere')],
    ['HEAD send', (req, res) => res.send('hello'), { method: 'HEAD' }],
    ['205 send', (req, res) => res.status(205).send('gone')],
    ['304 from freshness', (req, res) => res.set('ETag', '"x"').send('hello'), { headers: { 'if-none-match': '"x"' } }]
  ]
  for (const [name, handler, req] of cases) {
    it(name, async () => {
      const r = await recorded((app, lib, record) => {
        app.all('/', (rq: any, rs: any) => {
          handler(rq, rs)
          record([rs.getHeader('Content-Length'), rs.getHeaders()['content-length']])
        })
      }, { path: '/', ...req })
      expect(r.switchyard).toEqual(r.express)
      const [one] = r.switchyard.records as unknown[][]
      if (one[0] !== undefined) expect(typeof one[0]).toBe('string')
    })
  }
  it('the automatic OPTIONS answer and the 404 keep a number, as router and finalhandler store it', async () => {
    for (const method of ['OPTIONS', 'GET']) {
      const r = await recorded((app, lib, record) => {
        app.use((req: any, res: any, next: any) => {
          res.on('finish', () => record(typeof res.getHeader('Content-Length')))
          next()
        })
        app.get('/x', (req: any, res: any) => res.end())
      }, { path: method === 'OPTIONS' ? '/x' : '/nothing', method })
      await new Promise((resolve) => setTimeout(resolve, 10))
      expect(r.switchyard.records).toEqual(r.express.records)
    }
  })
})

describe('header values with bytes 0x80-0xFF', () => {
  const cases: Array<[string, (app: any) => void, Partial<RawRequest>?]> = [
    ['send with an ETag', (app) => app.get('/', (req: any, res: any) => res.set('X-Name', 'café').send('hi'))],
    ['json', (app) => app.get('/', (req: any, res: any) => res.set('X-Name', 'naïve').json({ ok: true }))],
    ['etag off, short body (a string in Express too)', (app) => { app.set('etag', false); app.get('/', (req: any, res: any) => res.set('X-Name', 'café').send('hi')) }],
    ['etag off, body of 1000 characters', (app) => { app.set('etag', false); app.get('/', (req: any, res: any) => res.set('X-Name', 'café').send('é'.repeat(1000))) }],
    ['status message', (app) => app.get('/', (req: any, res: any) => { res.statusMessage = 'Très bien'; res.send('hi') })],
    ['HEAD', (app) => app.get('/', (req: any, res: any) => res.set('X-Name', 'café').send('hi')), { method: 'HEAD' }],
    ['ASCII only keeps working', (app) => app.get('/', (req: any, res: any) => res.set('X-Name', 'cafe').send('hé'))]
  ]
  for (const [name, build, req] of cases) {
    it(name, async () => {
      const r = await bothWith(build, (port) => rawExchange(port, req?.method ?? 'GET'))
      expect(stripVarying(r.switchyard)).toEqual(stripVarying(r.express))
    })
  }
})

describe('an ASCII body written as latin1', () => {
  it('behind a slower pipelined response (Node queues the head and body), next to a non-ASCII body', async () => {
    const r = await bothWith((app) => {
      app.get('/slow', (req: any, res: any) => setTimeout(() => res.set('X-N', 'caf\u00e9').send('slow'), 30))
      app.get('/fast', (req: any, res: any) => res.set('X-N', 'na\u00efve').send('fast'))
      app.get('/utf', (req: any, res: any) => res.set('X-N', 'na\u00efve').send('\u00fcber'))
    }, (port) => rawPipelined(port, ['/slow', '/fast', '/utf']))
    expect(stripVarying(r.switchyard)).toEqual(stripVarying(r.express))
    expect(r.express).toContain('X-N: caf\u00e9\r\n')
  })
})

/** The raw bytes of pipelined GET requests on one connection (closed after the last), as latin1 text. */
function rawPipelined(port: number, paths: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      // (not half-closed: the last request asks the server to close)
      socket.write(paths.map((p, i) => `GET ${p} HTTP/1.1\r\nHost: x\r\n${i === paths.length - 1 ? 'Connection: close\r\n' : ''}\r\n`).join(''))
    })
    const chunks: Buffer[] = []
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')))
    socket.on('error', reject)
  })
}

/** The raw bytes of one response (connection closed after it), as latin1 text. */
function rawExchange(port: number, method: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.end(`${method} / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
    })
    const chunks: Buffer[] = []
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')))
    socket.on('error', reject)
  })
}

function stripVarying(raw: string): string {
  return raw.replace(/^Date: .*\r\n/gm, '').replace(/^X-Powered-By: .*\r\n/gm, '')
}

describe('a fresh QUERY request', () => {
  for (const headers of [{ 'if-none-match': '*' }, { 'if-none-match': 'W/"nope"' }]) {
    it(`If-None-Match: ${headers['if-none-match']}`, async () => {
      const r = await both((app) => app.all('/', (req: any, res: any) => res.send('result')), { method: 'QUERY', path: '/', headers })
      expect(r.switchyard).toEqual(r.express)
    })
  }
  it('answers 304 to If-None-Match: *', async () => {
    const r = await both((app) => app.all('/', (req: any, res: any) => res.send('result')), { method: 'QUERY', path: '/', headers: { 'if-none-match': '*' } })
    expect(r.switchyard.status).toBe(304)
  })
})

// on-finished runs each listener in an AsyncResource named after it: the
// final handler's (write), body-parser's (onfinished) and res.sendFile's
// (onfinish) show by those names to async_hooks and in the resource a
// response is written from.
describe('the async resources the listeners of on-finished run in', () => {
  const cases: Array<[string, RawRequest]> = [
    ['the final handler, after a body it reads off', { method: 'POST', path: '/nowhere', headers: { 'Content-Type': 'text/x-other', 'Content-Length': '3' }, body: 'abc' }],
    ['a body parser error', { method: 'POST', path: '/json', headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }, body: '{"a":"0123456789"}' }],
    ['res.sendFile', { path: '/file' }]
  ]
  for (const [label, req] of cases) {
    it(label, async () => {
      const seen: Record<string, string[]> = {}
      const file = fileURLToPath(new URL('../fixtures/static/secret.txt', import.meta.url))
      for (const [name, lib] of [['switchyard', fw], ['express', express]] as const) {
        const types: string[] = []
        const hook = createHook({ init(_id, type) { if (type === 'write' || type === 'onfinished' || type === 'onfinish' || type === 'bound-anonymous-fn') types.push(type) } })
        const app = (lib as Lib)()
        app.set('env', 'test')
        app.post('/json', (lib as Lib).json({ limit: 5 }), (req: any, res: any) => res.end())
        app.get('/file', (req: any, res: any) => res.sendFile(file, (err: any) => types.push(err ? 'sendFile failed' : 'sent')))
        app.use((err: any, req: any, res: any, next: any) => { res.status(err.status).end(err.type) })
        const server = await listen(app)
        try {
          hook.enable()
          await request(server.port, req)
          await new Promise((r) => setTimeout(r, 20))
        } finally {
          hook.disable()
          await server.close()
        }
        seen[name] = types
      }
      expect(seen.switchyard).toEqual(seen.express)
      expect(seen.express).not.toContain('sendFile failed')
    })
  }
})

// Express checks res.sendFile's path before it reads options.root.
describe('res.sendFile reads options.root after checking the path', () => {
  for (const [label, path] of [['a number', 123], ['an empty string', ''], ['a relative path', 'a.txt']] as const) {
    it(`${label}: the same reads and the same error`, async () => {
      const seen: Record<string, string[]> = {}
      for (const [name, lib] of [['switchyard', fw], ['express', express]] as const) {
        const log: string[] = []
        const app = (lib as Lib)()
        app.get('/', (req: any, res: any) => {
          const opts = { get root() { log.push('root read'); return '' } }
          try { res.sendFile(path, opts) } catch (e: any) { log.push(`${e.constructor.name}: ${e.message}`) }
          res.end()
        })
        const server = await listen(app)
        try {
          await request(server.port, { path: '/' })
        } finally {
          await server.close()
        }
        seen[name] = log
      }
      expect(seen.switchyard).toEqual(seen.express)
    })
  }
})

// A response sent on a socket the handler (or the client) already
// destroyed. No client reads it, but what Node keeps of it shows to code
// that checks for aborted requests.
describe('res.send and res.json on a destroyed socket', () => {
  it("leave the response as Express's do: writableLength, writableFinished, 'prefinish', stream.finished", async () => {
    const { finished } = await import('node:stream')
    const http = await import('node:http')
    const seen: Record<string, string[]> = {}
    for (const [name, lib] of [['switchyard', fw], ['express', express]] as const) {
      const out: string[] = []
      const app = (lib as Lib)()
      app.disable('x-powered-by') // (its value differs on purpose: the head's length would)
      const routes: Record<string, (res: any) => void> = {
        '/ascii': (r) => r.send('hello'), '/utf8': (r) => r.send('h\u00e9llo'), '/json': (r) => r.json({ a: 1 }),
        '/long': (r) => r.send('x'.repeat(1500)), '/buffer': (r) => r.send(Buffer.from('hello'))
      }
      for (const [path, send] of Object.entries(routes)) {
        app.get(path, (req: any, res: any) => {
          const state = () => `writableFinished=${res.writableFinished} writableLength=${res.writableLength}`
          res.on('prefinish', () => out.push(`${path} prefinish`))
          res.on('close', () => out.push(`${path} close: ${state()}`))
          finished(res, (err) => out.push(`${path} finished: ${err ? (err as any).code : 'ok'}`))
          req.socket.destroy()
          send(res)
          out.push(`${path} after send: ${state()}`)
        })
      }
      for (const wrapped of [false, true]) {
        const server = wrapped ? http.createServer((q, r) => app(q, r)) : http.createServer(app)
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
        const port = (server.address() as AddressInfo).port
        try {
          for (const path of Object.keys(routes)) {
            await new Promise<void>((resolve) => { http.get({ port, host: '127.0.0.1', path }).on('error', () => setTimeout(resolve, 30)) })
          }
        } finally {
          await new Promise((resolve) => server.close(resolve))
        }
      }
      seen[name] = out
    }
    expect(seen.switchyard).toEqual(seen.express)
    expect(seen.express.length).toBeGreaterThanOrEqual(30)
  })
})

// Node's response methods patched at the prototype BEFORE Switchyard was
// loaded (an agent preloaded with -r or --import). Switchyard must take them
// for patched, and make Express's calls through them (test/fixtures/prepatch:
// a recording, header-rewriting patch).
describe("Node's response methods patched before Switchyard loaded", () => {
  it('see the calls Express makes, and their answer goes out', () => {
    const repo = fileURLToPath(new URL('../..', import.meta.url))
    const run = (lib: string) => JSON.parse(execFileSync(process.execPath, ['-r', join(repo, 'test/fixtures/prepatch/patch.cjs'), join(repo, 'test/fixtures/prepatch/app.cjs'), lib], { cwd: repo, encoding: 'utf8' }))
    // the built library, as an app installed elsewhere loads it (npm test builds first)
    const ours = run(join(repo, 'dist/index.cjs'))
    const theirs = run(join(repo, 'node_modules/express'))
    expect(ours).toEqual(theirs)
    expect(theirs[0].headers).toContainEqual(['content-type', 'text/plain; charset=utf-8'])
    expect(theirs[0].calls.length).toBeGreaterThan(3)
  })
})

describe('res.links with an empty array of URLs', () => {
  for (const links of [{ next: [], last: 'x' }, { a: [], b: [] }, { a: 'x', n: [], z: 'y' }, { next: [] }, { prev: ['p'], next: [] }]) {
    it(JSON.stringify(links), async () => {
      const r = await both((app) => {
        app.get('/', (req: any, res: any) => { res.links(links); res.json({ link: res.get('Link') }) })
      }, { path: '/' })
      expect(r.switchyard).toEqual(r.express)
    })
  }
  it('joins an empty entry as Express does', async () => {
    const r = await both((app) => {
      app.get('/', (req: any, res: any) => { res.links({ next: [], last: 'x' }); res.send(String(res.get('Link'))) })
    }, { path: '/' })
    expect(r.express.body).toBe(', <x>; rel="last"')
    expect(r.switchyard.body).toBe(r.express.body)
  })
})

describe('response helpers called unbound (`promise.then(res.send)`)', () => {
  // what is read first decides the TypeError's message
  const calls: Array<[string, unknown[]]> = [['send', ['x']], ['send', [{ a: 1 }]], ['send', []], ['json', [{ a: 1 }]], ['cookie', ['a', 'b']],
    ['sendFile', ['rel']], ['sendFile', ['/abs/file']], ['sendStatus', [200]], ['redirect', ['/x']], ['links', [{ a: 'b' }]], ['download', ['/abs/file']]]
  for (const [method, args] of calls) {
    it(`${method}(${JSON.stringify(args).slice(1, -1)})`, () => {
      const outcome = (proto: any) => {
        const fn = proto[method]
        try {
          fn(...args)
          return 'returned'
        } catch (e: any) {
          return e.constructor.name + ': ' + e.message
        }
      }
      expect(outcome(fw().response)).toBe(outcome(express().response))
    })
  }
})

describe("a hook on res._implicitHeader (the private call Node's end() makes to send the head)", () => {
  const bodies: Array<[string, (res: any) => void]> = [
    ['ASCII string', (res) => res.send('hello')],
    ['non-ASCII string', (res) => res.send('héllo ✓')],
    ['long non-ASCII string', (res) => res.send('é'.repeat(600))],
    ['json with non-ASCII', (res) => res.json({ a: 'é' })],
    ['latin1 type', (res) => res.type('text/plain; charset=latin1').send('é')]
  ]
  for (const etag of [true, 'strong', false]) {
    for (const [label, send] of bodies) {
      it(`${label}, etag ${String(etag)}: the hook runs as in Express`, async () => {
        const r = await both((app) => {
          app.set('etag', etag)
          app.use((req: any, res: any, next: any) => {
            const orig = res._implicitHeader
            res._implicitHeader = function (this: any) { this.setHeader('X-Implicit', 'yes'); return orig.call(this) }
            next()
          })
          app.get('/', (req: any, res: any) => send(res))
        }, { path: '/' })
        expect(r.switchyard).toEqual(r.express)
        expect(r.express.headers['x-implicit']).toBe('yes')
      })
    }
  }
})
