// API misuse, differentially: every registration function, parser factory,
// setting and response method called with odd values (undefined, null,
// numbers, NaN, objects, arrays, nested arrays, functions, symbols, BigInts,
// Buffers, dates...), on switchyard and on express@5.3 (router@2.3,
// body-parser@2.4). What it returns, or the error it throws (name and message,
// word for word), and for response methods the headers it leaves, must be the
// same. A sweep of this kind found the differences fixed in the commits that
// added it (non-string paths and handler messages, parser options, res.set /
// res.type / res.format / res.send messages).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import bodyParserOracle from 'body-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fw from '../../src/index'
import bodyParser from '../../src/body/index'

type Lib = any

const VALUES: Record<string, unknown> = {
  undef: undefined, null: null, zero: 0, num: 5, neg: -1, nan: NaN, inf: Infinity, float: 2.5, str: 'x', path: '/p',
  badPath: '/:', empty: '', star: '*', obj: { a: 1 }, arr: ['/a', '/b'], emptyArr: [], nested: [['/a'], ['/b']],
  fn: function f(req: any, res: any, next: any) { next() }, fn4: function g(e: any, req: any, res: any, next: any) { next(e) },
  sym: Symbol('s'), bool: true, no: false, re: /a/, big: 10n, date: new Date(0), buf: Buffer.from('hi'),
  arrFn: [function h() {}], arrMix: [function h() {}, 1]
}
const KEYS = Object.keys(VALUES)
const SECOND = ['fn', 'fn4', 'undef', 'str', 'obj', 'arrFn', 'num', 'null']

/** What a call gives: 'ok' and the kind of value returned, or the error thrown. */
function outcome(call: () => unknown): string {
  try {
    const r = call()
    return 'ok ' + (typeof r === 'function' ? 'function' : r !== null && typeof r === 'object' ? 'object' : String(r))
  } catch (err: any) {
    return `${err?.name}: ${err?.message}`
  }
}

describe('registration with odd arguments', () => {
  const calls: Record<string, (lib: Lib, args: unknown[]) => unknown> = {
    'app.use': (l, a) => l().use(...a),
    'app.get': (l, a) => l().get(...a),
    'app.all': (l, a) => l().all(...a),
    'app.route': (l, a) => l().route(...a),
    'app.param': (l, a) => l().param(...a),
    'app.set': (l, a) => l().set(...a),
    'app.enable': (l, a) => l().enable(...a),
    'app.engine': (l, a) => l().engine(...a),
    'strict app.get': (l, a) => { const app = l(); app.enable('strict routing'); return app.get(...a) },
    'router.use': (l, a) => l.Router().use(...a),
    'router.post': (l, a) => l.Router().post(...a),
    'router.param': (l, a) => l.Router().param(...a),
    'route.get': (l, a) => l.Router().route('/x').get(...a),
    'route.all': (l, a) => l.Router().route('/x').all(...a),
    'static': (l, a) => l.static(...a)
  }
  for (const [name, call] of Object.entries(calls)) {
    it(name, () => {
      const differences: string[] = []
      const argLists: string[][] = [[]]
      for (const k of KEYS) {
        argLists.push([k])
        for (const k2 of SECOND) argLists.push([k, k2])
      }
      for (const keys of argLists) {
        const args = () => keys.map((k) => VALUES[k])
        const ours = outcome(() => call(fw, args()))
        const theirs = outcome(() => call(express, args()))
        if (ours !== theirs) differences.push(`${name}(${keys.join(', ')}): ${ours} | express: ${theirs}`)
      }
      expect(differences).toEqual([])
    })
  }
})

