// fw.text(): bodies into a string.
import zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import request from 'supertest'
import fw from '../../src/index'
import { bodyApp } from '../support/body'

const post = (parser: Function, body: string | Buffer, contentType = 'text/plain') =>
  request(bodyApp(fw, parser)).post('/').set('Content-Type', contentType).send(body)

describe('fw.text()', () => {
  it('is a factory of length 1 returning a named middleware', () => {
    expect(fw.text.length).toBe(1)
    expect(fw.text().name).toBe('textParser')
  })

  it('gives the body as a string', async () => {
    expect((await post(fw.text(), 'hello, wörld')).body.body).toEqual({ value: 'hello, wörld' })
  })

  it('gives "" for an empty body', async () => {
    const res = await request(bodyApp(fw, fw.text())).post('/').set('Content-Type', 'text/plain').set('Content-Length', '0')
    expect(res.body.body).toEqual({ value: '' })
  })

  it('decodes the Content-Type charset', async () => {
    expect((await post(fw.text(), Buffer.from([0xe9, 0x74, 0xe9]), 'text/plain; charset=iso-8859-1')).body.body.value).toBe('été')
    expect((await post(fw.text(), Buffer.from([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]), 'text/plain; charset=utf-16')).body.body.value).toBe('hi')
    expect((await post(fw.text(), Buffer.from([0xc1, 0xc2]), 'text/plain; charset=koi8-r')).body.body.value).toBe('аб')
  })

  it('replaces invalid UTF-8 sequences', async () => {
    expect((await post(fw.text(), Buffer.from([0x61, 0xff, 0x62]))).body.body.value).toBe('a\ufffdb')
  })

  it('uses defaultCharset when the Content-Type names none', async () => {
    expect((await post(fw.text({ defaultCharset: 'iso-8859-1' }), Buffer.from([0xe9]))).body.body.value).toBe('é')
  })

  it('answers 415 charset.unsupported for an unknown charset, before reading', async () => {
    const res = await post(fw.text(), 'abc', 'text/plain; charset=klingon')
    expect(res.status).toBe(415)
    expect(res.body).toMatchObject({ type: 'charset.unsupported', charset: 'klingon', message: 'unsupported charset "KLINGON"' })
  })

  it('inflates deflate bodies', async () => {
    expect((await post(fw.text(), zlib.deflateSync('squeezed')).set('Content-Encoding', 'deflate')).body.body.value).toBe('squeezed')
  })

  it('parses other text types when told', async () => {
    expect((await post(fw.text(), '<p>', 'text/html')).body.body).toEqual({ undefined: true })
    expect((await post(fw.text({ type: 'text/*' }), '<p>', 'text/html')).body.body.value).toBe('<p>')
  })

  it('calls verify with the charset', async () => {
    let seen: unknown
    await post(fw.text({ verify: (_req, _res, _buf, encoding) => { seen = encoding } }), 'x', 'text/plain; charset=UTF-8')
    expect(seen).toBe('utf-8')
  })
})
