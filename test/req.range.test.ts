import { describe, expect, it } from 'vitest'
import request from 'supertest'
import { probe } from './support/req-app'

// ranges are arrays with a `type` property: report both
const ranges = (r: any) => (Array.isArray(r) ? { type: r.type, ranges: [...r] } : r === undefined ? 'undefined' : r)

describe('req.range(size[, options])', () => {
  const app = probe((req) => [ranges(req.range(1000)), ranges(req.range(1000, { combine: true }))])

  it('returns the ranges with their unit', async () => {
    const res = await request(app).get('/').set('Range', 'bytes=0-99')
    expect(res.body.v[0]).toEqual({ type: 'bytes', ranges: [{ start: 0, end: 99 }] })
  })

  it('keeps overlapping ranges apart unless combine is set', async () => {
    const res = await request(app).get('/').set('Range', 'bytes=0-99,50-150,151-200,500-')
    expect(res.body.v[0]).toEqual({ type: 'bytes', ranges: [{ start: 0, end: 99 }, { start: 50, end: 150 }, { start: 151, end: 200 }, { start: 500, end: 999 }] })
    expect(res.body.v[1]).toEqual({ type: 'bytes', ranges: [{ start: 0, end: 200 }, { start: 500, end: 999 }] })
  })

  it('caps the end at size - 1 and handles suffix ranges', async () => {
    const res = await request(app).get('/').set('Range', 'bytes=-100,900-5000')
    expect(res.body.v[0]).toEqual({ type: 'bytes', ranges: [{ start: 900, end: 999 }, { start: 900, end: 999 }] })
  })

  it('keeps a non-byte unit in `type`', async () => {
    const res = await request(app).get('/').set('Range', 'items=0-5')
    expect(res.body.v[0]).toEqual({ type: 'items', ranges: [{ start: 0, end: 5 }] })
  })

  it('returns -1 for an unsatisfiable range', async () => {
    const res = await request(app).get('/').set('Range', 'bytes=2000-3000')
    expect(res.body.v).toEqual([-1, -1])
  })

  it('returns -2 for a malformed header', async () => {
    for (const header of ['bytes:0-5', 'x', 'bytes=a-b']) {
      const res = await request(app).get('/').set('Range', header)
      expect(res.body.v).toEqual([-2, -2])
    }
  })

  it('returns undefined without a Range header', async () => {
    const res = await request(app).get('/')
    expect(res.body.v).toEqual(['undefined', 'undefined'])
  })
})
