// The read core shared by all four parsers: skip rules, limits, inflation,
// verify, the error objects, and what happens to the connection on errors.
import zlib from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import request from 'supertest'
import fw from '../../src/index'
import { bodyApp, rawConnection, send, serve } from '../support/body'

const app = (...parsers: Function[]) => bodyApp(fw, ...parsers)
const servers: Array<{ close: () => Promise<void> }> = []
afterEach(async () => { for (const s of servers.splice(0)) await s.close() })

describe('read: skip rules', () => {
  it('leaves req.body undefined (but present) when there is no body', async () => {
    const res = await request(app(fw.json())).get('/').set('Content-Type', 'application/json')
    expect(res.status).toBe(200)
    expect(res.body.body).toEqual({ undefined: true })
  })

  it('treats Content-Length: 0 as an (empty) body, as body-parser does', async () => {
    const res = await request(app(fw.json())).post('/').set('Content-Type', 'application/json').set('Content-Length', '0')
    expect(res.body.body).toEqual({ value: {}, proto: 'object' })
  })

  it('leaves req.body undefined when the Content-Type does not match', async () => {
    const res = await request(app(fw.json())).post('/').set('Content-Type', 'text/plain').send('{"a":1}')
    expect(res.body.body).toEqual({ undefined: true })
  })

  it('keeps a body set by earlier middleware when it skips', async () => {
    const pre = (req: any, _res: any, next: any) => { req.body = 'kept'; next() }
    const res = await request(app(pre, fw.json())).post('/').set('Content-Type', 'text/plain').send('x')
    expect(res.body.body).toEqual({ value: 'kept' })
  })

  it('does not touch req.body when an earlier parser already read the body', async () => {
    const second = fw.json({ type: () => true, reviver: () => 'second parser ran' })
    const res = await request(app(fw.text({ type: '*/*' }), second)).post('/').set('Content-Type', 'application/json').send('{"a":1}')
    expect(res.body.body).toEqual({ value: '{"a":1}' })
  })

  it('skips (without creating req.body) a request whose stream another middleware consumed', async () => {
    const drain = (req: any, _res: any, next: any) => { req.resume(); req.on('end', () => next()) }
    const res = await request(app(drain, fw.json())).post('/').set('Content-Type', 'application/json').send('{"a":1}')
    expect(res.status).toBe(200)
    expect(res.body.body).toEqual({ absent: true })
  })

  it('routes stacked parsers by Content-Type', async () => {
    const a = app(fw.json(), fw.urlencoded(), fw.text())
    expect((await request(a).post('/').type('json').send('{"j":1}')).body.body.value).toEqual({ j: 1 })
    expect((await request(a).post('/').type('form').send('f=1')).body.body.value).toEqual({ f: '1' })
    expect((await request(a).post('/').type('text').send('t')).body.body.value).toBe('t')
  })
})

describe('read: type option', () => {
  it('calls a function type as fn(req)', async () => {
    let seen: unknown
    const type = (req: any) => { seen = req.headers['x-kind']; return seen === 'json' }
    const res = await request(app(fw.json({ type }))).post('/').set('X-Kind', 'json').send('{"f":1}')
    expect(seen).toBe('json')
    expect(res.body.body.value).toEqual({ f: 1 })
  })

  it.each([
    ['json', 'application/json'],
    ['application/*', 'application/json'],
    ['*/json', 'application/json'],
    ['*/*', 'text/anything'],
    ['+json', 'application/vnd.api+json']
  ])('matches type %s against %s', async (type, contentType) => {
    const res = await request(app(fw.json({ type }))).post('/').set('Content-Type', contentType).send('{"m":1}')
    expect(res.body.body.value).toEqual({ m: 1 })
  })

  it('matches any entry of an array', async () => {
    const parser = fw.text({ type: ['application/xml', 'text/*'] })
    const res = await request(app(parser)).post('/').set('Content-Type', 'application/xml').send('<a/>')
    expect(res.body.body.value).toBe('<a/>')
  })

  it('takes a type that is not a string, array or function as body-parser 2 does: it matches no request', async () => {
    const res = await request(app(fw.json({ type: 42 as never }))).post('/').set('Content-Type', 'application/json').send('{"m":1}')
    expect(res.status).toBe(200)
    expect(res.body.body.value).toBeUndefined()
    const listed = await request(app(fw.text({ type: [1, 'text/plain'] as never }))).post('/').set('Content-Type', 'text/plain').send('t')
    expect(listed.body.body.value).toBe('t')
  })
})

