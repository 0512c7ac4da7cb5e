// app.handle gives every req/res the app's prototypes. On a server whose only
// listener is the app, the server is made to construct them with those
// prototypes directly (no per-request swap). Nothing else may differ.
import { afterEach, describe, expect, it, vi } from 'vitest'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import fw from '../src/index'
import express from 'express'
import { plainSwap, swapKeepsMaps, swapPrototype } from '../src/utils/prototype'
import v8 from 'node:v8'
import net from 'node:net'
import dc from 'node:diagnostics_channel'
import { EventEmitter } from 'node:events'
import { takesRequests } from '../src/application'

const servers: http.Server[] = []
afterEach(async () => {
  vi.restoreAllMocks()
  for (const s of servers.splice(0)) {
    s.closeAllConnections()
    await new Promise((r) => s.close(r))
  }
})

async function serve(server: http.Server): Promise<number> {
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return (server.address() as AddressInfo).port
}

function get(port: number, path = '/'): Promise<string> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c) => (body += c))
      res.on('end', () => resolve(body))
    }).on('error', reject)
  })
}

function describeObjects(app: any) {
  return (req: any, res: any) => {
    res.end(JSON.stringify({
      reqProto: Object.getPrototypeOf(req) === app.request,
      resProto: Object.getPrototypeOf(res) === app.response,
      reqCtor: req.constructor === http.IncomingMessage,
      resCtor: res.constructor === http.ServerResponse,
      reqInstance: req instanceof http.IncomingMessage,
      resInstance: res instanceof http.ServerResponse,
      appFromReq: req.app === app,
      appFromRes: res.app === app,
      linked: req.res === res && res.req === req,
      extended: `${req.fromApp}/${req.fromBase}/${res.fromApp}`
    }))
  }
}

const expected = JSON.stringify({
  reqProto: true, resProto: true, reqCtor: true, resCtor: true, reqInstance: true, resInstance: true,
  appFromReq: true, appFromRes: true, linked: true, extended: 'app/base/app-res'
})

