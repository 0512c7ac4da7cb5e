// fw.raw(): bodies into a Buffer.
import zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import request from 'supertest'
import fw from '../../src/index'
import { bodyApp } from '../support/body'

const post = (parser: Function, body: string | Buffer, contentType = 'application/octet-stream') =>
  request(bodyApp(fw, parser)).post('/').set('Content-Type', contentType).send(body)

describe('fw.raw()', () => {
  it('is a factory of length 1 returning a named middleware', () => {
    expect(fw.raw.length).toBe(1)
    expect(fw.raw().name).toBe('rawParser')
  })

  it('gives the bytes as a Buffer', async () => {
    const res = await post(fw.raw(), Buffer.from([0x00, 0xff, 0x10]))
    expect(res.body.body).toEqual({ buffer: '00ff10' })
  })

  it('gives an empty Buffer for Content-Length: 0', async () => {
    const res = await request(bodyApp(fw, fw.raw())).post('/').set('Content-Type', 'application/octet-stream').set('Content-Length', '0')
    expect(res.body.body).toEqual({ buffer: '' })
  })

  it('ignores the charset parameter', async () => {
    const res = await post(fw.raw(), 'abc', 'application/octet-stream; charset=made-up')
    expect(res.body.body).toEqual({ buffer: '616263' })
  })

  it('inflates gzip', async () => {
    const res = await post(fw.raw(), zlib.gzipSync(Buffer.from([1, 2, 3])), 'application/octet-stream').set('Content-Encoding', 'gzip')
    expect(res.body.body).toEqual({ buffer: '010203' })
  })

  it('skips other types unless told', async () => {
    expect((await post(fw.raw(), 'x', 'image/png')).body.body).toEqual({ undefined: true })
    expect((await post(fw.raw({ type: 'image/*' }), 'x', 'image/png')).body.body).toEqual({ buffer: '78' })
  })

  it('answers 413 over the limit', async () => {
    const res = await post(fw.raw({ limit: 2 }), 'abc')
    expect(res.status).toBe(413)
    expect(res.body).toMatchObject({ type: 'entity.too.large', limit: 2 })
  })

  it('calls verify with a null encoding', async () => {
    let seen: unknown = 'unset'
    await post(fw.raw({ verify: (_req, _res, _buf, encoding) => { seen = encoding } }), 'x')
    expect(seen).toBeNull()
  })
})
