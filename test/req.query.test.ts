import { describe, expect, it } from 'vitest'
import request from 'supertest'
import fw from '../src/index'
import { probe } from './support/req-app'

const proto = (o: object) => (Object.getPrototypeOf(o) === null ? 'null' : 'object')

describe('req.query', () => {
  it("parses with the 'simple' parser by default (no nesting, repeated keys as arrays)", async () => {
    const res = await request(probe((req) => [req.query, proto(req.query)])).get('/?a[b]=1&x=1&x=2&s=a+b%20c')
    expect(res.body.v).toEqual([{ 'a[b]': '1', x: ['1', '2'], s: 'a b c' }, 'null'])
  })

  it('is an empty object without a query string', async () => {
    const res = await request(probe((req) => req.query)).get('/path')
    expect(res.body.v).toEqual({})
  })

  it("nests with query parser 'extended'", async () => {
    const app = probe((req) => req.query, { 'query parser': 'extended' })
    const res = await request(app).get('/?user[name]=tobi&user[tags][]=a&user[tags][]=b')
    expect(res.body.v).toEqual({ user: { name: 'tobi', tags: ['a', 'b'] } })
  })

  it("limits nesting depth and array indexes with 'extended'", async () => {
    const app = probe((req) => req.query, { 'query parser': 'extended' })
    const res = await request(app).get('/?a[b][c][d][e][f][g]=1&s[1]=x&s[50]=y')
    expect(res.body.v).toEqual({ a: { b: { c: { d: { e: { f: { '[g]': '1' } } } } } }, s: { 1: 'x', 50: 'y' } })
  })

  it("is 'simple' with query parser true", async () => {
    const res = await request(probe((req) => req.query, { 'query parser': true })).get('/?a[b]=1')
    expect(res.body.v).toEqual({ 'a[b]': '1' })
  })

  it('is an empty object with no prototype when the parser is disabled', async () => {
    const res = await request(probe((req) => [req.query, proto(req.query)], { 'query parser': false })).get('/?a=1')
    expect(res.body.v).toEqual([{}, 'null'])
  })

  it('calls a custom parser with the raw query string', async () => {
    const seen: unknown[] = []
    const parser = (str: string | null) => { seen.push(str); return { custom: true } }
    const app = probe((req) => req.query, { 'query parser': parser })
    const res = await request(app).get('/?a=1&b')
    expect(res.body.v).toEqual({ custom: true })
    await request(app).get('/none')
    expect(seen).toEqual(['a=1&b', null])
  })

  it('never parses the query string when the handler does not read req.query', async () => {
    let calls = 0
    const app = probe(() => 'ok', { 'query parser': () => { calls++; return {} } })
    await request(app).get('/?a=1')
    expect(calls).toBe(0)
  })

  it('re-parses on every read, so changes to the returned object do not stick', async () => {
    let calls = 0
    const app = probe((req) => {
      const first = req.query
      first.a = 'changed'
      return [req.query.a, calls]
    }, { 'query parser': (str: string) => { calls++; return { a: str } } })
    const res = await request(app).get('/?orig')
    expect(res.body.v).toEqual(['orig', 2])
  })

  it('has no setter: assigning throws in strict code, as in Express 5', async () => {
    const app = probe((req) => { 'use strict'; req.query = { a: 1 }; return 'assigned' })
    const res = await request(app).get('/?b=2')
    expect(res.body.v).toEqual({ error: 'TypeError: Cannot set property query of #<IncomingMessage> which has only a getter' })
  })

  it('follows the query parser of the app handling the request', async () => {
    const app = fw()
    const sub = fw()
    sub.set('query parser', 'extended')
    sub.use((req: any, res: any) => { res.end(JSON.stringify(req.query)) })
    app.use('/sub', sub)
    app.use((req: any, res: any) => { res.end(JSON.stringify(req.query)) })
    expect(JSON.parse((await request(app).get('/sub?a[b]=1')).text)).toEqual({ a: { b: '1' } })
    expect(JSON.parse((await request(app).get('/?a[b]=1')).text)).toEqual({ 'a[b]': '1' })
  })
})