describe('request and response prototypes', () => {
  it('are the app\'s on every request of a server that serves only the app', async () => {
    const app = fw()
    ;(app.request as any).fromApp = 'app'
    ;(fw.request as any).fromBase = 'base'
    ;(app.response as any).fromApp = 'app-res'
    app.get('/', describeObjects(app))
    const port = await serve(http.createServer(app))
    expect(await get(port)).toBe(expected)
    // later requests are built with the right prototypes: no swap happens
    const swap = vi.spyOn(Object, 'setPrototypeOf')
    expect(await get(port)).toBe(expected)
    expect(await get(port)).toBe(expected)
    // (the router and the header store drop prototypes of objects they create: only req/res count here)
    const swapped = swap.mock.calls.filter(([target]) => target instanceof http.IncomingMessage || target instanceof http.ServerResponse)
    swap.mockRestore()
    expect(swapped).toEqual([])
    delete (fw.request as any).fromBase
  })

  it('are the app\'s when the server is shared with another handler', async () => {
    const one = fw()
    const two = fw()
    one.get('/', describeObjects(one))
    two.get('/', (req: any, res: any) => res.end(String(Object.getPrototypeOf(req) === two.request && req.app === two)))
    const port = await serve(http.createServer((req, res) => (req.url === '/' && req.headers['x-two'] === undefined ? one(req, res) : two(req, res))))
    for (let i = 0; i < 3; i++) {
      expect(JSON.parse(await get(port)).reqProto).toBe(true)
    }
    const viaTwo = await new Promise<string>((resolve) => {
      http.get({ host: '127.0.0.1', port, path: '/', headers: { 'x-two': '1' }, agent: false }, (res) => {
        let b = ''
        res.on('data', (c) => (b += c))
        res.on('end', () => resolve(b))
      })
    })
    expect(viaTwo).toBe('true')
  })

  it('are the app\'s when two apps alternate on servers of their own', async () => {
    const a = fw()
    const b = fw()
    a.get('/', describeObjects(a))
    b.get('/', describeObjects(b))
    const pa = await serve(http.createServer(a))
    const pb = await serve(http.createServer(b))
    for (let i = 0; i < 2; i++) {
      expect(JSON.parse(await get(pa)).appFromReq).toBe(true)
      expect(JSON.parse(await get(pb)).appFromReq).toBe(true)
    }
  })

  it('switch to a mounted app\'s and back to the parent\'s', async () => {
    const parent = fw()
    const child = fw()
    child.get('/', (req: any, res: any, next: any) => {
      req.inChild = Object.getPrototypeOf(req) === child.request && req.app === child
      next()
    })
    parent.use('/child', child)
    parent.use((req: any, res: any) => res.end(`${req.inChild} ${Object.getPrototypeOf(req) === parent.request} ${req.app === parent}`))
    const port = await serve(http.createServer(parent))
    expect(await get(port, '/child')).toBe('true true true')
    expect(await get(port, '/child')).toBe('true true true')
  })

  it('follow a replaced app.request', async () => {
    const app = fw()
    app.get('/', (req: any, res: any) => res.end(String(req.marker)))
    const port = await serve(http.createServer(app))
    expect(await get(port)).toBe('undefined')
    app.request = Object.create(app.request, { marker: { value: 'replaced' } })
    expect(await get(port)).toBe('replaced')
  })

  it('give app.response to a response that lacks it beside a request that has app.request, with or without X-Powered-By', async () => {
    // (app.handle checks the response's prototype once when it sets
    // X-Powered-By, and skips the second check only when that one passed)
    for (const powered of [true, false]) {
      const app = fw()
      app.set('x-powered-by', powered)
      let seen: unknown
      app.get('/', (req: any, res: any, next: any) => { seen = [Object.getPrototypeOf(res) === app.response, res.getHeader('x-powered-by')]; next() })
      const req: any = new http.IncomingMessage(new net.Socket())
      Object.setPrototypeOf(req, app.request)
      req.method = 'GET'
      req.url = '/'
      const res = new http.ServerResponse(req)
      await new Promise<void>((resolve) => app.handle(req, res, () => resolve()))
      expect(seen).toEqual([true, powered ? 'Switchyard' : undefined])
    }
  })

  it('set X-Powered-By through app.response\'s setHeader for a response built for another request, as express@5 does', async () => {
    // (only a response built with this very request, by an adopted server,
    // has Node's class in Express when the header is set; any other is asked
    // through the prototype it has)
    for (const lib of [fw, express] as any[]) {
      const app = lib()
      const calls: string[] = []
      const own = app.response.setHeader
      app.response.setHeader = function (this: any, name: string, value: unknown) {
        calls.push(name)
        return own.call(this, name, value)
      }
      app.get('/', (req: any, res: any) => { res.end('ok') })
      const req: any = new http.IncomingMessage(new net.Socket())
      Object.setPrototypeOf(req, app.request)
      req.method = 'GET'
      req.url = '/'
      const res: any = new http.ServerResponse(new http.IncomingMessage(new net.Socket()))
      Object.setPrototypeOf(res, app.response)
      res.end = () => res
      app.handle(req, res)
      expect(calls).toEqual(['X-Powered-By'])
    }
  })

  it('leave a server with its own IncomingMessage class alone', async () => {
    class MyRequest extends http.IncomingMessage {
      mine = true
    }
    const app = fw()
    app.get('/', (req: any, res: any) => res.end(`${req.mine} ${req.app === app}`))
    const port = await serve(http.createServer({ IncomingMessage: MyRequest }, app))
    expect(await get(port)).toBe('true true')
    expect(await get(port)).toBe('true true')
  })
})