describe('read: limit option', () => {
  it('rejects by Content-Length before reading (413 entity.too.large)', async () => {
    const res = await request(app(fw.raw({ limit: 4 }))).post('/').type('bin').send(Buffer.from('123456'))
    expect(res.status).toBe(413)
    expect(res.body).toMatchObject({ type: 'entity.too.large', message: 'request entity too large', limit: 4, length: 6, expected: 6 })
  })

  it('rejects by the bytes actually read on a chunked body', async () => {
    const server = await serve(app(fw.text({ limit: '1kb' })))
    servers.push(server)
    const conn = await rawConnection(server.port)
    conn.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n')
    for (let i = 0; i < 3; i++) conn.write('200\r\n' + 'a'.repeat(0x200) + '\r\n')
    conn.write('0\r\n\r\n')
    const out = await conn.waitFor(/\r\n\r\n\{.*\}$/s)
    conn.destroy()
    expect(out).toMatch(/^HTTP\/1.1 413/)
    expect(out).toContain('"type":"entity.too.large"')
    expect(out).toContain('"limit":1024')
  })

  it('applies the limit to the inflated size', async () => {
    const body = zlib.gzipSync('x'.repeat(5000))
    expect(body.length).toBeLessThan(100)
    const res = await request(app(fw.text({ limit: 1000 }))).post('/').type('text').set('Content-Encoding', 'gzip').send(body)
    expect(res.status).toBe(413)
    expect(res.body.type).toBe('entity.too.large')
  })

  it('accepts a body exactly at the limit', async () => {
    const res = await request(app(fw.text({ limit: 3 }))).post('/').type('text').send('abc')
    expect(res.body.body.value).toBe('abc')
  })

  it('parses byte strings once and rejects invalid ones', () => {
    expect(() => fw.json({ limit: 'lots' })).toThrow('option limit "lots" is invalid')
    expect(() => fw.raw({ limit: {} as never })).toThrow(TypeError)
    expect(typeof fw.text({ limit: '1mb' })).toBe('function')
  })
})

