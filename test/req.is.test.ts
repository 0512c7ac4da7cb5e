import { describe, expect, it } from 'vitest'
import request from 'supertest'
import { probe } from './support/req-app'
import { listen } from './support/diff'
import { send } from './support/req-dump'

describe('req.is(type)', () => {
  const app = probe((req) => ({
    ext: req.is('json'),
    mime: req.is('application/json'),
    wildcard: req.is('application/*'),
    any: req.is('*/*'),
    suffix: req.is('+json'),
    list: req.is('html', 'json'),
    array: req.is(['text/*', 'json']),
    miss: req.is('html')
  }))

  it('returns the matching type for a request with a body', async () => {
    const res = await request(app).post('/').set('Content-Type', 'application/json; charset=utf-8').send('{}')
    expect(res.body.v).toEqual({
      ext: 'json',
      mime: 'application/json',
      wildcard: 'application/json',
      any: 'application/json',
      suffix: false,
      list: 'json',
      array: 'json',
      miss: false
    })
  })

  it('matches +suffix types', async () => {
    const res = await request(probe((req) => [req.is('+json'), req.is('json'), req.is('application/*+json')]))
      .post('/').set('Content-Type', 'application/vnd.api+json').send('{}')
    expect(res.body.v).toEqual(['application/vnd.api+json', false, 'application/vnd.api+json'])
  })

  it('returns null when the request has no body', async () => {
    const res = await request(probe((req) => req.is('json'))).get('/').set('Content-Type', 'application/json')
    expect(res.body.v).toBeNull()
  })

  it('returns false for a body without Content-Type or with an invalid one', async () => {
    const app2 = probe((req) => req.is('text/*'))
    const a = await request(app2).post('/').set('Content-Type', 'garbage').send('x')
    expect(a.body.v).toBe(false)
    const b = await request(app2).post('/').send(Buffer.from('x'))
    expect(b.body.v).toBe(false)
  })

  it('counts a chunked body as a body', async () => {
    const server = await listen(probe((req) => req.is('text')))
    try {
      const res = await send(server.port, { method: 'POST', path: '/', headers: { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' }, body: 'hi' })
      expect(JSON.parse(res.body).v).toBe('text')
    } finally {
      await server.close()
    }
  })

  it('counts Content-Length: 0 as a body', async () => {
    const res = await request(probe((req) => req.is('json'))).post('/').set('Content-Type', 'application/json').set('Content-Length', '0')
    expect(res.body.v).toBe('json')
  })
})