// A server the app adopted builds requests with the app's prototypes only
// while Node hands them to the app alone: a listener that gets a request
// before the app, or instead of it, sees Node's own objects, as in Express.
describe('requests a listener other than the app gets, on a server the app adopted', () => {
  const own = (req: any, res?: any) => [
    Object.getPrototypeOf(req) === http.IncomingMessage.prototype,
    res === undefined ? null : Object.getPrototypeOf(res) === http.ServerResponse.prototype,
    typeof req.get,
    'app' in req
  ]

  /** What each listener saw, on a server that first served the app alone and then gained and lost listeners. */
  async function listenersSee(lib: any): Promise<unknown[]> {
    const app = lib()
    app.all('/', (req: any, res: any) => res.send('ok'))
    const server = http.createServer(app)
    const port = await serve(server)
    const seen: unknown[] = []
    const send = (headers: Record<string, string> = {}, body?: string) => new Promise<void>((resolve) => {
      const req = http.request({ host: '127.0.0.1', port, headers, agent: false, method: body === undefined ? 'GET' : 'POST' }, (res) => { res.resume(); res.on('end', () => resolve()) })
      req.on('upgrade', (res, socket) => { socket.destroy(); resolve() })
      req.on('error', () => resolve())
      req.end(body)
    })
    await send()
    await send() // adopted by now
    const upgrade = (req: any, socket: any) => { seen.push(['upgrade', ...own(req)]); socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n') }
    server.on('upgrade', upgrade)
    await send({ Connection: 'Upgrade', Upgrade: 'websocket' })
    server.off('upgrade', upgrade)
    const checkContinue = (req: any, res: any) => { seen.push(['checkContinue', ...own(req, res)]); res.writeContinue(); app(req, res) }
    server.on('checkContinue', checkContinue)
    await send({ Expect: '100-continue' }, 'x')
    server.off('checkContinue', checkContinue)
    const checkExpectation = (req: any, res: any) => { seen.push(['checkExpectation', ...own(req, res)]); app(req, res) }
    server.on('checkExpectation', checkExpectation)
    await send({ Expect: 'something' }, 'x')
    server.off('checkExpectation', checkExpectation)
    const first = (req: any, res: any) => seen.push(['prepended', ...own(req, res)])
    server.prependListener('request', first)
    await send()
    server.off('request', first)
    server.off('request', app)
    const other = (req: any, res: any) => { seen.push(['instead', ...own(req, res)]); res.end() }
    server.on('request', other)
    await send()
    server.off('request', other)
    server.on('request', app)
    const dropped = (req: any) => seen.push(['dropRequest', ...own(req)])
    server.maxRequestsPerSocket = 1
    server.on('dropRequest', dropped)
    await new Promise<void>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n'))
      socket.on('data', (chunk) => { if (String(chunk).includes('503')) socket.destroy() })
      socket.on('close', () => resolve())
    })
    server.off('dropRequest', dropped)
    server.maxRequestsPerSocket = 0
    // code that sees the request before any listener: a wrapper of emit (as
    // APM agents install), a subscriber to Node's request channel
    ;(server as any).emit = function (this: any, name: string, ...args: any[]) {
      if (name === 'request') seen.push(['emit wrapper', ...own(args[0], args[1])])
      return http.Server.prototype.emit.call(this, name, ...args)
    }
    await send()
    delete (server as any).emit
    const start = (message: any) => seen.push(['request.start channel', ...own(message.request, message.response)])
    dc.subscribe('http.server.request.start', start)
    await send()
    dc.unsubscribe('http.server.request.start', start)
    const after = (req: any, res: any) => seen.push(['after the app', ...own(req, res), req.app === app])
    server.on('request', after)
    await send()
    return seen
  }

  it('sees what it sees in express@5: Node\'s own request and response', async () => {
    const { default: express } = await import('express')
    const ours = await listenersSee(fw)
    const theirs = await listenersSee(express)
    expect(ours).toEqual(theirs)
    expect(theirs.map((s: any) => s[0])).toEqual(['upgrade', 'checkContinue', 'checkExpectation', 'prepended', 'instead', 'dropRequest', 'emit wrapper', 'request.start channel', 'after the app'])
    expect(theirs[0]).toEqual(['upgrade', true, null, 'undefined', false])
  })

  it('and the app alone again gets requests built with its prototypes (no swap)', async () => {
    const app = fw()
    app.get('/', describeObjects(app))
    const server = http.createServer(app)
    const port = await serve(server)
    expect(await get(port)).toBe(expected.replace("app/base/app-res", "undefined/undefined/undefined"))
    const upgrade = () => {}
    server.on('upgrade', upgrade)
    const swap = vi.spyOn(Object, 'setPrototypeOf')
    await get(port)
    const whileShared = swap.mock.calls.filter(([target]) => target instanceof http.IncomingMessage).length
    server.off('upgrade', upgrade)
    swap.mockClear()
    await get(port)
    await get(port)
    const alone = swap.mock.calls.filter(([target]) => target instanceof http.IncomingMessage || target instanceof http.ServerResponse).length
    swap.mockRestore()
    expect(whileShared).toBe(1) // built as Node builds it, then given the app's prototype by app.handle
    expect(alone).toBe(0)
  })

  it('is read from the emitter\'s public methods where it has no _events store, with the same answers', () => {
    const app = () => {}
    const cases: Array<Record<string, Function[]>> = [
      { request: [app] },
      { request: [app], connection: [() => {}] },
      { request: [app, () => {}] },
      { request: [() => {}] },
      { request: [app], upgrade: [() => {}] },
      { request: [app], connect: [() => {}] },
      {}
    ]
    for (const listeners of cases) {
      const emitter = new EventEmitter()
      for (const [name, fns] of Object.entries(listeners)) for (const fn of fns) emitter.on(name, fn as any)
      const bare = {
        emit: EventEmitter.prototype.emit,
        listenerCount: (name: string) => emitter.listenerCount(name),
        listeners: (name: string) => emitter.listeners(name)
      }
      expect(takesRequests(bare, app)).toBe(takesRequests(emitter, app))
    }
    expect(takesRequests({ request: app }, app)).toBe(false) // neither a store nor the methods: never adopted
  })
})

