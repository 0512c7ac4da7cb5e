// Error handling: a custom error class, async handlers, body-parser errors, 404s.
import express, { type BodyParserError, type ErrorRequestHandler, type NextFunction, type Request, type Response } from 'switchyardjs'

export class ApiError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly details?: unknown
  ) {
    super(message)
  }
}

function isBodyParserError(err: unknown): err is BodyParserError {
  return typeof err === 'object' && err !== null && 'type' in err && 'status' in err
}

const app = express()
app.use(express.json({ limit: '10kb' }))

app.get('/items/:id', async (req, res) => {
  const id = Number(req.params.id)
  if (!Number.isInteger(id)) throw new ApiError(400, 'id must be an integer')
  const item = await Promise.resolve({ id, name: 'item' })
  res.json(item)
})

app.use((req: Request, res: Response) => {
  res.status(404).json({ error: `Cannot ${req.method} ${req.path}` })
})

const onBodyError: ErrorRequestHandler = (err, _req, res, next) => {
  if (!isBodyParserError(err)) return next(err)
  switch (err.type) {
    case 'entity.too.large':
      return res.status(413).json({ error: 'payload too large', limit: err.limit })
    case 'entity.parse.failed':
      return res.status(400).json({ error: 'invalid JSON' })
    default:
      return next(err)
  }
}
app.use(onBodyError)

app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
  if (err instanceof ApiError) {
    res.status(err.status).json({ error: err.message, details: err.details })
    return
  }
  res.status(500).json({ error: 'internal error' })
})
