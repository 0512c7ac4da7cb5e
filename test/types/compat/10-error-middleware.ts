// Error middleware: annotated inline, declared with ErrorRequestHandler, next(err).
import express, { type ErrorRequestHandler, type NextFunction, type Request, type Response } from 'switchyardjs'

class HttpProblem extends Error {
  constructor(public status: number, message: string) { super(message) }
}

const app = express()

app.get('/boom', () => {
  throw new HttpProblem(500, 'boom')
})
app.get('/teapot', (_req, _res, next) => {
  next(new HttpProblem(418, 'short and stout'))
})
app.get('/skip', (_req, _res, next) => next('route'))
app.get('/skip', (_req, res) => { res.send('second') })

app.use((err: Error, req: Request, res: Response, next: NextFunction) => {
  if (!(err instanceof HttpProblem)) return next(err)
  res.status(err.status).json({ error: err.message, path: req.path })
})

const fallback: ErrorRequestHandler = (err, _req, res, next) => {
  if (res.headersSent) return next(err)
  res.status(500).send('internal error')
}
app.use(fallback)

function errorLogger(err: any, req: Request, _res: Response, next: NextFunction) {
  console.error(req.method, req.url, err)
  next(err)
}
app.use(errorLogger, fallback)
