import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { appWith } from './support/res'

describe('res.json(body)', () => {
  it('sends application/json', async () => {
    const res = await request(appWith((req, res) => res.json({ name: 'tobi', tags: [1, 2] }))).get('/')
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.text).toBe('{"name":"tobi","tags":[1,2]}')
  })

  it('sends primitives as JSON', async () => {
    expect((await request(appWith((req, res) => res.json(null))).get('/')).text).toBe('null')
    expect((await request(appWith((req, res) => res.json('str'))).get('/')).text).toBe('"str"')
    expect((await request(appWith((req, res) => res.json(3))).get('/')).text).toBe('3')
  })

  it('sends an empty body for undefined, still typed as JSON', async () => {
    const res = await request(appWith((req, res) => res.json(undefined))).get('/')
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.headers['content-length']).toBe('0')
    expect(res.text).toBe('')
  })

  it('keeps a type set before', async () => {
    const res = await request(appWith((req, res) => res.type('application/vnd.api+json').json({ a: 1 }))).get('/')
    expect(res.headers['content-type']).toBe('application/vnd.api+json; charset=utf-8')
  })

  it('honours json spaces', async () => {
    const res = await request(appWith((req, res) => res.json({ a: [1] }), '/', (app) => app.set('json spaces', 2))).get('/')
    expect(res.text).toBe('{\n  "a": [\n    1\n  ]\n}')
  })

  it('honours json replacer', async () => {
    const replacer = (key: string, value: unknown): unknown => (key === 'password' ? undefined : value)
    const res = await request(appWith((req, res) => res.json({ user: 'a', password: 'b' }), '/', (app) => app.set('json replacer', replacer))).get('/')
    expect(res.text).toBe('{"user":"a"}')
  })

  it('honours json escape', async () => {
    const res = await request(appWith((req, res) => res.json({ h: '<b>&</b>' }), '/', (app) => app.set('json escape', true))).get('/')
    expect(res.text).toBe('{"h":"\\u003cb\\u003e\\u0026\\u003c/b\\u003e"}')
    expect(JSON.parse(res.text)).toEqual({ h: '<b>&</b>' })
  })

  it('passes a serialisation error to the error handler', async () => {
    const res = await request(appWith((req, res) => res.json({ n: 1n }))).get('/')
    expect(res.status).toBe(500)
    expect(res.text).toMatch(/^TypeError/)
  })
})
