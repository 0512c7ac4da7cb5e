// fw.urlencoded(): form bodies into an object.
import { describe, expect, it } from 'vitest'
import request from 'supertest'
import fw from '../../src/index'
import { bodyApp } from '../support/body'
import qs from 'qs'
import { newKeyMemo, parseFlat } from '../../src/body/urlencoded'
import { random } from '../fuzz/state-support.mjs'

const FORM = 'application/x-www-form-urlencoded'
const post = (parser: Function, body: string, contentType = FORM) =>
  request(bodyApp(fw, parser)).post('/').set('Content-Type', contentType).send(body)

describe('fw.urlencoded()', () => {
  it('is a factory of length 1 returning a named middleware', () => {
    expect(fw.urlencoded.length).toBe(1)
    expect(fw.urlencoded().name).toBe('urlencodedParser')
  })

  it('parses flat values (extended false by default)', async () => {
    const res = await post(fw.urlencoded(), 'name=tobi+ferret&tag=a&tag=b&user[name]=x')
    expect(res.body.body.value).toEqual({ name: 'tobi ferret', tag: ['a', 'b'], 'user[name]': 'x' })
  })

  it('gives {} for an empty body', async () => {
    const res = await request(bodyApp(fw, fw.urlencoded())).post('/').set('Content-Type', FORM).set('Content-Length', '0')
    expect(res.body.body.value).toEqual({})
  })

  it('never lets __proto__, constructor or hasOwnProperty reach Object.prototype', async () => {
    for (const extended of [false, true]) {
      const res = await post(fw.urlencoded({ extended }), '__proto__[polluted]=1&constructor[prototype][polluted]=2&hasOwnProperty=3&__proto__=4')
      expect(res.status).toBe(200)
      expect(res.body.body.value.hasOwnProperty).toBe('3')
      expect(res.body.body.value).not.toHaveProperty('__proto__.polluted')
      expect(({} as any).polluted).toBeUndefined()
    }
  })
})

describe('fw.urlencoded({ extended: true })', () => {
  it('parses nested objects and arrays', async () => {
    const res = await post(fw.urlencoded({ extended: true }), 'user[name]=tobi&user[pets][]=loki&user[pets][]=jane&a[0]=x&a[1]=y')
    expect(res.body.body.value).toEqual({ user: { name: 'tobi', pets: ['loki', 'jane'] }, a: ['x', 'y'] })
  })

  it('keeps arrays up to the larger of 100 items and the parameter count', async () => {
    const many = Array.from({ length: 150 }, (_, i) => 'a[]=' + i).join('&')
    expect((await post(fw.urlencoded({ extended: true }), many)).body.body.value.a).toHaveLength(150)
    expect((await post(fw.urlencoded({ extended: true }), 'a[150]=x')).body.body.value).toEqual({ a: { 150: 'x' } })
  })

  it('answers 400 querystring.parse.rangeError past depth (default 32)', async () => {
    const deep = (n: number) => 'a' + '[b]'.repeat(n) + '=1'
    expect((await post(fw.urlencoded({ extended: true }), deep(32))).status).toBe(200)
    const res = await post(fw.urlencoded({ extended: true }), deep(33))
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ type: 'querystring.parse.rangeError', message: 'The input exceeded the depth' })
    expect((await post(fw.urlencoded({ extended: true, depth: 1 }), deep(2))).status).toBe(400)
  })

  it('validates depth at creation', () => {
    expect(() => fw.urlencoded({ extended: true, depth: -1 })).toThrow('option depth must be a zero or a positive number')
    expect(() => fw.urlencoded({ extended: true, depth: 'deep' as never })).toThrow(TypeError)
    // like body-parser, depth is only read (and checked) for the extended parser
    expect(typeof fw.urlencoded({ depth: -1 })).toBe('function')
  })
})

describe('fw.urlencoded({ parameterLimit })', () => {
  it('answers 413 parameters.too.many before parsing', async () => {
    const res = await post(fw.urlencoded({ parameterLimit: 2 }), 'a=1&b=2&c=3')
    expect(res.status).toBe(413)
    expect(res.body).toMatchObject({ type: 'parameters.too.many', message: 'too many parameters' })
  })

  it('accepts exactly the limit', async () => {
    expect((await post(fw.urlencoded({ parameterLimit: 3 }), 'a=1&b=2&c=3')).body.body.value).toEqual({ a: '1', b: '2', c: '3' })
  })

  it('defaults to 1000', async () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => 'k' + i + '=1').join('&')
    expect((await post(fw.urlencoded(), body(1000))).status).toBe(200)
    expect((await post(fw.urlencoded(), body(1001))).status).toBe(413)
  })

  it('validates parameterLimit at creation', () => {
    expect(() => fw.urlencoded({ parameterLimit: 0 })).toThrow('option parameterLimit must be a positive number')
    expect(() => fw.urlencoded({ parameterLimit: NaN })).toThrow(TypeError)
    expect(typeof fw.urlencoded({ parameterLimit: Infinity })).toBe('function')
  })
})

