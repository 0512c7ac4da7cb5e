import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { appWith } from './support/res'
import express from 'express'
import fw from '../src/index'

const binary = (res: any, cb: (err: Error | null, body: Buffer) => void): void => {
  const chunks: Buffer[] = []
  res.on('data', (c: Buffer) => chunks.push(c))
  res.on('end', () => cb(null, Buffer.concat(chunks)))
}

describe('res.send(String)', () => {
  it('sends text/html with Content-Length and a weak ETag', async () => {
    const res = await request(appWith((req, res) => res.send('<p>héllo</p>'))).get('/')
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['content-length']).toBe('13')
    expect(res.headers.etag).toMatch(/^W\/"d-/)
    expect(res.text).toBe('<p>héllo</p>')
  })

  it('keeps a type set before and puts utf-8 on it', async () => {
    const res = await request(appWith((req, res) => res.set('Content-Type', 'text/plain; charset=iso-8859-1; format=flowed').send('x'))).get('/')
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8; format=flowed')
  })

  it('fails for a malformed preset type', async () => {
    const res = await request(appWith((req, res) => res.setHeader('Content-Type', 'not a type').send('x'))).get('/')
    expect(res.status).toBe(500)
    expect(res.text).toMatch(/^TypeError/)
  })

  it('sends an empty string with Content-Length 0', async () => {
    const res = await request(appWith((req, res) => res.send(''))).get('/')
    expect(res.headers['content-length']).toBe('0')
    expect(res.headers.etag).toBe('W/"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk"')
  })
})

describe('res.send(Buffer)', () => {
  it('sends application/octet-stream', async () => {
    const res = await request(appWith((req, res) => res.send(Buffer.from([0, 1, 2])))).get('/').buffer(true).parse(binary)
    expect(res.headers['content-type']).toBe('application/octet-stream')
    expect(res.headers['content-length']).toBe('3')
    expect(res.body).toEqual(Buffer.from([0, 1, 2]))
  })

  it('keeps a type set before, without adding a charset', async () => {
    const res = await request(appWith((req, res) => res.type('image/png').send(Buffer.from('png')))).get('/').buffer(true).parse(binary)
    expect(res.headers['content-type']).toBe('image/png')
  })

  it('sends a typed array view as its bytes', async () => {
    const bytes = new Uint8Array([9, 65, 66, 67, 9]).subarray(1, 4)
    const res = await request(appWith((req, res) => res.send(bytes))).get('/').buffer(true).parse(binary)
    expect(res.body.toString()).toBe('ABC')
  })
})

describe('res.send(Object | Array | Number | Boolean)', () => {
  it('sends JSON', async () => {
    for (const [value, text] of [[{ a: 1 }, '{"a":1}'], [[1, 2], '[1,2]'], [42, '42'], [false, 'false']] as const) {
      const res = await request(appWith((req, res) => res.send(value))).get('/')
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
      expect(res.text).toBe(text)
    }
  })
})

describe('res.send(null | undefined)', () => {
  it('sends an empty body without a type', async () => {
    for (const value of [null, undefined]) {
      const res = await request(appWith((req, res) => res.send(value))).get('/')
      expect(res.text).toBe('')
      expect(res.headers['content-type']).toBeUndefined()
      expect(res.headers['content-length']).toBe('0')
    }
  })

  it('generates an ETag for null but not for undefined', async () => {
    expect((await request(appWith((req, res) => res.send(null))).get('/')).headers.etag).toBeDefined()
    expect((await request(appWith((req, res) => res.send())).get('/')).headers.etag).toBeUndefined()
  })
})

