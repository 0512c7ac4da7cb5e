import { describe, expect, it } from 'vitest'
import request from 'supertest'
import { probe } from './support/req-app'

describe('req.get(field)', () => {
  it('returns the header value, case-insensitively', async () => {
    const app = probe((req) => [req.get('Content-Type'), req.get('content-type'), req.get('CONTENT-TYPE')])
    const res = await request(app).post('/').set('Content-Type', 'application/json').send('{}')
    expect(res.body.v).toEqual(['application/json', 'application/json', 'application/json'])
  })

  it('returns undefined for a missing header', async () => {
    const res = await request(probe((req) => req.get('X-Missing') === undefined)).get('/')
    expect(res.body.v).toBe(true)
  })

  it('treats Referer and Referrer as the same header', async () => {
    const app = probe((req) => [req.get('Referer'), req.get('Referrer'), req.get('referrer')])
    const a = await request(app).get('/').set('Referer', 'http://a.example/')
    expect(a.body.v).toEqual(['http://a.example/', 'http://a.example/', 'http://a.example/'])
    const b = await request(app).get('/').set('Referrer', 'http://b.example/')
    expect(b.body.v).toEqual(['http://b.example/', 'http://b.example/', 'http://b.example/'])
  })

  it('prefers a Referrer header over Referer when both are sent', async () => {
    const app = probe((req) => req.get('Referer'))
    const res = await request(app).get('/').set('Referer', 'http://a.example/').set('Referrer', 'http://b.example/')
    expect(res.body.v).toBe('http://b.example/')
  })

  it('returns the array Node builds for a repeated Set-Cookie header', async () => {
    const res = await request(probe((req) => req.get('Set-Cookie'))).get('/').set('Set-Cookie', ['a=1', 'b=2'])
    expect(res.body.v).toEqual(['a=1', 'b=2'])
  })

  it('throws a TypeError without a name', async () => {
    const res = await request(probe((req) => req.get())).get('/')
    expect(res.body.v).toEqual({ error: 'TypeError: name argument is required to req.get' })
  })

  it('throws a TypeError for a non-string name', async () => {
    const res = await request(probe((req) => req.get(42))).get('/')
    expect(res.body.v).toEqual({ error: 'TypeError: name must be a string to req.get' })
  })
})

describe('req.header(field)', () => {
  it('is the same function as req.get', async () => {
    const res = await request(probe((req) => [req.header === req.get, req.header('x-a')])).get('/').set('X-A', 'b')
    expect(res.body.v).toEqual([true, 'b'])
  })
})
