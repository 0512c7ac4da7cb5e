import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { appWith } from './support/res'

const typeOf = async (value: string): Promise<string> =>
  (await request(appWith((req, res) => res.type(value).end())).get('/')).headers['content-type']

describe('res.type(type)', () => {
  it('looks up an extension name', async () => {
    expect(await typeOf('json')).toBe('application/json; charset=utf-8')
    expect(await typeOf('png')).toBe('image/png')
  })

  it('accepts a leading dot', async () => {
    expect(await typeOf('.html')).toBe('text/html; charset=utf-8')
  })

  it('uses a value with a slash as is (plus a text charset)', async () => {
    expect(await typeOf('image/x-custom')).toBe('image/x-custom')
    expect(await typeOf('text/x-custom')).toBe('text/x-custom; charset=utf-8')
  })

  it('falls back to application/octet-stream', async () => {
    expect(await typeOf('no-such-ext')).toBe('application/octet-stream')
  })
})

describe('res.contentType(type)', () => {
  it('is an alias of res.type', async () => {
    const res = await request(appWith((req, res) => res.contentType('txt').send(String(res.contentType === res.type)))).get('/')
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(res.text).toBe('true')
  })
})
