// Template engines, app.locals and res.render.
import fs from 'node:fs'
import path from 'node:path'
import express from 'switchyardjs'

const app = express()
app.set('views', path.join(process.cwd(), 'views'))
app.set('view engine', 'tmpl')
app.engine('tmpl', (filePath, options, callback) => {
  fs.readFile(filePath, 'utf8', (err, content) => {
    if (err) return callback(err)
    const vars = options as Record<string, unknown>
    callback(null, content.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => String(vars[key] ?? '')))
  })
})
app.locals.siteName = 'Switchyard'

app.get('/', (_req, res) => {
  res.render('index', { title: 'Home' })
})

app.get('/mail-preview', (_req, res, next) => {
  res.render('mail', (err, html) => {
    if (err) return next(err)
    res.type('html').send(html)
  })
})

app.render('email', { name: 'Ada' }, (err, html) => {
  if (!err) console.log(html?.length)
})
