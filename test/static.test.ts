import path from 'node:path'
import fs from 'node:fs'
import type { Stats } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { describe, it, expect } from 'vitest'
import request from 'supertest'
import fw from '../src/index'
import { serveStatic, type ServeStaticOptions } from '../src/static'
import { ROOT, DOT_ROOT, host, raw } from './support/static'

/** fw.static(ROOT, options) mounted at `mount`, with a fall-through 404 and an error handler behind. */
function app(options?: ServeStaticOptions, mount = '') {
  return host(serveStatic(ROOT, options), mount)
}

describe('fw.static(root, options)', () => {
  it('is exposed as fw.static', async () => {
    expect(fw.static).toBe(serveStatic)
    const app = fw()
    app.use('/files', fw.static(ROOT))
    await request(app).get('/files/todo.txt').expect(200, '- groceries\n')
  })

  it('has length 2 and returns a middleware of arity 3', () => {
    expect(serveStatic.length).toBe(2)
    expect(serveStatic(ROOT).length).toBe(3)
  })

  it('requires root', () => {
    expect(() => (serveStatic as (r?: unknown) => unknown)()).toThrow(new TypeError('root path required'))
    expect(() => serveStatic('')).toThrow(new TypeError('root path required'))
  })

  it('requires root to be a string', () => {
    expect(() => serveStatic(42 as unknown as string)).toThrow(new TypeError('root path must be a string'))
    expect(() => serveStatic({} as unknown as string)).toThrow(TypeError)
  })

  it('requires setHeaders to be a function', () => {
    expect(() => serveStatic(ROOT, { setHeaders: 'x' as unknown as ServeStaticOptions['setHeaders'] }))
      .toThrow(new TypeError('option setHeaders must be function'))
  })

  it('accepts a relative root, resolved against the working directory', async () => {
    const rel = path.relative(process.cwd(), ROOT)
    await request(host(serveStatic(rel))).get('/todo.txt').expect(200, '- groceries\n')
  })
})

describe('fw.static(root): serving files', () => {
  it('serves a file with type, length, validators and caching headers', async () => {
    const res = await request(app()).get('/todo.txt').expect(200, '- groceries\n')
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(res.headers['content-length']).toBe('12')
    expect(res.headers['accept-ranges']).toBe('bytes')
    expect(res.headers['cache-control']).toBe('public, max-age=0')
    expect(res.headers['etag']).toMatch(/^W\/"c-[0-9a-f]+"$/)
    expect(res.headers['last-modified']).toBe(fs.statSync(path.join(ROOT, 'todo.txt')).mtime.toUTCString())
  })

  it('serves an empty file', async () => {
    const res = await request(app()).get('/empty.txt').expect(200, '')
    expect(res.headers['content-length']).toBe('0')
  })

  it('serves a file without extension as application/octet-stream', async () => {
    const res = await request(app()).get('/README').buffer(true).expect(200)
    expect(res.headers['content-type']).toBe('application/octet-stream')
  })

  it('ignores the query string', async () => {
    await request(app()).get('/todo.txt?x=1&y=2').expect(200, '- groceries\n')
  })

  it('serves the index of the root and of nested folders', async () => {
    await request(app()).get('/').expect(200, '<p>home</p>\n')
    await request(app()).get('/nested/').expect(200, '<p>nested</p>\n')
    await request(app()).get('/users/').expect(200, '<p>users</p>\n')
  })

  it('serves names with spaces, % and non-ASCII characters', async () => {
    await request(app()).get('/with%20space.txt').expect(200, 'spaced\n')
    await request(app()).get('/100%25%20sure.txt').expect(200, 'percent\n')
    await request(app()).get('/caf%C3%A9.txt').expect(200, 'cafe\n')
    await request(app()).get('/snow%20%E2%98%83.txt').expect(200, 'snowman\n')
  })

  it('calls next() for a missing file', async () => {
    await request(app()).get('/nope.txt').expect(404, 'fell through: GET /nope.txt')
  })

  it('calls next() for a path under a file', async () => {
    await request(app()).get('/todo.txt/more').expect(404, 'fell through: GET /todo.txt/more')
  })

  it('answers HEAD with the headers and no body', async () => {
    const res = await request(app()).head('/todo.txt').expect(200)
    expect(res.headers['content-length']).toBe('12')
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(res.text).toBeUndefined()
  })

  it('lets other methods through to what follows', async () => {
    await request(app()).post('/todo.txt').expect(404, 'fell through: POST /todo.txt')
    await request(app()).put('/todo.txt').expect(404, 'fell through: PUT /todo.txt')
    await request(app()).delete('/').expect(404, 'fell through: DELETE /')
  })

  it('serves relative to the mount path', async () => {
    await request(app({}, '/static')).get('/static/users/tobi.txt').expect(200, 'tobi\n')
    await request(app({}, '/static')).get('/static/').expect(200, '<p>home</p>\n')
    await request(app({}, '/static')).get('/users/tobi.txt').expect(404, 'fell through: GET /users/tobi.txt')
  })
})

