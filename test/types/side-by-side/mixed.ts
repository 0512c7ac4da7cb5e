// Compiled only with @types/express installed side by side: code and libraries
// typed against @types/express work with switchyard's app, and the other way round.
import type * as E from 'express'
import type { RequestHandler as CoreHandler } from 'express-serve-static-core'
import multer from 'multer'
import cookieParser from 'cookie-parser'
import express, { type Request } from 'switchyardjs'

const upload = multer({ dest: 'uploads/' })
const app = express()

const legacy: E.RequestHandler = (req, res, next) => {
  res.set('X-Tenant', req.tenant?.id ?? 'none')
  next()
}
function reads(req: E.Request<{ id: string }>, res: E.Response): void {
  res.json({ id: req.params.id, ip: req.ip, files: req.files })
}
const core: CoreHandler = (_req, _res, next) => next()

app.use(cookieParser(), legacy, core)
app.post('/upload/:id', upload.single('file'), reads)
app.get('/me', (req: Request, res) => {
  const same: E.Request = req
  res.send(String(same.cookies.session))
})
const asExpress: E.Express = app
export { asExpress }
