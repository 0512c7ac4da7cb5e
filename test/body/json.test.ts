// fw.json(): JSON bodies into req.body.
import { describe, expect, it } from 'vitest'
import request from 'supertest'
import fw from '../../src/index'
import { bodyApp, send, serve } from '../support/body'

const post = (parser: Function, body: string | Buffer, contentType = 'application/json') =>
  request(bodyApp(fw, parser)).post('/').set('Content-Type', contentType).send(body)

describe('fw.json()', () => {
  it('is a factory of length 1 returning a named 3-argument middleware', () => {
    expect(fw.json.length).toBe(1)
    const mw = fw.json()
    expect(mw.name).toBe('jsonParser')
    expect(mw.length).toBe(3)
  })

  it('parses an object into req.body', async () => {
    const res = await post(fw.json(), '{"user":{"name":"tobi"},"tags":["a","b"]}')
    expect(res.status).toBe(200)
    expect(res.body.body).toEqual({ value: { user: { name: 'tobi' }, tags: ['a', 'b'] }, proto: 'object' })
  })

  it('parses an array', async () => {
    expect((await post(fw.json(), '[1,2,3]')).body.body).toEqual({ value: [1, 2, 3], proto: 'array' })
  })

  it('gives {} for an empty body', async () => {
    expect((await post(fw.json(), '')).body.body.value).toEqual({})
  })

  it('answers 400 entity.parse.failed with the body for invalid JSON', async () => {
    const res = await post(fw.json(), '{"a":')
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ type: 'entity.parse.failed', message: 'Unexpected end of JSON input', body: '{"a":', name: 'SyntaxError', expose: true })
  })

  it('leaves __proto__ as an own key, never touching Object.prototype', async () => {
    const res = await post(fw.json(), '{"__proto__":{"polluted":true}}')
    expect(res.text).toContain('"value":{"__proto__":{"polluted":true}}')
    expect(({} as any).polluted).toBeUndefined()
  })
})

describe('fw.json({ strict })', () => {
  it.each([
    ['true', 't'],
    ['"str"', '"'],
    ['  42', '4'],
    ['-1', '-'],
    ['null', 'n'],
    ['false', 'f']
  ])('rejects the primitive %s with a JSON.parse-style message', async (body, token) => {
    const res = await post(fw.json(), body)
    expect(res.status).toBe(400)
    expect(res.body.type).toBe('entity.parse.failed')
    expect(res.body.message).toBe(`Unexpected token '${token}', "${body}" is not valid JSON`)
  })

  it('keeps JSON.parse wording for long bodies, even when the placeholder occurs in the body', async () => {
    const body = '"#@~' + 'x'.repeat(60) + '"'
    const res = await post(fw.json(), body)
    let expected = ''
    try { JSON.parse('%' + body.slice(1)) } catch (err) { expected = (err as Error).message.split('%').join('"') }
    expect(res.body.message).toBe(expected)
    expect(res.body.message).toContain('...')
  })

  it('reports tokens that cannot start any JSON value exactly as JSON.parse does', async () => {
    let expected = ''
    try { JSON.parse('xyz') } catch (err) { expected = (err as Error).message }
    expect((await post(fw.json(), 'xyz')).body.message).toBe(expected)
  })

  it('names the first token of a broken primitive, as body-parser does', async () => {
    expect((await post(fw.json(), 'nope')).body.message).toBe('Unexpected token \'n\', "nope" is not valid JSON')
  })

  it('accepts primitives with strict: false', async () => {
    expect((await post(fw.json({ strict: false }), 'true')).body.body.value).toBe(true)
    expect((await post(fw.json({ strict: false }), ' "s" ')).body.body.value).toBe('s')
    expect((await post(fw.json({ strict: false }), '7')).body.body.value).toBe(7)
  })
})

describe('fw.json({ reviver })', () => {
  it('passes the reviver to JSON.parse', async () => {
    const reviver = (key: string, value: unknown) => (key === 'when' ? 'revived:' + String(value) : value)
    const res = await post(fw.json({ reviver }), '{"when":1,"other":2}')
    expect(res.body.body.value).toEqual({ when: 'revived:1', other: 2 })
  })

  it('turns a reviver that throws into a 400 entity.parse.failed', async () => {
    const res = await post(fw.json({ reviver: () => { throw new Error('reviver broke') } }), '{}')
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ type: 'entity.parse.failed', message: 'reviver broke' })
  })
})

describe('fw.json() charsets', () => {
  // supertest serialises Buffers sent as JSON, so these go through a plain client
  const postBytes = async (body: Buffer, contentType: string) => {
    const server = await serve(bodyApp(fw, fw.json()))
    try { return await send(server.port, { headers: { 'Content-Type': contentType }, body }) } finally { await server.close() }
  }

  it('decodes utf-16le', async () => {
    const res = await postBytes(Buffer.from('{"k":"ü"}', 'utf16le'), 'application/json; charset=utf-16le')
    expect(res.json.body.value).toEqual({ k: 'ü' })
  })

  it('drops a UTF-8 byte order mark', async () => {
    const res = await postBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"bom":1}')]), 'application/json')
    expect(res.json.body.value).toEqual({ bom: 1 })
  })

  it('answers 415 charset.unsupported for a non-UTF charset', async () => {
    const res = await post(fw.json(), '{}', 'application/json; charset=iso-8859-1')
    expect(res.status).toBe(415)
    expect(res.body).toMatchObject({ type: 'charset.unsupported', charset: 'iso-8859-1', message: 'unsupported charset "ISO-8859-1"' })
  })

  it('answers 415 for a utf-* charset iconv does not know', async () => {
    const res = await post(fw.json(), '{}', 'application/json; charset=utf-9')
    expect(res.status).toBe(415)
    expect(res.body).toMatchObject({ type: 'charset.unsupported', charset: 'utf-9' })
  })
})

describe('fw.json({ type, limit })', () => {
  it('only parses application/json by default', async () => {
    expect((await post(fw.json(), '{}', 'application/vnd.api+json')).body.body).toEqual({ undefined: true })
  })

  it('parses the types it is given', async () => {
    expect((await post(fw.json({ type: 'application/*+json' }), '{"v":1}', 'application/vnd.api+json')).body.body.value).toEqual({ v: 1 })
  })

  it('answers 413 over the limit', async () => {
    const res = await post(fw.json({ limit: '10b' }), '{"a":"0123456789"}')
    expect(res.status).toBe(413)
    expect(res.body).toMatchObject({ type: 'entity.too.large', limit: 10, length: 18 })
  })
})
