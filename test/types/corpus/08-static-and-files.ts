// Static files, sendFile and download with their option types.
import path from 'node:path'
import express, { type Errback, type SendFileOptions, type ServeStaticOptions } from 'switchyardjs'

const publicDir = path.join(process.cwd(), 'public')
const staticOptions: ServeStaticOptions = {
  dotfiles: 'ignore',
  etag: true,
  extensions: ['html', 'htm'],
  index: 'index.html',
  maxAge: '1d',
  redirect: false,
  setHeaders(res, filePath) {
    if (filePath.endsWith('.html')) res.setHeader('Cache-Control', 'no-cache')
  }
}

const app = express()
app.use('/assets', express.static(publicDir, staticOptions))
app.use(express.static('uploads', { fallthrough: false, immutable: true, maxAge: 31536000000 }))

app.get('/report/:name', (req, res, next) => {
  const options: SendFileOptions = { root: path.join(publicDir, 'reports'), headers: { 'X-Sent': 'true' }, dotfiles: 'deny' }
  const done: Errback = (err) => {
    if (err) next(err)
  }
  res.sendFile(req.params.name, options, done)
})

app.get('/download/*file', (req, res) => {
  res.download(path.join(publicDir, ...req.params.file), 'download.bin', { maxAge: 0 }, (err) => {
    if (err && !res.headersSent) res.status(404).end()
  })
})