describe('fw.static(root): conditional GET', () => {
  it('answers 304 to a matching If-None-Match', async () => {
    const first = await request(app()).get('/todo.txt').expect(200)
    const res = await request(app()).get('/todo.txt').set('If-None-Match', first.headers['etag']).expect(304)
    expect(res.text).toBe('')
    expect(res.headers['content-type']).toBeUndefined()
    expect(res.headers['content-length']).toBeUndefined()
  })

  it('answers 304 to a fresh If-Modified-Since', async () => {
    const first = await request(app()).get('/todo.txt').expect(200)
    await request(app()).get('/todo.txt').set('If-Modified-Since', first.headers['last-modified']).expect(304)
  })

  it('answers 200 to a stale validator', async () => {
    await request(app()).get('/todo.txt').set('If-None-Match', 'W/"stale"').expect(200, '- groceries\n')
    await request(app()).get('/todo.txt').set('If-Modified-Since', new Date(0).toUTCString()).expect(200, '- groceries\n')
  })

  it('answers 412 to a failing If-Match', async () => {
    await request(app({ fallthrough: false })).get('/todo.txt').set('If-Match', '"nope"').expect(412, 'error 412')
  })
})

describe('fw.static(root): Range', () => {
  it('answers 206 with the requested bytes', async () => {
    const res = await request(app()).get('/nums.txt').set('Range', 'bytes=0-2').expect(206, '123')
    expect(res.headers['content-range']).toBe('bytes 0-2/9')
    expect(res.headers['content-length']).toBe('3')
  })

  it('supports suffix and open ranges', async () => {
    await request(app()).get('/nums.txt').set('Range', 'bytes=-3').expect(206, '789')
    await request(app()).get('/nums.txt').set('Range', 'bytes=6-').expect(206, '789')
  })

  it('answers HEAD with a range without body', async () => {
    const res = await request(app()).head('/nums.txt').set('Range', 'bytes=2-3').expect(206)
    expect(res.headers['content-range']).toBe('bytes 2-3/9')
    expect(res.headers['content-length']).toBe('2')
  })

  it('answers 416 with Content-Range bytes */size for an unsatisfiable range', async () => {
    const res = await request(app({ fallthrough: false })).get('/nums.txt').set('Range', 'bytes=20-30').expect(416, 'error 416')
    expect(res.headers['content-range']).toBe('bytes */9')
  })

  it('forwards 416 to next(err) even with fallthrough, as the file exists', async () => {
    await request(app()).get('/nums.txt').set('Range', 'bytes=20-30').expect(416, 'error 416')
  })

  it('serves the whole file for several ranges, a malformed range or a stale If-Range', async () => {
    await request(app()).get('/nums.txt').set('Range', 'bytes=0-1,4-5').expect(200, '123456789')
    await request(app()).get('/nums.txt').set('Range', 'items=0-1').expect(200, '123456789')
    await request(app()).get('/nums.txt').set('Range', 'bytes=0-1').set('If-Range', '"stale"').expect(200, '123456789')
  })
})

