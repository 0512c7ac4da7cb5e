import { describe, expect, it } from 'vitest'
import request from 'supertest'
import { probe } from './support/req-app'

describe('req.accepts(types)', () => {
  const app = probe((req) => [req.accepts('json', 'html'), req.accepts(['text/plain', 'png']), req.accepts('json, html'), req.accepts('text/html')])

  it('returns the best type per the Accept header, as given', async () => {
    const res = await request(app).get('/').set('Accept', 'text/html;q=0.9, application/json, image/png;q=0.1')
    expect(res.body.v).toEqual(['json', 'png', false, 'text/html'])
  })

  it('returns false when nothing is acceptable', async () => {
    const res = await request(app).get('/').set('Accept', 'video/mp4')
    expect(res.body.v).toEqual([false, false, false, false])
  })

  it('returns the first type when no Accept header is sent', async () => {
    const res = await request(app).get('/').unset('Accept')
    // a comma string is one (invalid) type, as in Express 5: it comes back as given
    expect(res.body.v).toEqual(['json', 'text/plain', 'json, html', 'text/html'])
  })

  it('lists the accepted types without arguments', async () => {
    const res = await request(probe((req) => req.accepts())).get('/').set('Accept', 'text/plain;q=0.5, text/html')
    expect(res.body.v).toEqual(['text/html', 'text/plain'])
  })

  it('does not throw for a garbage Accept header', async () => {
    const res = await request(probe((req) => req.accepts('html'))).get('/').set('Accept', ';;;,,=/q=x, /')
    expect(res.body.v).toBe(false)
  })
})

describe('req.acceptsEncodings(encoding...)', () => {
  it('returns the first accepted encoding, or false', async () => {
    const app = probe((req) => [req.acceptsEncodings('br', 'gzip'), req.acceptsEncodings(['deflate']), req.acceptsEncodings('compress')])
    const res = await request(app).get('/').set('Accept-Encoding', 'gzip, deflate;q=0')
    expect(res.body.v).toEqual(['gzip', false, false])
  })

  it('lists accepted encodings without arguments (identity included)', async () => {
    const res = await request(probe((req) => req.acceptsEncodings())).get('/').set('Accept-Encoding', 'br;q=0.5, gzip')
    expect(res.body.v).toEqual(['gzip', 'br', 'identity'])
  })
})

describe('req.acceptsCharsets(charset...)', () => {
  it('returns the first accepted charset, or false', async () => {
    const app = probe((req) => [req.acceptsCharsets('iso-8859-1', 'utf-8'), req.acceptsCharsets(['utf-16'])])
    const res = await request(app).get('/').set('Accept-Charset', 'utf-8, iso-8859-1;q=0.2, utf-16;q=0')
    expect(res.body.v).toEqual(['utf-8', false])
  })

  it('accepts anything without an Accept-Charset header', async () => {
    const res = await request(probe((req) => req.acceptsCharsets('koi8-r'))).get('/')
    expect(res.body.v).toBe('koi8-r')
  })
})

describe('req.acceptsLanguages([lang...])', () => {
  it('returns the first accepted language, or false', async () => {
    const app = probe((req) => [req.acceptsLanguages('de', 'fr'), req.acceptsLanguages(['en']), req.acceptsLanguages('ja')])
    const res = await request(app).get('/').set('Accept-Language', 'en-US, fr;q=0.5, de;q=0.7')
    expect(res.body.v).toEqual(['de', 'en', false])
  })

  it('lists every language of the header without arguments', async () => {
    const res = await request(probe((req) => req.acceptsLanguages())).get('/').set('Accept-Language', 'en-US, fr;q=0.5, de;q=0.7')
    expect(res.body.v).toEqual(['en-US', 'de', 'fr'])
  })
})
