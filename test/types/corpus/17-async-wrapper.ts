// A generic async wrapper that keeps the handler's types (a very common helper).
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'switchyardjs'
import type { ParamsDictionary, ParsedQs } from 'switchyardjs'

export function asyncHandler<P = ParamsDictionary, ResBody = any, ReqBody = any, ReqQuery = ParsedQs>(
  fn: (req: Request<P, ResBody, ReqBody, ReqQuery>, res: Response<ResBody>, next: NextFunction) => Promise<unknown>
): RequestHandler<P, ResBody, ReqBody, ReqQuery> {
  return (req, res, next) => {
    fn(req, res, next).catch(next)
  }
}

const app = express()
app.get(
  '/slow/:ms',
  asyncHandler<{ ms: string }>(async (req, res) => {
    await new Promise((resolve) => setTimeout(resolve, Number(req.params.ms)))
    res.send('done')
  })
)
app.post(
  '/echo',
  express.json(),
  asyncHandler<{}, { echoed: unknown }, { value: unknown }>(async (req, res) => {
    res.json({ echoed: req.body.value })
  })
)