describe('fw.static(root, { redirect })', () => {
  it('redirects a directory without trailing slash with 301 and a small HTML page', async () => {
    const res = await request(app()).get('/nested').expect(301)
    expect(res.headers['location']).toBe('/nested/')
    expect(res.headers['content-type']).toBe('text/html; charset=UTF-8')
    expect(res.headers['content-security-policy']).toBe("default-src 'none'")
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.text).toBe('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Redirecting</title>\n' +
      '</head>\n<body>\n<pre>Redirecting to /nested/</pre>\n</body>\n</html>\n')
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text)))
  })

  it('keeps the query string and escapes the HTML body', async () => {
    const res = await request(app()).get('/nested?a=1&b=<x>').expect(301)
    expect(res.headers['location']).toBe('/nested/?a=1&b=%3Cx%3E')
    expect(res.text).toContain('<pre>Redirecting to /nested/?a=1&amp;b=%3Cx%3E</pre>')
  })

  it('redirects a directory whose index is missing', async () => {
    await request(app()).get('/noindex').expect(301).expect('Location', '/noindex/')
  })

  it('redirects the mount point requested without its slash', async () => {
    await request(app({}, '/static')).get('/static').expect(301).expect('Location', '/static/')
    await request(app({}, '/static')).get('/static?v=2').expect(301).expect('Location', '/static/?v=2')
    await request(app({}, '/static')).get('/static/nested').expect(301).expect('Location', '/static/nested/')
  })

  it('keeps encoded characters of the path encoded in Location', async () => {
    await request(app()).get('/a%20dir').expect(301).expect('Location', '/a%20dir/')
    await request(app()).get('/dossier%20%C3%A9').expect(301).expect('Location', '/dossier%20%C3%A9/')
    await request(app()).get('/a%20dir/inner.txt').expect(200, 'in a dir\n')
    await request(app()).get('/dossier%20%C3%A9/inner.txt').expect(200, 'dans le dossier\n')
  })

  it('encodes characters of the query string that are not URL-safe', async () => {
    const res = await raw(app(), 'GET', '/nested?x=1&y=<b>"')
    expect(res.status).toBe(301)
    expect(res.headers['location']).toBe('/nested/?x=1&y=%3Cb%3E%22')
    expect(res.body).toContain('<pre>Redirecting to /nested/?x=1&amp;y=%3Cb%3E%22</pre>')
  })

  it('collapses leading slashes so the redirect stays on this host', async () => {
    const res = await raw(app(), 'GET', '//nested')
    expect(res.status).toBe(301)
    expect(res.headers['location']).toBe('/nested/')
  })

  it('sends no body to HEAD', async () => {
    const res = await request(app()).head('/nested').expect(301)
    expect(res.headers['location']).toBe('/nested/')
    expect(res.text).toBeUndefined()
  })

  it('calls next() for a directory with a trailing slash and no index', async () => {
    await request(app()).get('/noindex/').expect(404, 'fell through: GET /noindex/')
  })

  it('redirect: false treats a directory without slash as not found', async () => {
    await request(app({ redirect: false })).get('/nested').expect(404, 'fell through: GET /nested')
    await request(app({ redirect: false, fallthrough: false })).get('/nested').expect(404, 'error 404')
    await request(app({ redirect: false })).get('/nested/').expect(200, '<p>nested</p>\n')
  })
})

describe('fw.static(root, { dotfiles })', () => {
  it("defaults to 'ignore': dotfiles and dot folders fall through as 404", async () => {
    await request(app()).get('/.hidden').expect(404, 'fell through: GET /.hidden')
    await request(app()).get('/.dotdir/file.txt').expect(404, 'fell through: GET /.dotdir/file.txt')
    await request(app()).get('/sub/.hidden').expect(404, 'fell through: GET /sub/.hidden')
    await request(app()).get('/sub/.dot/x.txt').expect(404, 'fell through: GET /sub/.dot/x.txt')
    await request(app({ fallthrough: false })).get('/.hidden').expect(404, 'error 404')
  })

  it("'ignore' still serves ordinary files", async () => {
    await request(app({ dotfiles: 'ignore' })).get('/sub/file.txt').expect(200, 'in sub\n')
  })

  it("'deny' answers 403", async () => {
    await request(app({ dotfiles: 'deny', fallthrough: false })).get('/.hidden').expect(403, 'error 403')
    await request(app({ dotfiles: 'deny', fallthrough: false })).get('/.dotdir/file.txt').expect(403, 'error 403')
    await request(app({ dotfiles: 'deny', fallthrough: false })).get('/sub/.dot/x.txt').expect(403, 'error 403')
  })

  it("'deny' with fallthrough calls next()", async () => {
    await request(app({ dotfiles: 'deny' })).get('/.hidden').expect(404, 'fell through: GET /.hidden')
  })

  it("'allow' serves dotfiles and the index of dot folders", async () => {
    const res = await request(app({ dotfiles: 'allow' })).get('/.hidden').buffer(true).expect(200)
    expect(res.headers['content-type']).toBe('application/octet-stream')
    expect(String(res.body)).toBe('hidden\n')
    await request(app({ dotfiles: 'allow' })).get('/sub/.dot/x.txt').expect(200, 'inside dot\n')
    await request(app({ dotfiles: 'allow' })).get('/.dotdir/').expect(200, '<p>dotdir index</p>\n')
  })

  it('only checks the part of the path below root', async () => {
    await request(host(serveStatic(DOT_ROOT, { dotfiles: 'deny' }))).get('/file.txt').expect(200, 'under dot root\n')
  })
})