describe('fw.urlencoded() charsets', () => {
  it('decodes iso-8859-1 forms', async () => {
    expect((await post(fw.urlencoded(), 'a=%E9', FORM + '; charset=iso-8859-1')).body.body.value).toEqual({ a: 'é' })
    expect((await post(fw.urlencoded({ defaultCharset: 'iso-8859-1' }), 'a=%E9')).body.body.value).toEqual({ a: 'é' })
  })

  it('answers 415 for other charsets', async () => {
    const res = await post(fw.urlencoded(), 'a=1', FORM + '; charset=koi8-r')
    expect(res.status).toBe(415)
    expect(res.body).toMatchObject({ type: 'charset.unsupported', charset: 'koi8-r' })
  })

  it('lets the utf8 sentinel pick the charset with charsetSentinel', async () => {
    const res = await post(fw.urlencoded({ charsetSentinel: true, defaultCharset: 'iso-8859-1' }), 'utf8=%E2%9C%93&a=%C3%A9')
    expect(res.body.body.value).toEqual({ a: 'é' })
  })

  it('decodes numeric entities with interpretNumericEntities', async () => {
    const res = await post(fw.urlencoded({ interpretNumericEntities: true, defaultCharset: 'iso-8859-1' }), 'a=%26%239786%3B')
    expect(res.body.body.value).toEqual({ a: '☺' })
  })

  it('validates defaultCharset at creation', () => {
    expect(() => fw.urlencoded({ defaultCharset: 'koi8-r' as never })).toThrow('option defaultCharset must be either utf-8 or iso-8859-1')
  })
})

