import { describe, expect, it, vi } from 'vitest'
import request from 'supertest'
import http from 'node:http'
import fw from '../src/index'

describe('default final handler', () => {
  it('answers an unmatched request with 404 Cannot METHOD /path (escaped) and security headers', async () => {
    const app = fw()
    const res = await request(app).get('/no/<such>').expect(404)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['content-security-policy']).toBe("default-src 'none'")
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.text).toBe('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot GET /no/%3Csuch%3E</pre>\n</body>\n</html>\n')
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text)))
  })

  it('HEAD gets the 404 without a body', async () => {
    const res = await request(fw()).head('/missing').expect(404)
    expect(res.text).toBeUndefined()
  })

  it('uses err.status, then err.statusCode, else 500; only 4xx/5xx count', async () => {
    const app = fw()
    app.set('env', 'production')
    vi.spyOn(console, 'error').mockImplementation(() => {})
    app.get('/status', (req: any, res: any, next: any) => next(Object.assign(new Error('x'), { status: 403 })))
    app.get('/statusCode', (req: any, res: any, next: any) => next(Object.assign(new Error('x'), { statusCode: 502 })))
    app.get('/invalid', (req: any, res: any, next: any) => next(Object.assign(new Error('x'), { status: 302 })))
    app.get('/res-status', (req: any, res: any, next: any) => { res.statusCode = 503; next(new Error('x')) })
    app.get('/plain', (req: any, res: any, next: any) => next(new Error('x')))
    await request(app).get('/status').expect(403, /<pre>Forbidden<\/pre>/)
    await request(app).get('/statusCode').expect(502, /<pre>Bad Gateway<\/pre>/)
    await request(app).get('/invalid').expect(500, /<pre>Internal Server Error<\/pre>/)
    await request(app).get('/res-status').expect(503, /<pre>Service Unavailable<\/pre>/)
    await request(app).get('/plain').expect(500)
  })

  it('shows the stack outside production, with newlines as <br>', async () => {
    const app = fw()
    app.set('env', 'test')
    app.get('/', () => { throw new Error('visible message') })
    const res = await request(app).get('/').expect(500)
    expect(res.text).toMatch(/<pre>Error: visible message<br> &nbsp; &nbsp;at /)
  })

  it('applies err.headers', async () => {
    const app = fw()
    app.set('env', 'test')
    app.get('/', (req: any, res: any, next: any) => next(Object.assign(new Error('auth'), { status: 401, headers: { 'WWW-Authenticate': 'Basic realm="x"' } })))
    const res = await request(app).get('/').expect(401)
    expect(res.headers['www-authenticate']).toBe('Basic realm="x"')
  })

  it('logs unhandled errors to stderr unless env is test', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {})
    const app = fw()
    app.set('env', 'development')
    app.get('/', () => { throw new Error('logged') })
    await request(app).get('/').expect(500)
    await new Promise((r) => setImmediate(r))
    // the error itself, as express@5.3 logs it (console.error formats it with util.inspect)
    expect(spy).toHaveBeenCalledWith(expect.objectContaining({ message: 'logged' }))
    expect(spy.mock.calls[0][0]).toBeInstanceOf(Error)
    spy.mockClear()
    app.set('env', 'test')
    await request(app).get('/').expect(500)
    await new Promise((r) => setImmediate(r))
    expect(spy).not.toHaveBeenCalled()
    spy.mockRestore()
  })

  it('destroys the socket when headers were already sent', async () => {
    const app = fw()
    app.set('env', 'test')
    app.get('/', (req: any, res: any, next: any) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' })
      res.write('partial')
      next(new Error('too late'))
    })
    await expect(request(app).get('/')).rejects.toThrow()
  })

  it('keeps a keep-alive connection usable after a 404 on a request with an unread body', async () => {
    const app = fw()
    const server = http.createServer(app)
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const port = (server.address() as any).port
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    const send = (method: string, body?: string) => new Promise<number>((resolve, reject) => {
      const req = http.request({ port, host: '127.0.0.1', method, path: '/none', agent, headers: body ? { 'Content-Type': 'text/plain' } : {} }, (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode!))
      })
      req.on('error', reject)
      req.end(body)
    })
    expect(await send('POST', 'x'.repeat(50000))).toBe(404)
    expect(await send('GET')).toBe(404)
    agent.destroy()
    server.closeAllConnections()
    await new Promise((r) => server.close(r))
  })
})

