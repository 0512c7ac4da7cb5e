import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fw from '../src/index'
import { appWith } from './support/res'

const FIXTURES = join(__dirname, 'fixtures', 'res')
const file = (name: string): string => join(FIXTURES, name)

describe('res.sendFile(path)', () => {
  it('streams the file with type, length, caching headers and ETag', async () => {
    const res = await request(appWith((req, res) => res.sendFile(file('hello.txt')))).get('/')
    expect(res.status).toBe(200)
    expect(res.text).toBe('hello world')
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(res.headers['content-length']).toBe('11')
    expect(res.headers['accept-ranges']).toBe('bytes')
    expect(res.headers['cache-control']).toBe('public, max-age=0')
    expect(res.headers['last-modified']).toBeDefined()
    expect(res.headers.etag).toMatch(/^W\/"b-/)
  })

  it('sends a file whose name needs URL encoding', async () => {
    const res = await request(appWith((req, res) => res.sendFile(file('with space.txt')))).get('/')
    expect(res.text).toBe('spaced')
  })

  it('leaves out the ETag when the etag setting is off', async () => {
    const res = await request(appWith((req, res) => res.sendFile(file('hello.txt')), '/', (app) => app.set('etag', false))).get('/')
    expect(res.headers.etag).toBeUndefined()
  })

  it('answers 304 to a fresh conditional request', async () => {
    const app = appWith((req, res) => res.sendFile(file('hello.txt')))
    const first = await request(app).get('/')
    const second = await request(app).get('/').set('If-None-Match', first.headers.etag)
    expect(second.status).toBe(304)
  })

  it('sends headers only for HEAD', async () => {
    const res = await request(appWith((req, res) => res.sendFile(file('hello.txt')))).head('/')
    expect(res.headers['content-length']).toBe('11')
    expect(res.text).toBeUndefined()
  })

  it.each([
    [undefined, 'TypeError: path argument is required to res.sendFile'],
    [42, 'TypeError: path must be a string to res.sendFile'],
    ['hello.txt', 'TypeError: path must be absolute or specify root to res.sendFile']
  ])('throws for path %s', async (path, message) => {
    const res = await request(appWith((req, res) => res.sendFile(path))).get('/')
    expect(res.status).toBe(500)
    expect(res.text).toBe(message)
  })

  it('passes a missing file to next as a 404 ENOENT error', async () => {
    const res = await request(appWith((req, res) => res.sendFile(file('missing.txt')))).get('/')
    expect(res.status).toBe(404)
    expect(res.headers['x-error-code']).toBe('ENOENT')
  })

  it('calls next() for a directory', async () => {
    const app = appWith((req, res) => res.sendFile(FIXTURES))
    app.use((req: any, res: any) => res.status(404).send('fell through'))
    const res = await request(app).get('/')
    expect(res.text).toBe('fell through')
  })
})

describe('res.sendFile(path, options)', () => {
  it('root: resolves a relative path inside it', async () => {
    const res = await request(appWith((req, res) => res.sendFile('sub/nested.txt', { root: FIXTURES }))).get('/')
    expect(res.text).toBe('nested')
  })

  it('root: refuses a path that leaves it with 403, without reading it', async () => {
    for (const path of ['../hello.txt', 'x/../../hello.txt', '../../res/hello.txt']) {
      const res = await request(appWith((req, res) => res.sendFile(path, { root: file('sub') }))).get('/')
      expect(res.status).toBe(403)
      expect(res.text).not.toContain('hello world')
    }
  })

  it('root: refuses a NUL byte with 400', async () => {
    const res = await request(appWith((req, res) => res.sendFile('hello.txt\0.png', { root: FIXTURES }))).get('/')
    expect(res.status).toBe(400)
    expect(res.text).not.toContain('hello world')
  })

  it('dotfiles: ignore (default) answers 404, also for a dot directory', async () => {
    expect((await request(appWith((req, res) => res.sendFile(file('.secret')))).get('/')).status).toBe(404)
    expect((await request(appWith((req, res) => res.sendFile(file('.hidden/inside.txt')))).get('/')).status).toBe(404)
  })

  it('dotfiles: a dot directory in root is allowed', async () => {
    const res = await request(appWith((req, res) => res.sendFile('inside.txt', { root: file('.hidden') }))).get('/')
    expect(res.text).toBe('inside')
  })

  it('dotfiles: allow and deny', async () => {
    const allowed = await request(appWith((req, res) => res.sendFile(file('.secret'), { dotfiles: 'allow' }))).get('/').buffer(true)
    expect(allowed.status).toBe(200)
    expect(allowed.body.toString()).toBe('top secret')
    expect((await request(appWith((req, res) => res.sendFile(file('.secret'), { dotfiles: 'deny' }))).get('/')).status).toBe(403)
  })

  it('maxAge in milliseconds or as a string, and immutable', async () => {
    expect((await request(appWith((req, res) => res.sendFile(file('hello.txt'), { maxAge: 60_000 }))).get('/')).headers['cache-control']).toBe('public, max-age=60')
    expect((await request(appWith((req, res) => res.sendFile(file('hello.txt'), { maxAge: '1d', immutable: true }))).get('/')).headers['cache-control'])
      .toBe('public, max-age=86400, immutable')
  })

  it('cacheControl: false and lastModified: false', async () => {
    const res = await request(appWith((req, res) => res.sendFile(file('hello.txt'), { cacheControl: false, lastModified: false, maxAge: 5000 }))).get('/')
    expect(res.headers['cache-control']).toBeUndefined()
    expect(res.headers['last-modified']).toBeUndefined()
  })

  it('headers: adds headers, and may set Content-Type', async () => {
    const res = await request(appWith((req, res) => res.sendFile(file('hello.txt'), { headers: { 'X-From': 'options', 'Content-Type': 'text/x-mine' } }))).get('/')
    expect(res.headers['x-from']).toBe('options')
    expect(res.headers['content-type']).toBe('text/x-mine')
  })

  it('Range: 206 with Content-Range', async () => {
    const res = await request(appWith((req, res) => res.sendFile(file('hello.txt')))).get('/').set('Range', 'bytes=6-')
    expect(res.status).toBe(206)
    expect(res.headers['content-range']).toBe('bytes 6-10/11')
    expect(res.text).toBe('world')
  })

  it('Range: 416 for an unsatisfiable range', async () => {
    const res = await request(appWith((req, res) => res.sendFile(file('hello.txt')))).get('/').set('Range', 'bytes=50-60')
    expect(res.status).toBe(416)
    expect(res.headers['content-range']).toBe('bytes */11')
  })

  it('acceptRanges: false ignores Range', async () => {
    const res = await request(appWith((req, res) => res.sendFile(file('hello.txt'), { acceptRanges: false }))).get('/').set('Range', 'bytes=0-1')
    expect(res.status).toBe(200)
    expect(res.headers['accept-ranges']).toBeUndefined()
    expect(res.text).toBe('hello world')
  })
})

describe('res.sendFile(path, [options,] fn)', () => {
  it('calls fn with no error once the file is sent', async () => {
    let outcome: unknown = 'not called'
    const done = new Promise<void>((resolve) => {
      const app = appWith((req, res) => res.sendFile(file('hello.txt'), (err: unknown) => { outcome = err; resolve() }))
      void request(app).get('/').then((res) => expect(res.text).toBe('hello world'))
    })
    await done
    expect(outcome).toBeUndefined()
  })

  it('hands a 404 error to fn, which finishes the response', async () => {
    const app = appWith((req, res) => res.sendFile(file('missing.txt'), (err: any) => res.status(err.status).send(`${err.code} ${err.status}`)))
    const res = await request(app).get('/')
    expect(res.status).toBe(404)
    expect(res.text).toBe('ENOENT 404')
  })

  it('hands refused paths to fn with their status', async () => {
    const app = appWith((req, res) => res.sendFile(req.query.p, { root: file('sub') }, (err: any) => res.status(299).send(String(err.status))))
    expect((await request(app).get('/?p=../hello.txt')).text).toBe('403')
    expect((await request(app).get('/?p=nested.txt%00')).text).toBe('400')
  })

  it('hands an EISDIR error to fn for a directory', async () => {
    const app = appWith((req, res) => res.sendFile(FIXTURES, {}, (err: any) => res.status(500).send(err.code)))
    expect((await request(app).get('/')).text).toBe('EISDIR')
  })
})

describe('res.sendFile() and a client that goes away', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'switchyard-res-'))
    writeFileSync(join(dir, 'big.bin'), Buffer.alloc(16 * 1024 * 1024, 97))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('calls fn with an ECONNABORTED error', async () => {
    let resolveErr: (err: any) => void = () => {}
    const outcome = new Promise<any>((resolve) => { resolveErr = resolve })
    const app: any = fw()
    app.get('/', (req: any, res: any) => res.sendFile(join(dir, 'big.bin'), (err: any) => resolveErr(err)))
    const server = http.createServer(app)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const req = http.get({ port, host: '127.0.0.1', path: '/' }, (res) => {
      res.once('data', () => req.destroy())
    })
    req.on('error', () => {})
    const err = await outcome
    server.close()
    expect(err).toBeInstanceOf(Error)
    expect(err.code).toBe('ECONNABORTED')
  })

  it('does not call next for an aborted transfer', async () => {
    let nextCalled = false
    let finished: () => void = () => {}
    const closed = new Promise<void>((resolve) => { finished = resolve })
    const app: any = fw()
    app.get('/', (req: any, res: any) => { res.on('close', () => setTimeout(finished, 50)); res.sendFile(join(dir, 'big.bin')) })
    app.use((err: any, req: any, res: any, next: any) => { nextCalled = true; next(err) })
    const server = http.createServer(app)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const req = http.get({ port, host: '127.0.0.1', path: '/' }, (res) => { res.once('data', () => req.destroy()) })
    req.on('error', () => {})
    await closed
    server.close()
    expect(nextCalled).toBe(false)
  })
})
