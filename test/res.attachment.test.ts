import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { appWith } from './support/res'

describe('res.attachment([filename])', () => {
  it('sets a bare attachment disposition without a filename', async () => {
    const res = await request(appWith((req, res) => res.attachment().end())).get('/')
    expect(res.headers['content-disposition']).toBe('attachment')
    expect(res.headers['content-type']).toBeUndefined()
  })

  it('names the file and sets the Content-Type of its extension', async () => {
    const res = await request(appWith((req, res) => res.attachment('reports/2024.pdf').end())).get('/')
    expect(res.headers['content-disposition']).toBe('attachment; filename=2024.pdf')
    expect(res.headers['content-type']).toBe('application/pdf')
  })

  it('encodes a non-ASCII filename with a fallback', async () => {
    const res = await request(appWith((req, res) => res.attachment('résumé.txt').end())).get('/')
    expect(res.headers['content-disposition']).toBe('attachment; filename="r?sum?.txt"; filename*=UTF-8\'\'r%C3%A9sum%C3%A9.txt')
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
  })

  it('uses application/octet-stream for an unknown extension', async () => {
    const res = await request(appWith((req, res) => res.attachment('data.unknownext').end())).get('/')
    expect(res.headers['content-type']).toBe('application/octet-stream')
  })

  it('cannot inject headers through the filename', async () => {
    const res = await request(appWith((req, res) => res.attachment('a\r\nX-Evil: 1.txt').end())).get('/')
    expect(res.headers['x-evil']).toBeUndefined()
  })
})
