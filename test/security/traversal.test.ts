// Traversal matrix: fw.static, res.sendFile and res.download (path from the URL
// and from a query string) against encoded, double-encoded, backslash, NUL and
// overlong-UTF-8 escapes, and dotfiles in every mode. Every answer must equal
// express@5's, and no answer may carry a file from outside root or a dotfile
// that the mode hides.
import { afterAll, describe, expect, it } from 'vitest'
import { both, reportErrors, tempTree } from './support'

const OUTSIDE = 'TOP SECRET outside root'
const DOT = 'dotfile content'
const tree = tempTree({
  'outside.txt': OUTSIDE,
  'www/public.txt': 'public',
  'www/.env': DOT,
  'www/.git/config': DOT,
  'www/sub/file.txt': 'sub file',
  'www/sub/.hidden/x.txt': DOT,
  'www/.well-known/thing.txt': DOT,
  'www/..%2foutside.txt': 'literal name with an escape in it',
  'www/dir\\name.txt': 'backslash in a file name'
})
afterAll(() => tree.remove())
const root = tree.root + '/www'

// Each entry is appended to a mount prefix; the string goes on the wire as is.
const PATHS = [
  'public.txt', '../outside.txt', '../../outside.txt', 'sub/../../outside.txt', '%2e%2e/outside.txt', '%2E%2E%2Foutside.txt',
  '..%2foutside.txt', '..%2Foutside.txt', '%252e%252e%252foutside.txt', '%252e%252e/outside.txt', '..%252foutside.txt',
  '..\\outside.txt', 'sub\\..\\..\\outside.txt', '..%5coutside.txt', '..%5Coutside.txt', '%255c..%255coutside.txt', 'dir%5Cname.txt',
  'public.txt%00', '%00../outside.txt', 'public.txt%00.html', '..%00/outside.txt',
  '%c0%ae%c0%ae/outside.txt', '%C0%AE%C0%AE%C0%AFoutside.txt', '%e0%80%ae%e0%80%ae/outside.txt', '%c0%2e%c0%2e/outside.txt', '%uff0e%uff0e/outside.txt',
  '.env', '%2eenv', '.git/config', '.git/', '%2egit/config', 'sub/.hidden/x.txt', 'sub/%2ehidden/x.txt', '.well-known/thing.txt',
  'sub/../.env', './.env', 'sub/./file.txt', '.', '..', '%2e', 'sub/', 'sub', '%', '%zz', '%E0%A4%A', 'nope.txt'
]

const MODES = [undefined, 'ignore', 'allow', 'deny'] as const

function build(dotfiles: (typeof MODES)[number]) {
  const opts = dotfiles === undefined ? {} : { dotfiles }
  return (app: any, lib: any) => {
    app.use('/static', lib.static(root, { ...opts, fallthrough: false }))
    app.use('/static-ft', lib.static(root, opts))
    app.get('/sendfile/*p', (req: any, res: any, next: any) => { res.sendFile(req.params.p.join('/'), { root, ...opts }, (err: any) => { if (err) next(err) }) })
    app.get('/download/*p', (req: any, res: any, next: any) => { res.download(req.params.p.join('/'), 'x.txt', { root, ...opts }, (err: any) => { if (err) next(err) }) })
    app.get('/sendfile-q', (req: any, res: any, next: any) => { res.sendFile(String(req.query.f), { root, ...opts }, (err: any) => { if (err) next(err) }) })
    app.get('/download-q', (req: any, res: any, next: any) => { res.download(String(req.query.f), { root, ...opts }, (err: any) => { if (err) next(err) }) })
    app.use((req: any, res: any) => { res.status(404).send('fell through') })
    app.use(reportErrors)
  }
}

// the decoded forms, for the query-string variants (raw NUL and backslash reach sendFile)
const QUERY_VALUES = ['public.txt', '../outside.txt', '..\\outside.txt', 'sub\\..\\..\\outside.txt', 'public.txt\u0000', '\u0000../outside.txt',
  '..%2foutside.txt', '/../outside.txt', '.env', '.git/config', 'sub/.hidden/x.txt', 'sub/../.env', '\u00c0\u00ae\u00c0\u00ae/outside.txt', '', '.']

for (const mode of MODES) {
  describe(`traversal matrix, dotfiles: ${mode ?? 'default'}`, () => {
    it(`fw.static, res.sendFile and res.download answer every path as express does, never leaking`, async () => {
      const reqs = []
      for (const p of PATHS) for (const mount of ['/static/', '/static-ft/', '/sendfile/', '/download/']) reqs.push({ path: mount + p })
      for (const v of QUERY_VALUES) for (const route of ['/sendfile-q', '/download-q']) reqs.push({ path: route + '?f=' + encodeURIComponent(v) })
      const answers = await both(build(mode), reqs)
      answers.forEach(({ ours, theirs }, i) => {
        expect({ path: reqs[i].path, ...ours }).toEqual({ path: reqs[i].path, ...theirs })
        expect(ours.body).not.toContain(OUTSIDE)
        if (mode !== 'allow') expect(ours.body).not.toContain(DOT)
      })
      // the matrix is not vacuous: some requests are served, some refused
      const statuses = new Set(answers.map((a) => a.ours.status))
      expect(statuses).toContain(200)
      expect(statuses).toContain(403)
      expect(statuses).toContain(400)
      if (mode === 'allow') expect(answers.some((a) => a.ours.body.includes(DOT))).toBe(true)
    })
  })
}
