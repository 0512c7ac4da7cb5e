// Middleware factories: functions returning configured RequestHandlers.
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'switchyardjs'

export interface LoggerOptions {
  prefix?: string
  skip?: (req: Request) => boolean
}

export function logger(options: LoggerOptions = {}): RequestHandler {
  const prefix = options.prefix ?? '[http]'
  return (req, res, next) => {
    if (options.skip?.(req)) return next()
    const start = process.hrtime.bigint()
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6
      console.log(`${prefix} ${req.method} ${req.originalUrl} ${res.statusCode} ${ms.toFixed(1)}ms`)
    })
    next()
  }
}

export function requireHeader(name: string, expected?: string) {
  return function requireHeaderMiddleware(req: Request, res: Response, next: NextFunction): void {
    const value = req.get(name)
    if (value === undefined || (expected !== undefined && value !== expected)) {
      res.status(400).send(`missing or wrong ${name}`)
      return
    }
    next()
  }
}

export const noCache: RequestHandler = (_req, res, next) => {
  res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' })
  next()
}

const app = express()
app.use(logger({ skip: (req) => req.path === '/health' }))
app.use('/api', requireHeader('x-api-version', '2'), noCache)
app.get('/health', (_req, res) => res.send('ok'))
