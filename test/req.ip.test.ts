import { describe, expect, it } from 'vitest'
import request from 'supertest'
import { probe } from './support/req-app'

const XFF = '10.0.0.1, 10.0.0.2, 192.168.1.9'
const read = (req: any) => ({ ip: req.ip, ips: req.ips })

async function ipsWith(trust: unknown, xff = XFF) {
  const settings = trust === undefined ? {} : { 'trust proxy': trust }
  const res = await request(probe(read, settings)).get('/').set('X-Forwarded-For', xff)
  return res.body.v
}

describe('req.ip', () => {
  it('is the socket address by default', async () => {
    const res = await request(probe(read)).get('/')
    expect(res.body.v.ip).toMatch(/^(::ffff:)?127\.0\.0\.1$/)
  })

  it('ignores X-Forwarded-For when trust proxy is false', async () => {
    for (const trust of [undefined, false]) {
      const v = await ipsWith(trust)
      expect(v.ip).toMatch(/127\.0\.0\.1$/)
      expect(v.ips).toEqual([])
    }
  })
})

describe('req.ip / req.ips with trust proxy', () => {
  it('true: the left-most X-Forwarded-For entry', async () => {
    expect(await ipsWith(true)).toEqual({ ip: '10.0.0.1', ips: ['10.0.0.1', '10.0.0.2', '192.168.1.9'] })
  })

  it('a hop count: trusts that many hops from the socket', async () => {
    expect(await ipsWith(1)).toEqual({ ip: '192.168.1.9', ips: ['192.168.1.9'] })
    expect(await ipsWith(2)).toEqual({ ip: '10.0.0.2', ips: ['10.0.0.2', '192.168.1.9'] })
    expect(await ipsWith(10)).toEqual({ ip: '10.0.0.1', ips: ['10.0.0.1', '10.0.0.2', '192.168.1.9'] })
    expect((await ipsWith(0)).ips).toEqual([])
  })

  it('a named subnet: trusted addresses are skipped, the nearest untrusted one is the client', async () => {
    expect(await ipsWith('loopback')).toEqual({ ip: '192.168.1.9', ips: ['192.168.1.9'] })
    expect(await ipsWith('loopback, uniquelocal')).toEqual({ ip: '10.0.0.1', ips: ['10.0.0.1', '10.0.0.2', '192.168.1.9'] })
  })

  it('a comma list of addresses and subnets', async () => {
    expect(await ipsWith('loopback, 192.168.1.9')).toEqual({ ip: '10.0.0.2', ips: ['10.0.0.2', '192.168.1.9'] })
    expect(await ipsWith('127.0.0.1/8, 192.168.0.0/16, 10.0.0.2')).toEqual({ ip: '10.0.0.1', ips: ['10.0.0.1', '10.0.0.2', '192.168.1.9'] })
  })

  it('an array of addresses, subnets and netmasks', async () => {
    expect(await ipsWith(['127.0.0.1/255.0.0.0', '192.168.1.9'])).toEqual({ ip: '10.0.0.2', ips: ['10.0.0.2', '192.168.1.9'] })
  })

  it('a subnet that excludes the socket address trusts nothing', async () => {
    for (const trust of ['uniquelocal', 'linklocal', '10.0.0.0/8']) {
      const v = await ipsWith(trust)
      expect(v.ip).toMatch(/127\.0\.0\.1$/)
      expect(v.ips).toEqual([])
    }
  })

  it('a function of (address, hop index)', async () => {
    expect(await ipsWith((_addr: string, i: number) => i < 2)).toEqual({ ip: '10.0.0.2', ips: ['10.0.0.2', '192.168.1.9'] })
    expect(await ipsWith((addr: string) => addr !== '10.0.0.2')).toEqual({ ip: '10.0.0.2', ips: ['10.0.0.2', '192.168.1.9'] })
  })

  it('handles IPv6 entries', async () => {
    expect(await ipsWith('loopback, linklocal', '2001:db8::1, fe80::1')).toEqual({ ip: '2001:db8::1', ips: ['2001:db8::1', 'fe80::1'] })
  })

  it('never throws on garbage X-Forwarded-For entries', async () => {
    const v = await ipsWith(true, 'not-an-ip, , 300.1.1.1')
    expect(v.ip).toBe('not-an-ip')
    expect(v.ips).toEqual(['not-an-ip', '300.1.1.1'])
    const w = await ipsWith('loopback', '1.2.3.4, bogus')
    expect(w).toEqual({ ip: 'bogus', ips: ['bogus'] })
  })

  it('joins repeated X-Forwarded-For headers', async () => {
    const res = await request(probe(read, { 'trust proxy': true })).get('/').set('X-Forwarded-For', ['1.1.1.1', '2.2.2.2'])
    expect(res.body.v).toEqual({ ip: '1.1.1.1', ips: ['1.1.1.1', '2.2.2.2'] })
  })
})
