// JSONP callback injection: whatever the `callback` query holds, the answer
// must equal express@5's, run only the named callback, keep U+2028/U+2029 from
// ending a JavaScript string, and be marked nosniff with a script type.
import { describe, expect, it } from 'vitest'
import { both } from './support'

const CALLBACKS = ['cb', 'a.b[0]', '$jQuery_123', 'alert(1);//', '<script>alert(1)</script>', 'a\u2028b', 'a\u2029b', 'cb\r\nX-A: 1',
  'x\'); alert(1); //', '/*', '*/alert(1)//', 'a b', '%', '', 'a'.repeat(5000), 'constructor', '__proto__', 'тест', 'eval', 'a-b', 'a\u0000b']

const BODIES: Record<string, unknown> = {
  separators: { text: 'line\u2028separator and paragraph\u2029separator' },
  'script end': { html: '</script><script>alert(1)</script>' },
  string: '\u2028',
  number: 1,
  null: null
}

describe('res.jsonp: callback injection and U+2028/U+2029, same answer as express@5', () => {
  const keys = Object.keys(BODIES)
  const build = (app: any) => {
    app.get('/j/:body', (req: any, res: any) => { res.jsonp(BODIES[keys[Number(req.params.body)]]) })
    app.get('/array', (req: any, res: any) => { res.jsonp({ ok: 1 }) })
    app.get('/renamed', (req: any, res: any) => { res.jsonp({ ok: 1 }) })
    app.set('jsonp callback name', 'cb')
  }

  for (const [k, key] of keys.entries()) {
    it(`body ${key}: every callback value`, async () => {
      const reqs = CALLBACKS.map((c) => ({ path: `/j/${k}?cb=${encodeURIComponent(c)}` }))
      const answers = await both(build, reqs)
      answers.forEach(({ ours, theirs }, i) => {
        expect({ callback: CALLBACKS[i], ...ours }).toEqual({ callback: CALLBACKS[i], ...theirs })
        expect(ours.body).not.toMatch(/[\u2028\u2029]/)
        if (ours.body.startsWith('/**/')) {
          const name = /^\/\*\*\/ typeof ([^ ]*) ===/.exec(ours.body)?.[1] ?? ''
          // the callback keeps only [A-Za-z0-9_$.[\]] (a name emptied by that is a harmless syntax error)
          expect(name).toMatch(/^[\w$.[\]]*$/)
          expect(ours.headers['x-content-type-options']).toBe('nosniff')
          expect(ours.headers['content-type']).toBe('text/javascript; charset=utf-8')
        } else {
          expect(ours.headers['content-type']).toBe('application/json; charset=utf-8')
        }
      })
    })
  }

  it('several callback parameters, the first wins or none is used, as in express', async () => {
    const answers = await both(build, [{ path: '/array?cb=a&cb=b' }, { path: '/array?cb[]=a' }, { path: '/array?cb[x]=a' }, { path: '/array?cb=' }])
    for (const { ours, theirs } of answers) expect(ours).toEqual(theirs)
  })
})
