import http from 'node:http'
import { describe, expect, it } from 'vitest'
import request from 'supertest'
import fw from '../src/index'
import { request as proto } from '../src/request'

const GETTERS = ['query', 'path', 'protocol', 'secure', 'ip', 'ips', 'subdomains', 'host', 'hostname', 'fresh', 'stale', 'xhr']
const METHODS = ['get', 'header', 'accepts', 'acceptsEncodings', 'acceptsCharsets', 'acceptsLanguages', 'is', 'range']

describe('request prototype', () => {
  it('inherits from http.IncomingMessage.prototype and is fw.request', () => {
    expect(Object.getPrototypeOf(proto)).toBe(http.IncomingMessage.prototype)
    expect(fw.request).toBe(proto)
  })

  it('defines every computed property as a configurable, enumerable getter', () => {
    for (const name of GETTERS) {
      const d = Object.getOwnPropertyDescriptor(proto, name)
      expect(d && typeof d.get, name).toBe('function')
      expect(d && d.configurable && d.enumerable, name).toBe(true)
    }
    for (const name of METHODS) expect(typeof (proto as any)[name], name).toBe('function')
  })

  it('adds no own property to the request when getters are read', async () => {
    const app = fw()
    app.use((req: any, res: any) => {
      const before = new Set(Object.keys(req))
      for (const name of GETTERS) void req[name]
      res.end(JSON.stringify(Object.keys(req).filter((k) => !before.has(k) && k !== '_parsedUrl')))
    })
    expect(JSON.parse((await request(app).get('/?a=1')).text)).toEqual([])
  })
})

describe('req.app / req.res', () => {
  it('req.app is the application handling the request, req.res its response', async () => {
    const app = fw()
    const sub = fw()
    sub.use((req: any, res: any) => { res.end(JSON.stringify([req.app === sub, req.res === res, res.req === req])) })
    app.use('/sub', sub)
    app.use((req: any, res: any) => { res.end(JSON.stringify([req.app === app, req.res === res, res.req === req])) })
    expect(JSON.parse((await request(app).get('/')).text)).toEqual([true, true, true])
    expect(JSON.parse((await request(app).get('/sub')).text)).toEqual([true, true, true])
  })
})

describe('fw.request / app.request extension', () => {
  it('a member added to app.request shows on that app only', async () => {
    const a = fw()
    const b = fw()
    a.request.tag = function () { return 'a:' + this.path }
    const read = (req: any, res: any) => { res.end(typeof req.tag === 'function' ? req.tag() : 'none') }
    a.use(read)
    b.use(read)
    expect((await request(a).get('/x')).text).toBe('a:/x')
    expect((await request(b).get('/x')).text).toBe('none')
  })

  it('a getter added to fw.request shows on every app', async () => {
    Object.defineProperty(fw.request, 'shout', { configurable: true, get() { return this.method + '!' } })
    try {
      const app = fw()
      app.use((req: any, res: any) => { res.end(req.shout) })
      expect((await request(app).put('/')).text).toBe('PUT!')
    } finally {
      delete (fw.request as any).shout
    }
  })

  it('an app.request override of a built-in getter wins', async () => {
    const app = fw()
    Object.defineProperty(app.request, 'ip', { configurable: true, get() { return 'overridden' } })
    app.use((req: any, res: any) => { res.end(req.ip) })
    expect((await request(app).get('/')).text).toBe('overridden')
  })
})
