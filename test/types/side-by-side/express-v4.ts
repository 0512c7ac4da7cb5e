// Compiled with @types/express@4 installed beside switchyard (a project whose
// other dependencies still pull in Express 4's types): handlers, routers and
// error middleware typed with Express 4's names work with a switchyard app,
// and a switchyard app is accepted where Express 4's types expect one.
import type * as E from 'express'
import express, { type Request, type Response } from 'switchyardjs'

const app = express()

const logger: E.RequestHandler = (req, res, next) => {
  res.setHeader('X-Path', req.path)
  next()
}
const show: E.RequestHandler<{ id: string }> = (req, res) => {
  res.json({ id: req.params.id, ip: req.ip, query: req.query })
}
const onError: E.ErrorRequestHandler = (err, _req, res, _next) => {
  res.status(500).send(String(err))
}
const legacyRouter: E.Router = express.Router()
legacyRouter.get('/:id', show)

app.use(logger)
app.use('/items', legacyRouter)
app.get('/direct/:id', (req: E.Request<{ id: string }>, res: E.Response) => {
  res.send(req.params.id)
})
app.get('/mine', (req: Request, res: Response) => {
  const asExpress4: E.Request = req
  const answer: E.Response = res
  answer.send(asExpress4.originalUrl)
})
app.use(onError)

const asExpress: E.Express = app
const asApplication: E.Application = app
export { asExpress, asApplication }
