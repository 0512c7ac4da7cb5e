import { describe, expect, it } from 'vitest'
import request from 'supertest'
import fw from '../src/index'
import { probe } from './support/req-app'

async function subdomainsOf(host: string, settings: Record<string, unknown> = {}) {
  const res = await request(probe((req) => req.subdomains, settings)).get('/').set('Host', host)
  return res.body.v
}

describe('req.subdomains', () => {
  it('lists subdomains, most specific first, below the last two labels', async () => {
    expect(await subdomainsOf('tobi.ferrets.example.com:3000')).toEqual(['ferrets', 'tobi'])
    expect(await subdomainsOf('example.com')).toEqual([])
  })

  it('honours subdomain offset', async () => {
    expect(await subdomainsOf('a.b.c.example.co.uk', { 'subdomain offset': 3 })).toEqual(['c', 'b', 'a'])
    expect(await subdomainsOf('a.example.com', { 'subdomain offset': 0 })).toEqual(['com', 'example', 'a'])
  })

  it('is empty for IP addresses', async () => {
    expect(await subdomainsOf('127.0.0.1:8080')).toEqual([])
    expect(await subdomainsOf('10.1.2.3')).toEqual([])
  })

  it('keeps a whole IP address as one entry with offset 0', async () => {
    expect(await subdomainsOf('10.1.2.3', { 'subdomain offset': 0 })).toEqual(['10.1.2.3'])
  })

  it('uses the forwarded host when the proxy is trusted', async () => {
    const res = await request(probe((req) => req.subdomains, { 'trust proxy': true }))
      .get('/').set('Host', 'example.com').set('X-Forwarded-Host', 'api.v2.example.org')
    expect(res.body.v).toEqual(['v2', 'api'])
  })

  it('uses the subdomain offset of the app handling the request', async () => {
    const app = fw()
    app.set('subdomain offset', 1)
    const sub = fw()
    sub.use((req: any, res: any) => { res.end(JSON.stringify(req.subdomains)) })
    app.use('/sub', sub)
    // a sub-app does not inherit a setting that has a default
    const res = await request(app).get('/sub').set('Host', 'a.b.example.com')
    expect(JSON.parse(res.text)).toEqual(['b', 'a'])
  })
})
