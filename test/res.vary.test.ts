import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { appWith } from './support/res'

describe('res.vary(field)', () => {
  it('sets Vary and is chainable', async () => {
    const res = await request(appWith((req, res) => res.vary('Accept').vary('Origin').end())).get('/')
    expect(res.headers.vary).toBe('Accept, Origin')
  })

  it('does not repeat a field, whatever its case', async () => {
    const res = await request(appWith((req, res) => res.vary('Accept').vary('accept').vary(['ACCEPT', 'User-Agent']).end())).get('/')
    expect(res.headers.vary).toBe('Accept, User-Agent')
  })
})