describe('res.send() ETag', () => {
  it('keeps an ETag set by the handler', async () => {
    const res = await request(appWith((req, res) => res.set('ETag', '"v7"').send('x'))).get('/')
    expect(res.headers.etag).toBe('"v7"')
  })

  it('follows the etag setting', async () => {
    const off = await request(appWith((req, res) => res.send('x'), '/', (app) => app.set('etag', false))).get('/')
    expect(off.headers.etag).toBeUndefined()
    const strong = await request(appWith((req, res) => res.send('x'), '/', (app) => app.set('etag', 'strong'))).get('/')
    expect(strong.headers.etag).toMatch(/^"1-/)
    const custom = await request(appWith((req, res) => res.send('abc'), '/', (app) => app.set('etag', (body: Buffer) => `"n${body.length}"`))).get('/')
    expect(custom.headers.etag).toBe('"n3"')
  })

  it('gives a custom etag function the body as a Buffer, as Express does', async () => {
    const seen: unknown[] = []
    const app = appWith((req, res) => res.send('h\u00e9llo'), '/', (a) => a.set('etag', (body: unknown, encoding: unknown) => { seen.push(Buffer.isBuffer(body), encoding); return '"c"' }))
    const res = await request(app).get('/')
    expect(res.headers.etag).toBe('"c"')
    expect(seen).toEqual([true, undefined])
  })

  it('tags a non-ASCII string body as its utf-8 bytes, weak and strong', async () => {
    const body = 'caf\u00e9 \u2603 \ud83d\ude00'
    const bytes = Buffer.from(body, 'utf8')
    const weak = await request(appWith((req, res) => res.send(body))).get('/')
    const weakBuf = await request(appWith((req, res) => res.type('html').send(bytes))).get('/')
    expect(weak.headers.etag).toBe(weakBuf.headers.etag)
    expect(weak.headers['content-length']).toBe(String(bytes.length))
    expect(weak.text).toBe(body)
    const strong = await request(appWith((req, res) => res.send(body), '/', (a) => a.set('etag', 'strong'))).get('/')
    const strongBuf = await request(appWith((req, res) => res.type('html').send(bytes), '/', (a) => a.set('etag', 'strong'))).get('/')
    expect(strong.headers.etag).toBe(strongBuf.headers.etag)
    expect(strong.headers.etag).toMatch(/^"/)
  })

  it('sets no Content-Length when Transfer-Encoding is set', async () => {
    const res = await request(appWith((req, res) => res.set('Transfer-Encoding', 'chunked').send('chunked body'))).get('/')
    expect(res.headers['content-length']).toBeUndefined()
    expect(res.headers['transfer-encoding']).toBe('chunked')
    expect(res.text).toBe('chunked body')
  })
})

describe('res.send() freshness', () => {
  it('answers 304 without a body when If-None-Match matches', async () => {
    const res = await request(appWith((req, res) => res.set('ETag', '"v1"').send('body'))).get('/').set('If-None-Match', '"v1"')
    expect(res.status).toBe(304)
    expect(res.text).toBe('')
    expect(res.headers['content-type']).toBeUndefined()
    expect(res.headers['content-length']).toBeUndefined()
  })

  it('answers 200 when it does not match', async () => {
    const res = await request(appWith((req, res) => res.set('ETag', '"v2"').send('body'))).get('/').set('If-None-Match', '"v1"')
    expect(res.status).toBe(200)
    expect(res.text).toBe('body')
  })

  it('matches the generated ETag', async () => {
    const app = appWith((req, res) => res.send('same'))
    const first = await request(app).get('/')
    const second = await request(app).get('/').set('If-None-Match', first.headers.etag)
    expect(second.status).toBe(304)
  })
})

describe('res.send() status stripping', () => {
  it('strips body, Content-Type, Content-Length and Transfer-Encoding for 204', async () => {
    const res = await request(appWith((req, res) => res.status(204).set('Transfer-Encoding', 'chunked').send('gone'))).get('/')
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(res.headers['content-type']).toBeUndefined()
    expect(res.headers['transfer-encoding']).toBeUndefined()
  })

  it('strips for 304 set by the handler', async () => {
    const res = await request(appWith((req, res) => res.status(304).send('gone'))).get('/')
    expect(res.status).toBe(304)
    expect(res.headers['content-type']).toBeUndefined()
  })

  it('sends Content-Length 0 and no body for 205', async () => {
    const res = await request(appWith((req, res) => res.status(205).send('reset'))).get('/')
    expect(res.status).toBe(205)
    expect(res.headers['content-length']).toBe('0')
    expect(res.text).toBe('')
  })

  it('sends headers but no body for HEAD', async () => {
    const res = await request(appWith((req, res) => res.send('head'))).head('/')
    expect(res.headers['content-length']).toBe('4')
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.text).toBeUndefined()
  })
})

describe('res.send(Function)', () => {
  it('throws a TypeError', async () => {
    const res = await request(appWith((req, res) => res.send(() => 1))).get('/')
    expect(res.status).toBe(500)
    expect(res.text).toMatch(/^TypeError/)
  })
})

describe('res.send() and a replaced global Buffer', () => {
  // express@5.3's response.js and its ETag helper take Buffer from
  // node:buffer: a global Buffer replaced by a polyfill (as some bundlers
  // install one) is not what they call. Switchyard's response does the
  // same (and a read of Node 20's global Buffer is a getter call). The global is replaced only while the
  // handler runs; every read of it is counted.
  interface Answer { status: number; length: string | undefined; text: string }
  async function globalReads(lib: any, etag: boolean): Promise<{ reads: string[]; answers: Answer[] }> {
    const app = lib()
    app.set('etag', etag)
    const reads: string[] = []
    app.get('/:kind', (req: any, res: any) => {
      const bytes = Buffer.from('bytes')
      const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'Buffer')!
      const spy = new Proxy(Buffer, { get(target, key, receiver) { reads.push(String(key)); return Reflect.get(target, key, receiver) } })
      Object.defineProperty(globalThis, 'Buffer', { value: spy, writable: true, configurable: true })
      try {
        if (req.params.kind === 'string') res.send('<p>héllo</p>')
        else if (req.params.kind === 'json') res.json({ a: 'é', b: [1, 2] })
        else res.send(bytes)
      } finally {
        Object.defineProperty(globalThis, 'Buffer', descriptor)
      }
    })
    const answers: Answer[] = []
    for (const kind of ['string', 'json', 'buffer']) {
      const res = await request(app).get('/' + kind)
      answers.push({ status: res.status, length: res.headers['content-length'], text: res.text })
    }
    return { reads, answers }
  }

  it('is not read by res.send or res.json, as in express@5.3 (no ETag)', async () => {
    const ours = await globalReads(fw, false)
    const theirs = await globalReads(express, false)
    expect(ours).toEqual(theirs)
    expect(ours.reads).toEqual([])
  })

  it('is not read with the default ETag either, and the answers are the same', async () => {
    const ours = await globalReads(fw, true)
    const theirs = await globalReads(express, true)
    // (express's ETag goes through the etag package, which asks the global
    // Buffer.isBuffer once per body; Switchyard makes the same tag without it)
    expect(ours.answers).toEqual(theirs.answers)
    expect(ours.reads).toEqual([])
    expect(theirs.reads).toEqual(['isBuffer', 'isBuffer', 'isBuffer'])
  })
})
