import { describe, expect, it } from 'vitest'
import request from 'supertest'
import { probe } from './support/req-app'

const read = (req: any) => [req.protocol, req.secure]

async function protocolOf(proto: string | string[] | undefined, settings: Record<string, unknown> = {}) {
  const r = request(probe(read, settings)).get('/')
  if (proto !== undefined) r.set('X-Forwarded-Proto', proto)
  return (await r).body.v
}

describe('req.protocol / req.secure', () => {
  it("is 'http' for a plain connection", async () => {
    expect(await protocolOf(undefined)).toEqual(['http', false])
  })

  it("is 'https' for an encrypted connection", async () => {
    const res = await request(probe((req) => { req.socket.encrypted = true; return read(req) })).get('/')
    expect(res.body.v).toEqual(['https', true])
  })

  it('ignores X-Forwarded-Proto unless the peer is trusted', async () => {
    expect(await protocolOf('https')).toEqual(['http', false])
    expect(await protocolOf('https', { 'trust proxy': '10.0.0.0/8' })).toEqual(['http', false])
    expect(await protocolOf('https', { 'trust proxy': true })).toEqual(['https', true])
    expect(await protocolOf('https', { 'trust proxy': 'loopback' })).toEqual(['https', true])
  })

  it('takes the first value, trimmed, of a list or repeated headers', async () => {
    expect(await protocolOf('https , http', { 'trust proxy': true })).toEqual(['https', true])
    expect(await protocolOf(['https', 'http'], { 'trust proxy': true })).toEqual(['https', true])
  })

  it('keeps the case of the header (secure only for lower-case https)', async () => {
    expect(await protocolOf('HTTPS', { 'trust proxy': true })).toEqual(['HTTPS', false])
  })

  it('falls back to the connection protocol for an empty header', async () => {
    expect(await protocolOf('', { 'trust proxy': true })).toEqual(['http', false])
  })
})