describe('app.request and app.response objects', () => {
  it('look like Object.create(fw.request / fw.response, { app }): one own key, no constructor of their own', async () => {
    const { default: express } = await import('express')
    const ours = fw()
    const theirs = express()
    for (const key of ['request', 'response'] as const) {
      expect(Reflect.ownKeys(ours[key])).toEqual(Reflect.ownKeys(theirs[key]))
      expect(Object.getOwnPropertyDescriptor(ours[key], 'app')).toEqual({ ...Object.getOwnPropertyDescriptor(theirs[key], 'app'), value: ours })
      expect(Object.getPrototypeOf(ours[key])).toBe((fw as any)[key])
    }
    expect(ours.request.constructor).toBe(http.IncomingMessage)
    expect(ours.response.constructor).toBe(http.ServerResponse)
  })

  it('requests built by an adopted server have exactly the app prototypes and Node constructors', async () => {
    const app = fw()
    const seen: unknown[] = []
    app.get('/', (req: any, res: any) => {
      seen.push([Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response, req.constructor === http.IncomingMessage, res.constructor === http.ServerResponse, req instanceof http.IncomingMessage, res instanceof http.ServerResponse])
      res.end()
    })
    const server = http.createServer(app)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as any).port
    try {
      for (let i = 0; i < 3; i++) await fetch(`http://127.0.0.1:${port}/`).then((r) => r.text())
    } finally {
      server.closeAllConnections()
      server.close()
    }
    expect(seen).toEqual(Array(3).fill([true, true, true, true, true, true]))
  })
})