describe('parser options and settings with odd values', () => {
  const options: Record<string, string[]> = {
    json: ['limit', 'inflate', 'reviver', 'strict', 'type', 'verify'],
    urlencoded: ['limit', 'extended', 'parameterLimit', 'depth', 'type', 'defaultCharset', 'charsetSentinel', 'interpretNumericEntities', 'verify'],
    text: ['limit', 'defaultCharset', 'type'],
    raw: ['limit', 'type', 'inflate']
  }
  for (const [parser, names] of Object.entries(options)) {
    it(`${parser}(options), and its body-parser module twin`, () => {
      const differences: string[] = []
      for (const name of ['(argument)', ...names]) {
        for (const k of KEYS) {
          const arg = () => (name === '(argument)' ? VALUES[k] : { [name]: VALUES[k] })
          const ours = outcome(() => (fw as Lib)[parser](arg()))
          const module = outcome(() => (bodyParser as Lib)[parser](arg()))
          const theirs = outcome(() => (bodyParserOracle as Lib)[parser](arg()))
          if (ours !== theirs || module !== theirs) differences.push(`${parser} ${name}=${k}: ${ours} / ${module} | body-parser: ${theirs}`)
        }
      }
      expect(differences).toEqual([])
    })
  }

  it('settings that compile (etag, query parser, trust proxy, subdomain offset, json spaces)', () => {
    const differences: string[] = []
    for (const setting of ['etag', 'query parser', 'trust proxy', 'subdomain offset', 'json spaces', 'jsonp callback name', 'env']) {
      for (const k of KEYS) {
        const run = (lib: Lib) => outcome(() => {
          const app = lib()
          app.set(setting, VALUES[k])
          return [typeof app.get(setting), typeof app.get(setting + ' fn')].join('/')
        })
        if (run(fw) !== run(express)) differences.push(`${setting}=${k}: ${run(fw)} | express: ${run(express)}`)
      }
    }
    expect(differences).toEqual([])
  })
})

describe('response methods with odd arguments', () => {
  // each call is one request to a server of each library; the handler reports
  // what the call returned or threw, and the headers it left
  const methods = ['status', 'sendStatus', 'set', 'get', 'append', 'vary', 'type', 'links', 'location', 'attachment', 'cookie', 'clearCookie', 'json', 'jsonp', 'send', 'format']
  const calls: Array<[string, string[]]> = []
  for (const m of methods) {
    for (const k of KEYS) calls.push([m, [k]])
    if (['set', 'append', 'cookie'].includes(m)) for (const k of KEYS) for (const k2 of ['str', 'arr', 'undef', 'obj', 'fn', 'no']) calls.push([m, [k, k2]])
  }
  for (const k of KEYS) calls.push(['set', ['ctype', k]])
  const values: Record<string, unknown> = { ...VALUES, ctype: 'Content-Type' }

  function build(lib: Lib) {
    const app = lib()
    app.set('env', 'production')
    app.disable('x-powered-by')
    app.get('/c/:i', (req: any, res: any) => {
      const [m, keys] = calls[Number(req.params.i)]
      let ret: unknown
      try {
        ret = res[m](...keys.map((k) => values[k]))
      } catch (err: any) {
        res.statusCode = 200
        res.end(`threw ${err.name}: ${err.message} ${JSON.stringify(res.getHeaders())}`)
        return
      }
      if (!res.headersSent) res.end(`returned ${ret === res ? 'res' : JSON.stringify(ret)} ${res.statusCode} ${JSON.stringify(res.getHeaders())}`)
    })
    app.use((err: any, req: any, res: any, next: any) => { res.status(599).end(`error ${err.name}: ${err.message}`) })
    return app
  }

  let servers: http.Server[] = []
  beforeAll(async () => {
    servers = [build(fw), build(express)].map((app) => http.createServer(app))
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))))
  })
  afterAll(() => { for (const s of servers) { s.closeAllConnections(); s.close() } })

  function ask(server: http.Server, path: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path, headers: { accept: 'text/html' } }, (res) => {
        let body = ''
        res.setEncoding('latin1')
        res.on('data', (d) => { body += d })
        res.on('end', () => {
          const { date: _d, connection: _c, 'keep-alive': _k, ...headers } = res.headers
          resolve(`${res.statusCode} ${JSON.stringify(headers)} ${body}`)
        })
      })
      req.on('error', reject)
    })
  }

  it('every method, with every odd value (and pairs for set, append and cookie)', async () => {
    const differences: string[] = []
    for (let i = 0; i < calls.length; i += 50) {
      const batch = calls.slice(i, i + 50).map(async (call, j) => {
        const [ours, theirs] = await Promise.all(servers.map((s) => ask(s, '/c/' + (i + j))))
        if (ours !== theirs) differences.push(`res.${call[0]}(${call[1].join(', ')}): ${ours} | express: ${theirs}`)
      })
      await Promise.all(batch)
    }
    expect(calls.length).toBeGreaterThan(800)
    expect(differences).toEqual([])
  }, 60000)
})
