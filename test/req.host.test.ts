import { describe, expect, it } from 'vitest'
import request from 'supertest'
import { probe } from './support/req-app'
import { listen } from './support/diff'
import { send } from './support/req-dump'

const read = (req: any) => ({ host: req.host ?? 'undefined', hostname: req.hostname ?? 'undefined' })

async function hostOf(headers: Record<string, string | string[]>, settings: Record<string, unknown> = {}) {
  const res = await request(probe(read, settings)).get('/').set(headers)
  return res.body.v
}

describe('req.host', () => {
  it('is the Host header, port included', async () => {
    expect(await hostOf({ Host: 'example.com:3000' })).toEqual({ host: 'example.com:3000', hostname: 'example.com' })
    expect(await hostOf({ Host: 'example.com' })).toEqual({ host: 'example.com', hostname: 'example.com' })
  })

  it('ignores X-Forwarded-Host unless the peer is trusted', async () => {
    const headers = { Host: 'example.com', 'X-Forwarded-Host': 'fwd.example.org:8443' }
    expect((await hostOf(headers)).host).toBe('example.com')
    expect((await hostOf(headers, { 'trust proxy': '10.0.0.1' })).host).toBe('example.com')
    expect(await hostOf(headers, { 'trust proxy': true })).toEqual({ host: 'fwd.example.org:8443', hostname: 'fwd.example.org' })
    expect((await hostOf(headers, { 'trust proxy': 'loopback' })).host).toBe('fwd.example.org:8443')
  })

  it('takes the first value of a comma list or repeated X-Forwarded-Host headers', async () => {
    const trusted = { 'trust proxy': true }
    expect((await hostOf({ 'X-Forwarded-Host': 'one.example.org , two.example.org' }, trusted)).host).toBe('one.example.org')
    expect((await hostOf({ 'X-Forwarded-Host': ['one.example.org', 'two.example.org'] }, trusted)).host).toBe('one.example.org')
  })

  it('falls back to Host when X-Forwarded-Host is empty', async () => {
    expect((await hostOf({ Host: 'example.com', 'X-Forwarded-Host': '' }, { 'trust proxy': true })).host).toBe('example.com')
  })

  it('is undefined without a Host header', async () => {
    const server = await listen(probe(read))
    try {
      const res = await send(server.port, { path: '/', setHost: false })
      expect(JSON.parse(res.body).v).toEqual({ host: 'undefined', hostname: 'undefined' })
    } finally {
      await server.close()
    }
  })
})

describe('req.hostname', () => {
  it('keeps the brackets of an IPv6 literal and drops only the port', async () => {
    expect(await hostOf({ Host: '[::1]:3000' })).toEqual({ host: '[::1]:3000', hostname: '[::1]' })
    expect(await hostOf({ Host: '[::1]' })).toEqual({ host: '[::1]', hostname: '[::1]' })
    const forwarded = await hostOf({ 'X-Forwarded-Host': '[2001:db8::1]:8080' }, { 'trust proxy': true })
    expect(forwarded.hostname).toBe('[2001:db8::1]')
  })

  it('cuts at the first colon for odd ports, and never throws', async () => {
    expect((await hostOf({ Host: 'example.com:abc:def' })).hostname).toBe('example.com')
    expect((await hostOf({ Host: ':3000' })).hostname).toBe('')
    expect((await hostOf({ Host: '[::1:3000' })).hostname).toBe('[')
  })
})
