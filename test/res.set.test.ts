import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { appWith } from './support/res'

describe('res.set(field, value)', () => {
  it('sets a header and is chainable', async () => {
    const res = await request(appWith((req, res) => res.set('X-A', 'b').set('X-C', 'd').end())).get('/')
    expect(res.headers['x-a']).toBe('b')
    expect(res.headers['x-c']).toBe('d')
  })

  it('converts values with String, arrays element-wise', async () => {
    const app = appWith((req, res) => res.set('X-N', 5).set('X-B', false).set('X-L', [1, 'two']).json(res.getHeaders()))
    const res = await request(app).get('/')
    expect(res.body).toMatchObject({ 'x-n': '5', 'x-b': 'false', 'x-l': ['1', 'two'] })
  })

  it('adds charset=utf-8 to a text Content-Type', async () => {
    const res = await request(appWith((req, res) => res.set('Content-Type', 'text/plain').end())).get('/')
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
  })

  it('keeps an explicit charset and leaves non-text types alone', async () => {
    const app = appWith((req, res) => {
      res.set('Content-Type', 'text/plain; charset=latin1')
      const first = res.get('Content-Type')
      res.set('Content-Type', 'image/png').set('X-Seen', [first, res.get('Content-Type')]).end()
    })
    const res = await request(app).get('/')
    expect(res.headers['x-seen']).toBe('text/plain; charset=latin1, image/png')
  })

  it('looks up a bare extension for Content-Type', async () => {
    const res = await request(appWith((req, res) => res.set('content-type', 'html').end())).get('/')
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
  })

  it('throws a TypeError for an array Content-Type', async () => {
    const res = await request(appWith((req, res) => res.set('Content-Type', ['text/html']))).get('/')
    expect(res.status).toBe(500)
    expect(res.text).toBe('TypeError: Content-Type cannot be set to an Array')
  })

  it('refuses CR/LF in a value: the error handler answers, nothing is injected', async () => {
    const res = await request(appWith((req, res) => res.set('X-A', 'a\r\nSet-Cookie: evil=1').end())).get('/')
    expect(res.status).toBe(500)
    expect(res.headers['set-cookie']).toBeUndefined()
    expect(res.headers['x-a']).toBeUndefined()
    expect(res.headers['x-error-code']).toBe('ERR_INVALID_CHAR')
  })
})

describe('res.set(object)', () => {
  it('sets every field', async () => {
    const res = await request(appWith((req, res) => res.set({ 'X-A': '1', 'X-B': ['2', '3'], 'Content-Type': 'json' }).end())).get('/')
    expect(res.headers['x-a']).toBe('1')
    expect(res.headers['x-b']).toBe('2, 3')
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
  })
})

describe('res.header(field, value)', () => {
  it('is an alias of res.set', async () => {
    const res = await request(appWith((req, res) => res.header('X-H', 'v').send(String(res.header === res.set)))).get('/')
    expect(res.headers['x-h']).toBe('v')
    expect(res.text).toBe('true')
  })
})

describe('res.get(field)', () => {
  it('reads a header case-insensitively', async () => {
    const res = await request(appWith((req, res) => res.set('X-Case', 'v').json([res.get('x-case'), res.get('X-CASE'), res.get('x-none') ?? null]))).get('/')
    expect(res.body).toEqual(['v', 'v', null])
  })
})
