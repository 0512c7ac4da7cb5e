// Headers Switchyard builds itself (X-Powered-By, the default Content-Types,
// Content-Length, the built-in ETag) go straight into Node's header store
// (src/utils/headers.ts). These tests pin what must not change: the same
// headers, in the same order, readable with the same types during and after
// the response; setHeader wrappers still see every call; and the setHeader
// fallback, used where the store cannot be trusted, answers the same.
import http from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import express from 'express'
import fw from '../src/index'
import { directHeaderStore, putHeader } from '../src/utils/headers'

/** What a handler saw of its own response after answering, and what went on the wire. */
async function answer(app: any, path: string, method = 'GET') {
  const server = http.createServer(app).listen(0)
  await once(server, 'listening')
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, { method })
    const raw: string[] = []
    res.headers.forEach((v, k) => { if (k !== 'date' && k !== 'keep-alive' && k !== 'connection') raw.push(k + ': ' + v) })
    return { status: res.status, raw, body: await res.text() }
  } finally {
    server.close()
  }
}

function probeApp() {
  const app = fw()
  const seen: Record<string, unknown> = {}
  const read = (res: any) => ({ headers: { ...res.getHeaders() }, names: res.getHeaderNames(), length: res.getHeader('Content-Length'), etag: res.getHeader('etag'), type: res.get('Content-Type'), powered: res.hasHeader('x-powered-by') })
  app.get('/text', (req, res) => { res.send('Hello World'); seen.text = read(res) })
  app.get('/json', (req, res) => { res.json({ a: 1 }); seen.json = read(res) })
  app.get('/typed', (req, res) => { res.type('txt'); res.send('typed'); seen.typed = read(res) })
  app.get('/presetLength', (req, res) => { res.setHeader('Content-Length', 999); res.send('x') ; seen.presetLength = read(res) })
  app.get('/buffer', (req, res) => { res.send(Buffer.from('bytes')); seen.buffer = read(res) })
  // the store Switchyard created, edited through Node's own methods
  app.get('/edited', (req, res) => {
    res.removeHeader('X-Powered-By')
    res.setHeader('X-Later', ['a', 'b'])
    res.append('X-Later', 'c')
    res.setHeader('x-powered-by', 'again')
    res.send('edited')
    seen.edited = read(res)
  })
  app.get('/late', (req, res) => {
    res.send('first')
    try { res.send('second') } catch (err: any) { seen.late = err.code }
  })
  return { app, seen }
}