describe('fw.urlencoded() flat bodies (the fast path beside qs)', () => {
  // A flat UTF-8 body skips qs (src/body/urlencoded.ts parseFlat); its
  // answer must be qs's own, key order, value types and prototypes included.
  const pieces = ['a', 'b', 'A', '0', '1', '07', 'name', '=', '=', '&', '&', '&&', '+', '%20', '%2B', '%26', '%3D',
    '%E2%9C%93', '%C3%A9', '%', '%2', '%ZZ', '%E2%9C', '__proto__', '%5F_proto__', 'constructor', 'toString',
    'hasOwnProperty', 'valueOf', '.', 'a.b', ';', ' ', 'é', '\u{1F600}', '%255B', 'utf8',
    // escapes decoded without decodeURIComponent (ASCII) and beside it
    '%41', '%7e', '%7F', '%7f', '%00', '%0a', '%2b', '%2f', '%40', '%80', '%c3%A9', '%C3', '%FF', '%4', '%g1', '%1G', '%%', 'z%', '{', '~']
  /** A seeded generator of numbers in [0, 1) (the fuzzers' generator: the same sequence for the same seed). */
  const seeded = (seed: number): (() => number) => random(seed).next
  function generated(seed: number, count: number): string[] {
    const random = seeded(seed)
    return Array.from({ length: count }, () =>
      Array.from({ length: Math.floor(random() * 12) }, () => pieces[Math.floor(random() * pieces.length)]).join(''))
  }
  const qsOptions = (extended: boolean, arrayLimit = 100) => ({
    allowPrototypes: true, depth: extended ? 32 : 0, strictDepth: extended, parameterLimit: 1000,
    charsetSentinel: false, interpretNumericEntities: false, arrayLimit, charset: 'utf-8' as const
  })
  const shape = (value: unknown): unknown =>
    value !== null && typeof value === 'object'
      ? { proto: Object.getPrototypeOf(value) === Array.prototype ? 'array' : Object.getPrototypeOf(value) === Object.prototype ? 'object' : 'other',
          entries: Object.entries(value).map(([k, v]) => [k, shape(v)]) }
      : value

  it('gives qs.parse\'s answer on 4,000 generated bodies, flat and extended', () => {
    for (const body of generated(11, 4000)) {
      const ours = shape(parseFlat(body, 1000))
      expect(ours, body).toEqual(shape(qs.parse(body, qsOptions(false))))
      expect(ours, body).toEqual(shape(qs.parse(body, qsOptions(true))))
    }
  })

  it('gives qs.parse\'s answer with keys read from the memo of the forms before (one memo, as a parser keeps)', () => {
    // a parser remembers the keys of its last form by part: a key reused
    // from there must be the one the body holds at that place, character
    // for character (a prefix, a longer key, one letter off, an encoded one)
    const keys = newKeyMemo()
    const check = (body: string) => expect(shape(parseFlat(body, 1000, keys)), body).toEqual(shape(qs.parse(body, qsOptions(false))))
    const forms = ['name=a&email=b&tags=1&tags=2', 'name=a&email=b&tags=1&tags=2', 'nam=a&emails=b&tagz=1&tags=2',
      'name=a&email=b&tags=1&tags=2', 'nam%65=a&e+mail=b&tags&tags=2', 'name=a&email=b&tags=1&tags=2', 'Name=a&EMAIL=b&&tags=1',
      '=x&name&email=&tags=1', '__proto__=1&name=2', 'name=1&__proto__=2&name=3', 'x'.repeat(65) + '=1&' + 'x'.repeat(64) + '=2',
      'x'.repeat(65) + '=3&' + 'x'.repeat(64) + '=4', Array.from({ length: 40 }, (_, i) => 'k' + (i % 7) + '=' + i).join('&'),
      Array.from({ length: 40 }, (_, i) => 'k' + (i % 5) + '=' + i).join('&'), 'name=a&email=b&tags=1&tags=2']
    for (const body of forms) check(body)
    // the same forms again in another order, then generated ones with few keys
    for (const body of forms.slice().reverse()) check(body)
    const few = ['a', 'b', 'ab', 'ba', 'abc', 'name', 'nam', 'names', '%61', 'a+b']
    const random = seeded(7)
    for (let n = 0; n < 2000; n++) {
      check(Array.from({ length: 1 + Math.floor(random() * 6) }, () => few[Math.floor(random() * few.length)] + '=' + n).join('&'))
    }
  })

  it('gives qs.parse\'s answer when it reads the bytes the body was decoded from', () => {
    // the scan reads the bytes only when each gave one character: invalid
    // UTF-8 bytes (each one U+FFFD) keep them in step, anything else (a
    // multi-byte character, a truncated sequence) does not; a key in the
    // memo with a character above 0x7F must not match the byte of that value
    const keys = newKeyMemo()
    const check = (bytes: Buffer) => {
      const body = bytes.toString('utf8')
      const ours = parseFlat(body, 1000, keys, bytes)
      // (an encoded bracket leaves the body to qs, as the test below checks)
      if (ours === undefined) expect(/%5[bBdD]/.test(body), JSON.stringify(body)).toBe(true)
      else expect(shape(ours), JSON.stringify(body)).toEqual(shape(qs.parse(body, qsOptions(false))))
    }
    const latin = Buffer.from([0xe9, 0x3d, 0x31]) // '\xE9=1': U+FFFD=1
    check(Buffer.from('\u00e9=1', 'utf8'))
    check(latin)
    check(Buffer.from('\u00e9=1', 'utf8'))
    check(Buffer.from([0x61, 0xff, 0x3d, 0x2b, 0x25, 0x34, 0x31, 0x26, 0x61, 0xff, 0x3d, 0x32]))
    const pieces = [[0x61], [0x62], [0x3d], [0x26], [0x2b], [0x25], [0x32], [0x30], [0x34], [0x31], [0x35], [0x42], [0xff], [0xe9], [0xc3, 0xa9], [0xe2, 0x82], [0x80]]
    const random = seeded(3)
    for (let n = 0; n < 3000; n++) {
      check(Buffer.from(Array.from({ length: Math.floor(random() * 14) }, () => pieces[Math.floor(random() * pieces.length)]).flat()))
    }
  })

  it('collects more than 100 repeats into one array, as qs does with the parameter count as limit', () => {
    const body = Array.from({ length: 150 }, (_, i) => 'k=' + i).join('&')
    const ours = parseFlat(body, 1000)!
    expect((ours.k as string[]).length).toBe(150)
    expect(shape(ours)).toEqual(shape(qs.parse(body, qsOptions(false, 150))))
  })

  it('counts every part, empty ones too, against the parameter limit', () => {
    expect(Object.keys(parseFlat('a=1&&b=2', 3)!)).toEqual(['a', 'b'])
    for (const body of ['a=1&&b=2', '&&&', 'a&b&c&d']) {
      let thrown: any
      try { parseFlat(body, body === '&&&' ? 3 : 2) } catch (err) { thrown = err }
      expect(thrown?.type, body).toBe('parameters.too.many')
      expect(thrown?.status, body).toBe(413)
    }
  })

  it('answers the same through the middleware, extended or not', async () => {
    for (const extended of [false, true]) {
      const res = await post(fw.urlencoded({ extended }), 'a=1&b=%E2%9C%93&a=2&c&=x&__proto__=y&toString=z&d=%ZZ+q')
      expect(res.body.body.value).toEqual({ a: ['1', '2'], b: '✓', c: '', toString: 'z', d: '%ZZ q' })
    }
  })

  it('leaves bodies with brackets, raw or encoded, to qs', async () => {
    for (const body of ['a[b]=1', 'a%5Bb%5D=1', 'a%5bb%5d=1', 'a[]=1', 'x=1&]', 'x=%5D', 'x=%5d&y']) expect(parseFlat(body, 1000), body).toBe(undefined)
    for (const body of ['a=%5', 'a=%5a', 'a=%5F', 'a=5b', '%25B=1', 'x=%']) expect(parseFlat(body, 1000), body).not.toBe(undefined)
    // the bodies it takes, among ones with brackets anywhere, are the ones without
    const bracketed = generated(5, 2000).map((body, i) => body + ['', '[', ']', '%5B', '%5d', '%5'][i % 6] + body)
    for (const body of bracketed) expect(parseFlat(body, 1000) === undefined, body).toBe(/[[\]]|%5[bBdD]/.test(body))
    const res = await post(fw.urlencoded({ extended: true }), 'a%5bb%5d=1&c[]=2')
    expect(res.body.body.value).toEqual({ a: { b: '1' }, c: ['2'] })
  })
})
