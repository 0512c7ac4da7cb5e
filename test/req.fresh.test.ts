import { describe, expect, it } from 'vitest'
import request from 'supertest'
import fw from '../src/index'

const LM = 'Tue, 01 Jan 2030 00:00:00 GMT'

/** App answering `[fresh, stale]` after setting the response status and validators. */
function app(opts: { status?: number; etag?: string; lastModified?: string } = {}) {
  const a = fw()
  a.all('/', (req: any, res: any) => {
    if (opts.status) res.statusCode = opts.status
    if (opts.etag) res.setHeader('ETag', opts.etag)
    if (opts.lastModified) res.setHeader('Last-Modified', opts.lastModified)
    const v = [req.fresh, req.stale]
    res.statusCode = 200
    res.removeHeader('ETag')
    res.setHeader('X-Fresh', JSON.stringify(v))
    res.end()
  })
  return a
}
const fresh = (res: { headers: Record<string, string> }) => JSON.parse(res.headers['x-fresh'])

describe('req.fresh / req.stale', () => {
  it('is stale without conditional headers', async () => {
    expect(fresh(await request(app({ etag: '"a"' })).get('/'))).toEqual([false, true])
  })

  it('If-None-Match: fresh on a match, with weak comparison, lists and *', async () => {
    for (const inm of ['"a"', 'W/"a"', '"x", "a"', '*']) {
      expect(fresh(await request(app({ etag: '"a"' })).get('/').set('If-None-Match', inm))).toEqual([true, false])
    }
    expect(fresh(await request(app({ etag: 'W/"a"' })).get('/').set('If-None-Match', '"a"'))).toEqual([true, false])
  })

  it('If-None-Match: stale on a mismatch or without an ETag', async () => {
    expect(fresh(await request(app({ etag: '"a"' })).get('/').set('If-None-Match', '"b"'))).toEqual([false, true])
    expect(fresh(await request(app()).get('/').set('If-None-Match', '"a"'))).toEqual([false, true])
  })

  it('If-Modified-Since: fresh when Last-Modified is not later', async () => {
    const a = app({ lastModified: LM })
    expect(fresh(await request(a).get('/').set('If-Modified-Since', LM))).toEqual([true, false])
    expect(fresh(await request(a).get('/').set('If-Modified-Since', 'Wed, 02 Jan 2030 00:00:00 GMT'))).toEqual([true, false])
    expect(fresh(await request(a).get('/').set('If-Modified-Since', 'Mon, 31 Dec 2029 00:00:00 GMT'))).toEqual([false, true])
    expect(fresh(await request(a).get('/').set('If-Modified-Since', 'yesterday'))).toEqual([false, true])
  })

  it('If-None-Match wins over If-Modified-Since', async () => {
    const res = await request(app({ etag: '"a"', lastModified: LM })).get('/')
      .set('If-None-Match', '"b"').set('If-Modified-Since', 'Wed, 02 Jan 2030 00:00:00 GMT')
    expect(fresh(res)).toEqual([false, true])
  })

  it('is stale with Cache-Control: no-cache', async () => {
    const res = await request(app({ etag: '"a"' })).get('/').set('If-None-Match', '"a"').set('Cache-Control', 'no-cache')
    expect(fresh(res)).toEqual([false, true])
  })

  it('only GET and HEAD can be fresh', async () => {
    const a = app({ etag: '"a"' })
    expect(fresh(await request(a).head('/').set('If-None-Match', '"a"'))).toEqual([true, false])
    expect(fresh(await request(a).post('/').set('If-None-Match', '"a"'))).toEqual([false, true])
    expect(fresh(await request(a).put('/').set('If-None-Match', '"a"'))).toEqual([false, true])
  })

  it('only a 2xx or 304 response status can be fresh', async () => {
    for (const [status, expected] of [[200, true], [299, true], [304, true], [301, false], [404, false], [500, false]] as const) {
      const res = await request(app({ status, etag: '"a"' })).get('/').set('If-None-Match', '"a"')
      expect(fresh(res)[0]).toBe(expected)
    }
  })
})