describe('headers stored directly', () => {
  afterAll(() => { directHeaderStore(true) })

  it('are in use on this Node', () => {
    expect(directHeaderStore()).toBe(true)
  })

  it('start a store that inherits nothing, as Node\'s own, so no inherited name reads as a header', () => {
    const res = new http.ServerResponse(new http.IncomingMessage(null as any))
    putHeader(res, 'X-Powered-By', 'x-powered-by', 'Switchyard')
    const key = Object.getOwnPropertySymbols(res).find((s) => s.description === 'kOutHeaders')!
    const store = (res as any)[key]
    // Node's store has no prototype; Switchyard's an empty one without prototype
    const proto = Object.getPrototypeOf(store)
    expect(proto === null || (Object.getPrototypeOf(proto) === null && Reflect.ownKeys(proto).length === 0)).toBe(true)
    for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf']) expect(name in store).toBe(false)
    expect(res.hasHeader('constructor')).toBe(false)
    expect(res.getHeader('toString')).toBe(undefined)
    expect(res.getHeader('x-powered-by')).toBe('Switchyard')
  })

  it('answer every call of Node\'s on the names an object could inherit as Node\'s own store does', () => {
    const script = (res: http.ServerResponse): unknown[] => {
      const seen: unknown[] = []
      for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
        seen.push(res.hasHeader(name), res.getHeader(name))
        res.setHeader(name, 'v-' + name)
        seen.push(res.hasHeader(name), res.getHeader(name))
      }
      res.appendHeader('constructor', 'w')
      seen.push(res.getHeaderNames(), res.getHeaders(), res.getHeader('constructor'))
      res.removeHeader('__proto__')
      seen.push(res.getHeaderNames(), res.hasHeader('__proto__'))
      res.writeHead(200)
      seen.push((res as any)._header.replace(/\r\nDate: [^\r]*/, ''))
      return seen
    }
    const mine = new http.ServerResponse(new http.IncomingMessage(null as any))
    putHeader(mine, 'X-Powered-By', 'x-powered-by', 'Switchyard')
    const nodes = new http.ServerResponse(new http.IncomingMessage(null as any))
    nodes.setHeader('X-Powered-By', 'Switchyard')
    const key = Object.getOwnPropertySymbols(nodes).find((s) => s.description === 'kOutHeaders')!
    expect(script(mine)).toEqual(script(nodes))
  })

  it('read back with setHeader\'s types during and after the response, and the fallback answers the same', async () => {
    const results: any[] = []
    for (const direct of [true, false]) {
      directHeaderStore(direct)
      const { app, seen } = probeApp()
      const wire: any = {}
      for (const path of ['/text', '/json', '/typed', '/presetLength', '/buffer', '/late', '/edited']) wire[path] = await answer(app, path)
      wire.head = await answer(app, '/text', 'HEAD')
      results.push({ seen, wire })
    }
    expect(results[0]).toEqual(results[1])
    const { seen, wire } = results[0]
    expect(seen.text.length).toBe('11')
    expect(seen.text.headers).toEqual({ 'x-powered-by': 'Switchyard', 'content-type': 'text/html; charset=utf-8', 'content-length': '11', etag: 'W/"b-Ck1VqNd45QIvq3AZd8XYQLvEhtA"' })
    expect(seen.text.names).toEqual(['x-powered-by', 'content-type', 'content-length', 'etag'])
    expect(seen.json.type).toBe('application/json; charset=utf-8')
    expect(seen.presetLength.length).toBe('1')
    expect(seen.late).toBe('ERR_HTTP_HEADERS_SENT')
    expect(seen.edited.names).toEqual(['x-later', 'x-powered-by', 'content-type', 'content-length', 'etag'])
    expect(wire['/edited'].raw).toContain('x-later: a, b, c')
    expect(wire['/text'].raw).toEqual(['content-length: 11', 'content-type: text/html; charset=utf-8', 'etag: W/"b-Ck1VqNd45QIvq3AZd8XYQLvEhtA"', 'x-powered-by: Switchyard'])
  })

  it('still go through a wrapped setHeader, so the wrapper sees every call', async () => {
    const app = fw()
    const calls: string[] = []
    app.use((req, res, next) => {
      const original = res.setHeader
      res.setHeader = function (this: any, name: string, value: any) {
        calls.push(name)
        return original.call(this, name, value)
      } as any
      next()
    })
    app.get('/', (req, res) => { res.send('hi') })
    const { raw } = await answer(app, '/')
    expect(calls).toEqual(['Content-Type', 'Content-Length', 'ETag'])
    expect(raw).toContain('content-length: 2')
  })

  it('are read through a getHeader patched on app.response or on Node\'s class with the names Express asks for', async () => {
    const record = async (lib: any, where: 'app' | 'node') => {
      const app = lib()
      const calls: string[] = []
      const target = where === 'app' ? app.response : http.OutgoingMessage.prototype
      const original = target.getHeader
      target.getHeader = function (this: any, name: string) {
        if (!this.headersSent) calls.push(name)
        return original.call(this, name)
      }
      try {
        app.get('/text', (req: any, res: any) => { res.send('x') })
        app.get('/json', (req: any, res: any) => { res.json([1]) })
        app.get('/preset', (req: any, res: any) => { res.set('Transfer-Encoding', '').type('txt').send('y') })
        const server = http.createServer(app).listen(0)
        await once(server, 'listening')
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
        for (const path of ['text', 'json', 'text', 'preset']) {
          await (await fetch(url + path, { headers: path === 'preset' ? { 'if-none-match': '"x"' } : {} })).text().catch(() => '')
          calls.push('--')
        }
        server.close()
      } finally {
        target.getHeader = original
      }
      return calls
    }
    for (const where of ['app', 'node'] as const) {
      const ours = await record(fw, where)
      expect(ours).toEqual(await record(express, where))
      expect(ours).toContain('ETag')
    }
  })

  it('go through a setHeader patched on app.response or on Node\'s class exactly where Express\'s calls go', async () => {
    const record = async (lib: any, where: 'app' | 'node') => {
      const app = lib()
      const calls: string[] = []
      const target = where === 'app' ? app.response : http.OutgoingMessage.prototype
      const original = target.setHeader
      target.setHeader = function (this: any, name: string, value: any) {
        calls.push(name)
        return original.call(this, name, value)
      }
      try {
        app.get('/', (req: any, res: any) => { res.json([1]) })
        // an app handing a request to itself again: by then the prototypes are the app's
        app.get('/again', (req: any, res: any) => { req.url = '/'; app.handle(req, res) })
        const server = http.createServer(app).listen(0)
        await once(server, 'listening')
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
        // the second request arrives with app.response already in place (adoptServer)
        for (let i = 0; i < 2; i++) await (await fetch(url)).text()
        calls.push('--')
        for (let i = 0; i < 2; i++) await (await fetch(url + 'again')).text()
        server.close()
      } finally {
        target.setHeader = original
      }
      return calls
    }
    for (const where of ['app', 'node'] as const) {
      expect(await record(fw, where)).toEqual(await record(express, where))
    }
    // res.json sets the type, then res.send sets it again (with the charset): a wrapper sees both, as in Express
    const json = ['Content-Type', 'Content-Type', 'Content-Length', 'ETag']
    expect(await record(fw, 'app')).toEqual([...json, ...json, '--', 'X-Powered-By', ...json, 'X-Powered-By', ...json])
  })

  // the store has a site of its own for each of the request path's headers
  // and a keyed one for every other name: both land where
  // Node's setHeader puts a header, and read back through each of Node's methods
  it('put every name, with or without a store site of its own, where setHeader puts it', () => {
    const names = [['X-Powered-By', 'x-powered-by'], ['Content-Type', 'content-type'], ['Content-Length', 'content-length'], ['ETag', 'etag'], ['Transfer-Encoding', 'transfer-encoding'], ['X-Other', 'x-other']]
    const direct = new http.ServerResponse(new http.IncomingMessage(null as any))
    const viaNode = new http.ServerResponse(new http.IncomingMessage(null as any))
    names.forEach(([name, lower], i) => {
      putHeader(direct, name, lower, 'v' + i)
      viaNode.setHeader(name, 'v' + i)
    })
    expect(direct.getHeaders()).toEqual(viaNode.getHeaders())
    expect(direct.getHeaderNames()).toEqual(names.map(([, lower]) => lower))
    expect(names.map(([name]) => [direct.getHeader(name), direct.hasHeader(name)])).toEqual(names.map((_, i) => ['v' + i, true]))
    expect(direct.getRawHeaderNames()).toEqual(names.map(([name]) => name))
  })

  it('throw as setHeader does once the head is sent', () => {
    const res = new http.ServerResponse(new http.IncomingMessage(null as any))
    ;(res as any)._header = 'HTTP/1.1 200 OK\r\n\r\n'
    expect(() => putHeader(res, 'ETag', 'etag', '"x"')).toThrow(expect.objectContaining({ code: 'ERR_HTTP_HEADERS_SENT' }))
  })
})

describe('a Content-Type set again with the same value', () => {
  it('takes Express\'s name casing on the wire', async () => {
    const app = fw()
    app.get('/', (req, res) => { res.setHeader('content-type', 'application/json; charset=utf-8'); res.send('{}') })
    const server = http.createServer(app).listen(0)
    await once(server, 'listening')
    const raw = await new Promise<string>((resolve) => {
      http.get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, (res) => { res.resume(); resolve(res.rawHeaders.join('\n')) })
    })
    server.close()
    expect(raw).toContain('Content-Type\napplication/json; charset=utf-8')
  })
})