describe('the constructors of an adopted server', () => {
  it('give requests and responses exactly the own fields Node gives them (the sizing code never runs)', async () => {
    const app = fw()
    const keys: string[][] = []
    app.get('/', (req: any, res: any) => {
      keys.push(Reflect.ownKeys(req).map(String), Reflect.ownKeys(res).map(String))
      res.end()
    })
    const plain = http.createServer((req, res) => {
      keys.push(Reflect.ownKeys(req).map(String), Reflect.ownKeys(res).map(String))
      res.end()
    })
    const server = http.createServer(app)
    for (const s of [server, plain]) await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
    try {
      for (let i = 0; i < 3; i++) await fetch(`http://127.0.0.1:${(server.address() as any).port}/`).then((r) => r.text())
      await fetch(`http://127.0.0.1:${(plain.address() as any).port}/`).then((r) => r.text())
    } finally {
      for (const s of [server, plain]) { s.closeAllConnections(); s.close() }
    }
    const [, , , , reqAdopted, resAdopted, reqNode, resNode] = keys
    expect(reqAdopted.some((k) => /^f\d+$/.test(k))).toBe(false)
    expect(resAdopted.some((k) => /^f\d+$/.test(k))).toBe(false)
    // what the app adds (req.res, req.next, req.params, res.locals, router@2.3's matched path...) aside, the same fields
    const added = new Set(['res', 'next', 'baseUrl', 'originalUrl', 'params', 'route', 'req', 'locals', 'body', '_parsedUrl', 'Symbol(router.tracing.matchedRoute)'])
    expect(reqAdopted.filter((k) => !added.has(k))).toEqual(reqNode.filter((k) => !added.has(k)))
    expect(resAdopted.filter((k) => !added.has(k))).toEqual(resNode.filter((k) => !added.has(k)))
  })
})

describe('stack traces through requests and responses of an adopted server', () => {
  it('name the receiver as express@5 does: IncomingMessage and ServerResponse', async () => {
    const { default: express } = await import('express')
    const frames = async (lib: any) => {
      const app = lib()
      const seen: string[] = []
      const frame = () => seen.push(String(new Error().stack).split('\n')[2].trim().split(' (')[0])
      app.get('/', (req: any, res: any) => {
        req.on('probe', frame)
        req.emit('probe')
        req.off('probe', frame)
        res.on('probe', frame)
        res.emit('probe')
        res.off('probe', frame)
        res.end()
      })
      const port = await serve(http.createServer(app))
      for (let i = 0; i < 3; i++) await get(port) // the later ones built by the adopted server
      return seen
    }
    const ours = await frames(fw)
    expect(ours).toEqual(await frames(express))
    expect(ours.slice(-2)).toEqual(['at IncomingMessage.emit', 'at ServerResponse.emit'])
  })
})