describe('fw.static(root, { etag, lastModified })', () => {
  it('etag: false sends no ETag', async () => {
    const res = await request(app({ etag: false })).get('/todo.txt').expect(200)
    expect(res.headers['etag']).toBeUndefined()
    expect(res.headers['last-modified']).toBeDefined()
  })

  it('lastModified: false sends no Last-Modified', async () => {
    const res = await request(app({ lastModified: false })).get('/todo.txt').expect(200)
    expect(res.headers['last-modified']).toBeUndefined()
    expect(res.headers['etag']).toBeDefined()
  })

  it('lastModified: false ignores If-Modified-Since', async () => {
    const future = new Date(Date.now() + 86400000).toUTCString()
    await request(app({ lastModified: false, etag: false })).get('/todo.txt').set('If-Modified-Since', future).expect(200)
  })
})

describe('fw.static(root, { maxAge, immutable, cacheControl })', () => {
  it('maxAge in milliseconds', async () => {
    await request(app({ maxAge: 1000 })).get('/todo.txt').expect('Cache-Control', 'public, max-age=1')
    await request(app({ maxAge: 1500 })).get('/todo.txt').expect('Cache-Control', 'public, max-age=1')
  })

  it('maxAge as an ms string', async () => {
    await request(app({ maxAge: '1d' })).get('/todo.txt').expect('Cache-Control', 'public, max-age=86400')
    await request(app({ maxAge: '2h' })).get('/todo.txt').expect('Cache-Control', 'public, max-age=7200')
  })

  it('caps maxAge at one year', async () => {
    await request(app({ maxAge: '5y' })).get('/todo.txt').expect('Cache-Control', 'public, max-age=31536000')
  })

  it('immutable adds the directive', async () => {
    await request(app({ maxAge: '1d', immutable: true })).get('/todo.txt').expect('Cache-Control', 'public, max-age=86400, immutable')
    await request(app({ immutable: true })).get('/todo.txt').expect('Cache-Control', 'public, max-age=0, immutable')
  })

  it('cacheControl: false sends no Cache-Control', async () => {
    const res = await request(app({ cacheControl: false, maxAge: '1d' })).get('/todo.txt').expect(200)
    expect(res.headers['cache-control']).toBeUndefined()
  })
})

describe('fw.static(root, { acceptRanges })', () => {
  it('false sends no Accept-Ranges and ignores Range', async () => {
    const res = await request(app({ acceptRanges: false })).get('/nums.txt').set('Range', 'bytes=0-2').expect(200, '123456789')
    expect(res.headers['accept-ranges']).toBeUndefined()
  })
})

describe('fw.static(root, { extensions })', () => {
  it('tries the extensions in order', async () => {
    await request(app({ extensions: ['html', 'txt'] })).get('/page').expect(200, '<p>page</p>\n')
    await request(app({ extensions: ['txt', 'html'] })).get('/page').expect(200, 'plain page\n')
    await request(app({ extensions: ['txt'] })).get('/todo').expect(200, '- groceries\n')
  })

  it('accepts a single string', async () => {
    await request(app({ extensions: 'txt' })).get('/page').expect(200, 'plain page\n')
  })

  it('falls through when no extension matches or when disabled', async () => {
    await request(app({ extensions: ['css'] })).get('/page').expect(404, 'fell through: GET /page')
    await request(app({ extensions: false })).get('/page').expect(404, 'fell through: GET /page')
    await request(app()).get('/page').expect(404, 'fell through: GET /page')
  })

  it('still redirects directories', async () => {
    await request(app({ extensions: ['html'] })).get('/nested').expect(301).expect('Location', '/nested/')
  })
})

