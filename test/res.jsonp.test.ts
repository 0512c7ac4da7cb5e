import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { appWith } from './support/res'

const jsonpApp = (body: unknown, setup?: (app: any) => void): any => appWith((req, res) => res.jsonp(body), '/', setup)

describe('res.jsonp(body)', () => {
  it('sends JSON with nosniff when there is no callback', async () => {
    const res = await request(jsonpApp({ a: 1 })).get('/')
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.text).toBe('{"a":1}')
  })

  it('wraps the body in a guarded call to the callback', async () => {
    const res = await request(jsonpApp({ a: 1 })).get('/?callback=handle')
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.text).toBe("/**/ typeof handle === 'function' && handle({\"a\":1});")
  })

  it('keeps only [] word characters $ and . in the callback name', async () => {
    const res = await request(jsonpApp(1)).get('/?callback=' + encodeURIComponent('a.b[0]$<script>alert("x")</script>;'))
    expect(res.text).toBe("/**/ typeof a.b[0]$scriptalertxscript === 'function' && a.b[0]$scriptalertxscript(1);")
  })

  it('ignores an empty callback', async () => {
    const res = await request(jsonpApp(1)).get('/?callback=')
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.text).toBe('1')
  })

  it('uses the first of repeated callbacks', async () => {
    const res = await request(jsonpApp(1)).get('/?callback=first&callback=second')
    expect(res.text).toBe("/**/ typeof first === 'function' && first(1);")
  })

  it('ignores a non-string callback', async () => {
    const res = await request(jsonpApp(1, (app) => app.set('query parser', 'extended'))).get('/?callback[a]=x')
    expect(res.text).toBe('1')
  })

  it('escapes U+2028 and U+2029', async () => {
    const res = await request(jsonpApp({ s: 'a\u2028b\u2029' })).get('/?callback=cb')
    expect(res.text).toBe("/**/ typeof cb === 'function' && cb({\"s\":\"a\\u2028b\\u2029\"});")
  })

  it('calls the callback with nothing for undefined', async () => {
    const res = await request(jsonpApp(undefined)).get('/?callback=cb')
    expect(res.text).toBe("/**/ typeof cb === 'function' && cb();")
  })

  it('reads the name of the query parameter from jsonp callback name', async () => {
    const res = await request(jsonpApp([1], (app) => app.set('jsonp callback name', 'fn'))).get('/?fn=go&callback=no')
    expect(res.text).toBe("/**/ typeof go === 'function' && go([1]);")
  })

  it('honours json spaces, replacer and escape', async () => {
    const app = jsonpApp({ a: '<', b: 2 }, (app) => app.set('json spaces', 1).set('json escape', true).set('json replacer', ['a']))
    const res = await request(app).get('/?callback=cb')
    expect(res.text).toBe("/**/ typeof cb === 'function' && cb({\n \"a\": \"\\u003c\"\n});")
  })

  it('replaces a preset type when a callback is given', async () => {
    const res = await request(appWith((req, res) => res.type('txt').jsonp(1))).get('/?callback=cb')
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8')
  })
})
