// express.static with setHeaders, sendFile and download with callbacks.
import path from 'node:path'
import express, { type Response } from 'switchyardjs'

const app = express()
const root = path.resolve('public')

app.use(
  '/assets',
  express.static(root, {
    maxAge: '7d',
    immutable: true,
    index: false,
    dotfiles: 'deny',
    setHeaders(res, file, stat) {
      res.set('X-File-Size', String(stat.size))
      if (file.endsWith('.wasm')) res.type('application/wasm')
      res.append('Vary', 'Accept-Encoding')
    }
  })
)

function setCache(res: Response, file: string) {
  if (file.endsWith('.html')) res.setHeader('Cache-Control', 'no-cache')
}
app.use(express.static('downloads', { setHeaders: setCache, extensions: ['html'], fallthrough: true }))

app.get('/report.pdf', (req, res, next) => {
  res.sendFile('report.pdf', { root, headers: { 'X-Generated': 'yes' } }, (err) => {
    if (err) next(err)
  })
})
app.get('/export/:name', (req, res, next) => {
  res.download(path.join(root, req.params.name), `${req.params.name}.csv`, (err?: Error) => {
    if (err && !res.headersSent) next(err)
  })
})
app.get('/attachment', (_req, res) => {
  res.attachment('notes.txt').send('hello')
})