describe('fw.static(root, { index })', () => {
  it('takes a string', async () => {
    await request(app({ index: 'default.txt' })).get('/multi/').expect(200, 'default\n')
    await request(app({ index: 'index.txt' })).get('/multi/').expect(200, 'multi index\n')
  })

  it('takes an array tried in order', async () => {
    await request(app({ index: ['index.htm', 'default.txt'] })).get('/nested/deep/').expect(200, '<p>deep htm</p>\n')
    await request(app({ index: ['missing.txt', 'default.txt'] })).get('/nested/deep/').expect(200, 'deep default\n')
  })

  it('false disables index files', async () => {
    await request(app({ index: false })).get('/').expect(404, 'fell through: GET /')
    await request(app({ index: false, fallthrough: false })).get('/nested/').expect(404, 'error 404')
  })

  it('false still redirects directories without slash', async () => {
    await request(app({ index: false })).get('/nested').expect(301).expect('Location', '/nested/')
  })
})

describe('fw.static(root, { fallthrough })', () => {
  it('false forwards a missing file as next(err) with status 404', async () => {
    await request(app({ fallthrough: false })).get('/nope.txt').expect(404, 'error 404')
  })

  it('false answers 405 with Allow to other methods', async () => {
    const res = await request(app({ fallthrough: false })).post('/todo.txt').expect(405)
    expect(res.headers['allow']).toBe('GET, HEAD')
    expect(res.headers['content-length']).toBe('0')
    expect(res.text).toBe('')
    await request(app({ fallthrough: false })).options('/').expect(405).expect('Allow', 'GET, HEAD')
  })

  it('false forwards malformed paths as 400', async () => {
    await request(app({ fallthrough: false })).get('/%E0%A4%A').expect(400, 'error 400')
  })

  it('true sends malformed paths to next()', async () => {
    await request(app()).get('/%E0%A4%A').expect(404, 'fell through: GET /%E0%A4%A')
  })

  it('false still serves files and redirects', async () => {
    await request(app({ fallthrough: false })).get('/todo.txt').expect(200, '- groceries\n')
    await request(app({ fallthrough: false })).get('/nested').expect(301)
  })
})

describe('fw.static(root, { setHeaders })', () => {
  it('is called with res, the absolute path and the stat of the file', async () => {
    const calls: Array<[string, Stats]> = []
    const setHeaders = (res: ServerResponse, file: string, stat: Stats) => {
      calls.push([file, stat])
      res.setHeader('X-File', path.basename(file))
    }
    await request(app({ setHeaders })).get('/todo.txt').expect('X-File', 'todo.txt').expect(200)
    expect(calls).toHaveLength(1)
    expect(calls[0][0]).toBe(path.join(ROOT, 'todo.txt'))
    expect(calls[0][1].size).toBe(12)
  })

  it('sees the index file for a directory', async () => {
    await request(app({ setHeaders: (res, file) => res.setHeader('X-File', path.relative(ROOT, file)) }))
      .get('/nested/').expect('X-File', path.join('nested', 'index.html')).expect(200)
  })

  it('can override headers set by send', async () => {
    await request(app({ setHeaders: (res) => res.setHeader('Cache-Control', 'no-store') }))
      .get('/todo.txt').expect('Cache-Control', 'no-store').expect(200)
  })

  it('is called for a 304 too', async () => {
    let called = 0
    const setHeaders = () => { called++ }
    const first = await request(app({ setHeaders })).get('/todo.txt').expect(200)
    await request(app({ setHeaders })).get('/todo.txt').set('If-None-Match', first.headers['etag']).expect(304)
    expect(called).toBe(2)
  })

  it('is not called for missing files or redirects', async () => {
    let called = 0
    const setHeaders = () => { called++ }
    await request(app({ setHeaders })).get('/nope.txt').expect(404)
    await request(app({ setHeaders })).get('/nested').expect(301)
    expect(called).toBe(0)
  })
})

describe('fw.static(root, options): options object', () => {
  it('does not change the caller\'s options', async () => {
    const options: ServeStaticOptions = { maxAge: '1d' }
    serveStatic(ROOT, options)
    expect(options).toEqual({ maxAge: '1d' })
  })

  it('accepts a null options argument', async () => {
    await request(host(serveStatic(ROOT, null as unknown as ServeStaticOptions))).get('/todo.txt').expect(200)
  })
})