describe('read: inflate option', () => {
  it.each([
    ['gzip', zlib.gzipSync],
    ['deflate', zlib.deflateSync],
    ['br', zlib.brotliCompressSync],
    ['identity', (b: Buffer) => b]
  ])('inflates %s', async (encoding, compress) => {
    const server = await serve(app(fw.json()))
    servers.push(server)
    const res = await send(server.port, { headers: { 'Content-Type': 'application/json', 'Content-Encoding': encoding }, body: compress(Buffer.from('{"e":1}')) })
    expect(res.status).toBe(200)
    expect(res.json.body.value).toEqual({ e: 1 })
  })

  it('inflates a chunked gzip body', async () => {
    const server = await serve(app(fw.text()))
    servers.push(server)
    const res = await send(server.port, { headers: { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' }, body: zlib.gzipSync('streamed text'), chunked: true })
    expect(res.json.body.value).toBe('streamed text')
  })

  it('answers 415 encoding.unsupported for an unknown encoding', async () => {
    const res = await request(app(fw.json())).post('/').type('json').set('Content-Encoding', 'compress').send('{}')
    expect(res.status).toBe(415)
    expect(res.body).toMatchObject({ type: 'encoding.unsupported', encoding: 'compress', message: 'unsupported content encoding "compress"' })
  })

  // zlib has zstd from Node 23.8 (and 22.15); sent raw, as supertest would
  // serialize a Buffer given with a JSON type
  it('inflates zstd where the running zlib has it, and answers 415 where not', async () => {
    const hasZstd = typeof (zlib as any).createZstdDecompress === 'function'
    const server = await serve(app(fw.json()))
    servers.push(server)
    const body = hasZstd ? (zlib as any).zstdCompressSync('{"z":1}') : Buffer.from('{}')
    const res = await send(server.port, { headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'zstd' }, body })
    if (hasZstd) {
      expect(res.status).toBe(200)
      expect(res.json.body.value).toEqual({ z: 1 })
    } else {
      expect(res.status).toBe(415)
      expect(res.json).toMatchObject({ status: 415, type: 'encoding.unsupported', encoding: 'zstd' })
    }
  })

  it('refuses compressed bodies with inflate: false', async () => {
    const res = await request(app(fw.json({ inflate: false }))).post('/').type('json').set('Content-Encoding', 'gzip').send(zlib.gzipSync('{}'))
    expect(res.status).toBe(415)
    expect(res.body).toMatchObject({ type: 'encoding.unsupported', encoding: 'gzip', message: 'content encoding unsupported' })
  })

  it('still reads identity bodies with inflate: false', async () => {
    const res = await request(app(fw.json({ inflate: false }))).post('/').type('json').set('Content-Encoding', 'identity').send('{"i":1}')
    expect(res.body.body.value).toEqual({ i: 1 })
  })

  it('reports corrupt compressed data as a 400', async () => {
    const res = await request(app(fw.json())).post('/').type('json').set('Content-Encoding', 'gzip').send('definitely not gzip')
    expect(res.status).toBe(400)
    expect(res.body.message).toBe('incorrect header check')
  })
})

describe('read: verify option', () => {
  it('calls verify(req, res, buf, encoding) with the raw inflated bytes', async () => {
    const calls: unknown[][] = []
    const verify = (req: any, res: any, buf: Buffer, encoding: string | null) => { calls.push([typeof req.headers, typeof res.setHeader, buf.toString(), encoding]) }
    const server = await serve(app(fw.json({ verify })))
    servers.push(server)
    const res = await send(server.port, { headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, body: zlib.gzipSync('{"v":1}') })
    expect(res.json.body.value).toEqual({ v: 1 })
    expect(calls).toEqual([['object', 'function', '{"v":1}', 'utf-8']])
  })

  it('answers 403 entity.verify.failed when verify throws, with the buffer as body', async () => {
    const verify = () => { throw new Error('bad signature') }
    const res = await request(app(fw.raw({ verify }))).post('/').type('bin').send(Buffer.from([1, 2]))
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ type: 'entity.verify.failed', message: 'bad signature', body: { buffer: '0102' } })
  })

  it('keeps the status of the error verify throws', async () => {
    const verify = () => { throw Object.assign(new Error('pay up'), { status: 402 }) }
    const res = await request(app(fw.text({ verify }))).post('/').type('text').send('x')
    expect(res.status).toBe(402)
    expect(res.body.type).toBe('entity.verify.failed')
  })

  it('keeps the type of the error verify throws, and the same error object', async () => {
    let thrown: unknown
    const verify = () => { thrown = Object.assign(new Error('bad signature'), { type: 'webhook.signature.invalid' }); throw thrown }
    let seen: unknown
    const a = fw()
    a.use(fw.json({ verify }))
    a.use((err: any, _req: any, res: any, _next: any) => { seen = err; res.status(err.status).json({ type: err.type, statusCode: err.statusCode }) })
    const res = await request(a).post('/').type('json').send('{}')
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ type: 'webhook.signature.invalid', statusCode: 403 })
    expect(seen).toBe(thrown)
  })

  it('answers 403 entity.verify.failed when verify throws null or undefined (body-parser 2.4 crashes the process here)', async () => {
    for (const value of [null, undefined]) {
      const res = await request(app(fw.json({ verify: () => { throw value } }))).post('/').type('json').send('{}')
      expect(res.status).toBe(403)
      expect(res.body).toMatchObject({ type: 'entity.verify.failed', message: 'Forbidden' })
    }
  })

  it('rejects a verify that is not a function', () => {
    expect(() => fw.json({ verify: 'yes' as never })).toThrow('option verify must be function')
    expect(typeof fw.json({ verify: false })).toBe('function')
  })
})

