// The switchyard/body-parser entry, a drop-in for body-parser@2.
import { describe, expect, it } from 'vitest'
import request from 'supertest'
import fw from '../../src/index'
import bodyParser, { json, raw, text, urlencoded } from '../../src/body/index'
import { bodyApp } from '../support/body'

describe('bodyParser()', () => {
  it('throws: the generic parser was split', () => {
    expect(() => (bodyParser as any)()).toThrow('The bodyParser() generic has been split into individual middleware to use instead.')
    expect(() => (bodyParser as any)({ extended: true })).toThrow(Error)
  })

  it('carries json, raw, text and urlencoded as enumerable properties', () => {
    expect(Object.keys(bodyParser)).toEqual(['json', 'raw', 'text', 'urlencoded'])
    expect(bodyParser.json).toBe(json)
    expect(bodyParser.raw).toBe(raw)
    expect(bodyParser.text).toBe(text)
    expect(bodyParser.urlencoded).toBe(urlencoded)
  })

  it('gives factories of length 1, the same ones fw exposes', () => {
    for (const f of [json, raw, text, urlencoded]) expect(f.length).toBe(1)
    expect(fw.json).toBe(json)
    expect(fw.urlencoded).toBe(urlencoded)
  })

  it('works as middleware in an app', async () => {
    const res = await request(bodyApp(fw, bodyParser.json(), bodyParser.urlencoded({ extended: true }))).post('/').type('form').send('a[b]=1')
    expect(res.body.body.value).toEqual({ a: { b: '1' } })
  })

  it('ignores an options argument that is not an object', async () => {
    const res = await request(bodyApp(fw, json('nonsense' as never))).post('/').type('json').send('{"x":1}')
    expect(res.body.body.value).toEqual({ x: 1 })
  })
})