describe('app.listen()', () => {
  it('returns the http.Server and calls back when listening', async () => {
    const app = fw()
    app.get('/', (req: any, res: any) => res.end('listening'))
    let server!: http.Server
    await new Promise<void>((resolve) => { server = app.listen(0, '127.0.0.1', () => resolve()) })
    expect(server).toBeInstanceOf(http.Server)
    const port = (server.address() as any).port
    const body = await new Promise<string>((resolve) => http.get({ port, host: '127.0.0.1', path: '/' }, (res) => { let b = ''; res.on('data', (c) => (b += c)); res.on('end', () => resolve(b)) }))
    expect(body).toBe('listening')
    await new Promise((r) => server.close(r))
  })

  it('passes a listen error to the callback', async () => {
    const first = fw().listen(0, '127.0.0.1')
    await new Promise((r) => first.once('listening', r))
    const port = (first.address() as any).port
    const err = await new Promise<any>((resolve) => { fw().listen(port, '127.0.0.1', (e?: any) => resolve(e)) })
    expect(err.code).toBe('EADDRINUSE')
    await new Promise((r) => first.close(r))
  })

  it('wraps the callback as express@5.3 does: the error listener is a function f with called and value', async () => {
    const { default: express } = await import('express')
    const shape = async (lib: any) => {
      const server = lib().listen(0, '127.0.0.1', function cb() { return 'returned' })
      const wrapper = server.rawListeners('error')[0].listener
      const before = { name: wrapper.name, length: wrapper.length, called: wrapper.called, value: 'value' in wrapper }
      await new Promise((r) => server.once('listening', r))
      const after = { called: wrapper.called, value: wrapper.value, again: wrapper() }
      await new Promise((r) => server.close(r))
      return { before, after }
    }
    const ours = await shape(fw)
    expect(ours).toEqual(await shape(express))
    expect(ours.before).toEqual({ name: 'f', length: 0, called: false, value: false })
    expect(ours.after).toEqual({ called: true, value: 'returned', again: 'returned' })
  })

  it('listens on a UNIX socket path', async () => {
    const path = `/tmp/switchyard-test-${process.pid}.sock`
    const app = fw()
    app.get('/', (req: any, res: any) => res.end('unix'))
    const server = await new Promise<http.Server>((resolve) => { const s = app.listen(path, () => resolve(s)) })
    const body = await new Promise<string>((resolve) => http.get({ socketPath: path, path: '/' }, (res) => { let b = ''; res.on('data', (c) => (b += c)); res.on('end', () => resolve(b)) }))
    expect(body).toBe('unix')
    await new Promise((r) => server.close(r))
  })
})

describe('app.handle with a wrapped router.handle', () => {
  it('goes through the wrapper (as tools that instrument the router expect), with and without a callback', async () => {
    const app = fw()
    app.get('/', (req: any, res: any) => res.send('ok'))
    const calls: string[] = []
    const original = app.router.handle
    app.router.handle = function wrapped(this: any, req: any, res: any, done: any) {
      calls.push(req.url)
      return original.call(this, req, res, done)
    }
    await request(app).get('/').expect(200, 'ok')
    await request(app).get('/missing').expect(404)
    expect(calls).toEqual(['/', '/missing'])
  })

  it('goes through a wrapper on Router.prototype.handle too, as express@5 does', async () => {
    const { default: express } = await import('express')
    for (const lib of [fw, express] as any[]) {
      const proto = lib.Router.prototype
      const original = proto.handle
      const calls: string[] = []
      proto.handle = function wrapped(this: any, req: any, res: any, done: any) {
        calls.push(req.url)
        return original.call(this, req, res, done)
      }
      try {
        const app = lib()
        app.get('/', (req: any, res: any) => res.send('ok'))
        await request(app).get('/').expect(200, 'ok')
        await request(app).get('/missing').expect(404)
      } finally {
        proto.handle = original
      }
      expect(calls, lib === fw ? 'switchyard' : 'express').toEqual(['/', '/missing'])
    }
  })
})