describe('read: error objects', () => {
  it('are http-errors with status, statusCode, expose and type', async () => {
    let caught: any
    const a = fw()
    a.use(fw.json({ limit: 1 }))
    a.use((err: any, _req: any, res: any, _next: any) => { caught = err; res.status(err.status).end() })
    await request(a).post('/').type('json').send('{}')
    expect(caught).toBeInstanceOf(Error)
    expect(caught).toMatchObject({ status: 413, statusCode: 413, expose: true, type: 'entity.too.large' })
  })

  it('reports stream.encoding.set when a middleware set an encoding first', async () => {
    const pre = (req: any, _res: any, next: any) => { req.setEncoding('utf8'); next() }
    const res = await request(app(pre, fw.json())).post('/').type('json').send('{}')
    expect(res.status).toBe(500)
    expect(res.body).toMatchObject({ type: 'stream.encoding.set', message: 'stream encoding should not be set', expose: false })
  })

  it('reports stream.not.readable when the stream can no longer be read', async () => {
    const pre = (req: any, _res: any, next: any) => { Object.defineProperty(req, 'readable', { value: false }); next() }
    const res = await request(app(pre, fw.json())).post('/').type('json').send('{}')
    expect(res.status).toBe(500)
    expect(res.body).toMatchObject({ type: 'stream.not.readable', message: 'stream is not readable' })
  })

  it('reports request.size.invalid when the Content-Length lies', async () => {
    const lie = (req: any, _res: any, next: any) => { req.headers['content-length'] = '10'; next() }
    const res = await request(app(lie, fw.json())).post('/').type('json').send('{"a":1}')
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ type: 'request.size.invalid', message: 'request size did not match content length', expected: 10, length: 10, received: 7 })
  })
})

describe('read: connection handling', () => {
  it('passes request.aborted to the error handler when the client aborts, and keeps serving', async () => {
    let reportError: (err: any) => void = () => {}
    const reported = new Promise<any>((resolve) => { reportError = resolve })
    const a = fw()
    a.use(fw.json())
    a.post('/', (_req: any, res: any) => { res.end('ok') })
    a.use((err: any, _req: any, res: any, _next: any) => { reportError(err); res.status(err.status).end() })
    const server = await serve(a)
    servers.push(server)
    const conn = await rawConnection(server.port)
    conn.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"partial":')
    setTimeout(() => conn.destroy(), 50)
    const caught = await reported
    expect(caught).toMatchObject({ status: 400, type: 'request.aborted', message: 'request aborted', expected: 100, received: 11 })
    const after = await send(server.port, { headers: { 'Content-Type': 'application/json' }, body: '{}' })
    expect(after.status).toBe(200)
    expect(after.text).toBe('ok')
  })

  it('drains a rejected body so the next request on a keep-alive connection is answered', async () => {
    const server = await serve(app(fw.json({ limit: 10 })))
    servers.push(server)
    const conn = await rawConnection(server.port)
    const big = '{"a":"' + 'x'.repeat(5000) + '"}'
    conn.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ' + big.length + '\r\n\r\n' + big)
    conn.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{"b":2}')
    const out = await conn.waitFor(/HTTP\/1.1 200[\s\S]*\{"b":2\}/)
    conn.destroy()
    expect(out.indexOf('HTTP/1.1 413')).toBeGreaterThanOrEqual(0)
    expect(out.indexOf('HTTP/1.1 413')).toBeLessThan(out.indexOf('HTTP/1.1 200'))
  })

  it('keeps a keep-alive connection usable after a 415 refused before reading', async () => {
    const server = await serve(app(fw.text()))
    servers.push(server)
    const conn = await rawConnection(server.port)
    const gz = zlib.gzipSync('refused')
    conn.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain; charset=klingon\r\nContent-Encoding: gzip\r\nContent-Length: ' + gz.length + '\r\n\r\n')
    conn.write(gz)
    conn.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok')
    const out = await conn.waitFor(/HTTP\/1.1 200[\s\S]*"value":"ok"/)
    conn.destroy()
    expect(out).toMatch(/^HTTP\/1.1 415/)
    expect(out).toContain('"type":"charset.unsupported"')
  })
})