describe('requests and responses whose prototypes are swapped (a server the app cannot adopt)', () => {
  // a wrapper function is the server's listener, so every request is swapped
  async function ownKeysThrough(lib: any): Promise<string[][]> {
    const app = lib()
    const sub = lib()
    let seen: string[][] = []
    sub.get('/x', (req: any, res: any, next: any) => { req.inSub = true; next() })
    app.use('/s', sub)
    app.use((req: any, res: any) => {
      // router@2's tracing key (a private symbol) aside
      const keys = (o: object) => Reflect.ownKeys(o).map(String).filter((k) => k !== 'Symbol(router.tracing.matchedRoute)')
      seen = [keys(req), keys(res)]
      res.end()
    })
    const port = await serve(http.createServer((req, res) => app(req, res)))
    await get(port, '/s/x')
    return seen
  }

  it('keep their own keys, in order, as express@5 gives them', async () => {
    const { default: express } = await import('express')
    const ours = await ownKeysThrough(fw)
    expect(ours[0]).toContain('inSub')
    expect(ours).toEqual(await ownKeysThrough(express))
  })

  // V8 11 and 12 build a map per object for properties added after a plain
  // Object.setPrototypeOf. There
  // swapPrototype leaves objects in dictionary mode instead, where V8 shares
  // one map among objects normalized from the same map, through a small
  // cache. V8 13 keeps the swapped maps shared, and there the swap is plain
  v8.setFlagsFromString('--allow-natives-syntax')
  const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean
  const fast = new Function('a', 'return %HasFastProperties(a)') as (a: object) => boolean
  // two objects of one class given a new prototype (each test its own) by
  // `swap`, then the same two properties
  class Message { a = 1; b = 'x'; c: object | null = null }
  const swappedPair = (swap: (obj: object, proto: object) => void, proto: object): [any, any] => {
    const one: any = new Message()
    const two: any = new Message()
    swap(one, proto)
    swap(two, proto)
    one.params = {}; two.params = {}
    one.route = 1; two.route = 2
    return [one, two]
  }

  it('are swapped plainly only on a V8 that keeps the swapped maps shared', () => {
    expect(swapKeepsMaps('11.3.244.8-node.33')).toBe(false) // Node 20
    expect(swapKeepsMaps('12.4.254.21-node.57')).toBe(false) // Node 22
    expect(swapKeepsMaps('12.9.202.28-node.14')).toBe(false) // Node 23
    expect(swapKeepsMaps('13.6.233.17-node.63')).toBe(true) // Node 24
    expect(swapKeepsMaps('14.1.0')).toBe(true)
    expect(plainSwap).toBe(swapKeepsMaps(process.versions.v8))
    // the premise, on the V8 running this test: two objects given a new
    // prototype by a plain swap, then the same properties, share a map
    // exactly where the plain swap is chosen
    const [one, two] = swappedPair(Object.setPrototypeOf, Object.create(Message.prototype))
    expect(fast(two)).toBe(true)
    expect(sameMap(one, two)).toBe(plainSwap)
  })

  it('are left in dictionary mode where V8 would lose their maps, with no trace of the swap', async () => {
    const app = fw()
    const kept: any[] = []
    app.get('/', (req: any, res: any) => {
      req.added = kept.length
      res.locals.n = 1
      kept.push(req, res)
      res.end('ok')
    })
    const port = await serve(http.createServer((req, res) => app(req, res)))
    for (let i = 0; i < 4; i++) expect(await get(port)).toBe('ok')
    // V8 11 and 12: a plain swap leaves each object fast, with a map of its
    // own; V8 13: a plain swap keeps them fast and shared
    expect(kept.map(fast)).toEqual(kept.map(() => plainSwap))
    if (plainSwap) {
      expect(sameMap(kept[kept.length - 2], kept[kept.length - 4])).toBe(true)
      expect(sameMap(kept[kept.length - 1], kept[kept.length - 3])).toBe(true)
    }
    const last = kept[kept.length - 2]
    expect(Object.getPrototypeOf(last)).toBe(app.request)
    expect(last.added).toBe(kept.length - 2)
    expect(Reflect.ownKeys(last).some((k) => String(k) === 'Symbol(switchyard.swap)')).toBe(false)
  })

  it('share one V8 map, also once properties are added', () => {
    // Where swapPrototype normalizes (V8 11 and 12): which slot of V8's
    // cache a map uses follows heap addresses, so a request's and a
    // response's may collide, or a GC move one: the check swaps objects back
    // to back, where neither happens in practice, and allows three tries (a
    // plain swap never shares there). Where it swaps plainly (V8 13), the
    // maps follow V8's transitions.
    const proto = Object.create(Message.prototype)
    const shares = () => {
      const [one, two] = swappedPair(swapPrototype, proto)
      return Object.getPrototypeOf(two) === proto && fast(two) === plainSwap && sameMap(one, two)
    }
    expect(shares() || shares() || shares()).toBe(true)
  })
})
