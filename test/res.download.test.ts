import { join, relative } from 'node:path'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { appWith } from './support/res'

const FIXTURES = join(__dirname, 'fixtures', 'res')
const file = (name: string): string => join(FIXTURES, name)

describe('res.download(path)', () => {
  it('sends the file as an attachment named after it', async () => {
    const res = await request(appWith((req, res) => res.download(file('hello.txt')))).get('/')
    expect(res.headers['content-disposition']).toBe('attachment; filename=hello.txt')
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(res.text).toBe('hello world')
  })

  it('resolves a relative path against the working directory', async () => {
    const res = await request(appWith((req, res) => res.download(relative(process.cwd(), file('hello.txt'))))).get('/')
    expect(res.text).toBe('hello world')
  })

  it('passes a missing file to next as a 404', async () => {
    const res = await request(appWith((req, res) => res.download(file('missing.txt')))).get('/')
    expect(res.status).toBe(404)
    expect(res.headers['x-error-code']).toBe('ENOENT')
  })
})

describe('res.download(path, filename)', () => {
  it('uses the filename, without its directories', async () => {
    const res = await request(appWith((req, res) => res.download(file('hello.txt'), 'exports/report.csv'))).get('/')
    expect(res.headers['content-disposition']).toBe('attachment; filename=report.csv')
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
  })

  it('encodes a non-ASCII filename', async () => {
    const res = await request(appWith((req, res) => res.download(file('hello.txt'), 'naïve.txt'))).get('/')
    expect(res.headers['content-disposition']).toBe('attachment; filename="na?ve.txt"; filename*=UTF-8\'\'na%C3%AFve.txt')
  })
})

describe('res.download(path, filename, options)', () => {
  it('keeps the attachment disposition over a headers option, and adds the other headers', async () => {
    const res = await request(appWith((req, res) => res.download(file('hello.txt'), 'x.txt', { headers: { 'Content-Disposition': 'inline', 'X-B': 'c' } }))).get('/')
    expect(res.headers['content-disposition']).toBe('attachment; filename=x.txt')
    expect(res.headers['x-b']).toBe('c')
  })

  it('root: relative path inside root; escapes refused with 403', async () => {
    const ok = await request(appWith((req, res) => res.download('sub/nested.txt', 'n.txt', { root: FIXTURES }))).get('/')
    expect(ok.text).toBe('nested')
    const refused = await request(appWith((req, res) => res.download('../hello.txt', 'n.txt', { root: file('sub') }))).get('/')
    expect(refused.status).toBe(403)
  })

  it('root: refuses a NUL byte with 400', async () => {
    const res = await request(appWith((req, res) => res.download('hello.txt\0', null, { root: FIXTURES }))).get('/')
    expect(res.status).toBe(400)
  })

  it('passes maxAge, immutable, lastModified, cacheControl, acceptRanges and dotfiles on', async () => {
    const res = await request(appWith((req, res) => res.download(file('.secret'), 's.txt', { dotfiles: 'allow', maxAge: '2h', immutable: true, lastModified: false, acceptRanges: false }))).get('/').buffer(true)
    expect(res.status).toBe(200)
    expect(res.body.toString()).toBe('top secret')
    expect(res.headers['cache-control']).toBe('public, max-age=7200, immutable')
    expect(res.headers['last-modified']).toBeUndefined()
    expect(res.headers['accept-ranges']).toBeUndefined()
    const noCache = await request(appWith((req, res) => res.download(file('hello.txt'), null, { cacheControl: false }))).get('/')
    expect(noCache.headers['cache-control']).toBeUndefined()
  })

  it('answers Range requests', async () => {
    const res = await request(appWith((req, res) => res.download(file('hello.txt'), 'h.txt'))).get('/').set('Range', 'bytes=0-4')
    expect(res.status).toBe(206)
    expect(res.text).toBe('hello')
  })
})

describe('res.download(path, [filename,] [options,] fn)', () => {
  it('accepts options in the filename place', async () => {
    const res = await request(appWith((req, res) => res.download(file('hello.txt'), { maxAge: 1000 }))).get('/')
    expect(res.headers['content-disposition']).toBe('attachment; filename=hello.txt')
    expect(res.headers['cache-control']).toBe('public, max-age=1')
  })

  it('calls fn (path, fn) with errors', async () => {
    const res = await request(appWith((req, res) => res.download(file('missing.txt'), (err: any) => res.status(err.status).send('cb ' + err.code)))).get('/')
    expect(res.status).toBe(404)
    expect(res.text).toBe('cb ENOENT')
  })

  it('calls fn (path, filename, fn) after success', async () => {
    let called = false
    const app = appWith((req, res) => res.download(file('hello.txt'), 'x.txt', (err: unknown) => { called = err === undefined }))
    const res = await request(app).get('/')
    expect(res.headers['content-disposition']).toBe('attachment; filename=x.txt')
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(called).toBe(true)
  })

  it('calls fn (path, options, fn) and (path, filename, options, fn)', async () => {
    const a = await request(appWith((req, res) => res.download(file('missing.txt'), { maxAge: 1 }, (err: any) => res.status(410).send(err.code)))).get('/')
    expect(a.status).toBe(410)
    const b = await request(appWith((req, res) => res.download('../x', 'y', { root: file('sub') }, (err: any) => res.status(410).send(String(err.status))))).get('/')
    expect(b.text).toBe('403')
  })
})
